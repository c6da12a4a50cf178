#!/usr/bin/env node
// prompt-contract benchmarks: every figure is a ratio against a floor or a peer measured in
// the same run on the same input (or, where the issue sets an absolute limit, the measured
// value beside a yardstick of the same run), and every benchmark checks that both sides did
// the same work (same rows, same findings, same snapshots). Figures are ratios of medians;
// the detail gives the spread of the pairs. Measures the built package: run `npm run build` first.
//
//   node bench/run.js                 full run, readable table (a long run: writes a 1 GiB file,
//                                     generates projects of up to 5,000 cases)
//   node bench/run.js --quick --json  small inputs, JSON only, a few minutes
//   --strict                          also exit 1 when a target is missed
//   --only NAME[,NAME]                run only these benchmarks (e.g. --only check-scale,jest-vs-plain)
//
// Benchmarks: recorded-vs-json-parse-floor, recorded-vs-python-jsonschema, recorded-vs-node-ajv-loop,
// extract-vs-remark-full, extract-tight, coverage-scan, regex-formats-scaling, recorded-workers-speedup,
// check-demo, check-scale, check-incremental, module-vs-template, tokens-cost, jest-vs-plain, install-size, recorded-peak-rss
// (full runs only). Generated projects live in bench/.data/projects/ (bench/lib/project-gen.js).
//
// Exit codes: 0 done, 1 a benchmark's two sides did not do the same work (or --strict and a
// target missed), 2 cannot run (no dist/, no python3 + jsonschema).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Mismatch, compare, median, ms, round, same, spread, timed } from './lib/common.js';
import { dataDir, longPrompt, recordedFile } from './lib/data.js';
import { parseFloor } from './lib/floor.js';
import { summarize } from './lib/summary.js';
import { benchTools } from './lib/tools.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
// `--only NAME[,NAME]` runs just those benchmarks.
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? new Set(process.argv[onlyAt + 1]?.split(',')) : undefined;
const quick = args.has('--quick');
const asJson = args.has('--json');
const strict = args.has('--strict');
const log = (text) => process.stderr.write(`${text}\n`);

if (!existsSync(join(root, 'dist', 'index.js')) || !existsSync(join(root, 'dist', 'checks', 'recorded-worker.js'))) {
  log('bench: dist/ is missing; run `npm run build` first');
  process.exit(2);
}
const { extractToolCalls, normalizeTools } = await import('../dist/index.js');
const { validateRecordedFiles } = await import('../dist/checks/recorded-files.js');
const { SchemaCompiler } = await import('../dist/schema/validator.js');
const tools = normalizeTools(benchTools);

const recordedSize = quick ? 100_000 : 1_000_000;
let recorded;
const results = [];
let oursSingleCpu;
let compileMs;

function result(name, ratio, target, met, detail) {
  const r = { name, ratio: ratio === null || ratio === undefined ? null : round(ratio), target, met, detail };
  results.push(r);
  log(`  ${name}: ${r.ratio} (${target}${met === null ? '' : met ? ', met' : ', MISSED'})`);
  return r;
}

async function recordedFloor() {
  const runs = quick ? 7 : 11;
  // Schemas are compiled once, outside the timed runs (as Python's validators are): the
  // ratio is about the cost per row. The one-time compile is reported on its own.
  const compileTimes = [];
  for (let i = 0; i < 3; i++) {
    const compiler = new SchemaCompiler();
    compileTimes.push((await timed(() => tools.forEach((t) => compiler.compile(t.inputSchema)))).cpu);
  }
  compileMs = median(compileTimes);
  const compiler = new SchemaCompiler();
  const { a: floor, b: ours, pairs } = await compare(
    () => parseFloor(recorded.file),
    () => validateRecordedFiles(tools, [recorded.file], { workers: 1, compiler }),
    runs,
  );
  const found = summarize(ours.value);
  same('rows parsed (floor) vs calls read (ours)', floor.value.parsed, found.calls);
  same('unparseable lines (floor) vs unreadable lines (ours)', floor.value.failed, found.corrupt);
  same('rows (generator) vs rows (ours)', recorded.rows, found.calls + found.corrupt);
  same('invalid rows (generator) vs invalid rows (ours)', recorded.invalid, found.invalid);
  same('unknown-tool rows (generator) vs ours', recorded.unknown, found.unknown);
  oursSingleCpu = ours.cpu;
  const ratio = ours.cpu / floor.cpu;
  result(
    'recorded-vs-json-parse-floor',
    ratio,
    '<= 1.25',
    ratio <= 1.25,
    `CPU time to validate ${recorded.rows.toLocaleString('en-US')} recorded calls (${(recorded.bytes / 2 ** 20).toFixed(0)} MiB, ${recorded.invalid} invalid, ${recorded.unknown} unknown-tool, ${recorded.corrupt} unreadable) with validateRecordedFiles({workers: 1}), ${ms(ours.cpu)} ms, ` +
      `divided by reading the same file in 1 MiB chunks and JSON.parse of each line, ${ms(floor.cpu)} ms. The figure is the ratio of the medians of ${runs} side-by-side pairs after a warm-up, order alternating; the pairs' own ratios: ${spread(pairs.all)}, median ${pairs.median.toFixed(2)}. Wall: ${ms(ours.wall)} / ${ms(floor.wall)} ms = ${(ours.wall / floor.wall).toFixed(2)}. Compiling the ${tools.length} schemas, once a run and not included: ${ms(compileMs)} ms. Same rows, unreadable lines and invalid counts checked.`,
  );
}

