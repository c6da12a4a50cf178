/**
 * Schema patterns are untrusted input: `^(a+)+$` against 36 characters runs for hours on a
 * backtracking engine, and a synchronous `RegExp.test` cannot be interrupted. Every
 * `pattern` and `patternProperties` key goes through `compilePattern`, which never hands a
 * backtracking engine a pattern that can backtrack without bound:
 *
 * - A pattern whose every choice is decided by the next character (the alternatives of a
 *   group start with different characters, a repetition's body cannot start with what
 *   follows it), anchored with `^` or of bounded length, runs on the native engine: it
 *   backtracks at most one step per choice, so it is linear, and native is 10-30 times
 *   faster than the alternative. Typical tool patterns (`^[A-Z]-\d{4}$`, `^[a-z_]+$`) are of
 *   this kind.
 * - Any other pattern is translated to RE2 syntax with ECMAScript's meaning (character
 *   sets are computed, so `.`, `\s` and `\p{...}` mean what they mean in JSON Schema) and
 *   runs on re2js, a linear-time engine.
 * - A pattern neither can run (a backreference, lookaround, a repetition count above RE2's
 *   1000) is "unsupported": it matches everything, so validation skips that one keyword,
 *   and the compile that met it records it so the checks can report it.
 *
 * A pattern that is not a valid ECMAScript `u`-mode pattern throws a SyntaxError, as
 * `new RegExp(pattern, 'u')` does, so a schema with one does not compile, as before.
 */
import { createRequire } from 'node:module';

/** A pattern the linear-time engine cannot run, and why. */
export interface UnsupportedPattern {
  pattern: string;
  /** What in the pattern cannot run there: "a backreference (`\\1`)", "lookahead", ... */
  reason: string;
}

/** A compiled pattern: `test` searches like `RegExp.prototype.test`. */
export interface CompiledPattern {
  readonly source: string;
  /** `native`: provably linear on the backtracking engine; `linear`: re2js; `unsupported`: matches everything. */
  readonly engine: 'native' | 'linear' | 'unsupported';
  readonly reason?: string;
  /** What Ajv receives: an object with `test` (a native RegExp, or a wrapper). */
  readonly matcher: { test(text: string): boolean };
  test(text: string): boolean;
}

class Unsupported extends Error {}

// ---------------------------------------------------------------------------------------
// Character sets as sorted, disjoint, non-adjacent inclusive code point ranges [lo, hi, lo, hi, ...].

type Ranges = readonly number[];
const MAX_CP = 0x10ffff;

function normalize(pairs: Array<[number, number]>): Ranges {
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    if (lo > hi) continue;
    const last = out.length - 1;
    if (last > 0 && lo <= out[last]! + 1) out[last] = Math.max(out[last]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

function pairsOf(set: Ranges): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < set.length; i += 2) out.push([set[i]!, set[i + 1]!]);
  return out;
}

function union(...sets: Ranges[]): Ranges {
  return normalize(sets.flatMap(pairsOf));
}

function complement(set: Ranges): Ranges {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < set.length; i += 2) {
    if (set[i]! > next) out.push(next, set[i]! - 1);
    next = set[i + 1]! + 1;
  }
  if (next <= MAX_CP) out.push(next, MAX_CP);
  return out;
}

function intersects(a: Ranges, b: Ranges): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i + 1]! < b[j]!) i += 2;
    else if (b[j + 1]! < a[i]!) j += 2;
    else return true;
  }
  return false;
}

const single = (cp: number): Ranges => [cp, cp];
const DIGIT: Ranges = [0x30, 0x39];
const WORD: Ranges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
// ECMAScript's WhiteSpace and LineTerminator: what `\s` matches.
const SPACE: Ranges = normalize([[0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]]);
// `.` without the `s` flag: anything but a line terminator.
const DOT: Ranges = complement(normalize([[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]]));

const propertyCache = new Map<string, Ranges>();

/**
 * The code points of `\p{name}`, as this Node's own engine defines them: every code point
 * tested once (about 60 ms, once per property per process; tool schemas rarely use any).
 */
