/**
 * OpenAI harmony (gpt-oss): a call is an assistant message with a recipient in its header,
 * `<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}<|call|>`.
 * The recipient may stand in the role part instead (`<|start|>assistant to=functions.x<|channel|>...`),
 * and a completion may start at `<|channel|>` with no `<|start|>assistant` before it. The message ends
 * at `<|call|>`, `<|end|>`, `<|return|>`, the next `<|start|>`, or where the text stops.
 *
 * Not calls: a message whose author is a tool (`<|start|>functions.get_weather to=assistant...`, the
 * result), a message without a recipient, and a message to a tool whose body is not JSON (code for
 * the `python` tool). The name drops the `functions.` namespace; built-in tools keep theirs
 * (`browser.search`).
 */
import { describeChar, readJson, skipWhitespace } from '../json.js';
import { defineNotation, type NotationMatch, type ParseFailure } from '../notation.js';
import { within } from './tokens.js';

interface HarmonyMatch extends NotationMatch {
  /** Offset of the `<|message|>` token that ends the header. */
  message: number;
  bodyStart: number;
  bodyEnd: number;
  /** The message was cut at a blank line or the end of the text rather than closed by a token. */
  open: boolean;
}

const START = '<|start|>';
const CHANNEL = '<|channel|>';
const CONSTRAIN = '<|constrain|>';
const MESSAGE = '<|message|>';
const CLOSERS = ['<|call|>', '<|end|>', '<|return|>'];
/** A header is one short line of tokens and words; anything longer is prose around a stray token. */
const MAX_HEADER = 400;
const notRecipients = new Set(['assistant', 'user', 'system', 'developer', 'all']);

function closerAt(text: string, i: number): string | undefined {
  return CLOSERS.find((c) => text.startsWith(c, i));
}

export const harmonyNotation = defineNotation<HarmonyMatch>({
  name: 'harmony',
  description: 'OpenAI harmony (gpt-oss): `<|start|>assistant<|channel|>commentary to=functions.name <|constrain|>json<|message|>{...}<|call|>`',
  *find(text, context) {
    let header = -1;
    let i = text.indexOf('<|');
    while (i !== -1) {
      if (text.startsWith(START, i)) {
        header = i;
        i = text.indexOf('<|', i + START.length);
        continue;
      }
      if (text.startsWith(CHANNEL, i)) {
        if (header === -1) header = i;
        i = text.indexOf('<|', i + CHANNEL.length);
        continue;
      }
      if (text.startsWith(CONSTRAIN, i)) {
        i = text.indexOf('<|', i + CONSTRAIN.length);
        continue;
      }
      if (!text.startsWith(MESSAGE, i)) {
        // `<|end|>`, `<|call|>` or a token of some other format: no header is open after it.
        header = -1;
        i = text.indexOf('<|', i + 2);
        continue;
      }
      const bodyStart = i + MESSAGE.length;
      // The body runs to the closing token (or the next message), within its paragraph: prose that
      // mentions `<|message|>` must not swallow the text up to some later token.
      const limit = context.paragraphEnd(bodyStart);
      let bodyEnd = limit;
      let end = limit;
      let open = true;
      for (let j = text.indexOf('<|', bodyStart); j !== -1 && j < limit; j = text.indexOf('<|', j + 2)) {
        const closer = closerAt(text, j);
        if (closer !== undefined) {
          bodyEnd = j;
          end = j + closer.length;
          open = false;
          break;
        }
        if (text.startsWith(START, j)) {
          bodyEnd = end = j;
          open = false;
          break;
        }
      }
      if (header !== -1 && i - header <= MAX_HEADER) {
        const head = text.slice(header, i);
        if (!head.includes('\n') && head.includes('to=')) yield { start: header, end, message: i, bodyStart, bodyEnd, open };
      }
      header = -1;
      i = text.indexOf('<|', Math.max(end, bodyStart));
    }
  },
  parse(match, { text }) {
    const head = text.slice(match.start, match.message);
    if (head.startsWith(START)) {
      // The author: `assistant` sends calls; a tool's name here marks its result.
      const role = /^[^\s<]*/.exec(head.slice(START.length))![0];
      if (role !== 'assistant') return undefined;
    }
    const to = /(?:^|[\s>])to=([^\s<]+)/.exec(head);
    if (!to) return undefined;
    const recipient = to[1]!;
    if (notRecipients.has(recipient)) return undefined;
    const name = recipient.startsWith('functions.') ? recipient.slice('functions.'.length) : recipient;
    const json = /(?:^|[\s>])json(?=$|[\s<])/.test(head);
    const where = `the harmony message to \`${recipient}\``;
    const k = skipWhitespace(text, match.bodyStart);
    if (k >= match.bodyEnd) {
      return json ? { error: `Unexpected end of ${where}, expected JSON arguments`, tool: name } : undefined;
    }
    const c = text[k];
    // A body that is not JSON is code or text for a built-in tool (`python`), not JSON arguments.
    if (c !== '{' && c !== '[' && !json) return undefined;
    const body = text.slice(match.bodyStart, match.bodyEnd);
    const read = readJson(body, k - match.bodyStart);
    if (!read.ok) {
      const failure: ParseFailure = { error: within(read.message, where), tool: name };
      if (!read.atEnd) failure.offset = match.bodyStart + read.offset;
      return failure;
    }
    const rest = skipWhitespace(body, read.end);
    if (rest < body.length) {
      return {
        error: `Unexpected ${describeChar(body, rest)} after the arguments in ${where}, expected ${match.open ? 'the end of the message' : `\`${text.slice(match.bodyEnd, match.end) || '<|call|>'}\``}`,
        offset: match.bodyStart + rest,
        tool: name,
      };
    }
    return [{ name, arguments: read.value }];
  },
});
