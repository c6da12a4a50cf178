/**
 * A JSON reader that stops after one value and explains failures in one grammar
 * ("Unexpected `'`, expected `"`"). JSON.parse cannot say where a value embedded in prose
 * ends, and its messages differ between Node versions.
 */

export type ReadResult<T> =
  | { ok: true; value: T; end: number }
  | {
      ok: false;
      offset: number;
      atEnd: boolean;
      message: string;
      /**
       * Where the objects and arrays still open when reading stopped begin (readJson only).
       * Read on its own, each stops at the same place with the same message: the reader
       * follows the same path from there, so a caller scanning for values need not read them.
       * Absent when the reader stopped at its depth limit, which counts from where it started.
       */
      open?: readonly number[];
    };

const MAX_DEPTH = 256;

export class ReadError extends Error {
  constructor(
    readonly offset: number,
    readonly atEnd: boolean,
    message: string,
  ) {
    super(message);
  }
}

export function describeChar(text: string, offset: number): string {
  const c = text[offset];
  if (c === undefined) return 'end of input';
  if (c === '\n' || c === '\r') return 'line break';
  if (c === '`') return '"`"';
  return `\`${c}\``;
}

/** Assigns without letting a `__proto__` key reach the prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

export function skipWhitespace(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) i++;
    else break;
  }
  return i;
}

/** Where each object read was opened (its `{`), for pointing at a call nested in a bigger value. */
const objectOffsets = new WeakMap<object, number>();

/** The offset of the `{` that opened `value`, when the reader read it. */
export function offsetOf(value: unknown): number | undefined {
  return typeof value === 'object' && value !== null ? objectOffsets.get(value) : undefined;
}

/** Records where another reader (Python literals) opened an object, so that calls nested in it are pointed at too. */
export function noteOffset(value: object, offset: number): void {
  objectOffsets.set(value, offset);
}

class JsonReader {
  i: number;
  /** Where each object and array being read begins, outermost first. */
  readonly open: number[] = [];
  /** Set when reading stopped at the depth limit. */
  tooDeep = false;
  /** Whether a comma may end an object or array (`{"a": 1,}`), as Python and JavaScript allow. */
  trailingCommas = false;
  constructor(
    readonly text: string,
    start: number,
  ) {
    this.i = start;
  }

  fail(expected: string): never {
    const { text, i } = this;
    if (i >= text.length) throw new ReadError(i, true, `Unexpected end of JSON, expected ${expected}`);
    let hint = '';
    if (text[i] === "'") hint = ' (JSON strings use double quotes; this looks like a Python literal)';
    else if (text[i] === '.' || text[i] === '…') hint = ' (an ellipsis is not JSON)';
    throw new ReadError(i, false, `Unexpected ${describeChar(text, i)}, expected ${expected}${hint}`);
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) {
      this.tooDeep = true;
      throw new ReadError(this.i, false, `Unexpected nesting deeper than ${MAX_DEPTH} levels, expected a flatter value`);
    }
    this.i = skipWhitespace(this.text, this.i);
    const c = this.text[this.i];
    switch (c) {
      case '{':
        return this.object(depth);
      case '[':
        return this.array(depth);
      case '"':
        return this.string();
      case 't':
        return this.word('true', true);
      case 'f':
        return this.word('false', false);
      case 'n':
        return this.word('null', null);
      default:
        if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
        return this.fail('a JSON value');
    }
  }

  word(word: string, value: unknown): unknown {
    if (this.text.startsWith(word, this.i)) {
      this.i += word.length;
      return value;
    }
    return this.fail('a JSON value');
  }

  number(): number {
    const re = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    re.lastIndex = this.i;
    const m = re.exec(this.text);
    if (!m) return this.fail('a digit');
    this.i += m[0].length;
    return Number(m[0]);
  }

  string(): string {
    const { text } = this;
    let i = this.i + 1;
    let out = '';
    let from = i;
    for (;;) {
      if (i >= text.length) {
        this.i = i;
        return this.fail('`"` to close the string');
      }
      const c = text.charCodeAt(i);
      if (c === 34) break;
      if (c < 32) {
        this.i = i;
        return this.fail('`"` to close the string before the line ends (escape line breaks as `\\n`)');
      }
      if (c === 92) {
        out += text.slice(from, i);
        const e = text[i + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && e in simple) {
          out += simple[e];
          i += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else {
          this.i = i + 1;
          return this.fail('an escape (`\\"`, `\\\\`, `\\n`, `\\uXXXX`, ...)');
        }
        from = i;
        continue;
      }
      i++;
    }
    out += text.slice(from, i);
    this.i = i + 1;
    return out;
  }

  object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    objectOffsets.set(out, this.i);
    this.open.push(this.i);
    this.i++;
    this.i = skipWhitespace(this.text, this.i);
    if (this.text[this.i] === '}') {
      this.i++;
      this.open.pop();
      return out;
    }
    for (;;) {
      this.i = skipWhitespace(this.text, this.i);
      if (this.text[this.i] !== '"') this.fail('a property name in double quotes');
      const key = this.string();
      this.i = skipWhitespace(this.text, this.i);
      if (this.text[this.i] !== ':') this.fail('`:` after the property name');
      this.i++;
      setOwn(out, key, this.value(depth + 1));
      this.i = skipWhitespace(this.text, this.i);
      const c = this.text[this.i];
      if (c === ',') {
        this.i++;
        if (this.trailingCommas && this.closesAfterComma('}')) return out;
        continue;
      }
      if (c === '}') {
        this.i++;
        this.open.pop();
        return out;
      }
      this.fail('`,` or `}`');
    }
  }

  /** After a comma: whether `close` comes next (white space between), and if so, past it. */
  closesAfterComma(close: '}' | ']'): boolean {
    const k = skipWhitespace(this.text, this.i);
    if (this.text[k] !== close) return false;
    this.i = k + 1;
    this.open.pop();
    return true;
  }

  array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.open.push(this.i);
    this.i++;
    this.i = skipWhitespace(this.text, this.i);
    if (this.text[this.i] === ']') {
      this.i++;
      this.open.pop();
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.i = skipWhitespace(this.text, this.i);
      const c = this.text[this.i];
      if (c === ',') {
        this.i++;
        if (this.trailingCommas && this.closesAfterComma(']')) return out;
        continue;
      }
      if (c === ']') {
        this.i++;
        this.open.pop();
        return out;
      }
      this.fail('`,` or `]`');
    }
  }
}

