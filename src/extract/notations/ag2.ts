/**
 * AG2 / AutoGen console transcripts: the agent prints a suggested call as a banner naming the
 * tool, then `Arguments:` and the arguments as JSON on the lines after:
 *
 *     ***** Suggested tool call (call_abc123): weather_forecast *****
 *     Arguments:
 *     {"location": "New York"}
 *     ****************************************************************
 *
 * Older releases print `***** Suggested function call: name *****` (no id) the same way. The
 * call is placed at its banner line. `***** Response from calling tool (...) *****` banners are
 * results, not calls.
 */
import { describeChar, readJson, skipWhitespace } from '../json.js';
import { defineNotation, prefiltered, type ParseResult } from '../notation.js';
import { within } from './tokens.js';

interface Ag2Match {
  start: number;
  end: number;
  where: string;
  name: string;
  /** Where the arguments start (past `Arguments:` and white space). */
  argsStart: number;
}

const banner = /^[ \t]*\*{3,}[ \t]*Suggested (?:tool|function) call(?:[ \t]*\([^)\n]*\))?:[ \t]*([A-Za-z_][\w.-]*)[ \t]*\*{3,}[ \t]*\r?$/gm;
const argumentsLabel = /^[ \t]*Arguments:[ \t]*/;

export const ag2Notation = defineNotation<Ag2Match>({
  name: 'ag2',
  description: 'AG2/AutoGen console transcripts: `***** Suggested tool call (id): name *****`, then `Arguments:` and a JSON object',
  find: prefiltered((text) => text.includes('Suggested '), function* (text) {
    banner.lastIndex = 0;
    for (let m = banner.exec(text); m; m = banner.exec(text)) {
      let next = m.index + m[0].length + 1;
      if (text[next - 1] !== '\n') continue;
      const lineEnd = text.indexOf('\n', next);
      const label = argumentsLabel.exec(text.slice(next, lineEnd === -1 ? text.length : lineEnd));
      if (!label) continue;
      const argsStart = skipWhitespace(text, next + label[0].length);
      // The arguments end where JSON reading ends; a broken value ends at its line.
      const read = readJson(text, argsStart);
      const argsLineEnd = text.indexOf('\n', argsStart);
      const end = read.ok ? read.end : argsLineEnd === -1 ? text.length : argsLineEnd;
      yield { start: m.index, end: Math.max(end, argsStart), where: `\`Suggested tool call\` of \`${m[1]}\``, name: m[1]!, argsStart };
      next = Math.max(end, next);
      banner.lastIndex = next;
    }
  }),
  parse(match, { text }): ParseResult {
    const { name, argsStart } = match;
    const read = readJson(text, argsStart);
    if (!read.ok) {
      return read.atEnd
        ? { error: within(read.message, `the arguments of \`${name}\``), tool: name }
        : { error: within(read.message, `the arguments of \`${name}\``), offset: read.offset, tool: name };
    }
    // AG2 prints the arguments string as the model wrote it: a JSON string holding the object is read through.
    let args = read.value;
    if (typeof args === 'string') {
      const inner = readJson(args, skipWhitespace(args, 0));
      if (inner.ok && skipWhitespace(args, inner.end) === args.length) args = inner.value;
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return { error: `Unexpected ${describeChar(text, argsStart)} after \`Arguments:\` of \`${name}\`, expected a JSON object`, offset: argsStart, tool: name };
    }
    return [{ name, arguments: args }];
  },
});
