import { createRequire } from 'node:module';

/** One hunk of a line diff: its first line on each side (1-based) and its lines, each marked ` `, `-` or `+`. */
export interface Hunk {
  oldStart: number;
  newStart: number;
  lines: string[];
}

export interface LineChanges {
  added: number;
  removed: number;
  hunks: Hunk[];
}

/** Edits searched for before a changed region is shown as one block (Myers' cost grows with lines × edits). */
const MAX_EDIT_LENGTH = 2000;
const CONTEXT = 3;

/** The line diff of two snapshot texts (`before` undefined: every line is new), with a few lines of context. */
export function lineChanges(before: string | undefined, after: string | undefined): LineChanges {
  const a = before ?? '';
  const b = after ?? '';
  if (a === b) return { added: 0, removed: 0, hunks: [] };
  // The common head and tail are skipped before the diff (Myers' cost grows with the lines it is given), keeping context lines.
  const x = a.split('\n');
  const y = b.split('\n');
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  const from = Math.max(0, head - CONTEXT);
  const keepTail = Math.max(0, tail - CONTEXT);
  const oldPart = x.slice(from, x.length - keepTail);
  const newPart = y.slice(from, y.length - keepTail);
  // Loaded on the first diff, as the snapshot check loads it.
  const { diffArrays } = createRequire(import.meta.url)('diff') as typeof import('diff');
  const parts = diffArrays(oldPart, newPart, { maxEditLength: MAX_EDIT_LENGTH });
  const hunks = parts ? toHunks(parts, from) : [oneBlock(x, y, head, tail)];
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    for (const l of h.lines) {
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
  }
  return { added, removed, hunks };
}

/** Too many edits to pair up: the changed region between the common head and tail, all old lines then all new ones. */
function oneBlock(x: readonly string[], y: readonly string[], head: number, tail: number): Hunk {
  return { oldStart: head + 1, newStart: head + 1, lines: [...x.slice(head, x.length - tail).map((l) => `-${l}`), ...y.slice(head, y.length - tail).map((l) => `+${l}`)] };
}

/** Runs of kept, removed and added lines as hunks with CONTEXT kept lines around each change; `from`: the lines skipped before them. */
function toHunks(parts: ReadonlyArray<{ value: string[]; added?: boolean; removed?: boolean }>, from: number): Hunk[] {
  const marked: string[] = [];
  for (const p of parts) for (const text of p.value) marked.push(`${p.added ? '+' : p.removed ? '-' : ' '}${text}`);
  const changes = marked.flatMap((m, i) => (m.startsWith(' ') ? [] : [i]));
  // Changes with at most twice the context between them share a hunk.
  const groups: Array<[number, number]> = [];
  for (const i of changes) {
    const last = groups[groups.length - 1];
    if (last !== undefined && i - last[1] - 1 <= 2 * CONTEXT) last[1] = i;
    else groups.push([i, i]);
  }
  const hunks: Hunk[] = [];
  let cursor = 0;
  let oldLine = from + 1;
  let newLine = from + 1;
  for (const [first, last] of groups) {
    const start = Math.max(0, first - CONTEXT);
    const end = Math.min(marked.length, last + CONTEXT + 1);
    for (; cursor < start; cursor++) {
      if (!marked[cursor]!.startsWith('+')) oldLine++;
      if (!marked[cursor]!.startsWith('-')) newLine++;
    }
    hunks.push({ oldStart: oldLine, newStart: newLine, lines: marked.slice(start, end) });
  }
  return hunks;
}

/** A row of a side-by-side diff: a line on each side (a change pairs a removed line with an added one), or a gap of unchanged lines. */
export type SideRow =
  | { kind: 'line'; left?: { line: number; text: string; changed: boolean }; right?: { line: number; text: string; changed: boolean } }
  | { kind: 'gap' };

/** The hunks as side-by-side rows: runs of removed and added lines paired in order, context on both sides. */
export function sideBySide(hunks: readonly Hunk[]): SideRow[] {
  const rows: SideRow[] = [];
  hunks.forEach((h, i) => {
    if (i > 0 || h.oldStart > 1 || h.newStart > 1) rows.push({ kind: 'gap' });
    let oldLine = h.oldStart;
    let newLine = h.newStart;
    let k = 0;
    while (k < h.lines.length) {
      const line = h.lines[k]!;
      if (line.startsWith(' ')) {
        rows.push({ kind: 'line', left: { line: oldLine++, text: line.slice(1), changed: false }, right: { line: newLine++, text: line.slice(1), changed: false } });
        k++;
        continue;
      }
      const removed: string[] = [];
      const added: string[] = [];
      while (k < h.lines.length && h.lines[k]!.startsWith('-')) removed.push(h.lines[k++]!.slice(1));
      while (k < h.lines.length && h.lines[k]!.startsWith('+')) added.push(h.lines[k++]!.slice(1));
      for (let j = 0; j < Math.max(removed.length, added.length); j++) {
        const row: SideRow = { kind: 'line' };
        if (j < removed.length) row.left = { line: oldLine++, text: removed[j]!, changed: true };
        if (j < added.length) row.right = { line: newLine++, text: added[j]!, changed: true };
        rows.push(row);
      }
    }
  });
  return rows;
}

/** A part of a changed line: `changed` when the other side does not have it. */
export interface Segment {
  text: string;
  changed: boolean;
}

/** Lines longer than this (both sides together) are marked whole: a word diff of them would cost more than it shows. */
const MAX_WORD_DIFF = 4000;

/**
 * The words that differ between a removed line and the added line paired with it, so a
 * reworded description shows the changed words, not two whole lines. Undefined when the lines
 * share nothing worth marking (or are too long): the whole line is then the change.
 */
export function wordChanges(before: string, after: string): { left: Segment[]; right: Segment[] } | undefined {
  if (before.length + after.length > MAX_WORD_DIFF) return undefined;
  const { diffWordsWithSpace } = createRequire(import.meta.url)('diff') as typeof import('diff');
  const parts = diffWordsWithSpace(before, after);
  // Only kept parts that hold words count: a shared space or indent alone is not text in common.
  const kept = parts.filter((p) => !p.added && !p.removed && p.value.trim() !== '').reduce((n, p) => n + p.value.length, 0);
  // Less than a third in common: marking words would colour nearly everything.
  if (kept * 3 < Math.max(before.length, after.length)) return undefined;
  const left: Segment[] = [];
  const right: Segment[] = [];
  for (const p of parts) {
    if (!p.added) left.push({ text: p.value, changed: p.removed === true });
    if (!p.removed) right.push({ text: p.value, changed: p.added === true });
  }
  return { left, right };
}
