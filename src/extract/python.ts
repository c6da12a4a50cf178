/**
 * Pythonic call lists, as BFCL and Llama 3.2+ prompts write them:
 * `[get_weather(city="Paris"), f(a=1, b=[1, 2])]`. Arguments are Python literals only;
 * anything else (a bare name, an expression, a nested call) is an error, because a model
 * copies what it sees.
 */
import { describeChar, ReadError, setOwn } from './json.js';

export interface PythonCall {
  name: string;
  /** Keyword arguments in order. */
  keywords: Array<[string, unknown]>;
  positional: unknown[];
}

export type PythonResult =
  | { ok: true; calls: PythonCall[]; end: number }
  | {
      ok: false;
      offset: number;
      message: string;
      /** The call names read before the failure, for placeholder detection. */
      names: string[];
      /** True once `name=` was read: the text was meant as a call. */
      sawKeyword: boolean;
    };

const MAX_DEPTH = 256;
const identifier = /[A-Za-z_][A-Za-z0-9_]*/y;
const dotted = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/y;
const numberRe = /[+-]?(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][+-]?\d+)?)/y;

const pythonWords = [['True', true], ['False', false], ['None', null]] as const;
// Docs print Python dicts and JSON side by side, mixing them; a literal read leniently takes both spellings.
const lenientWords = [...pythonWords, ['true', true], ['false', false], ['null', null]] as const;

class PythonReader {
  i: number;
  words: ReadonlyArray<readonly [string, boolean | null]> = pythonWords;
  names: string[] = [];
  sawKeyword = false;
  constructor(
    readonly text: string,
    start: number,
  ) {
    this.i = start;
  }

  fail(expected: string): never {
    const atEnd = this.i >= this.text.length;
    throw new ReadError(this.i, atEnd, atEnd ? `Unexpected end of the call list, expected ${expected}` : `Unexpected ${describeChar(this.text, this.i)}, expected ${expected}`);
  }

  ws(): void {
    const t = this.text;
    while (this.i < t.length && (t[this.i] === ' ' || t[this.i] === '\t' || t[this.i] === '\n' || t[this.i] === '\r')) this.i++;
  }

  match(re: RegExp): string | undefined {
    re.lastIndex = this.i;
    const m = re.exec(this.text);
    if (!m) return undefined;
    this.i += m[0].length;
    return m[0];
  }

