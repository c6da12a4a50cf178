/**
 * MeetKai Functionary's prompt formats, each a recipient then JSON arguments:
 * - v1: `<|START_OF_FUNCTION_CALL|>get_weather:\n{"city": "Paris"}<|END_OF_FUNCTION_CALL|>`;
 * - v2: `<|from|>assistant\n<|recipient|>get_weather\n<|content|>{"city": "Paris"}`, the content
 *   running to the next `<|from|>`, `<|stop|>`, `<|eot_id|>`/`<|end_of_text|>` or blank line;
 * - v2.5 (Llama 3): `<|reserved_special_token_249|>get_weather\n{"city": "Paris"}`;
 * - v3 (Llama 3): `>>>get_weather\n{"city": "Paris"}`, often glued to the end of a text line.
 *
 * Not calls: the recipient `all` (text for the user), a message from anyone but the assistant (a
 * function's result), and a body that is not JSON (code for the `python` interpreter, a
 * `>>>${recipient}` format description).
 */
import { describeChar, readJson, skipWhitespace } from '../json.js';
import { defineNotation, type NotationMatch, type ParseFailure } from '../notation.js';
import { within } from './tokens.js';

type Form = 'v1' | 'v2' | 'v2.5' | 'v3';

interface FunctionaryMatch extends NotationMatch {
  form: Form;
  /** Just past the opening token. */
  open: number;
  /** Where the message's content ends (its closing token, the next message, a blank line). */
  bodyEnd: number;
}

const V1 = '<|START_OF_FUNCTION_CALL|>';
const V1_END = '<|END_OF_FUNCTION_CALL|>';
const FROM = '<|from|>';
const RECIPIENT = '<|recipient|>';
const CONTENT = '<|content|>';
const V25 = '<|reserved_special_token_249|>';
const V3 = '>>>';
/** `<|from|>role\n<|recipient|>name\n<|content|>` fits in this many characters. */
const MAX_HEADER = 300;
const opening = /<\|START_OF_FUNCTION_CALL\|>|<\|from\|>|<\|reserved_special_token_249\|>|>>>/g;
/** Where a message's content stops: any opening above, and the end-of-message tokens. */
const closers = [V1_END, FROM, V25, V3, V1, '<|stop|>', '<|eot_id|>', '<|eom_id|>', '<|end_of_text|>', '<|start_header_id|>', '<|END_OF_ASSISTANT|>', '<|END_OF_FUNCTION_RESULT|>'];
/** A v3 recipient: `>>>name` then the line ends (`>>> ` with a space is a Python prompt). */
const v3Recipient = /[A-Za-z_$][\w.${}-]*[ \t]*\r?\n/y;

function formOf(token: string): Form {
  if (token === V1) return 'v1';
  if (token === FROM) return 'v2';
  if (token === V25) return 'v2.5';
  return 'v3';
}

/** The first closer in `[from, limit)`, or `limit`. Only `<` and `>` can start one. */
function closerIn(text: string, from: number, limit: number): number {
  for (let i = from; i < limit; i++) {
    const c = text.charCodeAt(i);
    if ((c === 60 || c === 62) && closers.some((t) => text.startsWith(t, i))) return i;
  }
  return limit;
}

/** A v2 header after `<|from|>`: `role`, `<|recipient|>name`, `<|content|>` (offsets relative to `open`). */
function v2Header(text: string, open: number): { role: string; recipient: string; content: number } | undefined {
  let header = text.slice(open, open + MAX_HEADER);
  const next = header.indexOf(FROM);
  if (next !== -1) header = header.slice(0, next);
  const r = header.indexOf(RECIPIENT);
  const c = header.indexOf(CONTENT);
  if (r === -1 || c === -1 || r > c) return undefined;
  return { role: header.slice(0, r).trim(), recipient: header.slice(r + RECIPIENT.length, c).trim(), content: c };
}

/** The rest of the line from `from` (without the line break) and where the next line starts. */
function lineAt(text: string, from: number, limit: number): { value: string; next: number } {
  let end = from;
  while (end < limit && text[end] !== '\n') end++;
  return { value: text.slice(from, end).replace(/\r$/, ''), next: Math.min(end + 1, limit) };
}

export const functionaryNotation = defineNotation<FunctionaryMatch>({
  name: 'functionary',
  description: 'MeetKai Functionary: `<|START_OF_FUNCTION_CALL|>name:` (v1), `<|from|>assistant <|recipient|>name <|content|>{...}` (v2), `<|reserved_special_token_249|>name` (v2.5), `>>>name` (v3)',
  *find(text, context) {
    opening.lastIndex = 0;
    for (let m = opening.exec(text); m; m = opening.exec(text)) {
      const at = m.index;
      const open = at + m[0].length;
      const form = formOf(m[0]);
      if (form === 'v3') {
        v3Recipient.lastIndex = open;
        if (!v3Recipient.test(text)) continue;
      }
      let from = open;
      if (form === 'v2') {
        const header = v2Header(text, open);
        if (!header) continue;
        from = open + header.content + CONTENT.length;
      }
      const limit = context.paragraphEnd(from);
      const bodyEnd = closerIn(text, from, limit);
      const end = form === 'v1' && text.startsWith(V1_END, bodyEnd) ? bodyEnd + V1_END.length : bodyEnd;
      yield { start: at, end, form, open, bodyEnd };
      opening.lastIndex = Math.max(bodyEnd, open);
    }
  },
  parse(match, { text }) {
    let name: string;
    let argsStart: number;
    if (match.form === 'v2') {
      const header = v2Header(text, match.open);
      // The author: a function's name here marks its result.
      if (!header || header.role !== 'assistant') return undefined;
      name = header.recipient;
      argsStart = match.open + header.content + CONTENT.length;
    } else {
      const line = lineAt(text, match.open, match.bodyEnd);
      name = line.value.trim();
      if (match.form === 'v1') {
        // `name:` then the JSON on the next lines.
        if (!name.endsWith(':')) return undefined;
        name = name.slice(0, -1).trim();
      }
      argsStart = line.next;
    }
    if (name === 'all' || name === '' || /\s/.test(name)) return undefined;
    const k = skipWhitespace(text, argsStart);
    // Code for `python`, text, or a `${content}` slot: not JSON arguments.
    if (k >= match.bodyEnd || (text[k] !== '{' && text[k] !== '[')) return undefined;
    const where = `the Functionary call to \`${name}\``;
    const body = text.slice(k, match.bodyEnd);
    const read = readJson(body, 0);
    if (!read.ok) {
      // `[x for x in y]` is Python for the interpreter; only an object was meant as arguments.
      if (text[k] === '[') return undefined;
      const failure: ParseFailure = { error: within(read.message, where), tool: name };
      if (!read.atEnd) failure.offset = k + read.offset;
      return failure;
    }
    const rest = skipWhitespace(body, read.end);
    if (rest < body.length) return { error: `Unexpected ${describeChar(body, rest)} after the arguments in ${where}, expected the end of the message`, offset: k + rest, tool: name };
    if (match.form === 'v1' && !text.startsWith(V1_END, match.bodyEnd)) {
      return { error: `Unclosed \`${V1}\` call to \`${name}\`, expected \`${V1_END}\` after the arguments`, tool: name };
    }
    return [{ name, arguments: read.value }];
  },
});
