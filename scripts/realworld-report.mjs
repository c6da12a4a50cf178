#!/usr/bin/env node
// How well extractToolCalls reads the hand-labelled real-world corpus (test/fixtures/realworld).
// It reports, it does not judge: the exit code is 0 whatever the numbers (2 when dist/ is missing).
//
// What it measures, per notation (meta.json `notation`) and in total: expected (labelled) calls,
// found calls, true positives, recall, precision, the share of matches whose arguments deep-equal
// the labels, diagnostics (and how many are errors on the negative `none` fixtures), and the
// slowest file's extraction time (performance.now(), after one warm-up run of the whole corpus).
//
// Matching: a found call matches an expected call of the same name on the same line; failing that,
// on a line within ±LINE_TOLERANCE (notations differ on which line a call "starts"; these are
// counted as "tol"). Exact-line matches are made first for every found call, then the nearest
// tolerant ones; each expected call is matched at most once. Unmatched expected calls are misses,
// unmatched found calls are false positives.
//
//   node scripts/realworld-report.mjs [--json] [--verbose]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { performance } from 'node:perf_hooks';

const LINE_TOLERANCE = 2;
const repo = fileURLToPath(new URL('..', import.meta.url));
const corpus = join(repo, 'test', 'fixtures', 'realworld');
const dist = join(repo, 'dist', 'index.js');
const asJson = process.argv.includes('--json');
const verbose = process.argv.includes('--verbose');

if (!existsSync(dist)) {
  console.error(`dist/index.js is missing: build first (npx tsc -p tsconfig.build.json, or npm run realworld).`);
  process.exit(2);
}
const { extractToolCalls, normalizeTools } = await import(new URL('../dist/index.js', import.meta.url).href);

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

function loadFixture(name) {
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

const fixtures = readdirSync(corpus, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => loadFixture(d.name))
  .filter(Boolean)
  .sort((a, b) => a.name.localeCompare(b.name));

const extract = (f) => extractToolCalls(f.text, f.tools ? { tools: f.tools } : {});
for (const f of fixtures) extract(f); // warm-up run of the whole corpus

/** Pairs found examples with expected calls: exact lines first, then the nearest within the tolerance. */
function match(found, expected) {
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

const results = fixtures.map((f) => {
  const t0 = performance.now();
  const { examples, diagnostics } = extract(f);
  const ms = performance.now() - t0;
  const { pairs, taken } = match(examples, f.expected);
  const matches = [...pairs].map(([i, { e, exact }]) => ({ exact, argsEqual: isDeepStrictEqual(examples[i].arguments, f.expected[e].arguments), found: examples[i], expected: f.expected[e] }));
  return {
    fixture: f.name,
    notation: f.notation,
    bytes: Buffer.byteLength(f.text),
    ms,
    expected: f.expected.length,
    found: examples.length,
    matches,
    missed: f.expected.filter((_, j) => !taken.has(j)).map((e) => ({ name: e.name, line: e.line, excerpt: excerpt(f.text, e.line) })),
    spurious: examples.filter((_, i) => !pairs.has(i)).map((c) => ({ name: c.name, line: c.line, notation: c.notation, excerpt: excerpt(f.text, c.line) })),
    diagnostics: diagnostics.length,
    errors: diagnostics.filter((d) => d.severity === 'error').length,
  };
});

function summarise(rows) {
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
    diagnostics: sum('diagnostics'),
    negativeDiagnostics: negatives.reduce((n, r) => n + r.diagnostics, 0),
    negativeErrors: negatives.reduce((n, r) => n + r.errors, 0),
    slowest: { fixture: slowest.fixture, ms: Number(slowest.ms.toFixed(2)), bytes: slowest.bytes },
  };
}

const notations = [...new Set(results.map((r) => r.notation))].sort((a, b) => (a === 'none') - (b === 'none') || a.localeCompare(b));
const byNotation = Object.fromEntries(notations.map((n) => [n, summarise(results.filter((r) => r.notation === n))]));
const total = summarise(results);

if (asJson) {
  const fixtureRows = results.map(({ matches, ...r }) => ({
    ...r,
    ms: Number(r.ms.toFixed(2)),
    truePositives: matches.length,
    tolerantMatches: matches.filter((m) => !m.exact).length,
    argsDiffer: matches.filter((m) => !m.argsEqual).map((m) => ({ name: m.expected.name, line: m.expected.line })),
  }));
  console.log(JSON.stringify({ lineTolerance: LINE_TOLERANCE, byNotation, total, fixtures: fixtureRows }, null, 2));
  process.exit(0);
}

const pct = (x) => (x === null ? '-' : `${(x * 100).toFixed(0)}%`);
const cols = ['notation', 'fix', 'exp', 'found', 'TP', 'tol', 'recall', 'prec', 'args=', 'diags', 'neg err', 'slowest ms', 'bytes'];
const row = (name, s) => [name, s.fixtures, s.expected, s.found, s.truePositives, s.tolerantMatches, pct(s.recall), pct(s.precision), pct(s.argsEqualRate), s.diagnostics, name === 'none' || name === 'total' ? s.negativeErrors : '', s.slowest.ms.toFixed(2), s.slowest.bytes].map(String);
const table = [cols, ...notations.map((n) => row(n, byNotation[n])), row('total', total)];
const widths = cols.map((_, i) => Math.max(...table.map((r) => r[i].length)));
const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(`Real-world corpus: ${results.length} fixtures, line tolerance ±${LINE_TOLERANCE}\n`);
table.forEach((r, i) => {
  console.log(line(r));
  if (i === 0 || i === table.length - 2) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
});
console.log(`\ntol = matched only within the tolerance; args= = arguments deep-equal among matches; neg err = error diagnostics on negative fixtures.`);
console.log(`Negatives: ${total.negativeDiagnostics} diagnostics, ${total.negativeErrors} errors. Slowest file: ${total.slowest.fixture} (${total.slowest.ms} ms, ${total.slowest.bytes} bytes).`);

if (verbose) {
  for (const r of results) {
    const argsDiffer = r.matches.filter((m) => !m.argsEqual);
    if (!r.missed.length && !r.spurious.length && !argsDiffer.length) continue;
    console.log(`\n${r.fixture} [${r.notation}]: ${r.matches.length}/${r.expected} found, ${r.spurious.length} spurious`);
    for (const m of r.missed) console.log(`  missed    ${m.name} @${m.line}: ${m.excerpt}`);
    for (const s of r.spurious) console.log(`  spurious  ${s.name} @${s.line} (${s.notation}): ${s.excerpt}`);
    for (const m of argsDiffer) console.log(`  args≠     ${m.expected.name} @${m.expected.line}: found ${JSON.stringify(m.found.arguments).slice(0, 90)}`);
  }
}
