// Scoring of extraction on a hand-labelled real-world corpus (test/fixtures/realworld by default), shared by
// `npm run realworld` (scripts/realworld-report.mjs) and the test that holds the figures
// (test/extract/realworld.test.ts). Matching: a found call matches an expected call of the same
// name on the same line; failing that, on a line within ±LINE_TOLERANCE. Exact-line matches are
// made first for every found call, then the nearest tolerant ones; each expected call is matched
// at most once. Unmatched expected calls are misses, unmatched found calls are false positives. A
// miss is silent when no diagnostic points within ±LINE_TOLERANCE lines of the labelled call.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';

export const LINE_TOLERANCE = 2;

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

function loadFixture(corpus, name, normalizeTools) {
  const dir = join(corpus, name);
  const inputFile = ['input.txt', 'input.md'].map((f) => join(dir, f)).find(existsSync);
  if (!inputFile) return undefined;
  const toolsFile = join(dir, 'tools.json');
  return {
    name,
    text: readFileSync(inputFile, 'utf8'),
    notation: readJson(join(dir, 'meta.json')).notation ?? 'unknown',
    expected: readJson(join(dir, 'expected.json')).calls ?? [],
    tools: existsSync(toolsFile) ? normalizeTools(readJson(toolsFile), toolsFile) : undefined,
  };
}

/** Every fixture of the corpus, sorted by name. */
export function loadCorpus(corpus, normalizeTools) {
  return readdirSync(corpus, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => loadFixture(corpus, d.name, normalizeTools))
    .filter(Boolean)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Pairs found examples with expected calls: exact lines first, then the nearest within the tolerance. */
export function matchCalls(found, expected) {
  const taken = new Set();
  const pairs = new Map(); // found index -> { e: expected index, exact }
  for (const pass of ['exact', 'tolerant']) {
    found.forEach((call, i) => {
      if (pairs.has(i)) return;
      let best = -1;
      expected.forEach((e, j) => {
        const d = Math.abs(e.line - call.line);
        if (taken.has(j) || e.name !== call.name || d > (pass === 'exact' ? 0 : LINE_TOLERANCE)) return;
        if (best === -1 || d < Math.abs(expected[best].line - call.line)) best = j;
      });
      if (best !== -1) {
        taken.add(best);
        pairs.set(i, { e: best, exact: pass === 'exact' });
      }
    });
  }
  return { pairs, taken };
}

const excerpt = (text, line) => {
  const s = (text.split('\n')[line - 1] ?? '').trim();
  return s.length > 70 ? `${s.slice(0, 67)}...` : s;
};

/** The 1-based line a diagnostic points at: its `line`, or the line of its `offset` in the text. */
const diagnosticLine = (text, d) => {
  if (typeof d.line === 'number') return d.line;
  if (typeof d.offset !== 'number') return undefined;
  let line = 1;
  for (let i = 0; i < d.offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
};

/** One fixture's result: matches, misses (silent ones: no diagnostic within ±LINE_TOLERANCE lines), false positives, diagnostics and the time taken. */
export function scoreFixture(f, extract) {
  const t0 = performance.now();
  const { examples, diagnostics } = extract(f);
  const ms = performance.now() - t0;
  const { pairs, taken } = matchCalls(examples, f.expected);
  const diagnosticLines = diagnostics.map((d) => diagnosticLine(f.text, d)).filter((l) => l !== undefined);
  const matches = [...pairs].map(([i, { e, exact }]) => ({ exact, argsEqual: isDeepStrictEqual(examples[i].arguments, f.expected[e].arguments), found: examples[i], expected: f.expected[e] }));
  const result = {
    fixture: f.name,
    notation: f.notation,
    bytes: Buffer.byteLength(f.text),
    ms,
    expected: f.expected.length,
    found: examples.length,
    matches,
    missed: f.expected.filter((_, j) => !taken.has(j)).map((e) => ({ name: e.name, line: e.line, excerpt: excerpt(f.text, e.line), silent: !diagnosticLines.some((l) => Math.abs(l - e.line) <= LINE_TOLERANCE) })),
    spurious: examples.filter((_, i) => !pairs.has(i)).map((c) => ({ name: c.name, line: c.line, notation: c.notation, excerpt: excerpt(f.text, c.line) })),
    diagnostics: diagnostics.length,
    errors: diagnostics.filter((d) => d.severity === 'error').length,
  };
  result.silentMisses = result.missed.filter((m) => m.silent).length;
  return result;
}

/** Totals of a set of fixture results. */
export function summarise(rows) {
  const sum = (k) => rows.reduce((n, r) => n + r[k], 0);
  const matches = rows.flatMap((r) => r.matches);
  const slowest = rows.reduce((a, r) => (r.ms > a.ms ? r : a), rows[0]);
  const negatives = rows.filter((r) => r.notation === 'none');
  const ratio = (a, b) => (b === 0 ? null : a / b);
  const tp = matches.length;
  return {
    fixtures: rows.length,
    expected: sum('expected'),
    found: sum('found'),
    truePositives: tp,
    tolerantMatches: matches.filter((m) => !m.exact).length,
    recall: ratio(tp, sum('expected')),
    precision: ratio(tp, sum('found')),
    argsEqualRate: ratio(matches.filter((m) => m.argsEqual).length, tp),
    silentMisses: sum('silentMisses'),
    diagnostics: sum('diagnostics'),
    negativeDiagnostics: negatives.reduce((n, r) => n + r.diagnostics, 0),
    negativeErrors: negatives.reduce((n, r) => n + r.errors, 0),
    slowest: { fixture: slowest.fixture, ms: Number(slowest.ms.toFixed(2)), bytes: slowest.bytes },
  };
}

/** Results per notation (meta.json `notation`), `none` last, and in total. */
export function scoreCorpus(fixtures, extract) {
  const results = fixtures.map((f) => scoreFixture(f, extract));
  const notations = [...new Set(results.map((r) => r.notation))].sort((a, b) => (a === 'none') - (b === 'none') || a.localeCompare(b));
  const byNotation = Object.fromEntries(notations.map((n) => [n, summarise(results.filter((r) => r.notation === n))]));
  return { results, notations, byNotation, total: summarise(results) };
}
