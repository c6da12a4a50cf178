/**
 * Examples written on the tool definitions themselves: Anthropic's `input_examples`, the AI
 * SDK's `inputExamples`, and calls written inside a tool's description or a parameter's
 * (Cline and Roo Code write their few-shot arguments there). The provider sends all of them
 * to the model with the tool, so each is checked as a few-shot example in a prompt is, and a
 * finding points at the line of the definition that writes it.
 */
import { extractToolCalls, type NotationDefinition, type ToolCallExample } from '../extract/index.js';
import { readJson } from '../extract/json.js';
import { placeholderInCall } from '../extract/placeholder.js';
import type { Diagnostic, Place } from '../report/diagnostic.js';
import { report } from '../report/rule.js';
import type { SchemaCompiler } from '../schema/validator.js';
import { looksLikeCall } from '../shapes/calls.js';
import { toolPlace } from '../tools/places.js';
import { parameterDescriptions } from '../tools/text-places.js';
import type { LineColumn, ToolInputExample, ToolSpec } from '../tools/types.js';
import { LineIndex } from '../util/lines.js';
import { isRecord } from '../util/values.js';
import { checkExamples, exampleRules } from './examples.js';

export interface ToolExamplesOptions {
  compiler?: SchemaCompiler;
  /** Validate as OpenAI strict mode reads the schema (the config's `strictExamples`). */
  strict?: boolean;
  /** The config's custom notations, read in descriptions as in prompts. */
  notations?: readonly NotationDefinition<any>[];
}

/** Every tool's examples against the schemas of the tools they call. Never throws on bad content. */
export function checkToolExamples(tools: readonly ToolSpec[], options: ToolExamplesOptions = {}): Diagnostic[] {
  const out: Diagnostic[] = [];
  const validation = { ...(options.strict === undefined ? {} : { strict: options.strict }), ...(options.compiler ? { compiler: options.compiler } : {}) };
  for (const tool of tools) {
    // A provider-defined tool's definition is the provider's to read (and Anthropic takes no examples on server tools).
    if (tool.provided) continue;
    for (const example of tool.inputExamples ?? []) out.push(...checkInputExample(tool, example, tools, validation));
    if (tool.description !== undefined) out.push(...checkDescription(tool, '', tool.description, `the description of \`${tool.name}\``, tools, options));
    for (const { pointer, name, text } of parameterDescriptions(tool.inputSchema)) {
      out.push(...checkDescription(tool, pointer, text, `the description of parameter \`${name}\` of \`${tool.name}\``, tools, options));
    }
  }
  return out;
}

/** `input_examples[1]`, `inputExamples[0]`, or the member itself when it is no list. */
function exampleLabel(example: ToolInputExample): string {
  return example.index < 0 ? example.key : `${example.key}[${example.index}]`;
}

