#!/usr/bin/env node
// How well extractToolCalls reads a hand-labelled real-world corpus (test/fixtures/realworld, or
// another folder of the same layout given with --corpus, e.g. test/fixtures/realworld-unseen).
// It reports, it does not judge: the exit code is 0 whatever the numbers (2 when dist/ is missing).
//
// What it measures, per notation (meta.json `notation`) and in total: expected (labelled) calls,
// found calls, true positives, recall, precision, the share of matches whose arguments deep-equal
// the labels, silent misses (labelled calls neither matched nor pointed at by any diagnostic within
// ±LINE_TOLERANCE lines), diagnostics (and how many are errors on the negative `none` fixtures), and the
// slowest file's extraction time (performance.now(), after one warm-up run of the whole corpus).
//
// Matching: a found call matches an expected call of the same name on the same line; failing that,
// on a line within ±LINE_TOLERANCE (notations differ on which line a call "starts"; these are
// counted as "tol"). Exact-line matches are made first for every found call, then the nearest
// tolerant ones; each expected call is matched at most once. Unmatched expected calls are misses,
// unmatched found calls are false positives.
//
//   node scripts/realworld-report.mjs [--corpus DIR] [--json] [--verbose]
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LINE_TOLERANCE, loadCorpus, scoreCorpus } from './lib/realworld.mjs';
const repo = fileURLToPath(new URL('..', import.meta.url));
const corpusArg = process.argv.indexOf('--corpus');
if (corpusArg !== -1 && !process.argv[corpusArg + 1]) {
  console.error('--corpus needs a folder: node scripts/realworld-report.mjs --corpus test/fixtures/realworld-unseen');
  process.exit(2);
}
const corpus = corpusArg === -1 ? join(repo, 'test', 'fixtures', 'realworld') : resolve(process.argv[corpusArg + 1]);
if (!existsSync(corpus)) {
  console.error(`${corpus}: no such corpus folder.`);
  process.exit(2);
}
const dist = join(repo, 'dist', 'index.js');
const asJson = process.argv.includes('--json');
const verbose = process.argv.includes('--verbose');

if (!existsSync(dist)) {
  console.error(`dist/index.js is missing: build first (npx tsc -p tsconfig.build.json, or npm run realworld).`);
  process.exit(2);
}
const { extractToolCalls, normalizeTools } = await import(new URL('../dist/index.js', import.meta.url).href);

const fixtures = loadCorpus(corpus, normalizeTools);
const extract = (f) => extractToolCalls(f.text, f.tools ? { tools: f.tools } : {});
for (const f of fixtures) extract(f); // warm-up run of the whole corpus
const { results, notations, byNotation, total } = scoreCorpus(fixtures, extract);

if (asJson) {
  const fixtureRows = results.map(({ matches, ...r }) => ({
    ...r,
    ms: Number(r.ms.toFixed(2)),
    truePositives: matches.length,
    tolerantMatches: matches.filter((m) => !m.exact).length,
    argsDiffer: matches.filter((m) => !m.argsEqual).map((m) => ({ name: m.expected.name, line: m.expected.line })),
  }));
  console.log(JSON.stringify({ corpus, lineTolerance: LINE_TOLERANCE, byNotation, total, fixtures: fixtureRows }, null, 2));
  process.exit(0);
}

const pct = (x) => (x === null ? '-' : `${(x * 100).toFixed(0)}%`);
const cols = ['notation', 'fix', 'exp', 'found', 'TP', 'tol', 'recall', 'prec', 'args=', 'silent', 'diags', 'neg err', 'slowest ms', 'bytes'];
const row = (name, s) => [name, s.fixtures, s.expected, s.found, s.truePositives, s.tolerantMatches, pct(s.recall), pct(s.precision), pct(s.argsEqualRate), s.silentMisses, s.diagnostics, name === 'none' || name === 'total' ? s.negativeErrors : '', s.slowest.ms.toFixed(2), s.slowest.bytes].map(String);
const table = [cols, ...notations.map((n) => row(n, byNotation[n])), row('total', total)];
const widths = cols.map((_, i) => Math.max(...table.map((r) => r[i].length)));
const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(`Real-world corpus ${corpus}: ${results.length} fixtures, line tolerance ±${LINE_TOLERANCE}\n`);
table.forEach((r, i) => {
  console.log(line(r));
  if (i === 0 || i === table.length - 2) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
});
console.log(`\ntol = matched only within the tolerance; args= = arguments deep-equal among matches; silent = misses with no diagnostic within ±${LINE_TOLERANCE} lines (marked missed! in --verbose); neg err = error diagnostics on negative fixtures.`);
console.log(`Negatives: ${total.negativeDiagnostics} diagnostics, ${total.negativeErrors} errors. Slowest file: ${total.slowest.fixture} (${total.slowest.ms} ms, ${total.slowest.bytes} bytes).`);

if (verbose) {
  for (const r of results) {
    const argsDiffer = r.matches.filter((m) => !m.argsEqual);
    if (!r.missed.length && !r.spurious.length && !argsDiffer.length) continue;
    console.log(`\n${r.fixture} [${r.notation}]: ${r.matches.length}/${r.expected} found, ${r.spurious.length} spurious, ${r.silentMisses} silent`);
    for (const m of r.missed) console.log(`  ${m.silent ? 'missed!   ' : 'missed    '}${m.name} @${m.line}: ${m.excerpt}`);
    for (const s of r.spurious) console.log(`  spurious  ${s.name} @${s.line} (${s.notation}): ${s.excerpt}`);
    for (const m of argsDiffer) console.log(`  args≠     ${m.expected.name} @${m.expected.line}: found ${JSON.stringify(m.found.arguments).slice(0, 90)}`);
  }
}
