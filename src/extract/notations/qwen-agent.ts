/**
 * Qwen-Agent's function-call template: `✿FUNCTION✿: get_weather` then `✿ARGS✿: {"city": "Paris"}`
 * on the next line; the arguments end at `✿RESULT✿`, `✿RETURN✿`, the next `✿FUNCTION✿`, or a
 * blank line.
 *
 * The template that explains the format (`✿FUNCTION✿: 工具名称，必须是[...]之一`, `✿ARGS✿: The input
 * of the tool`) names no tool and gives no JSON: not a call.
 */
import { describeChar, readJson, skipWhitespace } from '../json.js';
import { defineNotation, type NotationMatch, type ParseFailure } from '../notation.js';
import { within } from './tokens.js';

interface QwenAgentMatch extends NotationMatch {
  /** Just past `✿FUNCTION✿`. */
  nameStart: number;
  /** Just past `✿ARGS✿` and its colon. */
  argsStart: number;
  bodyEnd: number;
}

const FUNCTION = '✿FUNCTION✿';
const ARGS = '✿ARGS✿';
const stops = ['✿RESULT✿', '✿RETURN✿', FUNCTION];
const toolName = /^[A-Za-z_$<{[][\w.\-$<>{}[\]]*$/;

/** The first line break in `[from, limit)`, or `limit`. */
function lineEndIn(text: string, from: number, limit: number): number {
  let i = from;
  while (i < limit && text[i] !== '\n') i++;
  return i;
}

/** Past a colon (ASCII or full-width) and spaces after a marker. */
function afterColon(text: string, i: number): number {
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (text[i] === ':' || text[i] === '：') i++;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}

/** The first `✿` marker that ends the arguments in `[from, limit)`, or `limit`. */
function stopIn(text: string, from: number, limit: number): number {
  for (let i = text.indexOf('✿', from); i !== -1 && i < limit; i = text.indexOf('✿', i + 1)) {
    if (stops.some((s) => text.startsWith(s, i))) return i;
  }
  return limit;
}

export const qwenAgentNotation = defineNotation<QwenAgentMatch>({
  name: 'qwen-agent',
  description: 'Qwen-Agent: `✿FUNCTION✿: name` then `✿ARGS✿: {...}` on the next line',
  *find(text, context) {
    let at = text.indexOf(FUNCTION);
    while (at !== -1) {
      const nameStart = at + FUNCTION.length;
      const following = text.indexOf(FUNCTION, nameStart);
      // The name's line, up to the next marker at most (so a long line is read once).
      const lineEnd = lineEndIn(text, nameStart, following === -1 ? text.length : following);
      let next = nameStart;
      const k = skipWhitespace(text, lineEnd);
      // `✿ARGS✿` starts the next line; without it `✿FUNCTION✿` is named in prose or code.
      if (text.startsWith(ARGS, k) && text.lastIndexOf('\n', k) <= lineEnd) {
        const argsStart = afterColon(text, k + ARGS.length);
        const end = stopIn(text, argsStart, context.paragraphEnd(argsStart));
        yield { start: at, end, nameStart, argsStart, bodyEnd: end };
        next = end;
      }
      at = next === nameStart ? following : text.indexOf(FUNCTION, next);
    }
  },
  parse(match, { text }) {
    const lineEnd = lineEndIn(text, match.nameStart, match.end);
    const name = text.slice(afterColon(text, match.nameStart), lineEnd).trim();
    // A description of the slot (`工具名称，必须是[...]之一`, `The tool to use`) is not a name.
    if (!toolName.test(name)) return undefined;
    const k = skipWhitespace(text, match.argsStart);
    if (k >= match.bodyEnd || text[k] !== '{') return undefined;
    const where = `the \`✿ARGS✿\` of \`${name}\``;
    const body = text.slice(k, match.bodyEnd);
    const read = readJson(body, 0);
    if (!read.ok) {
      const failure: ParseFailure = { error: within(read.message, where), tool: name };
      if (!read.atEnd) failure.offset = k + read.offset;
      return failure;
    }
    const rest = skipWhitespace(body, read.end);
    if (rest < body.length) return { error: `Unexpected ${describeChar(body, rest)} after the arguments in ${where}, expected \`✿RESULT✿\` or the end of the call`, offset: k + rest, tool: name };
    return [{ name, arguments: read.value }];
  },
});
