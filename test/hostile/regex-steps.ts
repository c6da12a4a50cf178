/**
 * The work a backtracking regular-expression search does, counted in steps: the same count on
 * every machine, however loaded, so a test can tell linear from quadratic without a clock.
 *
 * The pattern runs on a small backtracking machine that explores in the order ECMAScript
 * prescribes (alternatives left to right, greedy repetitions longest first, lookaheads atomic):
 * the search tree V8's own backtracking engine walks, less what V8's optimizations prune. A
 * pattern whose tree grows faster than its input here is one V8 can be made to backtrack on.
 * One step is one instruction: a character tested, a choice pushed, an assertion checked. What
 * one character means (a class, an escape, `.` under `i`, `u`, `s`) is asked of a native
 * one-character RegExp, so the machine cannot read a class differently from V8.
 *
 * Not supported (throws): backreferences and lookbehind, which no pattern measured here uses, and
 * a pattern whose bounded repetitions unroll to more than MAX_PROGRAM instructions.
 */

/** Thrown for a construct this machine does not run. */
export class UnsupportedConstruct extends Error {}

type Node =
  | { t: 'char'; src: string }
  | { t: 'assert'; src: '^' | '$' | '\\b' | '\\B' }
  | { t: 'look'; body: Node; negate: boolean }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; alts: Node[] }
  | { t: 'rep'; body: Node; min: number; max: number; lazy: boolean };

class Parser {
  i = 0;
  constructor(
    readonly src: string,
    readonly unicode: boolean,
  ) {}

  parse(): Node {
    const node = this.alternation();
    if (this.i < this.src.length) throw new UnsupportedConstruct(`unexpected \`${this.src[this.i]}\` at ${this.i}`);
    return node;
  }

  private alternation(): Node {
    const alts = [this.sequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      alts.push(this.sequence());
    }
    return alts.length === 1 ? alts[0]! : { t: 'alt', alts };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') items.push(this.quantified(this.atom()));
    return { t: 'seq', items };
  }

  private atom(): Node {
    const { src } = this;
    const c = src[this.i]!;
    if (c === '^' || c === '$') {
      this.i++;
      return { t: 'assert', src: c };
    }
    if (c === '(') {
      let negate = false;
      let look = false;
      if (src.startsWith('(?=', this.i) || src.startsWith('(?!', this.i)) {
        look = true;
        negate = src[this.i + 2] === '!';
        this.i += 3;
      } else if (src.startsWith('(?<=', this.i) || src.startsWith('(?<!', this.i)) {
        throw new UnsupportedConstruct('lookbehind');
      } else if (src.startsWith('(?:', this.i)) {
        this.i += 3;
      } else if (src.startsWith('(?<', this.i)) {
        this.i = src.indexOf('>', this.i) + 1;
      } else {
        this.i++;
      }
      const body = this.alternation();
      if (src[this.i] !== ')') throw new UnsupportedConstruct('unclosed group');
      this.i++;
      return look ? { t: 'look', body, negate } : body;
    }
    if (c === '[') {
      let j = this.i + 1;
      if (src[j] === '^') j++;
      while (j < src.length && src[j] !== ']') j += src[j] === '\\' ? 2 : 1;
      const text = src.slice(this.i, j + 1);
      this.i = j + 1;
      return { t: 'char', src: text };
    }
    if (c === '\\') return this.escape();
    // A literal, `.`, or (outside `u` mode) a `{`, `}` or `]` that is not syntax: one character.
    const width = this.unicode && (src.codePointAt(this.i) ?? 0) > 0xffff ? 2 : 1;
    const text = src.slice(this.i, this.i + width);
    this.i += width;
    return { t: 'char', src: text };
  }

  private escape(): Node {
    const { src } = this;
    const start = this.i;
    const c = src[start + 1];
    let end = start + 2;
    if (c === 'b' || c === 'B') {
      this.i = end;
      return { t: 'assert', src: c === 'b' ? '\\b' : '\\B' };
    }
    if (c !== undefined && /[1-9]/.test(c)) throw new UnsupportedConstruct('a backreference');
    if (c === 'k' && (this.unicode || src.includes('(?<'))) throw new UnsupportedConstruct('a named backreference');
    if (c === 'u') {
      if (this.unicode && src[start + 2] === '{') end = src.indexOf('}', start) + 1;
      else if (/^[0-9a-fA-F]{4}/.test(src.slice(start + 2, start + 6))) {
        end = start + 6;
        // `\uD83D\uDE00` in `u` mode is one character.
        const lead = parseInt(src.slice(start + 2, start + 6), 16);
        if (this.unicode && lead >= 0xd800 && lead <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(src.slice(end, end + 6))) end += 6;
      }
    } else if (c === 'x' && /^[0-9a-fA-F]{2}/.test(src.slice(start + 2, start + 4))) end = start + 4;
    else if (c === 'c' && /^[a-zA-Z]/.test(src[start + 2] ?? '')) end = start + 3;
    else if ((c === 'p' || c === 'P') && this.unicode) end = src.indexOf('}', start) + 1;
    this.i = end;
    return { t: 'char', src: src.slice(start, end) };
  }

