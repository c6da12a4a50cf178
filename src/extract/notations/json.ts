/**
 * JSON calls: `{"name": ..., "arguments": {...}}` and every provider's shape of it (a
 * `tool_use` block, an OpenAI message with `tool_calls`, a Gemini `functionCall`, a request
 * whose messages hold calls), in prose and in the bodies other notations hand over.
 */
import { coerceParameter } from '../coerce.js';
import { offsetOf, readJson, readJsonSequence, type ReadResult } from '../json.js';
import { defineNotation, prefiltered, type NotationContext, type ParsedCall, type ParseResult } from '../notation.js';
import { isPlaceholderTool, placeholderInCall } from '../placeholder.js';
import { NestedCall, readCodeValue, readPythonLiteral } from '../python.js';
import { plain, sdkClassOf, shapeCalls } from './sdk-repr.js';
import { callsFromValue, looksLikeCall, type RawCall } from '../../shapes/calls.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `"arguments": "image.png"`: a one-parameter tool given its value bare. The string goes to the
 * tool's only required parameter (or its only parameter), typed by that parameter's schema.
 * Without such a parameter the string stays, and validation reports it.
 */
export function plainStringArguments(call: RawCall, tools: NotationContext['tools']): ParsedCall {
  const out: ParsedCall = { name: call.name, arguments: call.arguments };
  if (call.notation) out.notation = call.notation;
  if (!call.plainString || typeof call.arguments !== 'string') return out;
  const schema = tools.get(call.name)?.inputSchema;
  const props = isObject(schema?.properties) ? schema.properties : undefined;
  if (!props) return out;
  const required = Array.isArray(schema?.required) ? schema.required.filter((k): k is string => typeof k === 'string' && Object.hasOwn(props, k)) : [];
  const names = Object.keys(props);
  const target = required.length === 1 ? required[0] : names.length === 1 ? names[0] : undefined;
  if (target === undefined) return out;
  const args: Record<string, unknown> = {};
  Object.defineProperty(args, target, { value: coerceParameter(call.arguments, props[target]), enumerable: true, writable: true, configurable: true });
  out.arguments = args;
  return out;
}

export interface JsonBodyOptions {
  /** The container promised a call (a `tool_call` fence, a `<tool_call>` tag): anything else is a finding. */
  mustBeCall: boolean;
  /** Python literals (`{'name': 'x', 'arguments': {...}}`, `None`) are read too. */
  python?: boolean;
  /** The container promises JSON (a `json` fence, a `<tool_call>` tag): calls read as a Python literal say so (`notJson`). */
  expectJson?: boolean;
}

/** The calls in `text.slice(start, end)`, a body that should hold JSON values only. */
export function jsonBody(text: string, start: number, end: number, options: JsonBodyOptions, context: NotationContext): ParseResult {
  return located(jsonBodyCalls(text, start, end, options, context), start);
}

/** Calls read from a message or a request point at their own block; `base` is where the JSON was read from. */
function located(result: ParseResult, base: number): ParseResult {
  if (!Array.isArray(result)) return result;
  return result.map((c: ParsedCall & { source?: object }) => {
    const { source, ...call } = c;
    const at = offsetOf(source);
    return at === undefined ? call : { ...call, at: base + at };
  });
}

function jsonBodyCalls(text: string, start: number, end: number, options: JsonBodyOptions, context: NotationContext): ParseResult {
  const body = text.slice(start, end);
  const read = readJsonSequence(body);
  let values: unknown[];
  // Calls nested in a message or a request are pointed at one by one: read again, with offsets.
  if (read.ok) {
    const again = read.value.some(nests) ? readJsonSequence(body, { offsets: true }) : undefined;
    values = again?.ok ? again.value : read.value;
  } else {
    const py = options.python ? readPythonLiteral(body, body.length - body.trimStart().length) : undefined;
    if (py?.ok && !/\S/.test(body.slice(py.end))) {
      const calls = callsIn([py.value], options.mustBeCall, context);
      if (!options.expectJson || !Array.isArray(calls) || calls.length === 0) return calls;
      const notJson = { offset: start + read.offset, message: read.message };
      return calls.map((call, k) => (k === 0 ? { ...call, notJson } : call));
    } else {
      if (!options.mustBeCall && !looksLikeCall(body)) return undefined;
      return read.atEnd ? { error: read.message } : { error: read.message, offset: start + read.offset };
    }
  }
  return callsIn(values, options.mustBeCall, context);
}

