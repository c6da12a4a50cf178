// The harness the notation tests share: find + parse run as the engine runs them, the
// real-world fixtures with their labels, and the hostile-input and random-input checks.
import { expect } from '@jest/globals';
import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isParseFailure, type NotationContext, type NotationDefinition, type NotationMatch, type ParseFailure } from '../../../src/extract/notation.js';
import { normalizeTools } from '../../../src/tools/normalize.js';
import type { ToolSpec } from '../../../src/tools/types.js';
import { hostileLength, runs } from '../../helpers/runs.js';

export const corpus = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'realworld');

export interface Found {
  name: string;
  arguments: unknown;
  line: number;
}

/** How many elements of the sorted `list` are below `offset` (the index of the first at or after it). */
export function countBelow(list: readonly number[], offset: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function contextFor(text: string, tools: readonly ToolSpec[] = []): NotationContext {
  const blanks: number[] = [];
  const re = /\n[ \t>]*(?=\r?\n)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) blanks.push(m.index);
  return { tools: new Map(tools.map((t) => [t.name, t])), paragraphEnd: (offset) => blanks[countBelow(blanks, offset)] ?? text.length };
}

/** find + parse as the engine runs them: places in order, one starting inside a read place skipped. */
export function run<M extends NotationMatch>(notation: NotationDefinition<M>, text: string, tools: readonly ToolSpec[] = []) {
  const context = contextFor(text, tools);
  const breaks: number[] = [];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) breaks.push(i);
  const lineOf = (offset: number) => countBelow(breaks, offset) + 1;
  const calls: Found[] = [];
  const failures: Array<ParseFailure & { line: number }> = [];
  let read = 0;
  let last = -1;
  for (const match of notation.find(text, context)) {
    if (!(match.start >= Math.max(last, 0) && match.end > match.start && match.end <= text.length)) throw new Error(`Bad place ${match.start}-${match.end} after ${last}`);
    last = match.start;
    if (match.start < read) continue;
    const result = notation.parse(match, { ...context, text });
    if (result === undefined) continue;
    read = match.end;
    const line = lineOf(match.start);
    if (isParseFailure(result)) failures.push({ ...result, line });
    else for (const call of result) calls.push({ name: call.name, arguments: call.arguments, line });
  }
  return { calls, failures };
}

export interface RealWorld {
  name: string;
  text: string;
  notation: string;
  expected: Found[];
  tools: ToolSpec[];
}

export function realWorld(): RealWorld[] {
  return readdirSync(corpus, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(corpus, d.name, 'input.txt')))
    .map((d) => {
      const dir = join(corpus, d.name);
      const json = (file: string): any => JSON.parse(readFileSync(join(dir, file), 'utf8'));
      const tools = existsSync(join(dir, 'tools.json')) ? normalizeTools(json('tools.json'), 'tools.json') : [];
      return { name: d.name, text: readFileSync(join(dir, 'input.txt'), 'utf8'), notation: json('meta.json').notation, expected: json('expected.json').calls, tools };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
/** The labelled calls of a fixture; with `markers`, only those on a line holding one (a label of another notation shares the text). */
export function labelled(f: RealWorld, markers?: readonly string[]): Found[] {
  const lines = f.text.split('\n');
  return f.expected.filter((c) => !markers || markers.some((m) => lines[c.line - 1]?.includes(m))).map(({ name, arguments: args, line }) => ({ name, arguments: args, line }));
}

/**
 * Hostile inputs of 1 MB (an eighth in `test:fast`), each one unit repeated: a reader that rescans the text per place
 * never finishes within the test's time limit; a linear one reads it (places in order, `run` checks).
 */
export function expectLinear<M extends NotationMatch>(notation: NotationDefinition<M>, units: readonly string[], tools: readonly ToolSpec[] = []) {
  for (const unit of units) {
    const text = unit.repeat(Math.ceil(hostileLength(1_000_000) / unit.length));
    // The JSON reader reports a failure by throwing: without stack traces that costs what reading does.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      // `run` throws on a place out of order or outside the text; a rescanning reader never gets here.
      expect(() => run(notation, text, tools)).not.toThrow();
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
/** Any mix of the notation's pieces and random text: no throw, and every place inside the text and in order (`run` checks). */
export function expectTotal<M extends NotationMatch>(notation: NotationDefinition<M>, pieces: readonly string[], tools: readonly ToolSpec[] = []) {
  const texts = fc.array(fc.oneof(fc.constantFrom(...pieces, '\n', '\n\n', ' ', '{', '}', '[', ']', '"', "'", ':', ','), fc.string({ maxLength: 6 })), { maxLength: 40 }).map((parts) => parts.join(''));
  fc.assert(
    fc.property(texts, (text) => {
      run(notation, text, tools);
    }),
    { numRuns: runs(300) },
  );
}