  private quantified(node: Node): Node {
    const { src } = this;
    let min: number;
    let max: number;
    const c = src[this.i];
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(this.i));
      if (!m) return node;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.i += m[0].length - 1;
    } else return node;
    this.i++;
    const lazy = src[this.i] === '?';
    if (lazy) this.i++;
    return { t: 'rep', body: node, min, max, lazy };
  }
}

const CHAR = 0;
const SPLIT = 1;
const JMP = 2;
const ASSERT = 3;
const LOOK = 4;
const MARK = 5;
const PROGRESS = 6;
const MATCH = 7;

type Inst =
  | { op: typeof CHAR; test(ch: string): boolean }
  | { op: typeof SPLIT; x: number; y: number }
  | { op: typeof JMP; x: number }
  | { op: typeof ASSERT; test(input: string, pos: number): boolean }
  | { op: typeof LOOK; prog: Inst[]; negate: boolean }
  | { op: typeof MARK }
  | { op: typeof PROGRESS }
  | { op: typeof MATCH };

function nullable(node: Node): boolean {
  switch (node.t) {
    case 'char':
      return false;
    case 'assert':
    case 'look':
      return true;
    case 'seq':
      return node.items.every(nullable);
    case 'alt':
      return node.alts.some(nullable);
    case 'rep':
      return node.min === 0 || nullable(node.body);
  }
}

/** What one character atom matches, asked of V8 once per distinct character. */
function charTest(src: string, flags: string): (ch: string) => boolean {
  const re = new RegExp(`^(?:${src})$`, flags.replace(/[gmyd]/g, ''));
  const seen = new Map<string, boolean>();
  return (ch) => {
    let hit = seen.get(ch);
    if (hit === undefined) seen.set(ch, (hit = re.test(ch)));
    return hit;
  };
}

function assertTest(src: '^' | '$' | '\\b' | '\\B', flags: string): (input: string, pos: number) => boolean {
  if (src === '^' && !flags.includes('m')) return (_input, pos) => pos === 0;
  if (src === '$' && !flags.includes('m')) return (input, pos) => pos === input.length;
  // `^`/`$` under `m`, `\b`, `\B`: V8 decides, at exactly this position.
  const re = new RegExp(src, `${flags.replace(/[gyd]/g, '')}y`);
  return (input, pos) => {
    re.lastIndex = pos;
    return re.test(input);
  };
}

function compile(node: Node, flags: string, prog: Inst[]): void {
  switch (node.t) {
    case 'char':
      prog.push({ op: CHAR, test: charTest(node.src, flags) });
      return;
    case 'assert':
      prog.push({ op: ASSERT, test: assertTest(node.src, flags) });
      return;
    case 'look': {
      const sub: Inst[] = [];
      compile(node.body, flags, sub);
      sub.push({ op: MATCH });
      prog.push({ op: LOOK, prog: sub, negate: node.negate });
      return;
    }
    case 'seq':
      for (const item of node.items) compile(item, flags, prog);
      return;
    case 'alt': {
      const jumps: Array<{ op: typeof JMP; x: number }> = [];
      node.alts.forEach((alt, k) => {
        const last = k === node.alts.length - 1;
        const split = { op: SPLIT, x: prog.length + 1, y: -1 } as { op: typeof SPLIT; x: number; y: number };
        if (!last) prog.push(split);
        compile(alt, flags, prog);
        if (!last) {
          const jump = { op: JMP, x: -1 } as { op: typeof JMP; x: number };
          jumps.push(jump);
          prog.push(jump);
          split.y = prog.length;
        }
      });
      for (const jump of jumps) jump.x = prog.length;
      return;
    }
    case 'rep': {
      for (let k = 0; k < node.min; k++) compile(node.body, flags, prog);
      const choice = (split: { x: number; y: number }, body: number, out: number) => {
        split.x = node.lazy ? out : body;
        split.y = node.lazy ? body : out;
      };
      if (node.max === Infinity) {
        // An iteration that matches nothing ends the loop (ECMAScript's RepeatMatcher rule).
        const guard = nullable(node.body);
        const top = prog.length;
        const split = { op: SPLIT, x: -1, y: -1 } as { op: typeof SPLIT; x: number; y: number };
        prog.push(split);
        if (guard) prog.push({ op: MARK });
        compile(node.body, flags, prog);
        if (guard) prog.push({ op: PROGRESS });
        prog.push({ op: JMP, x: top });
        choice(split, top + 1, prog.length);
        return;
      }
      // `x{0,3}` is `(?:x(?:x(?:x)?)?)?`: each optional copy, once declined, declines the rest.
      const splits: Array<[{ op: typeof SPLIT; x: number; y: number }, number]> = [];
      for (let k = node.min; k < node.max; k++) {
        const split = { op: SPLIT, x: -1, y: -1 } as { op: typeof SPLIT; x: number; y: number };
        prog.push(split);
        splits.push([split, prog.length]);
        compile(node.body, flags, prog);
      }
      for (const [split, body] of splits) choice(split, body, prog.length);
      return;
    }
  }
}