/** A message, a transcript or a request: its calls are nested, and each is pointed at where it is. */
function nests(value: unknown): boolean {
  if (Array.isArray(value)) return value.some((v) => isObject(v) && typeof v.role === 'string');
  return isObject(value) && (typeof value.role === 'string' || Array.isArray(value.messages) || isObject(value.params) || isObject(value.result));
}

function callsIn(values: readonly unknown[], mustBeCall: boolean, context: NotationContext): ParseResult {
  const calls: Array<ParsedCall & { source?: object }> = [];
  let others = 0;
  for (const value of values) {
    const shape = callsFromValue(value);
    if (shape.kind === 'calls') {
      const nested = nests(value);
      calls.push(...shape.calls.map((c) => (nested && c.source ? { ...plainStringArguments(c, context.tools), source: c.source } : plainStringArguments(c, context.tools))));
    }
    else if (shape.kind === 'bare-name' && mustBeCall) calls.push({ name: shape.name, arguments: {} });
    else if (shape.kind === 'error') {
      if (shape.name !== undefined && isPlaceholderTool(shape.name, context.tools)) return { error: shape.message, placeholder: shape.name };
      return shape.name === undefined ? { error: shape.message } : { error: shape.message, tool: shape.name };
    } else others++;
  }
  if (calls.length === 0) {
    if (!mustBeCall) return [];
    const p = placeholderInCall('', values);
    if (p) return { error: 'placeholder', placeholder: p.token };
    return { error: 'Unexpected JSON that is not a tool call, expected `{"name": "...", "arguments": {...}}`' };
  }
  if (others > 0) return { error: `Unexpected JSON value that is not a tool call beside ${calls.length} call${calls.length === 1 ? '' : 's'}, expected only tool calls` };
  return calls;
}

interface JsonMatch {
  start: number;
  end: number;
  where: string;
  value?: unknown;
  error?: { message: string; offset?: number };
}

