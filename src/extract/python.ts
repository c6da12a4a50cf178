/**
 * Pythonic call lists, as BFCL and Llama 3.2+ prompts write them:
 * `[get_weather(city="Paris"), f(a=1, b=[1, 2])]`. Arguments are Python literals only;
 * anything else (a bare name, an expression, a nested call) is an error, because a model
 * copies what it sees.
 */
import { describeChar, noteOffset, ReadError, setOwn } from './json.js';

export interface PythonCall {
  name: string;
  /** Keyword arguments in order. */
  keywords: Array<[string, unknown]>;
  positional: unknown[];
  /** Code mode: where the call's name starts. */
  start?: number;
  /** Code mode: `*args` or `**kwargs` passed arguments the text does not show. */
  spread?: boolean;
}

/** Code mode: where a value is not a literal (a variable, an expression); it is not checked. */
export const NON_LITERAL: unique symbol = Symbol('non-literal');
/** Code mode: the key under which an object records a spread or computed key (`{...rest}`), its keys unknown. */
export const SPREAD_KEY = '\u0000spread';

/** Code mode: a call inside a value (`function=Function(name='x', arguments='{}')`). */
export class NestedCall {
  constructor(readonly call: PythonCall) {}
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
const codeDotted = /[A-Za-z_$][\w$]*(?:[ \t]*\.[ \t]*[A-Za-z_$][\w$]*)*/y;
const numberRe = /[+-]?(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][+-]?\d+)?)/y;

const pythonWords = [['True', true], ['False', false], ['None', null]] as const;
// Docs print Python dicts and JSON side by side, mixing them; a literal read leniently takes both spellings.
const lenientWords = [...pythonWords, ['true', true], ['false', false], ['null', null]] as const;

