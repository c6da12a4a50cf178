import { describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { extractToolCalls } from '../../src/extract/index.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import { type Fixture, loadCorpus, scoreCorpus } from '../../scripts/lib/realworld.mjs';
import type { ToolSpec } from '../../src/tools/types.js';
import { repoRoot } from './helpers.js';

// Recall and precision of extraction on texts nobody here wrote, hand-labelled
// (test/fixtures/realworld: SUMMARY.md has the labelling rules, PROVENANCE.md the sources).
// `npm run realworld` prints the same figures with every miss and false positive.

const corpus = join(repoRoot, 'test', 'fixtures', 'realworld');
const fixtures = loadCorpus(corpus, normalizeTools as (tools: unknown, file?: string) => unknown[]);
const extract = (f: Fixture) => extractToolCalls(f.text, f.tools ? { tools: f.tools as ToolSpec[] } : {});

/**
 * Labelled calls the extractor does not claim to read, each with the reason. They count in the
 * totals below (all 221 calls); the per-notation floor of 95% is held over the rest.
 */
const outOfScope: Array<{ fixture: string; line: number; reason: string }> = [
  ...[34, 36, 42, 55].map((line) => ({ fixture: 'openai-message-json-gorilla-openfunctions-v2', line, reason: 'Python call strings inside a JSON string value or after prose on the same line ("Function call strings(s): f(a=1), g(b=2)")' })),
  { fixture: 'anthropic-xml-llxprt-plan-claude-style', line: 23, reason: 'a generic `<tool><name>` element, not Anthropic XML' },
  { fixture: 'tag-per-tool-cline-claude4-variant', line: 19, reason: 'holds a prose placeholder (`Checklist here (optional)`): reported as example/placeholder, not checked' },
  { fixture: 'tag-per-tool-cline-claude4-variant', line: 297, reason: 'a bracketed skeleton (`[Detailed description]`): reported as example/placeholder, not checked' },
];
const skipped = (f: Fixture, line: number) => outOfScope.some((o) => o.fixture === f.name && o.line === line);
const scoped = fixtures.map((f) => ({ ...f, expected: f.expected.filter((c) => !skipped(f, c.line)) }));
const { total } = scoreCorpus(fixtures, extract);
const { byNotation } = scoreCorpus(scoped, extract);
const claimed = Object.keys(byNotation).filter((n) => n !== 'none');

describe('the real-world corpus', () => {
  test('every out-of-scope entry names a labelled call that is still missed', () => {
    for (const o of outOfScope) {
      const f = fixtures.find((x) => x.name === o.fixture);
      expect(f?.expected.some((c) => c.line === o.line)).toBe(true);
      // Once the extractor reads it, the entry must go.
      const found = extract(f!).examples.filter((e) => Math.abs(e.line - o.line) <= 2 && f!.expected.some((c) => c.line === o.line && c.name === e.name));
      expect({ ...o, found: found.length }).toEqual({ ...o, found: 0 });
    }
  });

  test('is big enough to mean something', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(50);
    expect(byNotation.none?.fixtures).toBeGreaterThanOrEqual(10);
    expect(total.expected).toBeGreaterThanOrEqual(180);
  });

  test.each(claimed)('%s: recall and precision at least 95%%', (notation) => {
    const s = byNotation[notation]!;
    expect(s.recall).toBeGreaterThanOrEqual(0.95);
    // A notation whose calls were all missed has no precision to speak of; recall has failed already.
    expect(s.precision ?? 1).toBeGreaterThanOrEqual(0.95);
  });

  test('texts without calls give no calls and no errors', () => {
    expect(byNotation.none!.found).toBe(0);
    expect(byNotation.none!.negativeErrors).toBe(0);
  });

  test('in total: recall at least 85%, precision at least 97%, arguments as labelled', () => {
    expect(total.recall).toBeGreaterThanOrEqual(0.85);
    expect(total.precision).toBeGreaterThanOrEqual(0.97);
    expect(total.argsEqualRate).toBeGreaterThanOrEqual(0.95);
  });
});

// The held-out corpus (test/fixtures/realworld-unseen), labelled before the extractor first
// ran on it: these floors hold today's figures (98% recall, 100% precision, 1 silent miss of
// 102 calls) so no change can lose what was gained; the targets (90%, 98%, 2% silent)
// are held on it and on both corpora together.
describe('the held-out corpus', () => {
  const unseen = loadCorpus(join(repoRoot, 'test', 'fixtures', 'realworld-unseen'), normalizeTools as (tools: unknown, file?: string) => unknown[]);
  const scored = scoreCorpus(unseen, extract);

  test('was labelled before the extractor ran, and is big enough to mean something', () => {
    expect(unseen.length).toBeGreaterThanOrEqual(30);
    expect(scored.total.expected).toBeGreaterThanOrEqual(100);
  });

  test('recall at least 98%, no false call, at most 1 call missed without a word', () => {
    expect(scored.total.recall).toBeGreaterThanOrEqual(0.98);
    expect(scored.total.precision).toBe(1);
    expect(scored.total.silentMisses).toBeLessThanOrEqual(1);
  });

  test("both corpora together meet the issue's targets: recall at least 90%, precision at least 98%, at most 2% missed without a word", () => {
    const whole = scoreCorpus([...fixtures, ...unseen], extract).total;
    expect(whole.recall).toBeGreaterThanOrEqual(0.9);
    expect(whole.precision).toBeGreaterThanOrEqual(0.98);
    expect(whole.silentMisses / whole.expected).toBeLessThanOrEqual(0.02);
  });

  test('texts without calls give no calls and no errors', () => {
    expect(scored.byNotation.none!.found).toBe(0);
    expect(scored.byNotation.none!.negativeErrors).toBe(0);
  });
});
