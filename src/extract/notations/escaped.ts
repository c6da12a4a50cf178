/**
 * Calls escaped inside JSON string values: a training row's `"value": "{\"name\": \"x\",
 * \"arguments\": {...}}"`, a transcript's `"content": "<tool_call>\n{\"name\": ...}</tool_call>"`,
 * a dataset's `"text"` holding a whole request. Read as written, such a string is one token of
 * JSON; the model was trained on (or is shown) what it decodes to.
 *
 * `escapedStrings` finds the JSON strings that hold escapes and something a call is written
 * with, and decodes each with a map from every decoded offset back to the text, so that the
 * extractor reads the decoded text with the same notations and places each call at the line it
 * sits on in the file. One pass over the text; each string is decoded once.
 */

/** A decoded JSON string: `offsets[k]` is where decoded character `k` starts in the text (`offsets[length]` is the closing quote). */
export interface EscapedString {
  /** The opening quote. */
  start: number;
  /** After the closing quote. */
  end: number;
  decoded: string;
  offsets: Int32Array;
}

// A JSON string on one line; escapes read as pairs, so an escaped quote does not end it.
const jsonString = /"((?:[^"\\\n]|\\.)*)"/g;
// Escapes that JSON-encoded text has (`\"`, `\n`), and what a call is written with.
const hasEscape = /\\["nu]/;
const callMarker = /<tool_call>|<function[=_ >]|<invoke|<\|?tool|\[TOOL_CALLS\]|Action:|\\"(?:name|tool|tool_name|action|function|tool_calls|function_call|functionCall|type|command_name)\\"[ \t]*:/;

const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** The body of a JSON string (between its quotes, `from` to `to` in `text`) decoded, with each character's offset. */
function decode(text: string, from: number, to: number): { decoded: string; offsets: Int32Array } | undefined {
  const offsets = new Int32Array(to - from + 1);
  let out = '';
  let n = 0;
  for (let i = from; i < to; ) {
    offsets[n++] = i;
    const c = text[i]!;
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const e = text[i + 1]!;
    if (e in simple) {
      out += simple[e];
      i += 2;
    } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
      out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
      i += 6;
    } else return undefined;
  }
  offsets[n] = to;
  return { decoded: out, offsets: offsets.subarray(0, n + 1) };
}

/** The JSON strings of `text` that are escaped text holding something written like a call, in order. */
export function* escapedStrings(text: string): Generator<EscapedString> {
  if (!text.includes('\\')) return;
  // Its own regex: the decoded strings are read (and searched) while this one is suspended.
  const re = new RegExp(jsonString.source, 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const body = m[1]!;
    if (body.length < 12 || !hasEscape.test(body) || !callMarker.test(body)) continue;
    const d = decode(text, m.index + 1, m.index + m[0].length - 1);
    if (d === undefined) continue;
    yield { start: m.index, end: m.index + m[0].length, decoded: d.decoded, offsets: d.offsets };
  }
}
