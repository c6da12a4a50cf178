/**
 * Few-shot tool calls in a prompt, in every common notation, each with its position.
 *
 * How a text is read:
 * - Markdown gives the block structure only (fences, block quotes); everything else is read
 *   from the raw source, sliced by offsets, because `<tool_call>` is not an HTML tag in
 *   CommonMark and inline markup would eat `_` and `*` inside its JSON.
 * - Fences by language: call fences (`tool_call`, `tool_use`, `function_call`, ...) must
 *   hold a call; `json` fences hold one when their value is call-shaped; `python` fences
 *   when their whole body is a call list; fences without a language or with a prose
 *   language (`text`, `xml`, `markdown`, `prompt`, ...) are read like prose, because
 *   prompts quote whole transcripts in them and the model reads those calls as examples;
 *   fences of any other language are code (a parser showing `<tool_call>` in a regex is
 *   not an example) and are not read.
 * - Prose: `<tool_call>` (Hermes, Qwen), `<function_calls>` (Anthropic XML), `<function=name>`
 *   (Llama), pythonic call lists `[f(a=1)]`, and bare JSON objects of a call shape.
 * - The notation of a call is the shape when it names a provider (`tool_use`, `tool_calls`)
 *   and otherwise the container's (`fenced-json`, `hermes`, `name-arguments` in prose).
 */
import type { Diagnostic } from '../report/diagnostic.js';
import { report } from '../report/rule.js';
import type { ToolSpec } from '../tools/types.js';
import { LineIndex } from '../util/lines.js';
import { coerceParameter } from './coerce.js';
import { readJson, readJsonSequence, skipWhitespace } from './json.js';
import { blockStructure, type Fence, type ParseMode, type Structure } from './markdown.js';
import { isPlaceholderName, type Placeholder, placeholderInCall, placeholderInText } from './placeholder.js';
import { type PythonCall, readPythonCalls } from './python.js';
import { exampleRules } from './rules.js';
import { callsFromValue, looksLikeCall, type RawCall } from './shapes.js';
import type { Notation, ToolCallExample } from './types.js';

export interface ExtractOptions {
  /** The tools the prompt is sent with: they type Anthropic XML parameter values and name positional pythonic arguments. */
  tools?: readonly ToolSpec[];
  /** `fast` (default) parses block structure only; `full` runs the complete remark parse. Results are identical. */
  mode?: ParseMode;
}

export interface ExtractResult {
  examples: ToolCallExample[];
  diagnostics: Diagnostic[];
}

const callFences = new Set(['tool_call', 'tool_calls', 'tool-call', 'tool-calls', 'toolcall', 'tool_use', 'tool-use', 'tooluse', 'function_call', 'function_calls', 'function-call', 'functioncall']);
const jsonFences = new Set(['json', 'jsonc', 'json5', 'jsonl', 'ndjson']);
const pythonFences = new Set(['python', 'py', 'python3']);
// A markdown fence is read as markdown: the fences it shows are fences.
const markdownFences = new Set(['markdown', 'md']);
const proseFences = new Set(['', 'text', 'txt', 'plain', 'plaintext', 'xml', 'html', 'prompt', 'chat', 'transcript', 'conversation', 'example', 'output', 'console', 'handlebars', 'hbs', 'mustache', 'jinja', 'jinja2', 'j2', 'liquid']);

/** A string to scan and where each of its offsets is in the original text. */
interface Source {
  text: string;
  map(offset: number): number;
  /** Offsets of blank lines, built on first use: a broken block ends at the next one. */
  blanks?: number[];
}

