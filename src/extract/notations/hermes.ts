/** `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`: Hermes, Qwen 2.5 and most open-weight chat templates; GLM-4.5's key/value pairs in the same tags. */
import { skipWhitespace } from '../json.js';
import { defineNotation, prefiltered, type NotationContext, type ParsedCall, type ParseFailure } from '../notation.js';
import { typedCall } from './anthropic-xml.js';
import { jsonBody } from './json.js';

interface HermesMatch {
  start: number;
  end: number;
  where: string;
  bodyStart: number;
  bodyEnd: number;
  closed: boolean;
}

const glmName = /^\s*([A-Za-z_][\w.:-]*)(?=\s*(?:<arg_key>|$))/;
const KEY = '<arg_key>';
const KEY_END = '</arg_key>';
const VALUE = '<arg_value>';
const VALUE_END = '</arg_value>';

/**
 * GLM-4.5's `<tool_call>get_weather<arg_key>city</arg_key><arg_value>Beijing</arg_value></tool_call>`:
 * a call when it has at least one argument, or names a tool the prompt has (a bare word in the
 * tags is otherwise a mention). Values are typed by the tool's schema, as GLM's parsers type them.
 * Read left to right, each tag searched for once: linear in the body, whatever it holds.
 */
function glmCall(body: string, bodyStart: number, context: NotationContext): ParsedCall | ParseFailure | undefined {
  const m = glmName.exec(body);
  if (!m) return undefined;
  const name = m[1]!;
  const pairs: Array<readonly [string, string]> = [];
  let i = skipWhitespace(body, m[0].length);
  while (i < body.length) {
    if (!body.startsWith(KEY, i)) return { error: `Unexpected text after the arguments of \`${name}\`, expected \`${KEY}\` or \`</tool_call>\``, offset: bodyStart + i, tool: name };
    const keyEnd = body.indexOf(KEY_END, i + KEY.length);
    if (keyEnd === -1) return { error: `Unclosed \`${KEY}\`, expected \`${KEY_END}\``, offset: bodyStart + i + KEY.length, tool: name };
    const key = body.slice(i + KEY.length, keyEnd).trim();
    i = skipWhitespace(body, keyEnd + KEY_END.length);
    if (!body.startsWith(VALUE, i)) return { error: `Unexpected text after \`${KEY}${key}${KEY_END}\`, expected \`${VALUE}\``, offset: bodyStart + i, tool: name };
    const valueEnd = body.indexOf(VALUE_END, i + VALUE.length);
    if (valueEnd === -1) return { error: `Unclosed \`${VALUE}\` of \`${key}\`, expected \`${VALUE_END}\``, offset: bodyStart + i + VALUE.length, tool: name };
    pairs.push([key, body.slice(i + VALUE.length, valueEnd)]);
    i = skipWhitespace(body, valueEnd + VALUE_END.length);
  }
  if (pairs.length === 0 && !context.tools.has(name)) return undefined;
  return typedCall(name, pairs, context);
}

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';

export const hermesNotation = defineNotation<HermesMatch>({
  name: 'hermes',
  description: '`<tool_call>` tags around a JSON call',
  find: prefiltered((text) => text.includes(OPEN), function* (text, context) {
    // The first close after the current tag, kept while tags open before it: text full of
    // unclosed tags is searched once for a close, not once a tag.
    let close = text.indexOf(CLOSE);
    for (let at = text.indexOf(OPEN); at !== -1; ) {
      const bodyStart = at + OPEN.length;
      if (close !== -1 && close < bodyStart) close = text.indexOf(CLOSE, bodyStart);
      const reopen = text.indexOf(OPEN, bodyStart);
      if (close === -1 || (reopen !== -1 && reopen < close)) {
        const k = skipWhitespace(text, bodyStart);
        // `<tool_call>` followed by prose is a mention of the tag; followed by JSON it is a call.
        if (text[k] === '{' || text[k] === '[') {
          const end = reopen !== -1 ? Math.min(reopen, context.paragraphEnd(bodyStart)) : context.paragraphEnd(bodyStart);
          yield { start: at, end, where: '`<tool_call>` block', bodyStart, bodyEnd: end, closed: false };
        }
        at = reopen;
        continue;
      }
      const end = close + CLOSE.length;
      yield { start: at, end, where: '`<tool_call>` block', bodyStart, bodyEnd: close, closed: true };
      at = text.indexOf(OPEN, end);
    }
  }),
  parse(match, context) {
    if (!match.closed) return { error: 'Unclosed `<tool_call>` block, expected `</tool_call>` after the call' };
    const body = context.text.slice(match.bodyStart, match.bodyEnd);
    // Tags inside (`<function=name>` in Qwen3-Coder's template) are read by their own notation.
    if (body.trimStart().startsWith('<')) return undefined;
    // A call written as `name key=value` or `name(...)` is meant as a call even without JSON: never skip it.
    // Whitespace between the name and a key: one place to split a long word, so the test stays linear.
    if (/^\s*[A-Za-z_][\w.-]*(?:\s*\(|\s+[A-Za-z_][\w-]*\s*=)/.test(body) && !/[{[]/.test(body)) {
      return { error: 'Unexpected text in `<tool_call>` block, expected a JSON object with `name` and `arguments`' };
    }
    // GLM-4.5 and later: the name, then `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs, values typed by the schema.
    const glm = glmCall(body, match.bodyStart, context);
    if (glm) return 'error' in glm ? glm : [glm];
    // `<tool_call></tool_call>` or `` `<tool_call>` and `</tool_call>` `` in prose names the tags; it holds no call.
    if (!/[{[(:"]/.test(body)) return [];
    // Hermes' own parser falls back to Python's literal_eval, so `{'name': ...}` is a call too.
    return jsonBody(context.text, match.bodyStart, match.bodyEnd, { mustBeCall: true, python: true, expectJson: true }, context);
  },
});