/** CPU milliseconds of validateRecordedFiles({workers: 1}) on the small file (median of 5 after a warm-up), when recorded-vs-json-parse-floor did not run. */
async function oursOneThreadCpu() {
  const compiler = new SchemaCompiler();
  const once = () => validateRecordedFiles(tools, [recorded.file], { workers: 1, compiler });
  await once();
  const cpu = [];
  for (let i = 0; i < 5; i++) cpu.push((await timed(once)).cpu);
  return median(cpu);
}

async function recordedPython() {
  const probe = spawnSync('python3', ['-c', 'import jsonschema'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    log('bench: python3 with jsonschema is needed for recorded-vs-python-jsonschema');
    process.exit(2);
  }
  const toolsFile = join(dataDir, 'bench-tools.json');
  writeFileSync(toolsFile, JSON.stringify(benchTools));
  const runs = quick ? 2 : 3;
  const outs = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync('python3', [join(root, 'bench', 'lib', 'python_validate.py'), toolsFile, recorded.file], { encoding: 'utf8', maxBuffer: 1 << 20 });
    outs.push(JSON.parse(out));
  }
  const py = outs[0];
  same('rows (Python) vs rows (generator)', py.rows, recorded.rows);
  same('invalid rows (Python) vs invalid rows (generator, ours)', py.invalid, recorded.invalid);
  same('unknown-tool rows (Python) vs generator', py.unknown, recorded.unknown);
  same('unreadable lines (Python) vs generator', py.corrupt, recorded.corrupt);
  for (const o of outs) same('invalid rows, Python run to run', o.invalid, py.invalid);
  if (oursSingleCpu === undefined) oursSingleCpu = await oursOneThreadCpu();
  const pyMs = median(outs.map((o) => o.seconds * 1000));
  const ratio = pyMs / oursSingleCpu;
  result(
    'recorded-vs-python-jsonschema',
    ratio,
    '>= 10',
    ratio >= 10,
    `CPU time of ${py.versions}, with one compiled Draft202012Validator per tool and .is_valid(args) per row over the same ${recorded.rows.toLocaleString('en-US')} rows (json.loads per line), ${ms(pyMs)} ms (median of ${runs}), ` +
      `divided by ours single-threaded (validateRecordedFiles({workers: 1}), schemas compiled outside the timing as Python's are), ${ms(oursSingleCpu)} ms (a median). The ratio of the medians. Both count ${py.invalid} invalid rows.`,
  );
}

