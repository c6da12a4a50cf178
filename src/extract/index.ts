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
import { blockStructure, type Fence, type ParseMode, type Structure } from './markdown.js';
import { checkFound, checkParsed, checkPlace, DEFAULT_NOTATION_TIMEOUT_MS, findThrew, NotationTimeout, placeLimit, timedOut, tooManyPlaces, withTimeout } from './guard.js';
import { isParseFailure, type NotationContext, type NotationDefinition, type NotationMatch, type ParsedCall, type ParseResult } from './notation.js';
import { readJsonSequence } from './json.js';
import { builtInNotations, tokenNotations } from './notations/index.js';
import { codeCallNotation } from './notations/code-call.js';
import { cohereNotation } from './notations/cohere.js';
import { sdkReprNotation } from './notations/sdk-repr.js';
import { codeObjectNotation } from './notations/json.js';
import { escapedStrings, mayHoldEscapedStrings } from './notations/escaped.js';
import { jsonBody } from './notations/json.js';
import { pythonArguments, pythonBuiltins } from './notations/pythonic.js';
import { isPlaceholderTool, type Placeholder, placeholderInCall, placeholderInText } from './placeholder.js';
import { readPythonCall, readPythonCalls } from './python.js';
import { exampleRules } from './rules.js';
import { mentionSnippet, type MentionKind, unreadMentions } from './coverage.js';
import { coerceParameter } from './coerce.js';
import { looksLikeCall, type RawCall } from '../shapes/calls.js';
import type { Notation, ToolCallExample } from './types.js';