function propertySet(name: string): Ranges {
  let set = propertyCache.get(name);
  if (set === undefined) {
    const re = new RegExp(`^\\p{${name}}$`, 'u');
    const pairs: Array<[number, number]> = [];
    let start = -1;
    for (let cp = 0; cp <= MAX_CP + 1; cp++) {
      const hit = cp <= MAX_CP && re.test(String.fromCodePoint(cp));
      if (hit && start < 0) start = cp;
      else if (!hit && start >= 0) {
        pairs.push([start, cp - 1]);
        start = -1;
      }
    }
    propertyCache.set(name, (set = normalize(pairs)));
  }
  return set;
}

// ---------------------------------------------------------------------------------------
// A parser for ECMAScript `u`-mode patterns. It runs only on patterns `new RegExp(p, 'u')`
// accepted, so it can rely on their well-formedness.

type Node =
  | { t: 'set'; set: Ranges }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; alts: Node[] }
  | { t: 'rep'; body: Node; min: number; max: number }
  | { t: 'start' }
  | { t: 'end' }
  | { t: 'boundary'; negated: boolean };

class Parser {
  i = 0;
  constructor(readonly src: string) {}

  parse(): Node {
    const node = this.disjunction();
    if (this.i < this.src.length) throw new Unsupported(`\`${this.src[this.i]}\` at offset ${this.i}`);
    return node;
  }

  peek(offset = 0): string | undefined {
    return this.src[this.i + offset];
  }

  disjunction(): Node {
    const alts = [this.alternative()];
    while (this.peek() === '|') {
      this.i++;
      alts.push(this.alternative());
    }
    return alts.length === 1 ? alts[0]! : { t: 'alt', alts };
  }

