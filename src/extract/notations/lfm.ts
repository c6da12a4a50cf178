/**
 * Liquid AI LFM2: `<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>`, a pythonic
 * call list between the tokens (a JSON call or list of calls is read too, as LFM2 does when the
 * system prompt asks for JSON). The tokens with anything else between them are named in prose.
 */
import { skipWhitespace } from '../json.js';
import { defineNotation, isParseFailure, type NotationMatch, type ParseFailure } from '../notation.js';
import { type PythonCall, readPythonCalls } from '../python.js';
import type { ToolSpec } from '../../tools/types.js';
import { jsonBody } from './json.js';

interface LfmMatch extends NotationMatch {
  bodyStart: number;
  bodyEnd: number;
  closed: boolean;
}

const BEGIN = '<|tool_call_start|>';
const END = '<|tool_call_end|>';
const WHERE = 'the `<|tool_call_start|>` block';
const callList = /\[[ \t\r\n]*[A-Za-z_][\w.]*[ \t]*\(/y;

function within(message: string, where: string): string {
  const i = message.indexOf(', expected');
  return i === -1 ? `${message} in ${where}` : `${message.slice(0, i)} in ${where}${message.slice(i)}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keyword arguments by name; positional ones take the schema's property order (or their index). */
function argumentsOf(call: PythonCall, tool: ToolSpec | undefined): Record<string, unknown> {
  const props = tool?.inputSchema.properties;
  const names = isObject(props) ? Object.keys(props) : [];
  const out: Record<string, unknown> = {};
  const set = (k: string, v: unknown) => Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  call.positional.forEach((v, i) => set(names[i] ?? String(i), v));
  for (const [k, v] of call.keywords) set(k, v);
  return out;
}

export const lfmNotation = defineNotation<LfmMatch>({
  name: 'lfm',
  description: 'Liquid AI LFM2: `<|tool_call_start|>[name(arg="value")]<|tool_call_end|>` (a pythonic call list, or JSON)',
  *find(text, context) {
    let close = -1;
    let at = text.indexOf(BEGIN);
    while (at !== -1) {
      const bodyStart = at + BEGIN.length;
      const next = text.indexOf(BEGIN, bodyStart);
      if (close !== Infinity && close < bodyStart) {
        close = text.indexOf(END, bodyStart);
        if (close === -1) close = Infinity;
      }
      if (close !== Infinity && (next === -1 || close < next)) yield { start: at, end: close + END.length, bodyStart, bodyEnd: close, closed: true };
      else {
        const stop = Math.min(context.paragraphEnd(bodyStart), next === -1 ? text.length : next);
        yield { start: at, end: stop, bodyStart, bodyEnd: stop, closed: false };
      }
      at = next;
    }
  },
  parse(match, context) {
    const { text } = context;
    const k = skipWhitespace(text, match.bodyStart);
    if (k >= match.bodyEnd) return undefined;
    const body = text.slice(k, match.bodyEnd);
    const unclosed: ParseFailure = { error: `Unclosed \`${BEGIN}\` block, expected \`${END}\` after the calls` };
    callList.lastIndex = 0;
    if (callList.test(body)) {
      const r = readPythonCalls(body, 0);
      if (!r.ok) {
        const failure: ParseFailure = { error: within(r.message, WHERE), offset: k + r.offset };
        if (r.names[0] !== undefined) failure.tool = r.names[0];
        return failure;
      }
      const rest = skipWhitespace(body, r.end);
      if (rest < body.length) return { error: `Unexpected text after the call list in ${WHERE}, expected \`${END}\``, offset: k + rest };
      if (!match.closed) return unclosed;
      return r.calls.map((call) => ({ name: call.name, arguments: argumentsOf(call, context.tools.get(call.name)) }));
    }
    // `<|tool_call_start|>` and `<|tool_call_end|>` named in a sentence hold no call.
    if (body[0] !== '{' && body[0] !== '[') return undefined;
    const result = jsonBody(text, k, match.bodyEnd, { mustBeCall: true }, context);
    if (isParseFailure(result)) return { ...result, error: result.placeholder === undefined ? within(result.error, WHERE) : result.error };
    if (!match.closed) return unclosed;
    return result;
  },
});
