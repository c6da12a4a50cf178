import type { Message } from '../render/messages.js';
import type { RenderedCase } from '../render/render.js';
import { type Shape, toWire } from '../render/wire.js';
import type { JsonSchemaObject, ToolSpec } from '../tools/types.js';
import { isRecord } from '../util/values.js';
import { countRenderedCase, formatTokenLine, type TokenCount } from '../tokens/index.js';
import { baselineBody, sentExamples, toolsAsSent } from './tools-wire.js';

const RULE = '='.repeat(72);

/**
 * The first line of every snapshot text file, with the format version after it. A `.txt`
 * file under the snapshots folder without it was not written by prompt-contract, and is
 * never overwritten or removed.
 */
export const SNAPSHOT_HEADER = 'prompt-contract snapshot';
// Version 2 dropped the character and line counts from the prompt's heading: they changed with
// every edit and added a hunk to each pull request's diff.
const SNAPSHOT_VERSION = 2;

/** The top-level key and value that mark `tools.json` as the tools baseline prompt-contract writes. */
export const TOOLS_BASELINE_KEY = 'prompt-contract';
export const TOOLS_BASELINE_MARK = 'tools baseline 1';

/** The snapshot line that holds the first line of the rendered prompt (after the 8 header lines). */
export const SNAPSHOT_TEXT_LINE = 9;

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

/** Tools formatted so far: every case of a prompt sends the same tool objects. */
const formatted = new WeakMap<ToolSpec, { description: string | undefined; schema: object; examples: ToolSpec['inputExamples']; text: string }>();

/** A tool as sent: its description, a readable parameter list, its example inputs, then the exact schema. */
export function formatTool(tool: ToolSpec): string {
  const known = formatted.get(tool);
  if (known && known.description === tool.description && known.schema === tool.inputSchema && known.examples === tool.inputExamples) return known.text;
  const text = formatToolText(tool);
  formatted.set(tool, { description: tool.description, schema: tool.inputSchema, examples: tool.inputExamples, text });
  return text;
}

function formatToolText(tool: ToolSpec): string {
  const lines = [`### ${tool.name}`, ''];
  if (tool.provided) {
    lines.push(`provided by the model's provider: \`${tool.provided.type}\` (its calls are known, not checked)`, '');
    lines.push('definition:', JSON.stringify(tool.provided.definition, null, 2));
    return lines.join('\n');
  }
  lines.push(tool.description === undefined ? '(no description)' : tool.description, '');
  const params = parameterLines(tool.inputSchema, '  ');
  lines.push('parameters:', ...(params.length > 0 ? params : ['  (none)']), '');
  // The model reads them beside the schema: a changed example is a changed prompt, one line each in the diff.
  const examples = sentExamples(tool);
  if (examples.length > 0) lines.push('input examples:', ...examples.map((e) => `  ${JSON.stringify(e)}`), '');
  lines.push('schema:', JSON.stringify(tool.inputSchema, null, 2));
  return lines.join('\n');
}

/**
 * The snapshot of one rendered case: the prompt text verbatim between two marker lines (no
 * escaping: a reviewer reads backticks, quotes and newlines as sent), then every tool sent
 * beside it. Plain text, so a pull request diff shows wording changes line by line. The header
 * states the token count (`tokens`, counted with the default tokenizer when not given).
 */
export function formatSnapshot(rendered: RenderedCase, tokens: TokenCount = countRenderedCase(rendered)): string {
  const text = rendered.text;
  // The count goes in the header, one line a reviewer sees change in the diff and budgets read back (src/tokens).
  const head = [`${SNAPSHOT_HEADER} ${SNAPSHOT_VERSION}`, `prompt: ${rendered.prompt}`, `case: ${rendered.case}`, formatTokenLine(tokens), ''];
  const body = rendered.messages && rendered.conversation
    ? formatMessages(rendered.messages, rendered.conversation.shape)
    : [`${RULE}`, `rendered prompt, verbatim${text.endsWith('\n') ? '' : ' (no final newline)'}`, `${RULE}`, text + (text.endsWith('\n') ? '' : '\n')];
  const output = rendered.outputSchema === undefined ? [] : [`${RULE}`, 'output schema (from output.schema)', `${RULE}`, JSON.stringify(rendered.outputSchema, null, 2)];
  const parts = [
    ...head,
    ...body,
    ...output,
    `${RULE}`,
    `tools sent beside it: ${rendered.tools.length}`,
    `${RULE}`,
    '',
    rendered.tools.map(formatTool).join('\n\n'),
    '',
  ];
  return parts.join('\n');
}