  alternative(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.peek() !== '|' && this.peek() !== ')') items.push(this.term());
    return { t: 'seq', items };
  }

  term(): Node {
    const c = this.peek()!;
    if (c === '^') {
      this.i++;
      return { t: 'start' };
    }
    if (c === '$') {
      this.i++;
      return { t: 'end' };
    }
    if (c === '\\' && (this.peek(1) === 'b' || this.peek(1) === 'B')) {
      this.i += 2;
      return { t: 'boundary', negated: this.peek(-1) === 'B' };
    }
    let atom: Node;
    if (c === '(') {
      const rest = this.src.slice(this.i, this.i + 4);
      if (rest.startsWith('(?=') || rest.startsWith('(?!')) throw new Unsupported('lookahead (`(?=` or `(?!`)');
      if (rest.startsWith('(?<=') || rest.startsWith('(?<!')) throw new Unsupported('lookbehind (`(?<=` or `(?<!`)');
      if (rest.startsWith('(?:')) this.i += 3;
      else if (rest.startsWith('(?<')) this.i = this.src.indexOf('>', this.i) + 1;
      else if (rest.startsWith('(?')) throw new Unsupported(`the group syntax \`${rest.slice(0, 3)}\``);
      else this.i++;
      atom = this.disjunction();
      if (this.peek() !== ')') throw new Unsupported('an unclosed group');
      this.i++;
    } else if (c === '.') {
      this.i++;
      atom = { t: 'set', set: DOT };
    } else if (c === '[') atom = { t: 'set', set: this.characterClass() };
    else if (c === '\\') atom = { t: 'set', set: this.atomEscape() };
    else atom = { t: 'set', set: single(this.literal()) };
    return this.quantified(atom);
  }

  quantified(atom: Node): Node {
    let min: number;
    let max: number;
    const c = this.peek();
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) throw new Unsupported('a `{` that is not a repetition');
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.i += m[0].length - 1;
    } else return atom;
    this.i++;
    // A lazy repetition matches the same strings as a greedy one: `test` only asks whether one exists.
    if (this.peek() === '?') this.i++;
    return { t: 'rep', body: atom, min, max };
  }

  literal(): number {
    const cp = this.src.codePointAt(this.i)!;
    this.i += cp > 0xffff ? 2 : 1;
    return cp;
  }

  hex(digits: number): number {
    const text = this.src.slice(this.i, this.i + digits);
    this.i += digits;
    return Number.parseInt(text, 16);
  }

  /** After `\`: a character class escape as a set, or one character. */
  atomEscape(): Ranges {
    this.i++; // the backslash
    const c = this.peek()!;
    if (/[1-9]/.test(c)) throw new Unsupported(`a backreference (\`\\${c}\`)`);
    if (c === 'k') throw new Unsupported('a named backreference (`\\k<...>`)');
    return this.classEscape(false) ?? single(this.characterEscape(false));
  }

  /** `\d \D \w \W \s \S \p{..} \P{..}` as a set (the backslash already read), or undefined. */
  classEscape(_inClass: boolean): Ranges | undefined {
    const c = this.peek();
    switch (c) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 's':
      case 'S': {
        this.i++;
        const base = c === 'd' || c === 'D' ? DIGIT : c === 'w' || c === 'W' ? WORD : SPACE;
        return c === c.toUpperCase() ? complement(base) : base;
      }
      case 'p':
      case 'P': {
        const close = this.src.indexOf('}', this.i);
        const name = this.src.slice(this.i + 2, close);
        this.i = close + 1;
        const set = propertySet(name);
        return c === 'P' ? complement(set) : set;
      }
      default:
        return undefined;
    }
  }

  /** One escaped character (the backslash already read). */
  characterEscape(inClass: boolean): number {
    const c = this.peek()!;
    this.i++;
    switch (c) {
      case 'f':
        return 0x0c;
      case 'n':
        return 0x0a;
      case 'r':
        return 0x0d;
      case 't':
        return 0x09;
      case 'v':
        return 0x0b;
      case '0':
        return 0;
      case 'c': {
        const letter = this.src.charCodeAt(this.i);
        this.i++;
        return letter % 32;
      }
      case 'x':
        return this.hex(2);
      case 'u': {
        if (this.peek() === '{') {
          const close = this.src.indexOf('}', this.i);
          const cp = Number.parseInt(this.src.slice(this.i + 1, close), 16);
          this.i = close + 1;
          return cp;
        }
        const unit = this.hex(4);
        // `\uD83D\uDE00` is one code point in `u` mode.
        if (unit >= 0xd800 && unit <= 0xdbff && this.src.startsWith('\\u', this.i) && /^[0-9a-fA-F]{4}$/.test(this.src.slice(this.i + 2, this.i + 6))) {
          const trail = Number.parseInt(this.src.slice(this.i + 2, this.i + 6), 16);
          if (trail >= 0xdc00 && trail <= 0xdfff) {
            this.i += 6;
            return (unit - 0xd800) * 0x400 + (trail - 0xdc00) + 0x10000;
          }
        }
        return unit;
      }
      case 'b':
        if (inClass) return 0x08;
        throw new Unsupported('`\\b` in an unexpected place');
      default:
        // An identity escape: a syntax character, `/`, or `-` in a class.
        this.i--;
        return this.literal();
    }
  }

  characterClass(): Ranges {
    this.i++; // [
    const negated = this.peek() === '^';
    if (negated) this.i++;
    const sets: Ranges[] = [];
    while (this.peek() !== ']') {
      if (this.i >= this.src.length) throw new Unsupported('an unclosed character class');
      const first = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined && typeof first === 'number') {
        this.i++;
        const last = this.classAtom();
        if (typeof last !== 'number') throw new Unsupported('a range bounded by a class escape');
        sets.push(normalize([[first, last]]));
      } else sets.push(typeof first === 'number' ? single(first) : first);
    }
    this.i++; // ]
    const set = union(...sets);
    return negated ? complement(set) : set;
  }

  classAtom(): number | Ranges {
    if (this.peek() !== '\\') return this.literal();
    this.i++;
    return this.classEscape(true) ?? this.characterEscape(true);
  }
}

// ---------------------------------------------------------------------------------------
// When the native engine is safe: every choice decided by the next character.

const firsts = new WeakMap<Node, Ranges>();
const nullables = new WeakMap<Node, boolean>();

function first(node: Node): Ranges {
  let set = firsts.get(node);
  if (set === undefined) firsts.set(node, (set = firstOf(node)));
  return set;
}

function nullable(node: Node): boolean {
  let value = nullables.get(node);
  if (value === undefined) nullables.set(node, (value = nullableOf(node)));
  return value;
}

function firstOf(node: Node): Ranges {
  switch (node.t) {
    case 'set':
      return node.set;
    case 'seq': {
      const sets: Ranges[] = [];
      for (const item of node.items) {
        sets.push(first(item));
        if (!nullable(item)) break;
      }
      return union(...sets);
    }
    case 'alt':
      return union(...node.alts.map(first));
    case 'rep':
      return node.max === 0 ? [] : first(node.body);
    default:
      return [];
  }
}