function attempt<T>(fn: () => { value: T; end: number }): ReadResult<T> {
  try {
    return { ok: true, ...fn() };
  } catch (error) {
    if (error instanceof ReadError) return { ok: false, offset: error.offset, atEnd: error.atEnd, message: error.message };
    // A RangeError from a pathological input (stack) still must not escape.
    return { ok: false, offset: 0, atEnd: false, message: `Unexpected input, expected JSON (${String((error as Error)?.message ?? error)})` };
  }
}

/** Brackets the quick path follows before leaving a value to the reader, which has the last word on depth. */
const QUICK_DEPTH = 200;

/** The characters JSON allows outside strings: whitespace, punctuation, numbers, `true`, `false`, `null`. */
const outsideStrings = new Uint8Array(128);
for (const c of ' \t\n\r,:[]{}+-.0123456789eEtrufalsn') outsideStrings[c.charCodeAt(0)] = 1;

/**
 * Where the object or array opening at `start` closes, found without building anything; -1
 * as soon as a character cannot be JSON (prose after a `{"`: the scan stops there, as the
 * reader would), or when the brackets nest deeper than `QUICK_DEPTH` or never close.
 */
function closingOf(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; ; i++) {
        const d = text.charCodeAt(i);
        // A raw control character (a line break) cannot be in a JSON string; NaN is the end of the text.
        if (!(d >= 32)) return -1;
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > QUICK_DEPTH) return -1;
    } else if (c === 125 || c === 93) {
      if (--depth === 0) return i + 1;
    } else if (c >= 128 || outsideStrings[c] !== 1) return -1;
  }
  return -1;
}

/**
 * The object or array at `start` (after whitespace) read by `JSON.parse`, which builds the same
 * value the reader does for every valid text, several times faster. Undefined when it is not
 * valid JSON (the reader then says why) or does not start with a bracket. It records no
 * offsets (`offsetOf`): a caller that needs them reads with `{ offsets: true }`.
 */
function quickValue(text: string, start: number): { value: unknown; end: number } | undefined {
  const at = skipWhitespace(text, start);
  const c = text.charCodeAt(at);
  if (c !== 123 && c !== 91) return undefined;
  const end = closingOf(text, at);
  if (end === -1) return undefined;
  try {
    return { value: JSON.parse(text.slice(at, end)), end };
  } catch {
    return undefined;
  }
}

export interface ReadOptions {
  /** Record where each object opened, for `offsetOf`: slower, for a caller that points at a nested call. */
  offsets?: boolean;
  /** Take a comma before `}` or `]` (a Python or JavaScript literal written with JSON's quotes). */
  trailingCommas?: boolean;
}

/** One JSON value starting at `start` (after optional whitespace); `end` is just past it. */
export function readJson(text: string, start = 0, options: ReadOptions = {}): ReadResult<unknown> {
  const quick = options.offsets ? undefined : quickValue(text, start);
  if (quick) return { ok: true, ...quick };
  const reader = new JsonReader(text, start);
  reader.trailingCommas = options.trailingCommas === true;
  const read = attempt(() => {
    const value = reader.value(0);
    return { value, end: reader.i };
  });
  return read.ok || reader.tooDeep ? read : { ...read, open: reader.open };
}

/**
 * Every JSON value in `text`, separated by whitespace (one value, or JSON Lines).
 * Anything else after a value is an error.
 */
export function readJsonSequence(text: string, options: ReadOptions = {}): ReadResult<unknown[]> {
  return attempt(() => {
    const values: unknown[] = [];
    const reader = new JsonReader(text, 0);
    reader.i = skipWhitespace(text, 0);
    if (reader.i >= text.length) reader.fail('a JSON value');
    while (reader.i < text.length) {
      if (values.length > 0 && text[reader.i] !== '{' && text[reader.i] !== '[') reader.fail('the end of the block after the JSON value');
      const quick = options.offsets ? undefined : quickValue(text, reader.i);
      if (quick) {
        values.push(quick.value);
        reader.i = quick.end;
      } else values.push(reader.value(0));
      reader.i = skipWhitespace(text, reader.i);
    }
    return { value: values, end: reader.i };
  });
}
