/**
 * Moonshot's Kimi K2: `<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Beijing"}<|tool_call_end|>`,
 * inside `<|tool_calls_section_begin|>...<|tool_calls_section_end|>`. The call id is the tool's
 * name, optionally prefixed with `functions.`, and its index after `:`; the arguments are JSON.
 * The tokens named in prose, with no such id after them, hold no call.
 */
import { readJson, skipWhitespace } from '../json.js';
import { defineNotation } from '../notation.js';
import { tokenPairs, within, type TokenSpan } from './tokens.js';

/** A place between the notation's two tokens (`tokenPairs`). */
type KimiMatch = TokenSpan;

const BEGIN = '<|tool_call_begin|>';
const ARGS = '<|tool_call_argument_begin|>';
const END = '<|tool_call_end|>';
const WHERE = 'the `<|tool_call_begin|>` block';
/** `functions.get_weather:0` (or `get_weather:0`) then the argument token. */
const callId = /^[ \t\r\n]*(?:functions\.)?([A-Za-z_][\w.-]*):(\d+)[ \t\r\n]*<\|tool_call_argument_begin\|>/;

export const kimiNotation = defineNotation<KimiMatch>({
  name: 'kimi-tokens',
  description: 'Kimi K2: `<|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{...}<|tool_call_end|>`',
  *find(text, context) {
    if (!text.includes(ARGS)) return;
    yield* tokenPairs(text, BEGIN, END, (bodyStart, next) => Math.min(context.paragraphEnd(bodyStart), next));
  },
  parse(match, context) {
    const { text } = context;
    const body = text.slice(match.bodyStart, match.bodyEnd);
    const id = callId.exec(body);
    if (!id) return undefined;
    const name = id[1]!;
    const k = skipWhitespace(text, match.bodyStart + id[0].length);
    const read = readJson(text, k);
    if (!read.ok || read.end > match.bodyEnd) {
      return { error: within(read.ok ? `Unexpected text after the arguments of \`${name}\`, expected \`${END}\`` : read.message, WHERE), ...(read.ok ? {} : { offset: read.offset }), tool: name };
    }
    if (skipWhitespace(text, read.end) < match.bodyEnd) return { error: `Unexpected text after the arguments of \`${name}\` in ${WHERE}, expected \`${END}\``, offset: skipWhitespace(text, read.end), tool: name };
    if (!match.closed) return { error: `Unclosed \`${BEGIN}\` block, expected \`${END}\` after the arguments of \`${name}\``, tool: name };
    return [{ name, arguments: read.value }];
  },
});