interface BlockPlace {
  /** What the block is, for messages: "`<tool_call>` block", "the `json` fence". */
  where: string;
  start: number;
  end: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class Extraction {
  readonly examples: ToolCallExample[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly lines: LineIndex;
  readonly tools = new Map<string, ToolSpec>();

  constructor(
    readonly text: string,
    tools: readonly ToolSpec[],
  ) {
    this.lines = new LineIndex(text);
    for (const tool of tools) if (!this.tools.has(tool.name)) this.tools.set(tool.name, tool);
  }

  example(call: RawCall, notation: Notation, place: BlockPlace): void {
    const { line, column } = this.lines.at(place.start);
    this.examples.push({ name: call.name, arguments: call.arguments, notation: call.notation ?? notation, range: { start: place.start, end: place.end }, line, column });
  }

  finding(rule: (typeof exampleRules)[keyof typeof exampleRules], place: BlockPlace, message: string, extra: Partial<Diagnostic> = {}): void {
    const { line, column } = this.lines.at(place.start);
    this.diagnostics.push(report(rule, { message, offset: place.start, line, column, ...extra }));
  }

  unparseable(place: BlockPlace, message: string, tool?: string): void {
    this.finding(exampleRules.unparseable, place, message, tool === undefined ? {} : { tool });
  }

  placeholder(p: Placeholder, place: BlockPlace): void {
    const message = p.unrendered
      ? `Unexpected unrendered template text \`${p.token}\` in ${place.where}, expected a concrete tool call; render the prompt with every variable set`
      : `Unexpected placeholder \`${p.token}\` in ${place.where}, expected a concrete tool call; a format description is not checked against any tool schema`;
    this.finding(exampleRules.placeholder, place, message, p.unrendered ? { actual: p.token, severity: 'error' } : { actual: p.token });
  }

  /** Where a parse error sits, for messages: "at line 3, column 7". */
  at(offset: number): string {
    const { line, column } = this.lines.at(offset);
    return `at line ${line}, column ${column}`;
  }

  /** "Unexpected X, expected Y" -> "Unexpected X in WHERE at line L, column C, expected Y". */
  locate(message: string, where: string, offset: number | undefined): string {
    const loc = offset === undefined ? '' : ` ${this.at(offset)}`;
    const i = message.indexOf(', expected');
    return i === -1 ? `${message} in ${where}${loc}` : `${message.slice(0, i)} in ${where}${loc}${message.slice(i)}`;
  }
}

function blankOffsets(src: Source): number[] {
  if (!src.blanks) {
    src.blanks = [];
    const re = /\n[ \t>]*(?=\r?\n)/g;
    for (let m = re.exec(src.text); m; m = re.exec(src.text)) src.blanks.push(m.index);
  }
  return src.blanks;
}

/** The next blank line after `from` (or the end): where a block that did not parse is taken to stop. */
function paragraphEnd(src: Source, from: number): number {
  const blanks = blankOffsets(src);
  let lo = 0;
  let hi = blanks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (blanks[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < blanks.length ? blanks[lo]! : src.text.length;
}

/** The `]` that closes the `[` at `start`, within the paragraph; the paragraph's end when there is none. */
function bracketEnd(src: Source, start: number): number {
  const limit = paragraphEnd(src, start);
  let depth = 0;
  let quote = '';
  for (let i = start; i < limit; i++) {
    const c = src.text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(' || c === '{') depth++;
    else if (c === ']' || c === ')' || c === '}') {
      depth--;
      if (depth <= 0) return i + 1;
    }
  }
  return limit;
}

function place(src: Source, where: string, start: number, end: number): BlockPlace {
  return { where, start: src.map(start), end: src.map(end) };
}

/** One block whose body is JSON: a `<tool_call>` body, a fence, a bare object in prose. */
function jsonBlock(
  ex: Extraction,
  src: Source,
  bodyStart: number,
  body: string,
  block: BlockPlace,
  options: { mustBeCall: boolean; notation: Notation },
): void {
  const read = readJsonSequence(body);
  if (!read.ok) {
    if (!options.mustBeCall && !looksLikeCall(body)) return;
    const p = placeholderInText(body, read.offset);
    if (p) ex.placeholder(p, block);
    else ex.unparseable(block, ex.locate(read.message, block.where, read.atEnd ? undefined : src.map(bodyStart + read.offset)));
    return;
  }
  const calls: RawCall[] = [];
  let others = 0;
  for (const value of read.value) {
    const shape = callsFromValue(value);
    if (shape.kind === 'calls') calls.push(...shape.calls);
    else if (shape.kind === 'bare-name' && options.mustBeCall) calls.push({ name: shape.name, arguments: {} });
    else if (shape.kind === 'error') {
      if (shape.name !== undefined && isPlaceholderName(shape.name)) ex.placeholder({ token: shape.name, unrendered: false }, block);
      else ex.unparseable(block, `${shape.message} (in ${block.where})`, shape.name);
      return;
    } else others++;
  }
  if (calls.length === 0) {
    if (options.mustBeCall) {
      const p = placeholderInCall('', read.value);
      if (p) ex.placeholder(p, block);
      else ex.unparseable(block, `Unexpected JSON that is not a tool call in ${block.where}, expected \`{"name": "...", "arguments": {...}}\``);
    }
    return;
  }
  if (others > 0) {
    ex.unparseable(block, `Unexpected JSON value that is not a tool call beside ${calls.length} call${calls.length === 1 ? '' : 's'} in ${block.where}, expected only tool calls`);
    return;
  }
  for (const call of calls) {
    const p = placeholderInCall(call.name, call.arguments);
    if (p) {
      ex.placeholder(p, block);
      return;
    }
  }
  for (const call of calls) ex.example(call, options.notation, block);
}

function hermes(ex: Extraction, src: Source, at: number, openLength: number): number {
  const s = src.text;
  const bodyStart = at + openLength;
  const close = s.indexOf('</tool_call>', bodyStart);
  const reopen = s.indexOf('<tool_call>', bodyStart);
  if (close === -1 || (reopen !== -1 && reopen < close)) {
    const k = skipWhitespace(s, bodyStart);
    // `<tool_call>` followed by prose is a mention of the tag; followed by JSON it is a call.
    if (s[k] !== '{' && s[k] !== '[') return bodyStart;
    const end = reopen !== -1 ? Math.min(reopen, paragraphEnd(src, bodyStart)) : paragraphEnd(src, bodyStart);
    ex.unparseable(place(src, '`<tool_call>` block', at, end), 'Unclosed `<tool_call>` block, expected `</tool_call>` after the call');
    return end;
  }
  const end = close + '</tool_call>'.length;
  const body = s.slice(bodyStart, close);
  // A call written as `name key=value` or `name(...)` is meant as a call even without JSON: never skip it.
  if (/^\s*[A-Za-z_][\w.-]*\s*(?:\(|[A-Za-z_][\w-]*\s*=)/.test(body) && !/[{[]/.test(body)) {
    ex.unparseable(place(src, '`<tool_call>` block', at, end), 'Unexpected text in `<tool_call>` block, expected a JSON object with `name` and `arguments`');
    return end;
  }
  // `<tool_call></tool_call>` or `` `<tool_call>` and `</tool_call>` `` in prose names the tags; it holds no call.
  if (!/[{[(:"]/.test(body)) return end;
  jsonBlock(ex, src, bodyStart, body, place(src, '`<tool_call>` block', at, end), { mustBeCall: true, notation: 'hermes' });
  return end;
}

const attrName = /\bname\s*=\s*(?:"([^"]*)"|'([^']*)')/;

interface XmlInvoke {
  name: string;
  params: Array<[string, string]>;
}

function parseInvokes(body: string): { ok: true; invokes: XmlInvoke[] } | { ok: false; message: string; name?: string } {
  const invokes: XmlInvoke[] = [];
  const openRe = /<(?:antml:)?invoke\b([^>]*)>/g;
  const paramRe = /<(?:antml:)?parameter\b([^>]*)>/g;
  for (let m = openRe.exec(body); m; m = openRe.exec(body)) {
    const nameMatch = attrName.exec(m[1]!);
    if (!nameMatch) return { ok: false, message: 'Unexpected `<invoke>` without a `name` attribute, expected `<invoke name="tool_name">`' };
    const name = nameMatch[1] ?? nameMatch[2]!;
    const closeRe = /<\/(?:antml:)?invoke>/g;
    closeRe.lastIndex = openRe.lastIndex;
    const close = closeRe.exec(body);
    const nextOpen = body.slice(openRe.lastIndex).search(/<(?:antml:)?invoke\b/);
    if (!close || (nextOpen !== -1 && openRe.lastIndex + nextOpen < close.index)) {
      return { ok: false, message: `Unclosed \`<invoke name="${name}">\`, expected \`</invoke>\``, name };
    }
    const inner = body.slice(openRe.lastIndex, close.index);
    const params: Array<[string, string]> = [];
    paramRe.lastIndex = 0;
    for (let p = paramRe.exec(inner); p; p = paramRe.exec(inner)) {
      const pn = attrName.exec(p[1]!);
      if (!pn) return { ok: false, message: `Unexpected \`<parameter>\` without a \`name\` attribute in \`<invoke name="${name}">\`, expected \`<parameter name="...">\``, name };
      const paramName = pn[1] ?? pn[2]!;
      const pcRe = /<\/(?:antml:)?parameter>/g;
      pcRe.lastIndex = paramRe.lastIndex;
      const pc = pcRe.exec(inner);
      if (!pc) return { ok: false, message: `Unclosed \`<parameter name="${paramName}">\` in \`<invoke name="${name}">\`, expected \`</parameter>\``, name };
      params.push([paramName, inner.slice(paramRe.lastIndex, pc.index)]);
      paramRe.lastIndex = pcRe.lastIndex;
    }
    invokes.push({ name, params });
    openRe.lastIndex = closeRe.lastIndex;
  }
  return { ok: true, invokes };
}

function propertySchema(tool: ToolSpec | undefined, param: string): unknown {
  const props = tool?.inputSchema.properties;
  return isObject(props) && Object.hasOwn(props, param) ? props[param] : undefined;
}

function anthropicXml(ex: Extraction, src: Source, at: number, openLength: number): number {
  const s = src.text;
  const bodyStart = at + openLength;
  const closeRe = /<\/(?:antml:)?function_calls>/g;
  closeRe.lastIndex = bodyStart;
  const close = closeRe.exec(s);
  const reopenRe = /<(?:antml:)?function_calls>/g;
  reopenRe.lastIndex = bodyStart;
  const reopen = reopenRe.exec(s);
  const where = '`<function_calls>` block';
  if (!close || (reopen && reopen.index < close.index)) {
    const k = skipWhitespace(s, bodyStart);
    if (!/^<(?:antml:)?invoke\b/.test(s.slice(k, k + 16))) return bodyStart;
    const end = reopen ? reopen.index : s.length;
    ex.unparseable(place(src, where, at, end), 'Unclosed `<function_calls>` block, expected `</function_calls>` after the last `</invoke>`');
    return end;
  }
  const end = closeRe.lastIndex;
  const body = s.slice(bodyStart, close.index);
  if (!/\S/.test(body)) return end;
  const block = place(src, where, at, end);
  const parsed = parseInvokes(body);
  if (!parsed.ok || parsed.invokes.length === 0) {
    const p = placeholderInText(body);
    if (p) ex.placeholder(p, block);
    else if (!parsed.ok) ex.unparseable(block, `${parsed.message} (in ${where})`, parsed.name);
    else ex.unparseable(block, `Unexpected content in ${where}, expected \`<invoke name="tool_name">\` with \`<parameter name="...">value</parameter>\` inside`);
    return end;
  }
  for (const invoke of parsed.invokes) {
    const p = placeholderInCall(invoke.name, Object.fromEntries(invoke.params));
    if (p) {
      ex.placeholder(p, block);
      return end;
    }
  }
  for (const invoke of parsed.invokes) {
    const tool = ex.tools.get(invoke.name);
    const args: Record<string, unknown> = {};
    for (const [k, v] of invoke.params) Object.defineProperty(args, k, { value: coerceParameter(v, propertySchema(tool, k)), enumerable: true, writable: true, configurable: true });
    ex.example({ name: invoke.name, arguments: args }, 'anthropic-xml', block);
  }
  return end;
}

function llama(ex: Extraction, src: Source, at: number): number {
  const s = src.text;
  const open = /<function=([^>\n]*)>/y;
  open.lastIndex = at;
  const m = open.exec(s);
  if (!m) return at + 1;
  const name = m[1]!.trim().replace(/^["']|["']$/g, '');
  const bodyStart = open.lastIndex;
  const close = s.indexOf('</function>', bodyStart);
  const reopen = s.indexOf('<function=', bodyStart);
  const where = `\`<function=${name}>\` block`;
  if (close === -1 || (reopen !== -1 && reopen < close)) {
    const k = skipWhitespace(s, bodyStart);
    if (s[k] !== '{') return bodyStart;
    const end = reopen !== -1 ? Math.min(reopen, paragraphEnd(src, bodyStart)) : paragraphEnd(src, bodyStart);
    ex.unparseable(place(src, where, at, end), `Unclosed ${where}, expected \`</function>\` after the arguments`, name);
    return end;
  }
  const end = close + '</function>'.length;
  const block = place(src, where, at, end);
  const body = s.slice(bodyStart, close);
  if (isPlaceholderName(name)) {
    ex.placeholder({ token: name, unrendered: /\{\{/.test(name) }, block);
    return end;
  }
  let args: unknown = {};
  if (/\S/.test(body)) {
    const read = readJsonSequence(body);
    if (!read.ok) {
      const p = placeholderInText(body, read.offset);
      if (p) ex.placeholder(p, block);
      else ex.unparseable(block, ex.locate(read.message, where, read.atEnd ? undefined : src.map(bodyStart + read.offset)), name);
      return end;
    }
    if (read.value.length !== 1 || !isObject(read.value[0])) {
      ex.unparseable(block, `Unexpected JSON in ${where}, expected one object of arguments`, name);
      return end;
    }
    args = read.value[0];
  }
  if (!/^[A-Za-z0-9_.:-]+$/.test(name)) {
    ex.unparseable(block, `Unexpected tool name \`${name}\` in ${where}, expected letters, digits, \`_\`, \`.\` or \`-\``, name);
    return end;
  }
  const p = placeholderInCall(name, args);
  if (p) ex.placeholder(p, block);
  else ex.example({ name, arguments: args }, 'llama', block);
  return end;
}

function argumentsOf(call: PythonCall, tool: ToolSpec | undefined): Record<string, unknown> {
  const props = tool?.inputSchema.properties;
  const names = isObject(props) ? Object.keys(props) : [];
  const out: Record<string, unknown> = {};
  const set = (k: string, v: unknown) => Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  // Positional arguments take the schema's property order, as BFCL's own checker does; without a schema, their index.
  call.positional.forEach((v, i) => set(names[i] ?? String(i), v));
  for (const [k, v] of call.keywords) set(k, v);
  return out;
}

function pythonic(ex: Extraction, src: Source, at: number, where = 'pythonic call list', quiet = false): number {
  const r = readPythonCalls(src.text, at);
  if (r.ok) {
    const block = place(src, where, at, r.end);
    for (const call of r.calls) {
      const p = placeholderInCall(call.name, [...call.positional, ...call.keywords.map(([k, v]) => ({ [k]: v }))]);
      if (p) {
        ex.placeholder(p, block);
        return r.end;
      }
    }
    for (const call of r.calls) ex.example({ name: call.name, arguments: argumentsOf(call, ex.tools.get(call.name)) }, 'pythonic', block);
    return r.end;
  }
  if (quiet) return at + 1;
  const end = bracketEnd(src, at);
  const span = src.text.slice(at, Math.max(end, r.offset + 1));
  const named = r.names.find(isPlaceholderName);
  const p = named !== undefined ? { token: named, unrendered: /\{\{/.test(named) } : placeholderInText(span, r.offset - at);
  if (p && (named !== undefined || r.sawKeyword || /\.\.\.|…/.test(span))) {
    ex.placeholder(p, place(src, where, at, end));
    return end;
  }
  if (!r.sawKeyword) return at + 1;
  ex.unparseable(place(src, where, at, end), ex.locate(r.message, where, src.map(r.offset)), r.names[0]);
  return end;
}

function bareJson(ex: Extraction, src: Source, at: number): number {
  const read = readJson(src.text, at);
  if (read.ok) {
    const shape = callsFromValue(read.value);
    if (shape.kind === 'calls' || shape.kind === 'error') {
      jsonBlock(ex, src, at, src.text.slice(at, read.end), place(src, 'JSON tool call', at, read.end), { mustBeCall: false, notation: 'name-arguments' });
    }
    return read.end;
  }
  const end = paragraphEnd(src, at);
  const span = src.text.slice(at, Math.min(end, at + 4000));
  if (!looksLikeCall(span)) return at + 1;
  const block = place(src, 'JSON tool call', at, end);
  const p = placeholderInText(span, read.offset - at);
  if (p) ex.placeholder(p, block);
  else ex.unparseable(block, ex.locate(read.message, 'JSON tool call', read.atEnd ? undefined : src.map(read.offset)));
  return end;
}

const trigger = /<(?:antml:)?function_calls>|<tool_call>|<function=|\[[ \t]*[A-Za-z_][\w.]*[ \t]*\(|\[\s*\{\s*["']|\{\s*["']/g;

/** Tags, call lists and call-shaped JSON in prose (or in a fence read like prose). */
function scan(ex: Extraction, src: Source): void {
  const s = src.text;
  let i = 0;
  while (i < s.length) {
    trigger.lastIndex = i;
    const m = trigger.exec(s);
    if (!m) break;
    const at = m.index;
    const t = m[0];
    let next: number;
    if (t === '<tool_call>') next = hermes(ex, src, at, t.length);
    else if (t.endsWith('function_calls>')) next = anthropicXml(ex, src, at, t.length);
    else if (t === '<function=') next = llama(ex, src, at);
    else if (t.endsWith('(')) next = pythonic(ex, src, at);
    else next = bareJson(ex, src, at);
    i = Math.max(next, at + 1);
  }
}

/** Maps offsets in a fence's value to the source: each value line is the tail of its source line. */
function fenceSource(ex: Extraction, fence: Fence): Source {
  const { value } = fence;
  const valueStarts = [0];
  for (let i = value.indexOf('\n'); i !== -1; i = value.indexOf('\n', i + 1)) valueStarts.push(i + 1);
  const sourceStarts = valueStarts.map((vs, k) => {
    const vEnd = k + 1 < valueStarts.length ? valueStarts[k + 1]! - 1 : value.length;
    const lineStart = ex.lines.lineStart(fence.line + 1 + k);
    let lineEnd = ex.text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = ex.text.length;
    return Math.max(lineStart, lineEnd - (vEnd - vs));
  });
  return {
    text: value,
    map(offset: number): number {
      let lo = 0;
      let hi = valueStarts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (valueStarts[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      return Math.min(sourceStarts[lo]! + (offset - valueStarts[lo]!), fence.end);
    },
  };
}

function fence(ex: Extraction, f: Fence, mode: ParseMode, depth: number): void {
  const block: BlockPlace = { where: f.lang ? `the \`${f.lang}\` fence` : 'the fence', start: f.start, end: f.end };
  const src = fenceSource(ex, f);
  if (callFences.has(f.lang)) {
    const body = f.value.trimStart();
    if (body.startsWith('<')) {
      // Tags inside a call fence: whatever they hold, the fence promised a call.
      const before = ex.examples.length + ex.diagnostics.length;
      scan(ex, src);
      if (ex.examples.length + ex.diagnostics.length === before) ex.unparseable(block, `Unexpected markup in ${block.where}, expected a tool call (JSON, or a <tool_call> or <function_calls> block)`);
      return;
    }
    if (body === '') return ex.unparseable(block, `Unexpected empty \`${f.lang}\` fence, expected a tool call`);
    if (!f.closed) block.where = `the unclosed \`${f.lang}\` fence`;
    if (/^\[[ \t]*[A-Za-z_][\w.]*[ \t]*\(/.test(body)) {
      pythonic(ex, src, f.value.length - body.length, block.where);
      return;
    }
    return jsonBlock(ex, src, 0, f.value, block, { mustBeCall: true, notation: 'fenced-json' });
  }
  if (jsonFences.has(f.lang)) {
    if (!f.closed) block.where = `the unclosed \`${f.lang}\` fence`;
    return jsonBlock(ex, src, 0, f.value, block, { mustBeCall: false, notation: 'fenced-json' });
  }
  if (pythonFences.has(f.lang)) {
    const body = f.value.trim();
    // Only a fence that is nothing but a call list is an example; other Python is code.
    if (/^\[[ \t]*[A-Za-z_][\w.]*[ \t]*\(/.test(body)) {
      const r = readPythonCalls(body, 0);
      if (r.ok && r.end === body.length) pythonic(ex, src, f.value.indexOf('['), block.where, true);
    }
    return;
  }
  if (markdownFences.has(f.lang) && depth < 3) return extractInto(ex, src, mode, depth + 1);
  if (proseFences.has(f.lang)) scan(ex, src);
}

/** The text with block-quote markers turned into spaces, so a quoted tag's JSON parses and every offset stays put. */
function withoutQuoteMarkers(text: string, structure: Structure, lines: LineIndex): string {
  if (structure.quotes.length === 0) return text;
  const depth = new Map<number, number>();
  for (const q of structure.quotes) {
    const first = lines.at(q.start).line;
    const last = lines.at(Math.max(q.start, q.end - 1)).line;
    for (let l = first; l <= last; l++) depth.set(l, (depth.get(l) ?? 0) + 1);
  }
  // Blank out the `>` markers (same length, so offsets stay valid); only quoted lines are touched.
  const marks: number[] = [];
  for (const [line, d] of depth) {
    let i = lines.lineStart(line);
    let left = d;
    while (left > 0 && i < text.length) {
      const c = text[i];
      if (c === ' ' || c === '\t') i++;
      else if (c === '>') {
        marks.push(i);
        left--;
        i++;
      } else if ((c === '-' || c === '*' || c === '+') && (text[i + 1] === ' ' || text[i + 1] === '\t')) i++;
      else break;
    }
  }
  marks.sort((a, b) => a - b);
  let out = '';
  let from = 0;
  for (const at of marks) {
    out += `${text.slice(from, at)} `;
    from = at + 1;
  }
  return out + text.slice(from);
}

/** Fences and prose of one markdown text (the prompt, or the body of a `markdown` fence inside it). */
function extractInto(ex: Extraction, src: Source, mode: ParseMode, depth: number): void {
  let structure: Structure;
  try {
    structure = blockStructure(src.text, mode);
  } catch {
    // The markdown parser failing on some input must not lose the tags in it.
    structure = { fences: [], quotes: [] };
  }
  const lines = depth === 0 ? ex.lines : new LineIndex(src.text);
  const view = withoutQuoteMarkers(src.text, structure, lines);
  let prev = 0;
  const segment = (from: number, to: number) => {
    if (to > from) scan(ex, { text: view.slice(from, to), map: (o) => src.map(o + from) });
  };
  for (const f of structure.fences) {
    if (f.start < prev) continue;
    segment(prev, f.start);
    fence(ex, depth === 0 ? f : { ...f, start: src.map(f.start), end: src.map(f.end), line: ex.lines.at(src.map(f.start)).line }, mode, depth);
    prev = f.end;
  }
  segment(prev, src.text.length);
}

/**
 * The few-shot tool calls in `text`, and a finding for each block meant as a call that is
 * not one (`example/unparseable`) or that is a format description (`example/placeholder`).
 * Never throws.
 */
export function extractToolCalls(text: string, options: ExtractOptions = {}): ExtractResult {
  const ex = new Extraction(text, options.tools ?? []);
  extractInto(ex, { text, map: (o) => o }, options.mode ?? 'fast', 0);
  ex.examples.sort((a, b) => a.range.start - b.range.start);
  ex.diagnostics.sort((a, b) => (a.offset ?? 0) - (b.offset ?? 0));
  return { examples: ex.examples, diagnostics: ex.diagnostics };
}

export { exampleRules } from './rules.js';
export type { Notation, ToolCallExample } from './types.js';
export type { ParseMode } from './markdown.js';