async function extractRemark() {
  const { remarkExamples } = await import('./lib/remark-visit.js');
  const prompt = longPrompt(50_000);
  const ours = () => extractToolCalls(prompt.text, { tools, mode: 'fast' });
  const theirs = () => remarkExamples(prompt.text);
  // As many runs as fit a time budget (3 to 50), each a batch long enough for the clock.
  const probe = (await timed(() => (theirs(), ours()))).wall;
  const batch = probe < 20 ? 5 : 1;
  const runs = Math.max(3, Math.min(50, Math.floor((quick ? 4000 : 20000) / (probe * batch))));
  const { a: remark, b: fast, pairs } = await compare(
    () => {
      let r;
      for (let i = 0; i < batch; i++) r = theirs();
      return r;
    },
    () => {
      let r;
      for (let i = 0; i < batch; i++) r = ours();
      return r;
    },
    runs,
  );
  const mine = fast.value.examples.map((e) => ({ name: e.name, arguments: e.arguments }));
  same('examples (remark visit) vs examples (generator)', remark.value, prompt.examples);
  same('examples (ours) vs examples (generator)', mine, prompt.examples);
  const ratio = remark.cpu / fast.cpu;
  result(
    'extract-vs-remark-full',
    ratio,
    '>= 3',
    ratio >= 3,
    `CPU time of unified().use(remark-parse).parse plus a tree walk reading fences and <tool_call> tags, ${ms(remark.cpu / batch)} ms a prompt, divided by extractToolCalls(text, {mode: 'fast'}), ${ms(fast.cpu / batch)} ms, ` +
      `on a generated ${(prompt.text.length / 1024).toFixed(0)} KiB prompt (prose, lists, block quotes, ts code, ${prompt.examples.length} examples in tool_call/json fences and Hermes tags); ratio of the medians of ${runs} alternating pairs of batches of ${batch}; the pairs' own ratios: ${spread(pairs.all.map((x) => 1 / x), 0)}. Both find the same ${prompt.examples.length} examples in order.`,
  );
}

/**
 * Extraction from prompts whose lists and quotes run straight into headings, fences, rules and
 * HTML (bench/lib/tight-prompts.js, 250 KB and 2 MB): against a full remark parse of the same
 * text, and against itself at the other size. Remark runs once at 2 MB, and only in a full
 * run: its cost grows faster than the text there (about 100 s).
 */
async function extractTight() {
  const { remarkExamples } = await import('./lib/remark-visit.js');
  const { tightPrompt } = await import('./lib/tight-prompts.js');
  const small = tightPrompt(250_000);
  const big = tightPrompt(2_000_000);
  const ours = (prompt) => () => extractToolCalls(prompt.text, { tools, mode: 'fast' });
  const calls = (r) => r.examples.map((e) => ({ name: e.name, arguments: e.arguments }));
  const kb = (prompt) => `${(prompt.text.length / 1000).toFixed(0)} KB`;

  const runs = quick ? 3 : 7;
  const vsRemark = await compare(ours(small), () => remarkExamples(small.text), runs);
  same(`examples (ours, ${kb(small)}) vs examples (generator)`, calls(vsRemark.a.value), small.examples);
  same(`examples (remark visit, ${kb(small)}) vs examples (generator)`, vsRemark.b.value, small.examples);

  const scaleRuns = quick ? 5 : 11;
  const scaling = await compare(ours(small), ours(big), scaleRuns);
  same(`examples (ours, ${kb(big)}) vs examples (generator)`, calls(scaling.b.value), big.examples);

  let remarkBig = '';
  if (!quick) {
    const once = await timed(() => remarkExamples(big.text));
    same(`examples (remark visit, ${kb(big)}) vs examples (generator)`, once.value, big.examples);
    remarkBig = ` At ${kb(big)}, one remark run (no warm-up): ${ms(once.cpu)} ms CPU, ${(once.cpu / scaling.b.cpu).toFixed(0)}x ours (${ms(scaling.b.cpu)} ms).`;
  }
  const ratio = vsRemark.b.cpu / vsRemark.a.cpu;
  result(
    'extract-tight',
    ratio,
    '>= 20',
    ratio >= 20,
    `CPU time of unified().use(remark-parse).parse plus the tree walk of extract-vs-remark-full, ${ms(vsRemark.b.cpu)} ms, divided by extractToolCalls(text, {mode: 'fast'}), ${ms(vsRemark.a.cpu)} ms, ` +
      `on a generated ${kb(small)} prompt whose lists and quotes run into headings, fences, thematic breaks, HTML and setext underlines with no blank line between (${small.examples.length} examples in json/tool_call fences, in lists and quotes, and Hermes tags). ` +
      `Ratio of the medians of ${runs} side-by-side pairs after a warm-up, order alternating; the pairs' own ratios: ${spread(vsRemark.pairs.all, 1)}. Both find the same ${small.examples.length} examples in order.${remarkBig}`,
  );
  const growth = scaling.b.cpu / scaling.a.cpu;
  const sizeRatio = big.text.length / small.text.length;
  result(
    'extract-tight-scaling',
    growth,
    '<= 10',
    growth <= 10,
    `CPU time of extractToolCalls on the ${kb(big)} prompt of extract-tight, ${ms(scaling.b.cpu)} ms, divided by the same on ${kb(small)}, ${ms(scaling.a.cpu)} ms: the text is ${sizeRatio.toFixed(2)}x longer, so a linear cost gives about ${sizeRatio.toFixed(1)}. ` +
      `Ratio of the medians of ${scaleRuns} pairs after a warm-up, order alternating; the pairs' own ratios: ${spread(scaling.pairs.all)}. The 2 MB run finds all ${big.examples.length} generated examples in order.`,
  );
}

