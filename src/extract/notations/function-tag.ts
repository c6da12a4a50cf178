/**
 * `<function=name>...</function>`, in two dialects that share the opening tag:
 * - Llama 3.x's: a JSON object of arguments inside (`<function=get_weather>{"city": "Paris"}</function>`);
 * - Qwen3-Coder's and OpenHands': one `<parameter=key>value</parameter>` per argument, values
 *   typed by the tool's schema.
 */
import { readJsonSequence, skipWhitespace } from '../json.js';
import { defineNotation, prefiltered, type ParseResult } from '../notation.js';
import { isPlaceholderTool } from '../placeholder.js';
import { typedCall } from './anthropic-xml.js';

interface FunctionMatch {
  start: number;
  end: number;
  where: string;
  name: string;
  bodyStart: number;
  bodyEnd: number;
  closed: boolean;
}

const OPEN = '<function=';
const CLOSE = '</function>';

function parameters(text: string, start: number, end: number, name: string): Array<[string, string]> | { error: string; offset: number } {
  const params: Array<[string, string]> = [];
  const open = /<parameter=([^>\n]*)>/g;
  open.lastIndex = start;
  let i = start;
  for (;;) {
    const k = skipWhitespace(text, i);
    if (k >= end) return params;
    open.lastIndex = k;
    const m = open.exec(text);
    if (!m || m.index !== k || open.lastIndex > end) return { error: `Unexpected text in \`<function=${name}>\`, expected \`<parameter=name>value</parameter>\``, offset: k };
    const key = m[1]!.trim().replace(/^["']|["']$/g, '');
    const close = text.indexOf('</parameter>', open.lastIndex);
    const next = text.indexOf('<parameter=', open.lastIndex);
    // A missing `</parameter>` before the next parameter (or the function's end): Qwen3-Coder's parser accepts it.
    const valueEnd = close !== -1 && close < end && (next === -1 || close < next) ? close : next !== -1 && next < end ? next : end;
    params.push([key, text.slice(open.lastIndex, valueEnd)]);
    i = valueEnd === close ? close + '</parameter>'.length : valueEnd;
  }
}

export const functionTagNotation = defineNotation<FunctionMatch>({
  name: 'llama',
  description: '`<function=name>` with a JSON object (Llama) or `<parameter=key>` elements (Qwen3-Coder, OpenHands)',
  find: prefiltered((text) => text.includes(OPEN), function* (text, context) {
    // The first close after the current tag, kept while tags open before it (see hermes.ts).
    let close = text.indexOf(CLOSE);
    for (let at = text.indexOf(OPEN); at !== -1; ) {
      const open = /<function=([^>\n]*)>/y;
      open.lastIndex = at;
      const m = open.exec(text);
      if (!m) {
        at = text.indexOf(OPEN, at + 1);
        continue;
      }
      const name = m[1]!.trim().replace(/^["']|["']$/g, '');
      const bodyStart = open.lastIndex;
      if (close !== -1 && close < bodyStart) close = text.indexOf(CLOSE, bodyStart);
      const reopen = text.indexOf(OPEN, bodyStart);
      const where = `\`<function=${name}>\` block`;
      if (close === -1 || (reopen !== -1 && reopen < close)) {
        const k = skipWhitespace(text, bodyStart);
        if (text[k] === '{' || text.startsWith('<parameter=', k)) {
          const end = reopen !== -1 ? Math.min(reopen, context.paragraphEnd(bodyStart)) : context.paragraphEnd(bodyStart);
          yield { start: at, end, where, name, bodyStart, bodyEnd: end, closed: false };
        }
        at = reopen;
        continue;
      }
      const end = close + CLOSE.length;
      yield { start: at, end, where, name, bodyStart, bodyEnd: close, closed: true };
      at = text.indexOf(OPEN, end);
    }
  }),
  parse(match, context): ParseResult {
    const { text } = context;
    const { name, where } = match;
    if (!match.closed) return { error: `Unclosed ${where}, expected \`</function>\` after the arguments`, tool: name };
    const k = skipWhitespace(text, match.bodyStart);
    // `<function=...></function>` in a sentence names the format; it holds no call.
    if (k >= match.bodyEnd && isPlaceholderTool(name, context.tools)) return [];
    if (text.startsWith('<parameter=', k)) {
      const params = parameters(text, k, match.bodyEnd, name);
      if (!Array.isArray(params)) return { error: params.error, offset: params.offset, tool: name };
      return [{ ...typedCall(name, params, context), notation: 'qwen3-coder-xml' }];
    }
    let args: unknown = {};
    if (k < match.bodyEnd) {
      const body = text.slice(match.bodyStart, match.bodyEnd);
      const read = readJsonSequence(body);
      if (!read.ok) return read.atEnd ? { error: read.message, tool: name } : { error: read.message, offset: match.bodyStart + read.offset, tool: name };
      if (read.value.length !== 1 || typeof read.value[0] !== 'object' || read.value[0] === null || Array.isArray(read.value[0])) {
        return { error: `Unexpected JSON in ${where}, expected one object of arguments`, tool: name };
      }
      args = read.value[0];
    }
    if (!/^[A-Za-z0-9_.:-]+$/.test(name) && !/[{<$]/.test(name)) return { error: `Unexpected tool name \`${name}\` in ${where}, expected letters, digits, \`_\`, \`.\` or \`-\``, tool: name };
    return [{ name, arguments: args }];
  },
});