interface Marks {
  pos: number;
  next: Marks | null;
}

class StepLimit extends Error {}

interface Budget {
  steps: number;
  limit: number;
}

function run(prog: Inst[], input: string, start: number, unicode: boolean, budget: Budget): boolean {
  const stack: Array<number | Marks | null> = [];
  let pc = 0;
  let pos = start;
  let marks: Marks | null = null;
  for (;;) {
    if (++budget.steps > budget.limit) throw new StepLimit();
    const inst = prog[pc]!;
    let ok = false;
    switch (inst.op) {
      case CHAR:
        if (pos < input.length) {
          const width = unicode && (input.codePointAt(pos) ?? 0) > 0xffff ? 2 : 1;
          if (inst.test(input.slice(pos, pos + width))) {
            pos += width;
            pc++;
            ok = true;
          }
        }
        break;
      case SPLIT:
        stack.push(inst.y, pos, marks);
        pc = inst.x;
        ok = true;
        break;
      case JMP:
        pc = inst.x;
        ok = true;
        break;
      case ASSERT:
        if (inst.test(input, pos)) {
          pc++;
          ok = true;
        }
        break;
      case LOOK:
        if (run(inst.prog, input, pos, unicode, budget) !== inst.negate) {
          pc++;
          ok = true;
        }
        break;
      case MARK:
        marks = { pos, next: marks };
        pc++;
        ok = true;
        break;
      case PROGRESS:
        if (marks!.pos !== pos) {
          marks = marks!.next;
          pc++;
          ok = true;
        }
        break;
      case MATCH:
        return true;
    }
    if (ok) continue;
    if (stack.length === 0) return false;
    marks = stack.pop() as Marks | null;
    pos = stack.pop() as number;
    pc = stack.pop() as number;
  }
}

/** Every alternative starts with `^` (without `m`): no start but the first can match, and V8 tries no other. */
function anchored(node: Node, flags: string): boolean {
  if (flags.includes('m')) return false;
  if (node.t === 'alt') return node.alts.every((alt) => anchored(alt, flags));
  const first = node.t === 'seq' ? node.items[0] : node;
  return first?.t === 'assert' && first.src === '^';
}

/**
 * Instructions `compile` emits for `node`, lookahead programs included: a bounded repetition is
 * unrolled, so `(?:a{1000}){1000}` would be a million, built before the first step is counted.
 */
function programSize(node: Node): number {
  switch (node.t) {
    case 'char':
    case 'assert':
      return 1;
    case 'look':
      return programSize(node.body) + 2;
    case 'seq':
      return node.items.reduce((sum, item) => sum + programSize(item), 0);
    case 'alt':
      return node.alts.reduce((sum, alt) => sum + programSize(alt), 0) + 2 * (node.alts.length - 1);
    case 'rep': {
      const body = programSize(node.body);
      return node.min * body + (node.max === Infinity ? body + (nullable(node.body) ? 4 : 2) : (node.max - node.min) * (body + 1));
    }
  }
}

// Far above any pattern measured here (ajv-formats' largest, `ipv6`, unrolls to about 1,200).
const MAX_PROGRAM = 200_000;

const programs = new Map<string, { prog: Inst[]; anchored: boolean }>();