/**
 * The coverage scan alone (every call-like place of a known tool, less what extraction read)
 * against the extraction it follows, on the 250 KB tight prompt with the tools known: what
 * saying "not read" costs on top of reading.
 */
async function coverageScan() {
  const { tightPrompt } = await import('./lib/tight-prompts.js');
  const { unreadMentions } = await import('../dist/extract/coverage.js');
  const prompt = tightPrompt(250_000);
  const names = tools.map((t) => t.name);
  const read = extractToolCalls(prompt.text, { tools, mode: 'fast' });
  same('examples (ours) vs examples (generator)', read.examples.map((e) => ({ name: e.name, arguments: e.arguments })), prompt.examples);
  const covered = read.examples.map((e) => e.range);
  const runs = quick ? 5 : 11;
  const r = await compare(() => extractToolCalls(prompt.text, { tools, mode: 'fast' }), () => unreadMentions(prompt.text, names, covered), runs);
  same('unread mentions (scan alone) vs unread-call findings (extraction)', r.b.value.length, r.a.value.diagnostics.filter((d) => d.ruleId === 'example/unread-call').length);
  const ratio = r.b.cpu / r.a.cpu;
  result(
    'coverage-scan',
    ratio,
    '<= 0.15',
    ratio <= 0.15,
    `CPU time of the coverage scan alone (unreadMentions over ${(prompt.text.length / 1000).toFixed(0)} KB with ${names.length} known tools and the ${covered.length} examples' spans), ${ms(r.b.cpu)} ms, divided by extractToolCalls with the tools known (which runs the scan), ${ms(r.a.cpu)} ms. ` +
      `Ratio of the medians of ${runs} alternating pairs after a warm-up; the pairs' own ratios: ${spread(r.pairs.all)}. Both report the same ${r.b.value.length} unread places.`,
  );
}

/** Format checks on hostile values: time at 160 KB over time at 40 KB per format (bench/lib/regex-formats.js); linear is about 4. */
async function regexFormatsScaling() {
  const { regexFormats } = await import('./lib/regex-formats.js');
  const r = await regexFormats({ quick, same });
  result(r.name, r.ratio, r.target, r.met, r.detail);
}

/** One validation in a fresh process (bench/lib/rss-child.js): its peak RSS, wall time and what it found. */
function inChild(file, workers) {
  const argv = [join(root, 'bench', 'lib', 'rss-child.js'), file, ...(workers === undefined ? [] : [String(workers)])];
  return JSON.parse(execFileSync(process.execPath, argv, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 }));
}

/**
 * Three alternating pairs of fresh processes validating `big`: one thread, then the default
 * (all cores). Checks that every run found the same, records recorded-workers-speedup (the
 * ratio of the median walls; held to its target only when `scored`, on the 1 GiB file) and
 * returns the runs for their memory figures.
 */
function threadPairs(big, size, scored, note) {
  const cores = availableParallelism();
  const single = [];
  const auto = [];
  for (let i = 0; i < 3; i++) {
    if (i % 2 === 0) {
      single.push(inChild(big.file, 1));
      auto.push(inChild(big.file));
    } else {
      auto.push(inChild(big.file));
      single.push(inChild(big.file, 1));
    }
  }
  for (const [what, run] of [...single.map((r) => ['one thread', r]), ...auto.map((r) => ['all cores', r])]) {
    same(`rows (generator) vs rows (ours, ${what}, ${size})`, big.rows, run.found.calls + run.found.corrupt);
    same(`invalid rows (generator) vs ours (${what}, ${size})`, big.invalid, run.found.invalid);
    same(`findings (one thread) vs findings (${what}, ${size})`, single[0].found, run.found);
  }
  const oneWall = median(single.map((r) => r.wall));
  const allWall = median(auto.map((r) => r.wall));
  const speedup = oneWall / allWall;
  result(
    'recorded-workers-speedup',
    speedup,
    scored ? '>= 1.5 on 2 cores' : 'report only (the target is for 1 GiB, full mode)',
    !scored || cores < 2 ? null : speedup >= 1.5,
    `Wall time of validateRecordedFiles on the ${size} file (${big.rows.toLocaleString('en-US')} rows) in a fresh process with workers: 1, ${(oneWall / 1000).toFixed(1)} s, divided by the default (${cores} worker threads, line-aligned byte ranges, states merged in order), ${(allWall / 1000).toFixed(1)} s; ratio of the medians of 3 alternating pairs (pairs: ${single.map((r, i) => (r.wall / auto[i].wall).toFixed(2)).join(', ')}). Same findings checked.${note} Machine load average at the end: ${loadavg()[0].toFixed(1)}.`,
  );
  return { single, auto };
}

