import { applyPatch } from 'diff';
import { createRequire } from 'node:module';
import { lineDiff, MAX_DIFF_LINES } from '../../src/snapshot/state.js';
import { cli, report, withDemo } from '../cli/helpers.js';

// Issue #10, item 8: a snapshot diff of about 120,000 lines is a finding (exit 1) with a
// diff cut to a readable length, not a RangeError from `push(...lines)` (exit 2).

const N = 120_000;
const lines = (f: (i: number) => string): string => `${Array.from({ length: N }, (_, i) => f(i)).join('\n')}\n`;

test('check: a committed snapshot 150,000 lines longer than the render is snapshot/outdated with a cut diff', () =>
  withDemo((demo) => {
    // From about 125,000 lines, spreading a hunk into push() overflowed the stack: exit 2.
    const stale = 150_000;
    const file = 'snapshots/order_triage/cancellation.txt';
    const committed = demo.read(file).split('\n');
    // Inside the prompt text (line 8 on), where a reviewer would see them as sent.
    const padded = committed.slice(0, 8).concat(Array.from({ length: stale }, (_, i) => `stale line ${i}`), committed.slice(8));
    demo.write(file, padded.join('\n'));

    const result = cli(['check', '--format', 'json'], { cwd: demo.dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const outdated = report(result).diagnostics.filter((d) => d.ruleId === 'snapshot/outdated') as Array<{ file: string; detail?: string }>;
    expect(outdated.map((d) => d.file)).toEqual([file]);
    const detail = outdated[0]!.detail!.split('\n');
    expect(detail.length).toBe(MAX_DIFF_LINES + 1);
    expect(detail.slice(0, 3)).toEqual([`--- ${file} (committed)`, `+++ ${file} (rendered now)`, `@@ -7,${stale + 4} +7,4 @@`]);
    expect(detail).toContain('-stale line 0');
    expect(detail.at(-1)).toBe(`… ${stale - (MAX_DIFF_LINES - 7)} more lines of the diff not shown`);
  }));

// The work of a diff, counted rather than timed (the time is the machine's as much as the
// code's): the line comparisons jsdiff makes, every one through `lineDiff.equals` of the
// instance lineDiff loads. The common head and tail are skipped first and the edit search is
// capped, so a diff of any length compares about half a million pairs at most; a quadratic
// one compares about 10^10 here. Past the budget the counter throws, so a runaway diff fails
// the test at once instead of running for minutes.
const BUDGET = 2_000_000;
const differ = (createRequire(import.meta.url)('diff') as { lineDiff: { equals(left: string, right: string, options: unknown): boolean } }).lineDiff;

function comparisons<T>(fn: () => T): { value: T; compared: number } {
  const equals = differ.equals;
  let compared = 0;
  differ.equals = function (left, right, options) {
    if (++compared > BUDGET) throw new Error(`more than ${BUDGET.toLocaleString('en-US')} line comparisons`);
    return equals.call(this, left, right, options);
  };
  try {
    return { value: fn(), compared };
  } finally {
    differ.equals = equals;
  }
}

describe('lineDiff on 120,000 lines', () => {
  const cases: Array<[string, string, string]> = [
    ['one line changed', lines((i) => `line ${i}`), lines((i) => (i === 60_000 ? 'changed' : `line ${i}`))],
    ['every tenth line changed', lines((i) => `line ${i}`), lines((i) => (i % 10 === 0 ? `changed ${i}` : `line ${i}`))],
    ['everything replaced', lines((i) => `old ${i}`), lines((i) => `new ${i}`)],
  ];

  test.each(cases)('%s: a bounded number of line comparisons, and the diff stays under the line cap', (_name, before, after) => {
    const { value: diff, compared } = comparisons(() => lineDiff(before, after, 'big.txt'));
    expect(compared).toBeGreaterThan(0);
    expect(compared).toBeLessThanOrEqual(BUDGET);
    expect(diff.split('\n').length).toBeLessThanOrEqual(MAX_DIFF_LINES + 1);
    expect(diff.startsWith('--- big.txt (committed)\n+++ big.txt (rendered now)\n@@ ')).toBe(true);
  });

  test('one changed line gives the one hunk a reviewer expects', () => {
    const [, before, after] = cases[0]!;
    expect(lineDiff(before, after, 'big.txt')).toBe([
      '--- big.txt (committed)', '+++ big.txt (rendered now)', '@@ -59999,5 +59999,5 @@',
      ' line 59998', ' line 59999', '-line 60000', '+changed', ' line 60001', ' line 60002',
    ].join('\n'));
  });

  test('an uncut diff, even the block shown when edits are too many to pair, applies as a patch', () => {
    for (const [, before, after] of cases.slice(1)) {
      const small = (text: string): string => text.split('\n').slice(0, 3000).join('\n');
      const diff = lineDiff(small(before), small(after), 'f', Number.MAX_SAFE_INTEGER);
      expect(diff).not.toContain('more lines of the diff');
      expect(applyPatch(small(before), diff)).toBe(small(after));
    }
  });
});
