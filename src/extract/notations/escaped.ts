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

/**
 * The next JSON string of `text` on one line from `from`; escapes read as pairs, so an escaped
 * quote does not end it. A quote whose string does not close before the line ends is passed
 * over with the rest of its line: every quote up to there was read as escaped, and a string
 * opened at one of them would read the same characters and fail the same way (one pass, where
 * a regex tries again from each quote).
 */
function nextJsonString(text: string, from: number): { start: number; end: number } | undefined {
  for (let i = text.indexOf('"', from); i !== -1; ) {
    jsonString.lastIndex = i;
    if (jsonString.test(text)) return { start: i, end: jsonString.lastIndex };
    const lineEnd = text.indexOf('\n', i);
    i = lineEnd === -1 ? -1 : text.indexOf('"', lineEnd);
  }
  return undefined;
}
// A JSON string at a place, on one line: escapes read as pairs (not a line break).
const jsonString = /"(?:[^"\\\n]|\\[^\n])*"/y;
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

/** Whether `text` may hold an escaped string at all: a JSON escape or a Python triple quote. Most pieces of prose hold neither. */
export function mayHoldEscapedStrings(text: string): boolean {
  return text.includes('\\') || text.includes('"""');
}

/**
 * The strings of `text` that are escaped text holding something written like a call, in order:
 * JSON strings, and the Python string literals of source code quoted in a prompt (see
 * `pythonStrings`), which go first where the two overlap.
 */
export function* escapedStrings(text: string): Generator<EscapedString> {
  if (!mayHoldEscapedStrings(text)) return;
  const python = pythonStrings(text);
  let next = 0;
  for (let m = nextJsonString(text, 0); m; m = nextJsonString(text, m.end)) {
    while (next < python.length && python[next]!.end <= m.start) yield python[next++]!;
    if (next < python.length && python[next]!.start < m.end) {
      // A JSON string that is part of a Python literal: the literal is read instead.
      const run = python[next++]!;
      yield run;
      m = { start: run.start, end: run.end };
      continue;
    }
    const body = text.slice(m.start + 1, m.end - 1);
    if (body.length < 12 || !hasEscape.test(body) || !callMarker.test(body)) continue;
    const d = decode(text, m.start + 1, m.end - 1);
    if (d === undefined) continue;
    yield { start: m.start, end: m.end, decoded: d.decoded, offsets: d.offsets };
  }
  while (next < python.length) yield python[next++]!;
}

// What a call is written with, in decoded text.
// (GLM-4's, notations/glm4.ts, is a name on a line of its own over an object.)
const decodedMarker = /<tool_call>|<function[=_ >]|<invoke|<\|?tool|\[TOOL_CALLS\]|Action:|"(?:name|tool|tool_name|action|function|tool_calls|function_call|functionCall|type|command_name)"[ \t]*:|^[A-Za-z_][\w.-]*[ \t]*\n[ \t]*\{/m;
const pythonSimple: Record<string, string> = { '"': '"', "'": "'", '\\': '\\', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '\n': '' };

/** One double-quoted Python literal at `at` (its prefix before it): where its body is and where it ends; undefined when it does not close. */
function pythonLiteral(text: string, at: number): { bodyStart: number; bodyEnd: number; end: number; triple: boolean } | undefined {
  const triple = text.startsWith('"""', at);
  for (let j = at + (triple ? 3 : 1); j < text.length; ) {
    const c = text[j]!;
    if (c === '\\') j += 2;
    else if (triple ? text.startsWith('"""', j) : c === '"') return { bodyStart: at + (triple ? 3 : 1), bodyEnd: j, end: j + (triple ? 3 : 1), triple };
    else if (c === '\n' && !triple) return undefined;
    else j++;
  }
  return undefined;
}

/**
 * Runs of double-quoted Python string literals: a test's expected text `"""<tool_call>\n{"name":
 * ...}\n</tool_call>"""`, or literals side by side that Python joins into one string across lines
 * (`"""[{"name": "a", ...}, """` then `"""{"name": "b", ...}]"""`). A run is taken when it joins
 * two literals or more, one of them triple-quoted, or when it is one triple-quoted literal with
 * escapes; what it decodes to must hold something written like a call. Raw literals are taken
 * as written; a run with an f-string (its values are expressions) is not taken. One pass.
 */
function pythonStrings(text: string): EscapedString[] {
  const out: EscapedString[] = [];
  if (!text.includes('"""')) return out;
  for (let i = text.indexOf('"'); i !== -1; ) {
    const parts: Array<{ bodyStart: number; bodyEnd: number; raw: boolean; format: boolean; triple: boolean }> = [];
    let start = i;
    let at = i;
    let end = i + 1;
    for (;;) {
      const prefix = /(?:^|[^\w])([rRbBuUfF]{1,2})$/.exec(text.slice(Math.max(0, at - 3), at));
      const lit = pythonLiteral(text, at);
      if (lit === undefined) break;
      if (parts.length === 0 && prefix) start = at - prefix[1]!.length;
      parts.push({ ...lit, raw: /[rR]/.test(prefix?.[1] ?? ''), format: /[fF]/.test(prefix?.[1] ?? ''), triple: lit.triple });
      end = lit.end;
      // The next literal of the run: after white space, with a prefix of its own.
      let k = end;
      while (k < text.length && /\s/.test(text[k]!)) k++;
      let q = k;
      while (q < k + 2 && /[rRbBuUfF]/.test(text[q] ?? '')) q++;
      if (text[q] !== '"') break;
      at = q;
    }
    if (parts.length === 0) {
      // A triple quote that does not close: none closes after it either (one scan to the end, not one a quote).
      if (text.startsWith('"""', at)) break;
      // Nor does a quote on the rest of the line: each was read as escaped, and a scan from it reads the same.
      const lineEnd = text.indexOf('\n', at);
      i = lineEnd === -1 ? -1 : text.indexOf('"', lineEnd);
      continue;
    }
    i = text.indexOf('"', end);
    const triple = parts.some((p) => p.triple);
    if (!triple || parts.some((p) => p.format)) continue;
    if (parts.length === 1 && !text.slice(parts[0]!.bodyStart, parts[0]!.bodyEnd).includes('\\')) continue;
    const offsets: number[] = [];
    let decoded = '';
    for (const p of parts) {
      for (let j = p.bodyStart; j < p.bodyEnd; ) {
        const c = text[j]!;
        const e = text[j + 1];
        if (c === '\\' && !p.raw && e !== undefined && e in pythonSimple) {
          if (e !== '\n') offsets.push(j);
          decoded += pythonSimple[e];
          j += 2;
        } else if (c === '\\' && !p.raw && e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) {
          offsets.push(j);
          decoded += String.fromCharCode(parseInt(text.slice(j + 2, j + 6), 16));
          j += 6;
        } else {
          offsets.push(j);
          decoded += c;
          j++;
        }
      }
    }
    offsets.push(end - 1);
    if (!decodedMarker.test(decoded)) continue;
    out.push({ start, end, decoded, offsets: Int32Array.from(offsets) });
  }
  return out;
}