class PythonReader {
  i: number;
  words: ReadonlyArray<readonly [string, boolean | null]> = pythonWords;
  names: string[] = [];
  sawKeyword = false;
  /**
   * Code mode (`readCodeCall`): a value that is not a literal (a variable, an expression, a
   * lambda) is read past and stands as `NON_LITERAL`; a call inside is a `NestedCall`; JS
   * object keys may be bare, `name: value` passes an argument by name (C#), comments are white space.
   */
  code = false;
  /** Code mode: reading stops with an error past this offset (a blank line ends a statement too). */
  limit = Infinity;
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
    if (this.code) return this.codeWs();
    while (this.i < t.length && (t[this.i] === ' ' || t[this.i] === '\t' || t[this.i] === '\n' || t[this.i] === '\r')) this.i++;
  }

  /** White space and comments in code; a blank line is where a statement that is still open was cut off. */
  codeWs(): void {
    const t = this.text;
    let newlines = 0;
    while (this.i < t.length) {
      const c = t[this.i];
      if (c === '\n') {
        if (++newlines > 1) this.fail('the call to close before a blank line');
        this.i++;
      } else if (c === ' ' || c === '\t' || c === '\r') this.i++;
      else if (c === '#' || (c === '/' && t[this.i + 1] === '/')) {
        while (this.i < t.length && t[this.i] !== '\n') this.i++;
      } else if (c === '/' && t[this.i + 1] === '*') {
        const close = t.indexOf('*/', this.i + 2);
        if (close === -1) this.fail('`*/` to close the comment');
        this.i = close + 2;
      } else break;
    }
    if (this.i > this.limit) this.fail('the call to close');
  }

  /**
   * Past an expression that is not a literal, to the `,` or closing bracket that ends it
   * (not taken). Brackets are balanced and strings skipped; each character is read once.
   */
  skipExpression(): void {
    const t = this.text;
    const stack: string[] = [];
    const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
    while (this.i < t.length) {
      if (this.i > this.limit) this.fail('the call to close');
      const c = t[this.i]!;
      if (c === '"' || c === "'" || c === '`') {
        const triple = c !== '`' && t.startsWith(c.repeat(3), this.i);
        const quote = triple ? c.repeat(3) : c;
        this.i += quote.length;
        while (this.i < t.length && !t.startsWith(quote, this.i)) {
          if (!triple && c !== '`' && t[this.i] === '\n') this.fail(`\`${quote}\` to close the string before the line ends`);
          this.i += t[this.i] === '\\' ? 2 : 1;
        }
        if (this.i >= t.length) this.fail(`\`${quote}\` to close the string`);
        this.i += quote.length;
        continue;
      }
      if (c === '#' || c === '\n' || (c === '/' && (t[this.i + 1] === '/' || t[this.i + 1] === '*'))) {
        const before = this.i;
        this.codeWs();
        if (this.i === before) this.i++;
        continue;
      }
      if (c in pairs) stack.push(pairs[c]!);
      else if (c === ')' || c === ']' || c === '}') {
        if (stack.length === 0) return;
        if (stack.pop() !== c) this.fail(`\`${c}\` to match its bracket`);
      } else if (c === ',' && stack.length === 0) return;
      this.i++;
    }
    this.fail('the end of the argument');
  }

  /** Code mode: a value, or `NON_LITERAL` for an expression, ending at `,` or a closing bracket. */
  codeValue(depth: number): unknown {
    this.ws();
    const t = this.text;
    const start = this.i;
    let value: unknown;
    // `new Name(...)` (C#, JS) and `Name(...)` are calls inside the value.
    const call = /(?:new[ \t]+)?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)[ \t]*\(/y;
    call.lastIndex = start;
    const m = call.exec(t);
    const fString = /[fF][rR]?['"]|[rR][fF]['"]/y;
    fString.lastIndex = start;
    if (m && !/^(?:True|False|None|true|false|null)$/.test(m[1]!)) {
      this.i = start + m[0].indexOf(m[1]!);
      const nested = this.call(depth + 1);
      value = new NestedCall(nested);
    } else if (fString.test(t)) {
      this.skipExpression();
      return NON_LITERAL;
    } else if (t[start] === '`') {
      const close = t.indexOf('`', start + 1);
      if (close === -1 || t.slice(start, close).includes('${')) {
        this.skipExpression();
        return NON_LITERAL;
      }
      value = t.slice(start + 1, close);
      this.i = close + 1;
    } else if (t.startsWith('undefined', start) && !/[\w$]/.test(t[start + 9] ?? '')) {
      this.i = start + 9;
      value = null;
    } else {
      try {
        value = this.value(depth);
      } catch (error) {
        // A bare name or an operator where a literal would be: an expression, read past.
        if (!(error instanceof ReadError) || this.i !== start) throw error;
        this.skipExpression();
        return NON_LITERAL;
      }
    }
    this.ws();
    const next = t[this.i];
    if (next === ',' || next === ')' || next === ']' || next === '}' || (next === ':' && t[this.i + 1] !== ':')) return value;
    // `x + 1`, `'a' 'b'`, `f(x).y`: more expression after what was read.
    this.skipExpression();
    return NON_LITERAL;
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

  call(depth = 0): PythonCall {
    if (depth > MAX_DEPTH) this.fail(`a value nested less than ${MAX_DEPTH} levels deep`);
    const start = this.i;
    const name = this.match(this.code ? codeDotted : dotted);
    if (name === undefined) this.fail('a function name');
    this.names.push(name);
    this.ws();
    if (this.text[this.i] !== '(') this.fail('`(` after the function name');
    this.i++;
    const call: PythonCall = { name, keywords: [], positional: [] };
    if (this.code) call.start = start;
    for (;;) {
      this.ws();
      if (this.text[this.i] === ')') break;
      const save = this.i;
      if (this.code && this.text[this.i] === '*') {
        // `*args`, `**kwargs`: arguments this text does not show.
        call.spread = true;
        this.skipExpression();
        if (this.text[this.i] === ',') this.i++;
        continue;
      }
      const key = this.match(identifier);
      if (key !== undefined) {
        this.ws();
        const named = (this.text[this.i] === '=' && this.text[this.i + 1] !== '=') || (this.code && this.text[this.i] === ':' && this.text[this.i + 1] !== ':');
        if (named) {
          this.i++;
          this.sawKeyword = true;
          call.keywords.push([key, this.code ? this.codeValue(depth) : this.value(0)]);
        } else {
          this.i = save;
          if (call.keywords.length > 0 && !this.code) this.fail('a keyword argument (`name=value`) after keyword arguments');
          call.positional.push(this.code ? this.codeValue(depth) : this.value(0));
        }
      } else {
        if (call.keywords.length > 0 && !this.code) this.fail('a keyword argument (`name=value`) after keyword arguments');
        call.positional.push(this.code ? this.codeValue(depth) : this.value(0));
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
      if (this.code && this.text.startsWith('...', this.i)) {
        // A spread (`...rest`) or an elided part: something the text does not show.
        this.skipExpression();
        out.push(NON_LITERAL);
      } else out.push(this.code ? this.codeValue(depth + 1) : this.value(depth + 1));
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
    const out: Record<string, unknown> = {};
    // A message printed as a Python list of dicts: each call is pointed at on its own line.
    noteOffset(out, this.i);
    this.i++;
    for (;;) {
      this.ws();
      if (this.text[this.i] === '}') break;
      if (this.code) {
        if (this.text.startsWith('...', this.i) || this.text.startsWith('**', this.i)) {
          // `{...rest}`, `{**kwargs}`: keys this text does not show.
          this.skipExpression();
          setOwn(out, SPREAD_KEY, NON_LITERAL);
          if (this.text[this.i] === ',') this.i++;
          continue;
        }
        // A JS key: `{ city: 'Paris' }`, and the shorthand `{ city }` (a variable's value).
        const bare = /[A-Za-z_$][\w$]*(?=[ \t\r\n]*([:,}]))/y;
        bare.lastIndex = this.i;
        const b = bare.exec(this.text);
        const colon = b ? this.text.indexOf(b[1]!, this.i + b[0].length) : -1;
        if (b && !(b[1] === ':' && this.text[colon + 1] === ':')) {
          this.i += b[0].length;
          this.ws();
          if (b[1] === ':') {
            this.i++;
            setOwn(out, b[0], this.codeValue(depth + 1));
          } else setOwn(out, b[0], NON_LITERAL);
          this.ws();
          if (this.text[this.i] === ',') {
            this.i++;
            continue;
          }
          if (this.text[this.i] === '}') break;
          this.fail('`,` or `}`');
        }
      }
      const key = this.code ? this.codeValue(depth + 1) : this.value(depth + 1);
      if (key === NON_LITERAL) {
        // A computed key: its value is read past, and the object is not wholly known.
        this.ws();
        if (this.text[this.i] === ':') {
          this.i++;
          this.codeValue(depth + 1);
        }
        setOwn(out, SPREAD_KEY, NON_LITERAL);
        this.ws();
        if (this.text[this.i] === ',') {
          this.i++;
          continue;
        }
        if (this.text[this.i] === '}') break;
        this.fail('`,` or `}`');
      }
      if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean' && key !== null) this.fail('a string or number key');
      this.ws();
      if (this.text[this.i] !== ':') this.fail('`:` after the dict key');
      this.i++;
      setOwn(out, key === null ? 'None' : typeof key === 'boolean' ? (key ? 'True' : 'False') : String(key), this.code ? this.codeValue(depth + 1) : this.value(depth + 1));
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

/**
 * One call in code, starting at its name: `tool({ query: q, limit: 5 })`, `ToolCallPart(tool_name='x',
 * args={...}, timestamp=datetime.now())`, `new FunctionCallContent(name: "x")`. Literals are read
 * as values; anything else stands as `NON_LITERAL`, and calls inside as `NestedCall`. It fails on
 * what is not code at all (an unclosed string or bracket, a blank line before the call closes)
 * and past `limit`.
 */
export function readCodeCall(text: string, start: number, limit = Infinity): PythonResult {
  const reader = new PythonReader(text, start);
  reader.code = true;
  reader.words = lenientWords;
  reader.limit = limit;
  try {
    const call = reader.call();
    return { ok: true, calls: [call], end: reader.i };
  } catch (error) {
    const offset = error instanceof ReadError ? error.offset : reader.i;
    const message = error instanceof ReadError ? error.message : `Unexpected input, expected a call (${String((error as Error)?.message ?? error)})`;
    return { ok: false, offset, message, names: reader.names, sawKeyword: reader.sawKeyword };
  }
}

/** Whether a value read in code mode holds something that is not a literal (or a call inside). */
export function hasNonLiteral(value: unknown, depth = 0): boolean {
  if (value === NON_LITERAL || value instanceof NestedCall) return true;
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((v) => hasNonLiteral(v, depth + 1));
  return Object.values(value).some((v) => hasNonLiteral(v, depth + 1));
}

/** A value in code (a JS object literal, a Python dict) starting at `start`, read as `readCodeCall` reads arguments. */
export function readCodeValue(text: string, start: number, limit = Infinity): { ok: true; value: unknown; end: number } | { ok: false; offset: number; message: string } {
  const reader = new PythonReader(text, start);
  reader.code = true;
  reader.words = lenientWords;
  reader.limit = limit;
  try {
    const value = reader.value(0);
    return { ok: true, value, end: reader.i };
  } catch (error) {
    return { ok: false, offset: error instanceof ReadError ? error.offset : reader.i, message: error instanceof ReadError ? error.message : String((error as Error)?.message ?? error) };
  }
}