const trigger = /\[\s*\{\s*["']|\{\s*["']/g;
const lenient = { trailingCommas: true } as const;

/** JSON values of a call shape standing in prose: `{"name": "get_weather", "arguments": {...}}`. */
export const jsonNotation = defineNotation<JsonMatch>({
  name: 'name-arguments',
  description: 'a JSON (or Python-literal) object or array of a call shape, anywhere in prose',
  // Every trigger opens an object.
  find: prefiltered((text) => text.includes('{'), function* (text, context) {
    // Values a failed read left open fail the same way read on their own (see readJson): known
    // failures, so that text full of unclosed `{"` is read once, not once a brace.
    const failed = new Map<number, ReadResult<unknown>>();
    let i = 0;
    while (i < text.length) {
      trigger.lastIndex = i;
      const m = trigger.exec(text);
      if (!m) return;
      const at = m.index;
      // A comma before `}` or `]` is taken: Python and JavaScript write it (a Python list of
      // messages, a tool list written by hand), a model reads past it, and a value read whole
      // hides nothing after it. In a `json` fence or a tag it is still a finding.
      const read = failed.get(at) ?? readJson(text, at, lenient);
      if (!read.ok && read.open) for (const open of read.open) if (open > at) failed.set(open, read);
      if (read.ok) {
        yield { start: at, end: read.end, where: 'JSON tool call', value: read.value };
        i = read.end;
        continue;
      }
      if (m[0].endsWith("'")) {
        const py = readPythonLiteral(text, at);
        if (py.ok) {
          yield { start: at, end: py.end, where: 'Python dict tool call', value: py.value };
          i = py.end;
          continue;
        }
        // A printed value holding objects (`{'messages': [AIMessage(content='', ...)]}`) is code
        // where a literal was expected: what is inside is read by the notations of code, not as a broken call.
        if (/^[A-Za-z_][\w.]*[ \t]*\(/.test(text.slice(py.offset, py.offset + 100))) {
          i = at + 1;
          continue;
        }
      }
      // The same with JSON quotes, where what stands for a value is an SDK object (sdk-repr.ts reads it).
      const code = read.ok ? undefined : /^([A-Za-z_][\w.]*)[ \t]*\(/.exec(text.slice(read.offset, read.offset + 100));
      if (code && sdkClassOf(code[1]!) !== undefined) {
        i = at + 1;
        continue;
      }
      const end = context.paragraphEnd(at);
      const span = text.slice(at, Math.min(end, at + 4000));
      if (looksLikeCall(span)) {
        yield { start: at, end, where: 'JSON tool call', error: { message: read.message, ...(read.atEnd ? {} : { offset: read.offset }) } };
        i = end;
      } else if (read.open === undefined) {
        // Nested past the reader's depth limit (or past the stack): no call stands inside such a value, and reading from each of its brackets again would cost its depth each time.
        i = Math.max(at + 1, read.offset);
      } else i = at + 1;
    }
  }),
  parse(match, context) {
    if (match.error) return { error: match.error.message, ...(match.error.offset === undefined ? {} : { offset: match.error.offset }) };
    const shape = callsFromValue(match.value);
    // Any other JSON is data: it is read (so nothing inside it is taken for a call) and holds no call.
    if (shape.kind !== 'calls' && shape.kind !== 'error') return [];
    // Calls nested in a message or a request are pointed at one by one: read again, with offsets.
    const again = nests(match.value) ? readJson(context.text, match.start, { offsets: true, trailingCommas: true }) : undefined;
    const value = again?.ok ? again.value : match.value;
    return located(callsIn([value], false, context), 0);
  },
});

interface ObjectMatch {
  start: number;
  end: number;
  where: string;
  value: unknown;
}

/**
 * Object literals of a call shape written in code, with bare keys, single quotes and trailing
 * commas: the AI SDK's message part `{ type: 'tool-call', toolCallId: '1', toolName: 'x',
 * input: { a: 1 } }` (`args` in older versions), `{ tool: 'x', tool_input: {...} }`, a
 * request's `messages: [...]` holding them. A key whose value is an expression (a variable) is
 * left out of the arguments and listed in `unread`. Definitions (a `description`, a schema) are
 * no calls, and any other object is data: read whole, so nothing inside is taken for a call.
 */
function makeObjectNotation(inCode: boolean) {
  // In prose only bare keys (quoted ones are JSON, read above); in code both.
  const objectTrigger = inCode ? /\{[ \t\r\n]*(?:[A-Za-z_$][\w$]*|"[^"\n]*"|'[^'\n]*')[ \t]*:/g : /\{[ \t\r\n]*[A-Za-z_$][\w$]*[ \t]*:/g;
  return defineNotation<ObjectMatch>({
    name: 'js-object',
    description: 'an object literal of a call shape in code: `{ type: \'tool-call\', toolName: \'x\', input: { a: 1 } }`',
    // The trigger opens an object.
    find: prefiltered((text) => text.includes('{'), function* (text) {
      objectTrigger.lastIndex = 0;
      for (let m = objectTrigger.exec(text); m; m = objectTrigger.exec(text)) {
        const read = readCodeValue(text, m.index);
        if (!read.ok) continue;
        yield { start: m.index, end: read.end, where: 'object literal', value: read.value };
        objectTrigger.lastIndex = read.end;
      }
    }),
    parse(match, context): ParseResult {
      const value = plain(match.value);
      const shape = callsFromValue(value);
      // `{"messages": [AIMessage(..., tool_calls=[...])]}`: the SDK objects inside are read where they stand.
      if (shape.kind !== 'calls' && holdsSdkObject(match.value, 0)) return undefined;
      if (shape.kind === 'error' || shape.kind !== 'calls') return [];
      const calls = shapeCalls(value, match.start);
      // In code only the prompt's tools are called: a parser's test data (`{"name": "a", ...}`) is data.
      return inCode && Array.isArray(calls) ? calls.filter((c) => context.tools.has(c.name)) : calls;
    },
  });
}

/** Whether a value read in code holds an SDK object that carries a call or a result (sdk-repr.ts), a few levels deep. */
function holdsSdkObject(value: unknown, depth: number): boolean {
  if (value instanceof NestedCall) return sdkClassOf(value.call.name) !== undefined;
  if (depth > 8 || typeof value !== 'object' || value === null) return false;
  return (Array.isArray(value) ? value : Object.values(value)).some((v) => holdsSdkObject(v, depth + 1));
}

/** Call-shaped object literals in code fences. */
export const codeObjectNotation = makeObjectNotation(true);
/** Call-shaped object literals with bare keys in prose (a TypeScript message list pasted as text). */
export const proseObjectNotation = makeObjectNotation(false);
