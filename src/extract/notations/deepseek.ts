/**
 * DeepSeek's tool-call tokens (full-width bars `｜` and `▁` for spaces), usually inside
 * `<｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜>`:
 * - V3 / R1: `<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather` then a ```` ```json ```` fence
 *   holding the arguments, then `<｜tool▁call▁end｜>`;
 * - V3.1: `<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜>`.
 *
 * A call whose arguments are not JSON is not read as one: a ```` ```python ```` fence of code for
 * the code interpreter, or the words of a format description (`tool_call_name<｜tool▁sep｜>tool_call_arguments`).
 */
import { describeChar, readJson, skipWhitespace } from '../json.js';
import { defineNotation, type ParseFailure, type ParseResult } from '../notation.js';
import { tokenPairs, within, type TokenSpan } from './tokens.js';

/** A place between the notation's two tokens (`tokenPairs`). */
type DeepseekMatch = TokenSpan;

const BEGIN = '<｜tool▁call▁begin｜>';
const SEP = '<｜tool▁sep｜>';
const END = '<｜tool▁call▁end｜>';
/** Any DeepSeek special token: an unclosed call stops at the next one. */
const TOKEN = '<｜';

/** The arguments: exactly one JSON value in `text.slice(start, end)` (after optional whitespace). */
function readArguments(text: string, start: number, end: number, where: string, tool: string): { ok: true; value: unknown } | ParseFailure {
  const body = text.slice(start, end);
  const read = readJson(body, 0);
  if (!read.ok) {
    const failure: ParseFailure = { error: within(read.message, where), tool };
    if (!read.atEnd) failure.offset = start + read.offset;
    return failure;
  }
  const rest = skipWhitespace(body, read.end);
  if (rest < body.length) return { error: `Unexpected ${describeChar(body, rest)} after the arguments in ${where}, expected \`${END}\``, offset: start + rest, tool };
  return { ok: true, value: read.value };
}

const plainName = /^[^\s<>{}()[\]"'`]+$/;

export const deepseekNotation = defineNotation<DeepseekMatch>({
  name: 'deepseek-tokens',
  description: 'DeepSeek V3/R1/V3.1 tool-call tokens: `<｜tool▁call▁begin｜>[function<｜tool▁sep｜>]name…arguments<｜tool▁call▁end｜>`',
  *find(text, context) {
    // Unclosed: up to the next DeepSeek token other than the separator, within the paragraph.
    yield* tokenPairs(text, BEGIN, END, (bodyStart, next) => {
      const limit = Math.min(context.paragraphEnd(bodyStart), next);
      for (let j = text.indexOf(TOKEN, bodyStart); j !== -1 && j < limit; j = text.indexOf(TOKEN, j + TOKEN.length)) {
        if (!text.startsWith(SEP, j)) return j;
      }
      return limit;
    });
  },
  parse(match, { text }): ParseResult {
    const { bodyStart, bodyEnd } = match;
    // Offsets below are into the body; every search stays inside it.
    const body = text.slice(bodyStart, bodyEnd);
    const sep = body.indexOf(SEP);
    // No separator: the token named in prose, or a broken fragment that names no tool.
    if (sep === -1) return undefined;
    const head = body.slice(0, sep).trim();
    let name: string;
    let argsStart: number;
    if (head === 'function') {
      // V3 / R1: the name is the rest of the separator's line; the arguments follow in a fence.
      const nameStart = sep + SEP.length;
      let lineEnd = body.indexOf('\n', nameStart);
      if (lineEnd === -1) lineEnd = body.length;
      name = body.slice(nameStart, lineEnd).trim();
      argsStart = lineEnd;
    } else {
      name = head;
      argsStart = sep + SEP.length;
    }
    if (!plainName.test(name)) return undefined;
    const where = `the DeepSeek call to \`${name}\``;
    let k = skipWhitespace(body, argsStart);
    let argsEnd = body.length;
    if (body.startsWith('```', k)) {
      let langEnd = body.indexOf('\n', k);
      if (langEnd === -1) langEnd = body.length;
      const lang = body.slice(k + 3, langEnd).trim().toLowerCase();
      // Code for the interpreter (```python), not JSON arguments.
      if (lang !== '' && lang !== 'json') return undefined;
      const fenceEnd = body.lastIndexOf('```');
      if (fenceEnd <= langEnd) return { error: `Unclosed fence in ${where}, expected a closing fence after the arguments`, offset: bodyStart + k, tool: name };
      const after = skipWhitespace(body, fenceEnd + 3);
      if (after < body.length) return { error: `Unexpected ${describeChar(body, after)} after the arguments fence in ${where}, expected \`${END}\``, offset: bodyStart + after, tool: name };
      k = langEnd;
      argsEnd = fenceEnd;
    } else if (body[k] !== '{' && body[k] !== '[') {
      // Words where the arguments go (`tool_call_arguments`) describe the format; they are not arguments.
      return undefined;
    }
    const args = readArguments(text, bodyStart + k, bodyStart + argsEnd, where, name);
    if (!('ok' in args)) return args;
    if (!match.closed) return { error: `Unclosed \`${BEGIN}\` call to \`${name}\`, expected \`${END}\` after the arguments`, tool: name };
    return [{ name, arguments: args.value }];
  },
});