function program(source: string, flags: string): { prog: Inst[]; anchored: boolean } {
  const key = `${flags}/${source}`;
  let compiled = programs.get(key);
  if (compiled === undefined) {
    const prog: Inst[] = [];
    const tree = new Parser(source, flags.includes('u') || flags.includes('v')).parse();
    const size = programSize(tree);
    if (size > MAX_PROGRAM) throw new UnsupportedConstruct(`a pattern that unrolls to ${size} instructions (at most ${MAX_PROGRAM})`);
    compile(tree, flags, prog);
    prog.push({ op: MATCH });
    programs.set(key, (compiled = { prog, anchored: anchored(tree, flags) }));
  }
  return compiled;
}

export interface Steps {
  /** Whether the search found a match; undefined when it ran past `limit`. */
  matched: boolean | undefined;
  /** Steps taken: `Infinity` past `limit`. */
  steps: number;
}

/**
 * The steps of `RegExp.prototype.exec(input)` for `pattern`: from `lastIndex` when the pattern
 * is global or sticky (only there when sticky), else from every position in turn.
 */
export function backtrackSteps(pattern: { source: string; flags: string }, input: string, options: { lastIndex?: number; limit?: number } = {}): Steps {
  const { source, flags } = pattern;
  const { prog, anchored: once } = program(source, flags);
  const unicode = flags.includes('u') || flags.includes('v');
  const sticky = flags.includes('y');
  const budget = { steps: 0, limit: options.limit ?? Infinity };
  let start = flags.includes('g') || sticky ? (options.lastIndex ?? 0) : 0;
  try {
    for (;;) {
      if (start > input.length) return { matched: false, steps: budget.steps };
      if (run(prog, input, start, unicode, budget)) return { matched: true, steps: budget.steps };
      if (sticky || once) return { matched: false, steps: budget.steps };
      start += unicode && (input.codePointAt(start) ?? 0) > 0xffff ? 2 : 1;
    }
  } catch (error) {
    if (error instanceof StepLimit) return { matched: undefined, steps: Infinity };
    throw error;
  }
}

/** One `exec` a piece of code made: the pattern, what it searched and from where, and what V8 found. */
export interface RegexRun {
  source: string;
  flags: string;
  input: string;
  lastIndex: number;
  matched: boolean;
}

/** Replaces `RegExp.prototype.exec` with a recorder; returns what undoes it. */
function record(runs: RegexRun[]): () => void {
  const exec = Object.getOwnPropertyDescriptor(RegExp.prototype, 'exec')!;
  const original = RegExp.prototype.exec;
  Object.defineProperty(RegExp.prototype, 'exec', {
    ...exec,
    value(this: RegExp, input: string) {
      const text = String(input);
      const lastIndex = this.lastIndex;
      const result = original.call(this, text);
      runs.push({ source: this.source, flags: this.flags, input: text, lastIndex, matched: result !== null });
      return result;
    },
  });
  return () => Object.defineProperty(RegExp.prototype, 'exec', exec);
}

/**
 * Every RegExp search `fn` makes, by way of `exec` (which `test`, `match`, `split` and
 * `replace` call per the spec once `exec` is replaced, so V8 leaves its fast paths).
 */
export function regexRuns(fn: () => unknown): RegexRun[] {
  const runs: RegexRun[] = [];
  const restore = record(runs);
  try {
    fn();
  } finally {
    restore();
  }
  return runs;
}

/** `regexRuns` for an async `fn`: the searches made until it settles. */
export async function regexRunsAsync(fn: () => Promise<unknown>): Promise<RegexRun[]> {
  const runs: RegexRun[] = [];
  const restore = record(runs);
  try {
    await fn();
  } finally {
    restore();
  }
  return runs;
}

/**
 * The steps of every search `fn` makes, each replayed on the counting machine, which must
 * find what V8 found (else it throws: the count would be of some other search). A search
 * past `limitPerChar` steps a character of its input counts as `Infinity`.
 */
export function stepsOf(fn: () => void, limitPerChar = 1000): { steps: number; runs: RegexRun[] } {
  const runs = regexRuns(fn);
  let steps = 0;
  for (const r of runs) {
    const counted = backtrackSteps(r, r.input, { lastIndex: r.lastIndex, limit: limitPerChar * (r.input.length + 1) + 10_000 });
    if (counted.matched !== undefined && counted.matched !== r.matched) {
      throw new Error(`the counting machine found ${counted.matched ? 'a' : 'no'} match of /${r.source}/${r.flags} where V8 found ${r.matched ? 'one' : 'none'} (input ${JSON.stringify(r.input.slice(0, 80))}…)`);
    }
    steps += counted.steps;
  }
  return { steps, runs };
}