function workersSpeedup() {
  // Full mode measures the speedup on the 1 GiB file, with the peak-RSS runs.
  if (!quick) return;
  // Above the 128 MiB threshold, where validation goes parallel by default: 1.3M rows (160 MiB).
  // Each run is a fresh process, as a CLI run is: the worker threads start cold, and so does this one.
  const big = recordedFile({ rows: 1_300_000, name: 'recorded-1300000' });
  threadPairs(big, `${(big.bytes / 2 ** 20).toFixed(0)} MiB`, false, ' A file this small pays more, in proportion, for starting the threads.');
}

/** Context the benchmark modules in bench/lib/ take: mode, paths, the result recorder, the small recorded file. */
const context = () => ({ quick, root, log, result, recorded, tools, validateRecordedFiles, SchemaCompiler });

async function checkDemo() {
  const { checkDemo: run } = await import('./lib/check-demo.js');
  await run(context());
}

async function checkScale() {
  const { checkScale: run } = await import('./lib/check-scale.js');
  await run(context());
}

async function tokensCost() {
  const { tokensCost: run } = await import('./lib/tokens-cost.js');
  await run({ quick, root, result, log });
}

async function moduleVsTemplate() {
  const { moduleVsTemplate: run } = await import('./lib/module-vs-template.js');
  await run(context());
}

async function checkIncremental() {
  const { checkIncremental: run } = await import('./lib/check-incremental.js');
  await run(context());
}

async function jestVsPlain() {
  const { jestVsPlain: run } = await import('./lib/jest-vs-plain.js');
  await run(context());
}

async function recordedNodeAjvLoop() {
  const { recordedVsNodeAjvLoop: run } = await import('./lib/recorded-loop.js');
  await run(context());
}

/** Bytes of every regular file below `dir` (links are not followed) and how many compiled native addons it holds. */
function treeSize(dir) {
  let bytes = 0;
  let addons = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.isFile()) {
        bytes += statSync(path).size;
        // A compiled addon lands in build/Release; prebuilt ones inside registry packages (jest has two) do not count.
        if (e.name.endsWith('.node') && /[\\/]build[\\/](Release|Debug)$/.test(d)) addons++;
      }
    }
  };
  walk(dir);
  return { bytes, addons };
}

/**
 * What a new user installs: a fresh project with the packed package and jest, against the same
 * project with jest alone. Both come from the npm cache where it is warm (`--prefer-offline`),
 * so the time says more about install scripts than about the network; the size is exact.
 */