function nullableOf(node: Node): boolean {
  switch (node.t) {
    case 'set':
      return false;
    case 'seq':
      return node.items.every(nullable);
    case 'alt':
      return node.alts.some(nullable);
    case 'rep':
      return node.min === 0 || nullable(node.body);
    default:
      return true;
  }
}

/** Longest match in characters (Infinity when unbounded). */
function maxLength(node: Node): number {
  switch (node.t) {
    case 'set':
      return 1;
    case 'seq':
      return node.items.reduce((sum, item) => sum + maxLength(item), 0);
    case 'alt':
      return Math.max(...node.alts.map(maxLength));
    case 'rep': {
      const body = maxLength(node.body);
      return body === 0 || node.max === 0 ? 0 : node.max * body;
    }
    default:
      return 0;
  }
}

/**
 * True when a backtracking engine meets no real choice inside `node`, given that `follow`
 * is what can come after it: at every repetition, "once more" and "stop" start with
 * different characters, and so do the alternatives of every group. Such a pattern fails a
 * wrong branch at its first character, so one attempt costs time linear in the input.
 */
function deterministic(node: Node, follow: Ranges): boolean {
  switch (node.t) {
    case 'seq': {
      let after = follow;
      for (let i = node.items.length - 1; i >= 0; i--) {
        const item = node.items[i]!;
        if (!deterministic(item, after)) return false;
        after = nullable(item) ? union(first(item), after) : first(item);
      }
      return true;
    }
    case 'alt': {
      const firsts = node.alts.map(first);
      for (let a = 0; a < firsts.length; a++) {
        if (nullable(node.alts[a]!)) return false;
        for (let b = a + 1; b < firsts.length; b++) if (intersects(firsts[a]!, firsts[b]!)) return false;
      }
      return node.alts.every((alt) => deterministic(alt, follow));
    }
    case 'rep': {
      const inner = node.max > 1 ? union(first(node.body), follow) : follow;
      if (node.min !== node.max && (nullable(node.body) || intersects(first(node.body), follow))) return false;
      return deterministic(node.body, inner);
    }
    default:
      return true;
  }
}

/** At most one start position can match: every top-level alternative begins with `^`. */
function anchored(node: Node): boolean {
  if (node.t === 'alt') return node.alts.every(anchored);
  return node.t === 'seq' && node.items[0]?.t === 'start';
}

// An unanchored pattern is tried at every position: linear only when one try is bounded.
const UNANCHORED_MAX_LENGTH = 256;

function safeOnBacktracking(node: Node): boolean {
  if (!deterministic(node, [])) return false;
  return anchored(node) || maxLength(node) <= UNANCHORED_MAX_LENGTH;
}

// ---------------------------------------------------------------------------------------
// RE2 syntax with the same meaning.

const RE2_MAX_REPEAT = 1000;

function hexEscape(cp: number): string {
  return `\\x{${cp.toString(16)}}`;
}

function emitSet(set: Ranges): string {
  if (set.length === 0) return `[^\\x{0}-\\x{10ffff}]`;
  if (set.length === 2 && set[0] === set[1]) return hexEscape(set[0]!);
  let out = '[';
  for (let i = 0; i < set.length; i += 2) out += set[i] === set[i + 1] ? hexEscape(set[i]!) : `${hexEscape(set[i]!)}-${hexEscape(set[i + 1]!)}`;
  return `${out}]`;
}

function emit(node: Node): string {
  switch (node.t) {
    case 'set':
      return emitSet(node.set);
    case 'seq':
      return node.items.map(emit).join('');
    case 'alt':
      return `(?:${node.alts.map(emit).join('|')})`;
    case 'rep': {
      if (node.min > RE2_MAX_REPEAT || (node.max !== Infinity && node.max > RE2_MAX_REPEAT)) {
        throw new Unsupported(`a repetition count above ${RE2_MAX_REPEAT} (\`{${node.min}${node.max === node.min ? '' : `,${node.max === Infinity ? '' : node.max}`}}\`)`);
      }
      const body = `(?:${emit(node.body)})`;
      if (node.min === 0 && node.max === Infinity) return `${body}*`;
      if (node.min === 1 && node.max === Infinity) return `${body}+`;
      if (node.min === 0 && node.max === 1) return `${body}?`;
      if (node.min === node.max) return `${body}{${node.min}}`;
      return `${body}{${node.min},${node.max === Infinity ? '' : node.max}}`;
    }
    case 'start':
      return '^';
    case 'end':
      return '$';
    case 'boundary':
      return node.negated ? '\\B' : '\\b';
  }
}

