/**
 * Llama 3.1 `<|python_tag|>`: what follows up to `<|eom_id|>` (or `<|eot_id|>`) is
 * - a built-in tool call, `brave_search.call(query="...")`, named without `.call`;
 * - a JSON call, `{"name": "x", "parameters": {...}}` (any call shape);
 * - Python for the code interpreter (`def is_prime(n): ...`, `l.remove(3)`), which is not a
 *   call, and neither is the tag named in prose.
 */
import { readJson, skipWhitespace } from '../json.js';
import { defineNotation, isParseFailure, type NotationMatch, type ParseFailure } from '../notation.js';
import { readPythonCall } from '../python.js';
import { callsFromValue } from '../../shapes/calls.js';
import { jsonBody } from './json.js';
import { pythonArguments } from './pythonic.js';
import { within } from './tokens.js';

interface PythonTagMatch extends NotationMatch {
  bodyStart: number;
}

const TAG = '<|python_tag|>';
const WHERE = 'the `<|python_tag|>` call';
/** Where the tagged message ends. */
const closers = ['<|eom_id|>', '<|eot_id|>', '<|end_of_text|>', '<|start_header_id|>', TAG];
const builtin = /[A-Za-z_]\w*\.call[ \t]*\(/y;

/** The first closer in `[from, limit)`, or `limit`. */
function closerIn(text: string, from: number, limit: number): number {
  for (let i = text.indexOf('<|', from); i !== -1 && i < limit; i = text.indexOf('<|', i + 2)) {
    if (closers.some((c) => text.startsWith(c, i))) return i;
  }
  return limit;
}

export const pythonTagNotation = defineNotation<PythonTagMatch>({
  name: 'llama-python-tag',
  description: 'Llama 3.1 `<|python_tag|>`: a built-in call `brave_search.call(query="...")` or a JSON `{"name", "parameters"}` call, up to `<|eom_id|>`',
  *find(text, context) {
    let at = text.indexOf(TAG);
    while (at !== -1) {
      const bodyStart = at + TAG.length;
      const end = closerIn(text, bodyStart, context.paragraphEnd(bodyStart));
      yield { start: at, end, bodyStart };
      at = text.indexOf(TAG, Math.max(end, bodyStart));
    }
  },
  parse(match, context) {
    const { text } = context;
    const k = skipWhitespace(text, match.bodyStart);
    if (k >= match.end) return undefined;
    const body = text.slice(k, match.end);
    builtin.lastIndex = 0;
    if (builtin.test(body)) {
      const r = readPythonCall(body, 0);
      if (!r.ok) {
        // `x.call(...)` that is not a literal call is code (`client.call(fetch())`), unless it was written as `name=value`.
        if (!r.sawKeyword) return undefined;
        const failure: ParseFailure = { error: within(r.message, WHERE), offset: k + r.offset };
        if (r.names[0] !== undefined) failure.tool = r.names[0].replace(/\.call$/, '');
        return failure;
      }
      const rest = skipWhitespace(body, r.end);
      // More code after the call: a script, not a call.
      if (rest < body.length) return undefined;
      const call = r.calls[0]!;
      const name = call.name.replace(/\.call$/, '');
      return [{ name, arguments: pythonArguments(call, context.tools.get(name)) }];
    }
    if (body[0] === '{') {
      const result = jsonBody(text, k, match.end, { mustBeCall: true }, context);
      if (isParseFailure(result)) return { ...result, error: result.placeholder === undefined ? within(result.error, WHERE) : result.error };
      return result;
    }
    if (body[0] === '[') {
      // A list of JSON calls; any other list is Python.
      const read = readJson(body, 0);
      if (!read.ok || skipWhitespace(body, read.end) < body.length) return undefined;
      const shape = callsFromValue(read.value);
      if (shape.kind !== 'calls') return undefined;
      return jsonBody(text, k, match.end, { mustBeCall: true }, context);
    }
    return undefined;
  },
});
