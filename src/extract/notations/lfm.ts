/**
 * Liquid AI LFM2: `<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>`, a pythonic
 * call list between the tokens (a JSON call or list of calls is read too, as LFM2 does when the
 * system prompt asks for JSON). The tokens with anything else between them are named in prose.
 */
import { skipWhitespace } from '../json.js';
import { defineNotation, isParseFailure, type ParseFailure } from '../notation.js';
import { readPythonCalls } from '../python.js';
import { jsonBody } from './json.js';
import { pythonArguments } from './pythonic.js';
import { tokenPairs, within, type TokenSpan } from './tokens.js';

/** A place between the notation's two tokens (`tokenPairs`). */
type LfmMatch = TokenSpan;

const BEGIN = '<|tool_call_start|>';
const END = '<|tool_call_end|>';
const WHERE = 'the `<|tool_call_start|>` block';
const callList = /\[[ \t\r\n]*[A-Za-z_][\w.]*[ \t]*\(/y;

export const lfmNotation = defineNotation<LfmMatch>({
  name: 'lfm',
  description: 'Liquid AI LFM2: `<|tool_call_start|>[name(arg="value")]<|tool_call_end|>` (a pythonic call list, or JSON)',
  *find(text, context) {
    yield* tokenPairs(text, BEGIN, END, (bodyStart, next) => Math.min(context.paragraphEnd(bodyStart), next));
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
      return r.calls.map((call) => ({ name: call.name, arguments: pythonArguments(call, context.tools.get(call.name)) }));
    }
    // `<|tool_call_start|>` and `<|tool_call_end|>` named in a sentence hold no call.
    if (body[0] !== '{' && body[0] !== '[') return undefined;
    const result = jsonBody(text, k, match.bodyEnd, { mustBeCall: true }, context);
    if (isParseFailure(result)) return { ...result, error: result.placeholder === undefined ? within(result.error, WHERE) : result.error };
    if (!match.closed) return unclosed;
    return result;
  },
});