/**
 * The RE2 syntax of an ECMAScript `u`-mode pattern, with the same meaning for `test`; throws
 * a SyntaxError for an invalid pattern, and an Error naming the construct RE2 lacks.
 */
export function toRe2Syntax(source: string): string {
  new RegExp(source, 'u');
  return emit(new Parser(source).parse());
}

// ---------------------------------------------------------------------------------------

interface Re2Pattern {
  test(text: string): boolean;
}
let re2: { compile(pattern: string): Re2Pattern } | undefined;

/** re2js is loaded on first use: a project whose patterns all run natively never pays its 20 ms. */
function re2js(): { compile(pattern: string): Re2Pattern } {
  re2 ??= (createRequire(import.meta.url)('re2js') as { RE2JS: { compile(pattern: string): Re2Pattern } }).RE2JS;
  return re2;
}

let sink: UnsupportedPattern[] | undefined;

/**
 * Runs `fn` (an Ajv compile) and returns the unsupported patterns it met, with its result.
 * Patterns compiled from a cache are not met again: callers key what they learn by what
 * `fn` returned.
 */
export function collectUnsupported<T>(fn: () => T): { result: T; unsupported: UnsupportedPattern[] } {
  const outer = sink;
  const found: UnsupportedPattern[] = [];
  sink = found;
  try {
    return { result: fn(), unsupported: found };
  } finally {
    sink = outer;
  }
}

const MAX_RE2_SYNTAX = 1_000_000;
const cache = new Map<string, CompiledPattern>();
const CACHE_SIZE = 1000;

function build(source: string): CompiledPattern {
  // Compiling is linear; only matching backtracks. It also rejects what is not ECMAScript.
  const native = new RegExp(source, 'u');
  let ast: Node;
  try {
    ast = new Parser(source).parse();
    if (safeOnBacktracking(ast)) return { source, engine: 'native', matcher: native, test: (text) => native.test(text) };
    const syntax = emit(ast);
    // Compiling costs about 0.1 ms per KB of RE2 syntax (computed sets are long): bound it too.
    if (syntax.length > MAX_RE2_SYNTAX) throw new Unsupported(`a size beyond what the linear-time engine compiles quickly (${syntax.length.toLocaleString('en-US')} characters of RE2 syntax)`);
    const compiled = re2js().compile(syntax);
    // Ajv keys the patterns it holds by `toString()`: keep them distinct from native ones and each other.
    const matcher = { test: (text: string) => compiled.test(text), toString: () => `re2js:${JSON.stringify(source)}` };
    return { source, engine: 'linear', matcher, test: matcher.test };
  } catch (error) {
    // A RangeError is a pattern nested too deep for this parser (the native one took it).
    const reason =
      error instanceof Unsupported ? error.message : error instanceof RangeError ? 'nesting too deep to analyse' : `a construct RE2 rejects (${(error as Error).message.replace(/^error parsing regexp: /, '')})`;
    const matcher = { test: () => true, toString: () => `unsupported:${JSON.stringify(source)}` };
    return { source, engine: 'unsupported', reason, matcher, test: matcher.test };
  }
}

/** A pattern compiled for linear-time `test` (see the top of this file); cached per source. */
export function compilePattern(source: string): CompiledPattern {
  let compiled = cache.get(source);
  if (compiled === undefined) {
    compiled = build(source);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(source, compiled);
  }
  if (compiled.engine === 'unsupported' && sink !== undefined) sink.push({ pattern: source, reason: compiled.reason! });
  return compiled;
}

/**
 * `new RegExp(pattern, 'u').test(text)` without the backtracking: for code that matches a
 * schema's pattern outside Ajv. Undefined when the pattern is invalid or cannot run in
 * linear time (the caller decides what that means).
 */
export function testPattern(pattern: string, text: string): boolean | undefined {
  let compiled: CompiledPattern;
  try {
    compiled = compilePattern(pattern);
  } catch {
    return undefined;
  }
  return compiled.engine === 'unsupported' ? undefined : compiled.test(text);
}

/** Ajv's `code.regExp` option: schema patterns through `compilePattern`. */
export const patternEngine = Object.assign((pattern: string, _flags: string) => compilePattern(pattern).matcher, {
  code: 'require("prompt-contract/dist/util/regex.js").patternEngine',
});
