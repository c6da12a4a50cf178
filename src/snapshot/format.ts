import type { RenderedCase } from '../render/render.js';
import type { JsonSchemaObject, ToolSpec } from '../tools/types.js';
import { isRecord } from '../util/values.js';

const RULE = '='.repeat(72);

/** The snapshot line that holds the first line of the rendered prompt (after the 7 header lines). */
export const SNAPSHOT_TEXT_LINE = 8;

function typeOf(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (typeof schema.type === 'string') {
    if (schema.type === 'array' && isRecord(schema.items)) return `${typeOf(schema.items)}[]`;
    return schema.type;
  }
  if (Array.isArray(schema.enum)) return 'enum';
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) return (schema[key] as unknown[]).map((s) => (isRecord(s) ? typeOf(s) : '?')).join(' | ');
  }
  if (typeof schema.$ref === 'string') return schema.$ref;
  return 'any';
}

/** The constraints a reviewer cares about, in one short line: bounds, enum, pattern, format, default. */
function constraints(schema: Record<string, unknown>): string[] {
  const out: string[] = [];
  const pairs: Array<[string, string]> = [
    ['minimum', '>='], ['exclusiveMinimum', '>'], ['maximum', '<='], ['exclusiveMaximum', '<'],
    ['minLength', 'length >='], ['maxLength', 'length <='], ['minItems', 'items >='], ['maxItems', 'items <='], ['multipleOf', 'multiple of'],
  ];
  for (const [key, label] of pairs) if (typeof schema[key] === 'number') out.push(`${label} ${String(schema[key])}`);
  if (Array.isArray(schema.enum)) out.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if ('const' in schema) out.push(`= ${JSON.stringify(schema.const)}`);
  if (typeof schema.pattern === 'string') out.push(`pattern ${schema.pattern}`);
  if (typeof schema.format === 'string') out.push(`format ${schema.format}`);
  if ('default' in schema) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}

/** One line per parameter (nested objects indented), so a reviewer sees each change as one changed line. */
function parameterLines(schema: JsonSchemaObject, indent: string): string[] {
  const props = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const lines: string[] = [];
  for (const [name, value] of Object.entries(props)) {
    if (!isRecord(value)) {
      lines.push(`${indent}${name}: ${JSON.stringify(value)}`);
      continue;
    }
    const head = [`${indent}${name}`, typeOf(value), required.has(name) ? 'required' : 'optional', ...constraints(value)].join('  ');
    lines.push(head);
    if (typeof value.description === 'string') lines.push(`${indent}    ${value.description.replaceAll('\n', `\n${indent}    `)}`);
    const nested = isRecord(value.items) && value.type === 'array' ? value.items : value;
    if (isRecord(nested.properties)) lines.push(...parameterLines(nested as JsonSchemaObject, `${indent}  `));
  }
  if (schema.additionalProperties === false) lines.push(`${indent}(no other properties)`);
  return lines;
}

/** A tool as sent: its description, a readable parameter list, then the exact schema. */
export function formatTool(tool: ToolSpec): string {
  const lines = [`### ${tool.name}`, ''];
  lines.push(tool.description === undefined ? '(no description)' : tool.description, '');
  const params = parameterLines(tool.inputSchema, '  ');
  lines.push('parameters:', ...(params.length > 0 ? params : ['  (none)']), '');
  lines.push('schema:', JSON.stringify(tool.inputSchema, null, 2));
  return lines.join('\n');
}

/**
 * The snapshot of one rendered case: the prompt text verbatim between two marker lines (no
 * escaping: a reviewer reads backticks, quotes and newlines as sent), then every tool sent
 * beside it. Plain text, so a pull request diff shows wording changes line by line.
 */
export function formatSnapshot(rendered: RenderedCase): string {
  const text = rendered.text;
  const lineCount = text === '' ? 0 : text.split('\n').length;
  const parts = [
    `prompt-contract snapshot 1`,
    `prompt: ${rendered.prompt}`,
    `case: ${rendered.case}`,
    '',
    `${RULE}`,
    `rendered prompt: ${text.length} characters, ${lineCount} lines${text.endsWith('\n') ? '' : ', no final newline'}`,
    `${RULE}`,
    text + (text.endsWith('\n') ? '' : '\n'),
    `${RULE}`,
    `tools sent beside it: ${rendered.tools.length}`,
    `${RULE}`,
    '',
    rendered.tools.map(formatTool).join('\n\n'),
    '',
  ];
  return parts.join('\n');
}

/** The committed tool definitions, the baseline breaking changes are measured against. */
export function formatToolsBaseline(tools: readonly ToolSpec[]): string {
  const body = tools.map((t) => (t.description === undefined ? { name: t.name, input_schema: t.inputSchema } : { name: t.name, description: t.description, input_schema: t.inputSchema }));
  return `${JSON.stringify({ tools: body }, null, 2)}\n`;
}