const purposeNote: Record<string, string> = { example: ' (few-shot example)', history: ' (history)' };

/**
 * A message list as the provider receives it: one heading per message with its role, text
 * verbatim under it, tool calls and results as the provider's JSON, pretty-printed.
 */
export function formatMessages(messages: readonly Message[], shape: Shape): string[] {
  const wire = toWire(messages, shape);
  const out = [`${RULE}`, `messages sent (${shape} shape): ${wire.length}`, `${RULE}`];
  wire.forEach((m, i) => {
    const purpose = messages[m.from]?.metadata?.purpose;
    out.push(`--- ${i + 1}. ${m.role}${typeof purpose === 'string' ? (purposeNote[purpose] ?? '') : ''} ---`);
    for (const b of m.blocks) {
      if ('text' in b) out.push(b.text.endsWith('\n') ? b.text.slice(0, -1) : b.text);
      else out.push(JSON.stringify(b.json, null, 2));
    }
  });
  return out;
}

/**
 * Tool definitions as a provider's request carries them (what `render --tools` prints):
 * Anthropic's `{"tools": [{name, description, input_schema}]}` (the default, and the shape
 * snapshots use), OpenAI Chat's `{"tools": [{"type": "function", "function": {...}}]}`, or
 * Gemini's `{"tools": [{"functionDeclarations": [...]}]}`.
 */
export function formatTools(tools: readonly ToolSpec[], shape: 'anthropic' | 'openai' | 'gemini' = 'anthropic'): string {
  return `${JSON.stringify({ tools: toolsAsSent(tools, shape) }, null, 2)}\n`;
}

/**
 * The committed tool definitions, the baseline breaking changes are measured against: the
 * tools as `formatTools` prints them, under a first key that marks the file as written by
 * prompt-contract. Any reader of `{"tools": [...]}` still reads it.
 */
export function formatToolsBaseline(tools: readonly ToolSpec[]): string {
  return `${JSON.stringify({ [TOOLS_BASELINE_KEY]: TOOLS_BASELINE_MARK, tools: baselineBody(tools) }, null, 2)}\n`;
}

/** True when `text` starts with the snapshot header line (any format version). */
export function isSnapshotText(text: string): boolean {
  return /^prompt-contract snapshot \d+\r?\n/.test(text);
}

/**
 * True when `text` is a tools baseline prompt-contract wrote: it carries the marker key, or
 * it is byte for byte what version 0.1.0 wrote before the marker existed (`{"tools": [...]}`
 * with only `name`, `description` and `input_schema`, two-space indented).
 */
/** How a tools baseline this package wrote begins: its marker is the first key. */
const damagedBaseline = /^\{\s*"prompt-contract"\s*:\s*"tools baseline \d+"/; // TOOLS_BASELINE_KEY, then its value

export function isToolsBaseline(text: string): boolean {
  if (!text.startsWith('{')) return false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Cut short or damaged, but begun as this package writes it: still ours, for `-u` to write again.
    return damagedBaseline.test(text);
  }
  if (!isRecord(value)) return false;
  if (typeof value[TOOLS_BASELINE_KEY] === 'string' && value[TOOLS_BASELINE_KEY].startsWith('tools baseline ')) return true;
  return isLegacyBaseline(value, text);
}

function isLegacyBaseline(value: Record<string, unknown>, text: string): boolean {
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'tools' || !Array.isArray(value.tools)) return false;
  const shaped = value.tools.every((t) => {
    if (!isRecord(t)) return false;
    const k = Object.keys(t).join(',');
    return (k === 'name,input_schema' || k === 'name,description,input_schema') && typeof t.name === 'string' && isRecord(t.input_schema);
  });
  return shaped && `${JSON.stringify(value, null, 2)}\n` === text;
}

/** A baseline written before the marker existed reads as the same baseline when only the marker differs. */
export function sameToolsBaseline(committed: string, current: string): boolean {
  if (committed === current) return true;
  const markLine = `\n  ${JSON.stringify(TOOLS_BASELINE_KEY)}: ${JSON.stringify(TOOLS_BASELINE_MARK)},`;
  return current.replace(markLine, '') === committed;
}
