/**
 * Mistral's `[TOOL_CALLS]` control token:
 * - tokenizers V2/V3: `[TOOL_CALLS] [{"name": "x", "arguments": {...}, "id": "..."}, ...]` (a JSON
 *   list, or one object);
 * - V11 and later: `[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}`, optionally with
 *   `[CALL_ID]abc123` before `[ARGS]`; parallel calls repeat the token.
 *
 * `[TOOL_CALLS]` followed by anything else is the token named in prose.
 */
import { readJson, skipWhitespace } from '../json.js';
import { defineNotation, isParseFailure, type NotationMatch, type ParseFailure } from '../notation.js';
import { within } from './tokens.js';
import { jsonBody } from './json.js';

interface MistralMatch extends NotationMatch {
  /** `list`: a JSON call list after the token; `args`: `name[ARGS]{...}`. */
  form: 'list' | 'args';
  name?: string;
  /** Where the JSON starts, and where it ends (or where reading it failed). */
  jsonStart: number;
  jsonEnd: number;
  failure?: { message: string; offset?: number };
}

const TOKEN = '[TOOL_CALLS]';
const ARGS = '[ARGS]';
const CALL_ID = '[CALL_ID]';
const nameRe = /[A-Za-z_][\w.-]*/y;
const idRe = /[^\s[\]]*/y;

export const mistralNotation = defineNotation<MistralMatch>({
  name: 'mistral',
  description: 'Mistral `[TOOL_CALLS]`: a JSON list of `{"name", "arguments"}` calls, or `[TOOL_CALLS]name[ARGS]{...}` (tokenizer V11+)',
  *find(text, context) {
    let at = text.indexOf(TOKEN);
    while (at !== -1) {
      let from = at + TOKEN.length;
      const k = skipWhitespace(text, from);
      let jsonStart = -1;
      let form: MistralMatch['form'] = 'list';
      let name: string | undefined;
      if (text[k] === '[' || text[k] === '{') {
        // `[{` or `{"` opens JSON; `[TOOL_RESULTS]` or `[name(...)]` after the token does not.
        const c = text[skipWhitespace(text, k + 1)];
        if (text[k] === '[' ? c === '{' || c === ']' : c === '"' || c === '}') jsonStart = k;
      } else {
        nameRe.lastIndex = k;
        const m = nameRe.exec(text);
        if (m) {
          let i = nameRe.lastIndex;
          if (text.startsWith(CALL_ID, i)) {
            idRe.lastIndex = i + CALL_ID.length;
            idRe.exec(text);
            i = idRe.lastIndex;
          }
          if (text.startsWith(ARGS, i)) {
            form = 'args';
            name = m[0];
            jsonStart = skipWhitespace(text, i + ARGS.length);
          }
        }
      }
      if (jsonStart !== -1) {
        const read = readJson(text, jsonStart);
        const match: MistralMatch = { start: at, end: 0, form, jsonStart, jsonEnd: 0 };
        if (name !== undefined) match.name = name;
        if (read.ok) {
          match.end = match.jsonEnd = read.end;
        } else {
          // A broken call reaches to the next call or the end of its paragraph.
          const next = text.indexOf(TOKEN, jsonStart);
          const limit = context.paragraphEnd(jsonStart);
          // At least one character past the arguments' start, never past the text (`[ARGS]` at its very end).
          match.end = match.jsonEnd = Math.min(Math.max(next === -1 ? limit : Math.min(next, limit), jsonStart + 1), text.length);
          match.failure = read.atEnd ? { message: read.message } : { message: read.message, offset: read.offset };
        }
        yield match;
        from = match.end;
      }
      at = text.indexOf(TOKEN, from);
    }
  },
  parse(match, context) {
    const where = match.form === 'list' ? 'the `[TOOL_CALLS]` list' : `the \`[TOOL_CALLS]${match.name}[ARGS]\` call`;
    if (match.failure) {
      const failure: ParseFailure = { error: within(match.failure.message, where) };
      if (match.failure.offset !== undefined) failure.offset = match.failure.offset;
      if (match.name !== undefined) failure.tool = match.name;
      return failure;
    }
    if (match.form === 'args') {
      const read = readJson(context.text.slice(match.jsonStart, match.jsonEnd), 0);
      if (!read.ok) return { error: within(read.message, where), tool: match.name! };
      return [{ name: match.name!, arguments: read.value }];
    }
    const result = jsonBody(context.text, match.jsonStart, match.jsonEnd, { mustBeCall: true }, context);
    if (isParseFailure(result)) return { ...result, error: result.placeholder === undefined ? within(result.error, where) : result.error };
    return result;
  },
});