export interface ExtractOptions {
  /** The tools the prompt is sent with: they type Anthropic XML parameter values and name positional pythonic arguments. */
  tools?: readonly ToolSpec[];
  /** `fast` (default) parses block structure only; `full` runs the complete remark parse. Results are identical. */
  mode?: ParseMode;
  /** Notations to read besides the built-in ones (`defineNotation`); a house format, say. */
  notations?: readonly NotationDefinition<any>[];
  /**
   * Milliseconds one call of a custom notation (`find` with its places, or one `parse`) may
   * run before it is stopped and reported as `example/notation-failed`; 5000 by default.
   */
  notationTimeout?: number;
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
/** What is read in code: calls of the prompt's tools, SDK objects that hold a call, and Cohere's action block (its tokens say what it is in any fence). */
const codeNotations: readonly NotationDefinition[] = [cohereNotation, sdkReprNotation, codeCallNotation, codeObjectNotation];
// Diagrams and markup name tools in labels (`Agent ->> LLM: roll_dice()`): no code is run there.
const diagramFences = new Set(['mermaid', 'mmd', 'plantuml', 'puml', 'dot', 'graphviz', 'd2']);
const proseFences = new Set(['', 'text', 'txt', 'plain', 'plaintext', 'xml', 'antml', 'html', 'prompt', 'chat', 'transcript', 'conversation', 'example', 'output', 'console', 'handlebars', 'hbs', 'mustache', 'jinja', 'jinja2', 'j2', 'liquid']);

/** A string to scan and where each of its offsets is in the original text. */
interface Source {
  text: string;
  map(offset: number): number;
  /** Offsets of blank lines, built on first use: a broken block ends at the next one. */
  blanks?: number[];
  /** How many JSON strings deep this text was decoded from (see `readEscaped`). */
  escaped?: number;
}

interface BlockPlace {
  /** What the block is, for messages: "`<tool_call>` block", "the `json` fence". */
  where: string;
  start: number;
  end: number;
}

class Extraction {
  readonly examples: ToolCallExample[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly lines: LineIndex;
  readonly tools = new Map<string, ToolSpec>();
  readonly notations: readonly NotationDefinition[];
  readonly builtIn = new Set<NotationDefinition>(builtInNotations);
  /** Spans of the text (original offsets) read by a token notation in the first pass. */
  readonly claimed: Array<{ start: number; end: number }> = [];
  /** Set while the token notations read the whole text. */
  tokenPass = false;

  isClaimed(offset: number): boolean {
    let lo = 0;
    let hi = this.claimed.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.claimed[mid]!.end <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.claimed.length && this.claimed[lo]!.start <= offset;
  }

  constructor(
    readonly text: string,
    tools: readonly ToolSpec[],
    extra: readonly NotationDefinition[],
    /** Milliseconds one call of a custom notation may run. */
    readonly timeout: number,
  ) {
    this.lines = new LineIndex(text);
    for (const tool of tools) if (!this.tools.has(tool.name)) this.tools.set(tool.name, tool);
    this.notations = [...builtInNotations, ...extra];
  }

  /** Custom notations already reported for failing as a whole (`find` threw, looped): said once, not once a piece of prose. */
  readonly failedOnce = new Set<string>();
  /** Custom notations stopped for running past the time bound: not run again on this text. */
  readonly stopped = new Set<NotationDefinition>();

  /** A custom notation returned what cannot be used: `example/notation-failed` at the place, naming the notation. */
  notationFailed(place: BlockPlace, message: string, once?: string): void {
    if (once !== undefined) {
      if (this.failedOnce.has(once)) return;
      this.failedOnce.add(once);
    }
    this.finding(exampleRules['notation-failed'], place, message);
  }

  example(call: RawCall, notation: Notation, place: BlockPlace, unread?: string[]): void {
    const { line, column } = this.lines.at(place.start);
    const example: ToolCallExample = { name: call.name, arguments: call.arguments, notation: call.notation ?? notation, range: { start: place.start, end: place.end }, line, column };
    if (unread !== undefined && unread.length > 0) example.unread = unread;
    this.examples.push(example);
  }

  /** The spans findings were made for and the blocks notations read: what the coverage scan counts as seen. */
  readonly findingSpans: Array<{ start: number; end: number }> = [];

  finding(rule: (typeof exampleRules)[keyof typeof exampleRules], place: BlockPlace, message: string, extra: Partial<Diagnostic> = {}): void {
    const { line, column } = this.lines.at(place.start);
    this.diagnostics.push(report(rule, { message, offset: place.start, line, column, ...extra }));
    this.findingSpans.push({ start: place.start, end: Math.max(place.end, place.start + 1) });
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

function place(src: Source, where: string, start: number, end: number): BlockPlace {
  return { where, start: src.map(start), end: src.map(end) };
}

function contextOf(ex: Extraction, src: Source): NotationContext & { text: string } {
  return { tools: ex.tools, text: src.text, paragraphEnd: (offset: number) => paragraphEnd(src, offset) };
}

/** What one place read: calls become examples (unless they hold placeholders), failures findings. */
function record(ex: Extraction, src: Source, notation: string, result: ParseResult, block: BlockPlace, span: { start: number; end: number }): void {
  if (result === undefined) return;
  // Read by a notation, whatever it found there: calls, a finding, or a format description it passes over quietly (`[]`).
  ex.findingSpans.push({ start: block.start, end: Math.max(block.end, block.start + 1) });
  if (isParseFailure(result)) {
    if (result.placeholder !== undefined) {
      ex.placeholder({ token: result.placeholder, unrendered: /\{\{|\{%/.test(result.placeholder) }, block);
      return;
    }
    if (result.tool !== undefined && isPlaceholderTool(result.tool, ex.tools)) {
      ex.placeholder({ token: result.tool, unrendered: /\{\{|\{%/.test(result.tool) }, block);
      return;
    }
    const text = src.text.slice(span.start, span.end);
    const p = placeholderInText(text, result.offset === undefined ? undefined : result.offset - span.start, ex.tools);
    if (p) {
      ex.placeholder(p, block);
      return;
    }
    const message = result.offset === undefined ? withWhere(result.error, block.where) : ex.locate(result.error, block.where, src.map(result.offset));
    ex.unparseable(block, message, result.tool);
    return;
  }
  for (const call of result) {
    const p = placeholderInCall(call.name, call.arguments, { tools: ex.tools });
    if (p) {
      ex.placeholder(p, block);
      return;
    }
  }
  for (const call of result) {
    if (call.notJson === undefined) continue;
    const offset = Math.min(Math.max(call.notJson.offset, span.start), span.end);
    const message = `${ex.locate(call.notJson.message, block.where, src.map(offset))}; it reads as a Python literal and is checked as one, but the model copies an example as it is written`;
    ex.finding(exampleRules['not-json'], block, message, { tool: call.name });
  }
  for (const call of result) {
    const at = call.at !== undefined && call.at >= span.start && call.at < span.end ? src.map(call.at) : undefined;
    ex.example({ name: call.name, arguments: call.arguments, ...(call.notation ? { notation: call.notation as Notation } : {}) }, notation as Notation, at === undefined ? block : { ...block, start: at }, Array.isArray(call.unread) ? call.unread : undefined);
  }
}

/** "Unexpected X, expected Y" -> "Unexpected X in WHERE, expected Y", unless the message names its place already. */
function withWhere(message: string, where: string): string {
  if (message.includes(where) || / in (?:the |`)/.test(message.split(', expected')[0]!)) return message;
  const i = message.indexOf(', expected');
  return i === -1 ? `${message} (in ${where})` : `${message.slice(0, i)} in ${where}${message.slice(i)}`;
}

/** Whether a body that does not parse is one JSON value gone wrong, rather than prose around JSON. */
function looksLikeOneBrokenValue(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}

interface Candidate {
  match: NotationMatch;
  notation: NotationDefinition;
  order: number;
  /** Read once, when the place was taken: a getter on a custom match runs no more after that. */
  start: number;
  end: number;
  where: unknown;
  bodyStart: unknown;
  bodyEnd: unknown;
}

/** A place as a custom `find` yielded it, with its fields read inside the time bound. */
interface Taken {
  item: unknown;
  start: unknown;
  end: unknown;
  where: unknown;
  bodyStart: unknown;
  bodyEnd: unknown;
}

/** A built-in notation's places, taken as they are (their tests hold them to the shape). */
function builtInPlaces(src: Source, notation: NotationDefinition, order: number, context: NotationContext, candidates: Candidate[]): void {
  const places = notation.find(src.text, context) as Iterable<NotationMatch & { where?: unknown; bodyStart?: unknown; bodyEnd?: unknown }>;
  // No places (a notation whose marker the text lacks): nothing to iterate, and no iterator to make for it.
  if (Array.isArray(places) && places.length === 0) return;
  for (const match of places) {
    if (!Number.isInteger(match.start) || !Number.isInteger(match.end) || match.start < 0 || match.end > src.text.length || match.end <= match.start) continue;
    candidates.push({ match, notation, order, start: match.start, end: match.end, where: match.where, bodyStart: match.bodyStart, bodyEnd: match.bodyEnd });
  }
}

/**
 * The places a custom notation finds in a piece of text. Its `find` runs, and its places are
 * read, within the time bound; the places are checked (`checkFound`, `checkPlace`) and counted,
 * so a mistake is a finding naming the notation, and a `find` that loops (yielding or not) is
 * stopped.
 */
function customPlaces(ex: Extraction, src: Source, notation: NotationDefinition, order: number, context: NotationContext, candidates: Candidate[]): void {
  const whole = place(src, `the text read by the \`${notation.name}\` notation`, 0, 0);
  const limit = placeLimit(src.text.length);
  let outcome: ReturnType<typeof checkFound> | { ok: true; value: Taken[] };
  try {
    outcome = withTimeout(() => {
      const checked = checkFound(notation.find(src.text, context), notation.name);
      if (!checked.ok) return checked;
      const taken: Taken[] = [];
      for (const item of checked.value) {
        const r = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : undefined;
        taken.push({ item, start: r?.start, end: r?.end, where: r?.where, bodyStart: r?.bodyStart, bodyEnd: r?.bodyEnd });
        if (taken.length > limit) break;
      }
      return { ok: true as const, value: taken };
    }, ex.timeout);
  } catch (error) {
    if (error instanceof NotationTimeout) {
      ex.stopped.add(notation);
      ex.notationFailed(whole, timedOut(notation.name, 'find', ex.timeout, src.text.length));
    } else ex.notationFailed(whole, findThrew(notation.name, error), `${notation.name}\u0000find`);
    return;
  }
  if (!outcome.ok) {
    ex.notationFailed(whole, outcome.message, `${notation.name}\u0000find`);
    return;
  }
  const taken = outcome.value as Taken[];
  // A bad place is reported once with a count: a broken `find` makes the same mistake at every turn.
  let bad: { at: number; message: string } | undefined;
  let badCount = 0;
  const mine: Candidate[] = [];
  for (const t of taken.slice(0, limit)) {
    const good = checkPlace(typeof t.item === 'object' && t.item !== null && !Array.isArray(t.item) ? { start: t.start, end: t.end } : t.item, src.text.length, notation.name);
    if (!good.ok) {
      // Where the place starts when that is in the text; the start of the text otherwise.
      const at = typeof t.start === 'number' && Number.isInteger(t.start) && t.start >= 0 && t.start <= src.text.length ? t.start : 0;
      if (badCount++ === 0) bad = { at, message: good.message };
      continue;
    }
    mine.push({ match: t.item as NotationMatch, notation, order, start: t.start as number, end: t.end as number, where: t.where, bodyStart: t.bodyStart, bodyEnd: t.bodyEnd });
  }
  if (bad !== undefined) {
    const more = badCount > 1 ? `; ${(badCount - 1).toLocaleString('en-US')} more places like it in this text are not read either` : '';
    ex.notationFailed(place(src, whole.where, bad.at, bad.at), `${bad.message}${more}`);
  }
  if (taken.length > limit) {
    ex.notationFailed(whole, tooManyPlaces(notation.name, src.text.length), `${notation.name}\u0000many`);
    return;
  }
  candidates.push(...mine);
}

/** What a custom `parse` returned, checked and copied within the time bound; a failure to report, or undefined once reported. */
function customParse(ex: Extraction, src: Source, c: Candidate, context: NotationContext & { text: string }): ParseResult | { failed: true } {
  const { notation } = c;
  const at = place(src, `\`${notation.name}\` call`, c.start, c.end);
  let checked: ReturnType<typeof checkParsed>;
  try {
    checked = withTimeout(() => checkParsed(notation.parse(c.match, context), src.text.length, notation.name), ex.timeout);
  } catch (error) {
    if (error instanceof NotationTimeout) {
      ex.stopped.add(notation);
      ex.notationFailed(at, timedOut(notation.name, 'parse', ex.timeout, src.text.length));
      return { failed: true };
    }
    // A `parse` that throws says the place does not read as a call, as `{ error }` does.
    return { error: `Unexpected error in the \`${notation.name}\` notation's \`parse\`: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!checked.ok) {
    ex.notationFailed(at, checked.message);
    return { failed: true };
  }
  return checked.value;
}

/**
 * Every notation over a piece of prose (or a fence read like prose), places read in text order;
 * `only` the notations that read code, over a code fence.
 */
function scan(ex: Extraction, src: Source, only?: readonly NotationDefinition[]): void {
  if (only === undefined && !ex.tokenPass) src = readEscaped(ex, src);
  const context = contextOf(ex, src);
  const candidates: Candidate[] = [];
  (only ?? ex.notations).forEach((notation, order) => {
    if (only === undefined && (tokenNotations.has(notation) !== ex.tokenPass || ex.stopped.has(notation))) return;
    if (ex.builtIn.has(notation) || only !== undefined) builtInPlaces(src, notation, order, context, candidates);
    else customPlaces(ex, src, notation, order, context, candidates);
  });
  candidates.sort((a, b) => a.start - b.start || b.end - a.end || a.order - b.order);
  let consumed = 0;
  for (const c of candidates) {
    const { match, notation, start, end } = c;
    if (start < consumed || ex.stopped.has(notation)) continue;
    if (!ex.tokenPass && ex.isClaimed(src.map(start))) continue;
    const result = ex.builtIn.has(notation) || only !== undefined ? notation.parse(match, context) : customParse(ex, src, c, context);
    if (result === undefined) continue;
    if (!('failed' in result)) {
      const where = typeof c.where === 'string' ? c.where : `\`${notation.name}\` call`;
      // A placeholder is looked for in the body, not in the tags around it (`<tool_call>` is no placeholder).
      const span = typeof c.bodyStart === 'number' && typeof c.bodyEnd === 'number' ? { start: c.bodyStart, end: c.bodyEnd } : { start, end };
      record(ex, src, notation.name, result, place(src, where, start, end), span);
    }
    consumed = end;
    if (ex.tokenPass) ex.claimed.push({ start: src.map(start), end: src.map(end) });
  }
}

/**
 * Calls escaped inside JSON strings of `src` (notations/escaped.ts): each string is decoded and
 * read like prose, its offsets mapped to the text. A string where something was read is blanked
 * (same length) in the text returned, so the value around it still parses and the escaped text
 * is not read again as it is written. Three strings deep at most.
 */
function readEscaped(ex: Extraction, src: Source): Source {
  const depth = src.escaped ?? 0;
  // No escape in the text: no string to decode, and no search to start for one.
  if (depth >= 3 || !mayHoldEscapedStrings(src.text)) return src;
  let text: string | undefined;
  let from = 0;
  let out = '';
  for (const s of escapedStrings(src.text)) {
    if (ex.isClaimed(src.map(s.start))) continue;
    const before = ex.examples.length + ex.diagnostics.length;
    const offsets = s.offsets;
    scan(ex, { text: s.decoded, map: (o) => src.map(offsets[Math.min(Math.max(o, 0), offsets.length - 1)]!), escaped: depth + 1 });
    if (ex.examples.length + ex.diagnostics.length === before) continue;
    out += src.text.slice(from, s.start + 1) + ' '.repeat(s.end - s.start - 2);
    from = s.end - 1;
    text = out;
  }
  if (text === undefined) return src;
  return { text: out + src.text.slice(from), map: src.map, escaped: depth };
}

/** A fence body that must be (or may be) JSON calls. */
function jsonFence(ex: Extraction, src: Source, block: BlockPlace, mustBeCall: boolean): void {
  src = readEscaped(ex, src);
  const result = jsonBody(src.text, 0, src.text.length, { mustBeCall, python: !mustBeCall, expectJson: true }, contextOf(ex, src));
  // A `json` fence that is not JSON (a transcript with `Action:` and a JSON blob): read like prose.
  if (!mustBeCall && isParseFailure(result) && result.tool === undefined && result.placeholder === undefined && !readJsonSequence(src.text).ok && !looksLikeOneBrokenValue(src.text)) {
    scan(ex, src);
    return;
  }
  // Broken JSON that defines tools (a description, schema types, no arguments) is no broken call: not an example to report.
  if (!mustBeCall && isParseFailure(result) && result.placeholder === undefined && looksLikeDefinition(src.text)) return;
  record(ex, src, 'fenced-json', result, block, { start: 0, end: src.text.length });
}

/**
 * Whether text defines tools rather than calls one: a `description`, a JSON Schema `type`, and
 * none of the keys that hold a call's arguments.
 */
function looksLikeDefinition(text: string): boolean {
  return (
    /["']description["']\s*:/.test(text) &&
    /["']type["']\s*:\s*["'](?:string|object|integer|number|boolean|array)["']/.test(text) &&
    !/["'](?:arguments|args|tool_calls|tool_input|action_input|functionCall|function_call|toolUse)["']\s*:/.test(text)
  );
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

/**
 * A `tool_code` fence (Gemma's function calling): Python calls, one a line, `print(...)` around
 * one allowed, `default_api.` before a name dropped, or a call list. A fence with other lines
 * (an assignment, an import; Gemini's code execution writes such fences too) is code, where
 * only calls of the prompt's tools are calls.
 */
function toolCode(ex: Extraction, src: Source, block: BlockPlace): void {
  if (!toolCodeLines(ex, src, block)) scan(ex, src, codeNotations);
}

function toolCodeLines(ex: Extraction, src: Source, block: BlockPlace): boolean {
  const calls: ParsedCall[] = [];
  const text = src.text;
  for (let ls = 0; ls < text.length; ) {
    let le = text.indexOf('\n', ls);
    if (le === -1) le = text.length;
    let at = ls;
    while (at < le && (text[at] === ' ' || text[at] === '\t')) at++;
    let end = le;
    while (end > at && /\s/.test(text[end - 1]!)) end--;
    if (at < end && text[at] !== '#') {
      const printed = text.startsWith('print(', at) && text[end - 1] === ')';
      const from = printed ? at + 'print('.length : at;
      const r = text[from] === '[' ? readPythonCalls(text, from) : readPythonCall(text, from);
      if (!r.ok || r.end !== (printed ? end - 1 : end)) return false;
      for (const call of r.calls) {
        const name = call.name.startsWith('default_api.') ? call.name.slice('default_api.'.length) : call.name;
        // `math.sqrt(2)`, `len(x)`: code calling a library, not a tool.
        if (name.includes('.') || (pythonBuiltins.has(name) && !ex.tools.has(name))) return false;
        calls.push({ name, arguments: pythonArguments({ ...call, name }, ex.tools.get(name)), at });
      }
    }
    ls = le + 1;
  }
  if (calls.length > 0) record(ex, src, 'pythonic', calls, block, { start: 0, end: text.length });
  return true;
}

/**
 * A `tool` fence (Continue's calls for models without native tool use): `TOOL_NAME: x`, then
 * each argument as `BEGIN_ARG: key`, its value on the lines after, `END_ARG`. Values are text,
 * typed by the tool's schema as tag values are. A fence that does not start with `TOOL_NAME:`
 * is some other `tool` block, not read.
 */
function continueToolFence(ex: Extraction, src: Source, block: BlockPlace): void {
  const lines = src.text.split('\n').map((l) => l.replace(/\r$/, ''));
  const starts: number[] = [];
  for (let i = 0, at = 0; i < lines.length; at += lines[i]!.length + 1, i++) starts.push(at);
  let i = lines.findIndex((l) => l.trim() !== '');
  const head = i === -1 ? undefined : /^TOOL_NAME:[ \t]*(\S+)[ \t]*$/.exec(lines[i]!);
  if (!head) {
    // Another agent's `tool` fence: JSON in it is read as in a `json` fence, tags as prose.
    const body = src.text.trimStart();
    if (body.startsWith('{') || body.startsWith('[')) return jsonFence(ex, src, block, false);
    if (body.startsWith('<')) scan(ex, src);
    return;
  }
  const name = head[1]!;
  const at = starts[i]!;
  const schema = ex.tools.get(name)?.inputSchema;
  const props = typeof schema?.properties === 'object' && schema.properties !== null ? (schema.properties as Record<string, unknown>) : {};
  const args: Record<string, unknown> = {};
  const fail = (line: number, message: string): void => record(ex, src, 'continue-tool', { error: message, offset: starts[line]!, tool: name }, block, { start: 0, end: src.text.length });
  for (i++; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const arg = /^BEGIN_ARG:[ \t]*(\S+)[ \t]*$/.exec(line);
    if (!arg) return fail(i, `Unexpected \`${line.trim().slice(0, 40)}\` in the call of \`${name}\`, expected \`BEGIN_ARG: name\` or the end of the fence`);
    let end = i + 1;
    while (end < lines.length && lines[end]!.trim() !== 'END_ARG') end++;
    if (end === lines.length) return fail(i, `Unexpected end of argument \`${arg[1]}\` of \`${name}\`, expected \`END_ARG\` after its value`);
    const raw = lines.slice(i + 1, end).join('\n').replace(/^\n+|\n+$/g, '');
    Object.defineProperty(args, arg[1]!, { value: coerceParameter(raw, Object.hasOwn(props, arg[1]!) ? props[arg[1]!] : undefined), enumerable: true, writable: true, configurable: true });
    i = end;
  }
  // The format has no placeholder syntax: a value between BEGIN_ARG and END_ARG is the text the model
  // copies (Continue's own `path/to/the_file.txt` for read_file). Only a placeholder tool name and
  // unrendered template text make the fence a format description.
  const p = placeholderInCall(name, args, { tools: ex.tools });
  if (p !== undefined && (p.unrendered || isPlaceholderTool(name, ex.tools))) return record(ex, src, 'continue-tool', [{ name, arguments: args, at }], block, { start: 0, end: src.text.length });
  ex.findingSpans.push({ start: block.start, end: Math.max(block.end, block.start + 1) });
  ex.example({ name, arguments: args }, 'continue-tool', { ...block, start: src.map(at) });
}

function fence(ex: Extraction, f: Fence, mode: ParseMode, depth: number): void {
  const block: BlockPlace = { where: f.lang ? `the \`${f.lang}\` fence` : 'the fence', start: f.start, end: f.end };
  const src = fenceSource(ex, f);
  if (f.lang === 'tool_code') return toolCode(ex, src, block);
  if (f.lang === 'tool') return continueToolFence(ex, src, block);
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
      const at = f.value.length - body.length;
      const r = readPythonCalls(src.text, at);
      const result: ParseResult = r.ok
        ? r.calls.map((call) => ({ name: call.name, arguments: pythonArguments(call, ex.tools.get(call.name)) }))
        : r.names.some((n) => isPlaceholderTool(n, ex.tools))
          ? { error: r.message, placeholder: r.names.find((n) => isPlaceholderTool(n, ex.tools))! }
          : { error: r.message, offset: r.offset, ...(r.names[0] === undefined ? {} : { tool: r.names[0] }) };
      record(ex, src, 'pythonic', result, block, { start: at, end: src.text.length });
      return;
    }
    return jsonFence(ex, src, block, true);
  }
  if (jsonFences.has(f.lang)) {
    // Markup in a `json` fence (Cohere's `<|START_ACTION|>` around the JSON): read like prose, as the tags say.
    if (f.value.trimStart().startsWith('<')) return scan(ex, src);
    if (!f.closed) block.where = `the unclosed \`${f.lang}\` fence`;
    return jsonFence(ex, src, block, false);
  }
  if (pythonFences.has(f.lang)) {
    const body = f.value.trim();
    // Only a fence that is nothing but a call list (or a printed message dict) is an example; other Python is code.
    if ((body.startsWith('{') || /^\[\s*\{/.test(body)) && looksLikeCall(body)) {
      const result = jsonBody(src.text, 0, src.text.length, { mustBeCall: false, python: true }, contextOf(ex, src));
      if (Array.isArray(result) && result.length > 0) record(ex, src, 'name-arguments', result, block, { start: 0, end: src.text.length });
      return;
    }
    if (/^\[[ \t]*[A-Za-z_][\w.]*[ \t]*\(/.test(body)) {
      const at = f.value.indexOf('[');
      const r = readPythonCalls(src.text, at);
      if (r.ok && !/\S/.test(src.text.slice(r.end)) && !r.calls.some((c) => pythonBuiltins.has(c.name) && !ex.tools.has(c.name))) {
        const calls = r.calls.map((call) => ({ name: call.name, arguments: pythonArguments(call, ex.tools.get(call.name)) }));
        record(ex, src, 'pythonic', calls, { ...block, where: block.where }, { start: at, end: r.end });
        return;
      }
    }
    return scan(ex, src, codeNotations);
  }
  if (markdownFences.has(f.lang) && depth < 3) return extractInto(ex, src, mode, depth + 1);
  if (proseFences.has(f.lang)) return scan(ex, src);
  // Code of any language: the calls of the prompt's tools in it, and SDK objects holding calls.
  if (!diagramFences.has(f.lang)) scan(ex, src, codeNotations);
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

/**
 * The first pass: token notations over the whole text, except the inside of code fences (a
 * parser's source quoting `<|python_tag|>` is not an example). What they read is claimed, and
 * the second pass leaves it alone.
 */
function claimTokens(ex: Extraction, view: string, structure: Structure): void {
  if (!ex.notations.some((n) => tokenNotations.has(n))) return;
  const code = structure.fences.filter((f) => !callFences.has(f.lang) && !jsonFences.has(f.lang) && !markdownFences.has(f.lang) && !proseFences.has(f.lang));
  // Blank the code fences out (same length, so offsets hold).
  let text = view;
  if (code.length > 0) {
    let out = '';
    let from = 0;
    for (const f of code) {
      if (f.start < from) continue;
      out += view.slice(from, f.start) + view.slice(f.start, f.end).replace(/[^\n]/g, ' ');
      from = f.end;
    }
    text = out + view.slice(from);
  }
  ex.tokenPass = true;
  try {
    scan(ex, { text, map: (o) => o });
  } finally {
    ex.tokenPass = false;
  }
  ex.claimed.sort((a, b) => a.start - b.start);
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
  if (depth === 0) claimTokens(ex, src.text, structure);
  let prev = 0;
  const segment = (from: number, to: number) => {
    if (to > from) scan(ex, { text: view.slice(from, to), map: (o) => src.map(o + from) });
  };
  for (const f of structure.fences) {
    if (f.start < prev) continue;
    // A fence inside a call a token notation read (DeepSeek's `json` fence) is part of that call.
    if (ex.isClaimed(src.map(f.start))) continue;
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
  // `node:vm` takes a whole number of milliseconds from 1; anything else means the default.
  const timeout = typeof options.notationTimeout === 'number' && options.notationTimeout >= 1 && options.notationTimeout <= 2 ** 31 - 1 ? Math.floor(options.notationTimeout) : DEFAULT_NOTATION_TIMEOUT_MS;
  const ex = new Extraction(text, options.tools ?? [], options.notations ?? [], timeout);
  extractInto(ex, { text, map: (o) => o }, options.mode ?? 'fast', 0);
  // With the tools known, what names one where a call stands and was not read is said, never passed.
  if (ex.tools.size > 0) reportUnread(ex);
  ex.examples.sort((a, b) => a.range.start - b.range.start);
  ex.diagnostics.sort((a, b) => (a.offset ?? 0) - (b.offset ?? 0));
  return { examples: ex.examples, diagnostics: ex.diagnostics };
}

/** `example/unread-call` for each call-like place of a known tool that no example and no finding covers (see coverage.ts). */
function reportUnread(ex: Extraction): void {
  const covered = [...ex.examples.map((e) => e.range), ...ex.findingSpans];
  for (const m of unreadMentions(ex.text, ex.tools.keys(), covered)) {
    const { line, column } = ex.lines.at(m.start);
    ex.diagnostics.push(
      report(exampleRules['unread-call'], {
        message: `Unexpected call of \`${m.name}\` (${mentionKinds[m.kind]}) that no notation read: \`${mentionSnippet(ex.text, m)}\`; expected a call in a notation the extractor reads, so that it is checked`,
        tool: m.name,
        offset: m.start,
        line,
        column,
      }),
    );
  }
}

const mentionKinds: Record<MentionKind, string> = {
  'code call': 'a call in code',
  element: 'an element named after it',
  attribute: 'a tag naming it',
  key: 'a call object naming it',
  action: 'an action naming it',
  recipient: 'a message addressed to it',
  'call token': "a model's call token before it",
};

export { exampleRules } from './rules.js';
export { defineNotation } from './notation.js';
export type { NotationContext, NotationDefinition, NotationMatch, ParsedCall, ParseFailure, ParseResult } from './notation.js';
export type { Notation, ToolCallExample } from './types.js';
export type { ParseMode } from './markdown.js';
