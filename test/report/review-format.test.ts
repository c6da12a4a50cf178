import { formatReviewHtml } from '../../src/report/review/html.js';
import { formatReviewMarkdown } from '../../src/report/review/markdown.js';
import type { CaseReview, Review, TokenCount } from '../../src/report/review/types.js';

// The review formatters with token counts passed in, as they will come from snapshot headers
// (`tokens: prompt <n> + tools <m> = <total> (<tokenizer>, exact)`): the CLI has no counts to
// give yet, so the delta and the chart are checked here on a review built by hand.

const count = (total: number, exact = true): TokenCount => ({ prompt: total - 100, tools: 100, total, tokenizer: 'o200k_base', exact });

function snapshot(lines: string[]): string {
  return ['prompt-contract snapshot 2', 'prompt: p', 'case: c', '', ...lines, ''].join('\n');
}

function review(cases: CaseReview[]): Review {
  return { baseline: { kind: 'disk', folder: 'snapshots' }, cases, tools: [], toolsBaseline: true, findings: [] };
}

const base = (name: string, tokens: CaseReview['tokens'], after = 'Be brief.'): CaseReview => ({
  prompt: 'support',
  case: name,
  file: `snapshots/support/${name}.txt`,
  status: 'changed',
  before: snapshot(['You are Ada.', 'Be kind.']),
  after: snapshot(['You are Ada.', after]),
  tokens,
  findings: [],
});

test('a case with counts on both sides shows the delta; one side unknown shows —; none known shows —', () => {
  const out = formatReviewMarkdown(
    review([base('grew', { before: count(1204), after: count(1260) }), base('shrank', { before: count(2000), after: count(1990) }), base('new_count', { after: count(1260) }), base('unknown', {})]),
  );
  expect(out).toContain('| `support` | `grew` | changed | 1,204 → 1,260 (+56) | +1 −1 | 0 |');
  expect(out).toContain('| `support` | `shrank` | changed | 2,000 → 1,990 (−10) | +1 −1 | 0 |');
  expect(out).toContain('| `support` | `new_count` | changed | — → 1,260 | +1 −1 | 0 |');
  expect(out).toContain('| `support` | `unknown` | changed | — | +1 −1 | 0 |');
  // An estimate (a tokenizer that is not the model's) is marked as one.
  expect(formatReviewMarkdown(review([base('approx', { before: count(10, false), after: count(12, false) })]))).toContain('10~ → 12~ (+2)');
});

test('html: a bar per known count, scaled to the largest; without counts, a — note and no chart', () => {
  const page = formatReviewHtml(review([base('grew', { before: count(1000), after: count(2000) }), base('unknown', {})]));
  const bars = [...page.matchAll(/<rect x="\d+" y="\d+" width="(\d+)"/g)].map((m) => Number(m[1]));
  expect(bars).toEqual([210, 420]);
  expect(page).toContain('1,000 → 2,000 (+1,000)');
  const none = formatReviewHtml(review([base('unknown', {})]));
  expect(none).not.toContain('<svg');
  expect(none).toContain('Token counts: —');
});

test('markdown under a small limit: diffs are cut first, with a count of the lines left out', () => {
  const long = Array.from({ length: 2000 }, (_, i) => `Rule ${i}.`);
  const c = { ...base('long', {}), after: snapshot(['You are Ada.', ...long]) };
  const full = formatReviewMarkdown(review([c]), { limit: 1_000_000 });
  expect(full).toMatch(/… \d+ more diff lines not shown/);
  const small = formatReviewMarkdown(review([c]), { limit: 4_000 });
  expect(small.length).toBeLessThanOrEqual(4_000);
  expect(small).toMatch(/… \d+ more diff lines not shown|diff lines not shown to keep within/);
  expect(small).toContain('| `support` | `long` | changed |');
});

test('markdown with many distinct changes and findings stays within GitHub\'s limit, saying what it left out', () => {
  const cases = Array.from({ length: 600 }, (_, i) => base(`case_${i}`, { before: count(1000 + i), after: count(1010 + i) }, `Rule ${i}: ${'be precise. '.repeat(20)}`));
  const findings = Array.from({ length: 3000 }, (_, i) => ({ ruleId: 'example/invalid-arguments', severity: 'error' as const, message: `Unexpected value ${i} at \`/amount_cents\`, expected an integer of at most 100000`, file: `prompts/examples/x.yaml`, line: i + 1 }));
  const out = formatReviewMarkdown({ ...review(cases), findings });
  expect(out.length).toBeLessThanOrEqual(65_536);
  expect(out.split('\n')[0]).toBe('### ❌ prompt-contract: 3000 errors, 0 warnings, 0 infos');
  expect(out).toContain('600 cases changed of 600');
  expect(out).toMatch(/… \d+ more changed cases not listed/);
  expect(out).toMatch(/… \d+ more changes not shown/);
  expect(out).toMatch(/… \d+ more findings not shown/);
});