  list(): PythonCall[] {
    if (this.text[this.i] !== '[') this.fail('`[`');
    this.i++;
    const calls: PythonCall[] = [];
    for (;;) {
      this.ws();
      if (this.text[this.i] === ']' && calls.length > 0) break;
      calls.push(this.call());
      this.ws();
      if (this.text[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.text[this.i] === ']') break;
      this.fail('`,` or `]` after the call');
    }
    this.i++;
    return calls;
  }

  call(): PythonCall {
    const name = this.match(dotted);
    if (name === undefined) this.fail('a function name');
    this.names.push(name);
    this.ws();
    if (this.text[this.i] !== '(') this.fail('`(` after the function name');
    this.i++;
    const call: PythonCall = { name, keywords: [], positional: [] };
    for (;;) {
      this.ws();
      if (this.text[this.i] === ')') break;
      const save = this.i;
      const key = this.match(identifier);
      if (key !== undefined) {
        this.ws();
        if (this.text[this.i] === '=' && this.text[this.i + 1] !== '=') {
          this.i++;
          this.sawKeyword = true;
          call.keywords.push([key, this.value(0)]);
        } else {
          this.i = save;
          if (call.keywords.length > 0) this.fail('a keyword argument (`name=value`) after keyword arguments');
          call.positional.push(this.value(0));
        }
      } else {
        if (call.keywords.length > 0) this.fail('a keyword argument (`name=value`) after keyword arguments');
        call.positional.push(this.value(0));
      }
      this.ws();
      if (this.text[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.text[this.i] === ')') break;
      this.fail('`,` or `)`');
    }
    this.i++;
    return call;
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) this.fail(`a value nested less than ${MAX_DEPTH} levels deep`);
    this.ws();
    const t = this.text;
    const c = t[this.i];
    if (c === '[') return this.sequence(']', depth);
    if (c === '(') {
      const items = this.sequence(')', depth);
      return items;
    }
    if (c === '{') return this.dict(depth);
    const stringStart = /(?:[rRuUbB]|[rR][bB]|[bB][rR])?(?='|")/y;
    stringStart.lastIndex = this.i;
    const prefix = stringStart.exec(t);
    if (prefix) return this.string(prefix[0]);
    for (const [word, value] of this.words) {
      if (t.startsWith(word, this.i) && !/[A-Za-z0-9_]/.test(t[this.i + word.length] ?? '')) {
        this.i += word.length;
        return value;
      }
    }
    const num = this.match(numberRe);
    if (num !== undefined && num !== '+' && num !== '-' && !/[A-Za-z0-9_.]/.test(t[this.i] ?? '')) {
      const clean = num.replace(/_/g, '');
      const n = /^[+-]?0[xXoObB]/.test(clean) ? Number(clean.replace(/^([+-]?)/, '')) * (clean.startsWith('-') ? -1 : 1) : Number(clean);
      if (!Number.isNaN(n)) return n;
    }
    if (num !== undefined) this.i -= num.length;
    const word = /[A-Za-z_][\w.]*/y;
    word.lastIndex = this.i;
    const bare = word.exec(t);
    if (bare) throw new ReadError(this.i, false, `Unexpected \`${bare[0]}\`, expected a Python literal (a quoted string, number, True, False, None, list or dict)`);
    return this.fail('a Python literal (a quoted string, number, True, False, None, list or dict)');
  }

  sequence(close: string, depth: number): unknown[] {
    this.i++;
    const out: unknown[] = [];
    for (;;) {
      this.ws();
      if (this.text[this.i] === close) break;
      out.push(this.value(depth + 1));
      this.ws();
      if (this.text[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.text[this.i] === close) break;
      this.fail(`\`,\` or \`${close}\``);
    }
    this.i++;
    return out;
  }

  dict(depth: number): Record<string, unknown> {
    this.i++;
    const out: Record<string, unknown> = {};
    for (;;) {
      this.ws();
      if (this.text[this.i] === '}') break;
      const key = this.value(depth + 1);
      if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean' && key !== null) this.fail('a string or number key');
      this.ws();
      if (this.text[this.i] !== ':') this.fail('`:` after the dict key');
      this.i++;
      setOwn(out, key === null ? 'None' : typeof key === 'boolean' ? (key ? 'True' : 'False') : String(key), this.value(depth + 1));
      this.ws();
      if (this.text[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.text[this.i] === '}') break;
      this.fail('`,` or `}`');
    }
    this.i++;
    return out;
  }

  string(prefix: string): string {
    const raw = /[rR]/.test(prefix);
    const t = this.text;
    this.i += prefix.length;
    const q = t[this.i]!;
    const triple = t.startsWith(q.repeat(3), this.i);
    const quote = triple ? q.repeat(3) : q;
    this.i += quote.length;
    let out = '';
    for (;;) {
      if (this.i >= t.length) this.fail(`\`${quote}\` to close the string`);
      if (t.startsWith(quote, this.i)) break;
      const c = t[this.i]!;
      if (!triple && (c === '\n' || c === '\r')) this.fail(`\`${quote}\` to close the string before the line ends`);
      if (c === '\\' && this.i + 1 < t.length) {
        const e = t[this.i + 1]!;
        if (raw) {
          out += c + e;
          this.i += 2;
          continue;
        }
        const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0', a: '\x07', b: '\b', f: '\f', v: '\v', '\n': '' };
        if (e in simple) {
          out += simple[e];
          this.i += 2;
          continue;
        }
        const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
        const digits = t.slice(this.i + 2, this.i + 2 + hex);
        if (hex > 0 && new RegExp(`^[0-9a-fA-F]{${hex}}$`).test(digits)) {
          const code = parseInt(digits, 16);
          out += code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
          this.i += 2 + hex;
          continue;
        }
        out += c + e;
        this.i += 2;
        continue;
      }
      out += c;
      this.i++;
    }
    this.i += quote.length;
    return out;
  }
}

/** A call list `[f(a=1), g()]` starting at `start` (which must be `[`). */
export function readPythonCalls(text: string, start: number): PythonResult {
  const reader = new PythonReader(text, start);
  try {
    const calls = reader.list();
    return { ok: true, calls, end: reader.i };
  } catch (error) {
    const offset = error instanceof ReadError ? error.offset : reader.i;
    const message = error instanceof ReadError ? error.message : `Unexpected input, expected a Python call list (${String((error as Error)?.message ?? error)})`;
    return { ok: false, offset, message, names: reader.names, sawKeyword: reader.sawKeyword };
  }
}

/** One call without brackets, `get_weather(city="Paris")`, starting at its name. */
export function readPythonCall(text: string, start: number): PythonResult {
  const reader = new PythonReader(text, start);
  try {
    const call = reader.call();
    return { ok: true, calls: [call], end: reader.i };
  } catch (error) {
    const offset = error instanceof ReadError ? error.offset : reader.i;
    const message = error instanceof ReadError ? error.message : `Unexpected input, expected a Python call (${String((error as Error)?.message ?? error)})`;
    return { ok: false, offset, message, names: reader.names, sawKeyword: reader.sawKeyword };
  }
}

/** A Python literal (`{'role': 'assistant', 'content': None}`) starting at `start`. */
export function readPythonLiteral(text: string, start: number): { ok: true; value: unknown; end: number } | { ok: false; offset: number; message: string } {
  const reader = new PythonReader(text, start);
  reader.words = lenientWords;
  try {
    const value = reader.value(0);
    return { ok: true, value, end: reader.i };
  } catch (error) {
    return { ok: false, offset: error instanceof ReadError ? error.offset : reader.i, message: error instanceof ReadError ? error.message : String((error as Error)?.message ?? error) };
  }
}