function installSize() {
  const work = mkdtempSync(join(tmpdir(), 'prompt-contract-install-'));
  try {
    const packed = spawnSync('npm', ['pack', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
    if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
    const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')));
    const install = (name, packages) => {
      const dir = join(work, name);
      mkdirSync(dir);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true }));
      const t0 = performance.now();
      const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', ...packages], { cwd: dir, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`npm install ${packages.join(' ')} failed: ${r.stderr.split('\n').slice(-5).join(' ')}`);
      const seconds = (performance.now() - t0) / 1000;
      return { seconds, ...treeSize(join(dir, 'node_modules')) };
    };
    const jestOnly = install('jest-only', ['jest']);
    const withUs = install('with-prompt-contract', [tarball, 'jest']);
    const mb = (b) => b / 1e6;
    const extra = mb(withUs.bytes - jestOnly.bytes);
    const nativeBuilt = withUs.addons > jestOnly.addons;
    result(
      'install-size',
      extra,
      '<= 25 MB more than jest, no native build',
      extra <= 25 && !nativeBuilt,
      `A fresh project installing the packed package and jest: node_modules ${mb(withUs.bytes).toFixed(1)} MB in ${withUs.seconds.toFixed(1)} s; ` +
        `jest alone: ${mb(jestOnly.bytes).toFixed(1)} MB in ${jestOnly.seconds.toFixed(1)} s. The ratio column is the difference in MB. ` +
        `Compiled native addons (build/Release/*.node): ${withUs.addons} against ${jestOnly.addons}${nativeBuilt ? ' (a native module was compiled)' : ''}.`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function peakRss() {
  const cores = availableParallelism();
  const big = recordedFile({ bytes: 2 ** 30, name: 'recorded-1gib' });
  // Like for like: the small file with as many worker threads as the default gives the 1 GiB file.
  const small = inChild(recorded.file, cores);
  const { single, auto } = threadPairs(big, `${(big.bytes / 2 ** 30).toFixed(2)} GiB`, true, '');
  const mib = (kib) => kib / 1024;
  const autoPeak = Math.max(...auto.map((r) => r.maxRssKiB));
  const singlePeak = Math.max(...single.map((r) => r.maxRssKiB));
  const ratio = mib(autoPeak) / mib(small.maxRssKiB);
  result(
    'recorded-peak-rss',
    ratio,
    '<= 200 MiB at 1 GiB, constant',
    mib(Math.max(autoPeak, singlePeak)) <= 200,
    `Peak RSS of a fresh process validating a ${(big.bytes / 2 ** 30).toFixed(2)} GiB JSONL (${big.rows.toLocaleString('en-US')} rows) with default options (${cores} worker threads): ${mib(autoPeak).toFixed(0)} MiB, ` +
      `divided by the same on the ${(recorded.bytes / 2 ** 20).toFixed(0)} MiB file with the same ${cores} worker threads (workers: ${cores}, forced: by default a file under 128 MiB stays in one thread): ${mib(small.maxRssKiB).toFixed(0)} MiB. In one thread (workers: 1) on 1 GiB: ${mib(singlePeak).toFixed(0)} MiB. Limit 200 MiB.`,
  );
}

const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load average ${loadavg()[0].toFixed(1)} at start`;
let mismatch = false;
let failedToRun = false;
const started = performance.now();
{
  log(`bench (${quick ? 'quick' : 'full'}): ${machine}`);
  log(`generating ${recordedSize.toLocaleString('en-US')} recorded calls in bench/.data/ (cached)`);
  recorded = recordedFile({ rows: recordedSize, name: `recorded-${recordedSize}` });
  const benchmarks = [
    ['recorded-vs-json-parse-floor', recordedFloor],
    ['recorded-vs-python-jsonschema', recordedPython],
    ['recorded-vs-node-ajv-loop', recordedNodeAjvLoop],
    ['extract-vs-remark-full', extractRemark],
    ['extract-tight', extractTight],
    ['coverage-scan', coverageScan],
    ['regex-formats-scaling', regexFormatsScaling],
    ['recorded-workers-speedup', workersSpeedup],
    ['check-demo', checkDemo],
    ['check-scale', checkScale],
    ['check-incremental', checkIncremental],
    ['module-vs-template', moduleVsTemplate],
    ['tokens-cost', tokensCost],
    ['jest-vs-plain', jestVsPlain],
    ['install-size', installSize],
    ...(quick ? [] : [['recorded-peak-rss', peakRss]]),
  ];
  for (const [name, run] of benchmarks) {
    if (only && !only.has(name)) continue;
    try {
      await run();
    } catch (error) {
      if (error instanceof Mismatch) {
        log(`bench: ${name}: the two sides did not do the same work: ${error.message}`);
        mismatch = true;
        results.push({ name, ratio: null, target: null, met: false, detail: `the two sides did not do the same work: ${error.message}` });
      } else {
        log(`bench: ${name} could not run: ${error.stack ?? error}`);
        failedToRun = true;
        results.push({ name, ratio: null, target: null, met: null, detail: `could not run: ${String(error.message ?? error).split('\n').slice(0, 3).join(' ')}` });
      }
    }
  }
}

if (asJson) process.stdout.write(`${JSON.stringify({ version: 1, machine, results }, null, 2)}\n`);
else {
  const rows = results.map((r) => [r.name, String(r.ratio ?? 'n/a'), r.target ?? '', r.met === null ? '-' : r.met ? 'yes' : 'NO']);
  const head = ['benchmark', 'ratio', 'target', 'met'];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => c.padEnd(width[i])).join('  ');
  process.stdout.write(`\n${machine}\n\n${line(head)}\n${line(width.map((w) => '-'.repeat(w)))}\n${rows.map(line).join('\n')}\n\n`);
  for (const r of results) process.stdout.write(`${r.name}: ${r.detail}\n\n`);
  process.stdout.write(`(${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
}
const missed = results.some((r) => r.met === false);
process.exit(mismatch || (strict && missed) ? 1 : failedToRun ? 2 : 0);