function checkInputExample(tool: ToolSpec, example: ToolInputExample, tools: readonly ToolSpec[], validation: { strict?: boolean; compiler?: SchemaCompiler }): Diagnostic[] {
  const label = `\`${exampleLabel(example)}\` of tool \`${tool.name}\``;
  const place = (instancePath?: string): Place | Record<string, never> => {
    const file = tool.origin.file;
    if (file === undefined) return {};
    if (instancePath !== undefined && example.places !== undefined) {
      let pointer = instancePath;
      while (true) {
        const hit = example.places.get(pointer);
        if (hit !== undefined) return { file, line: hit[0], column: hit[1] };
        if (pointer === '') break;
        pointer = pointer.slice(0, pointer.lastIndexOf('/'));
      }
    }
    return example.line === undefined ? toolPlace(tool) : { file, line: example.line, ...(example.column === undefined ? {} : { column: example.column }) };
  };
  if (example.problem !== undefined) {
    return [report(exampleRules.unparseable, { ...place(), tool: tool.name, message: `${example.problem}, in ${label}`, fix: `Write each entry of \`${example.key}\` as ${example.key === 'inputExamples' ? '`{ input: {...} }`' : 'an input object'} the schema accepts` })];
  }
  const placeholder = placeholderInCall(tool.name, example.input);
  if (placeholder) {
    return [report(exampleRules.placeholder, {
      ...place(), tool: tool.name, actual: placeholder.token,
      message: `Unexpected placeholder \`${placeholder.token}\` in ${label}, expected concrete values: the model copies what an example shows`,
    })];
  }
  const call: ToolCallExample = { name: tool.name, arguments: example.input, notation: example.key, range: { start: 0, end: 1 }, line: 1, column: 1 };
  return checkExamples([call], tools, validation).map((d) => {
    const { offset: _offset, endOffset: _end, line: _line, column: _column, ...rest } = d;
    return { ...rest, ...place(d.instancePath), message: d.message.replace(/^In the `[^`]*` example/, `In ${label}`) };
  });
}

/**
 * The calls written in one description: what the extractor reads there, and JSON objects of
 * the tool's own arguments on a line of their own (`{ "path": "src", "regex": "..." }`),
 * which a description shows without naming the tool, since it is that tool's description.
 */
function checkDescription(tool: ToolSpec, key: string, text: string, subject: string, tools: readonly ToolSpec[], options: ToolExamplesOptions): Diagnostic[] {
  // Most descriptions hold no call: nothing to read without a bracket.
  if (!/[{[<(]/.test(text)) return [];
  const { examples, diagnostics } = extractToolCalls(text, { tools, ...(options.notations ? { notations: options.notations } : {}) });
  const covered = [...examples.map((e) => e.range), ...diagnostics.flatMap((d) => (d.offset === undefined ? [] : [{ start: d.offset, end: d.endOffset ?? d.offset + 1 }]))];
  const own = key === '' ? argumentObjects(tool, text, covered) : { examples: [], diagnostics: [] };
  const all = [...examples, ...own.examples];
  const validation = { ...(options.strict === undefined ? {} : { strict: options.strict }), ...(options.compiler ? { compiler: options.compiler } : {}) };
  const found = [...diagnostics, ...own.diagnostics, ...checkExamples(all, tools, validation)];
  if (found.length === 0) return [];
  const lines = new LineIndex(text);
  const places = tool.origin.texts?.get(key);
  return found.map((d) => {
    const { offset, endOffset: _end, line: _line, column: _column, ...rest } = d;
    const at = offset === undefined ? { line: 1, column: 1 } : lines.at(offset);
    const where = `${subject}, line ${at.line} of it`;
    const message = /^In the `[^`]*` example/.test(d.message) ? d.message.replace(/^In the (`[^`]*`) example/, `In the $1 example in ${where}`) : `${d.message}; in ${where}`;
    return { ...rest, ...textPlace(tool, places, at), message };
  });
}

/** The file place of a line and column of a description: the line's own place when found, else where the description is written. */
function textPlace(tool: ToolSpec, places: { file: string; at: LineColumn; lines?: Map<number, LineColumn> } | undefined, at: { line: number; column: number }): Place | Record<string, never> {
  if (places === undefined) return toolPlace(tool);
  const line = places.lines?.get(at.line - 1);
  if (line === undefined) return { file: places.file, line: places.at[0], column: places.at[1] };
  return { file: places.file, line: line[0], column: Math.max(1, line[1] + at.column - 1) };
}

/** Where in the description a parse stopped: its column on the object's first line, else its line too. */
function where(at: { line: number; column: number }, first: number): string {
  return at.line === first ? `column ${at.column}` : `line ${at.line}, column ${at.column}`;
}

/**
 * JSON objects at the start of a line of `tool`'s description that write its arguments: keys
 * of its own properties, not a call (no tool name). One that does not parse is reported as
 * any unparseable example is; the others are examples of this tool.
 */
function argumentObjects(tool: ToolSpec, text: string, covered: ReadonlyArray<{ start: number; end: number }>): { examples: ToolCallExample[]; diagnostics: Diagnostic[] } {
  const examples: ToolCallExample[] = [];
  const diagnostics: Diagnostic[] = [];
  const properties = isRecord(tool.inputSchema.properties) ? Object.keys(tool.inputSchema.properties) : [];
  if (properties.length === 0) return { examples, diagnostics };
  const names = new Set(properties);
  const lines = new LineIndex(text);
  const start = /^[ \t]*\{/gm;
  for (let m = start.exec(text); m !== null; m = start.exec(text)) {
    const at = m.index + m[0].length - 1;
    if (covered.some((r) => at >= r.start && at < r.end)) continue;
    const read = readJson(text, at);
    // What the object spans: to its end, or (unparseable) to the next blank line.
    const blank = text.slice(at).search(/\n[ \t]*\n/);
    const segment = text.slice(at, read.ok ? read.end : blank < 0 ? text.length : at + blank);
    // Its keys are mostly the tool's own properties: it writes this tool's arguments (a renamed
    // one among them is drift to report). A result or a schema shown in the wording is not.
    const keys = read.ok ? (isRecord(read.value) ? Object.keys(read.value) : []) : [...segment.matchAll(/"((?:[^"\\]|\\.)*)"\s*:/g)].map((k) => k[1]!);
    const own = keys.filter((k) => names.has(k)).length;
    if (own === 0 || own * 2 < keys.length || looksLikeCall(segment)) continue;
    const { line: l, column } = lines.at(at);
    if (!read.ok) {
      diagnostics.push(report(exampleRules.unparseable, {
        offset: at, line: l, column, tool: tool.name,
        message: read.message.replace(/^Unexpected (.*?), expected/, `Unexpected $1 in the JSON arguments of \`${tool.name}\` at ${where(lines.at(read.offset), l)}, expected`),
        fix: `Write the example as JSON the tool's arguments parse from: escape a backslash as \`\\\\\` (\`"function\\\\s+\\\\w+"\`), quote every key`,
      }));
      continue;
    }
    examples.push({ name: tool.name, arguments: read.value, notation: 'description-arguments', range: { start: at, end: read.end }, line: l, column });
    start.lastIndex = read.end;
  }
  return { examples, diagnostics };
}
