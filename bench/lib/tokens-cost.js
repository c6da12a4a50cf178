// `tokens-cost`: what counting tokens adds to `check`. The same generated project (5,000 cases;
// quick: 1,000) is checked twice by the built CLI (`check --no-cache --workers 1`, a process
// each, CPU of every thread): once by dist/ as built, once by a copy of dist/ whose
// `countRenderedCase` counts nothing (its tokenizer replaced by `() => 0` in the ES modules and
// in the bundle the command line runs; everything else, the tool serialisation and the
// snapshot's tokens line included, runs as built). Each side's snapshots are written beforehand
// by that side's own code, so both compare every snapshot, find them all matching, and report
// the same findings (checked): a side whose counter was not the one patched finds every
// snapshot outdated. The figure: CPU with counts ÷ CPU without, medians of alternating pairs
// after a warm-up; the load average is reported beside it, as the machine is shared.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Mismatch, measure, median, same, spread } from './common.js';
import { dataDir } from './data.js';
import { generateProject, projectEnv, projectsDir } from './project-gen.js';

/** `const count = counterOf(tokenizer);`, as tsc emits it and as the bundle names it (`count3`). */
const COUNT_LINE = /const (count\w*) = counterOf\(tokenizer\);/g;

/**
 * A copy of dist/ whose counter counts nothing: the run without counts. The command line runs
 * the CommonJS bundle (dist/prompt-contract.cjs) and the API the ES modules, so both are patched.
 */
function distWithoutCounts(root) {
  const dir = join(dataDir, 'dist-without-token-counts');
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(root, 'dist'), dir, { recursive: true });
  const files = [join(dir, 'tokens', 'index.js'), join(dir, 'prompt-contract.cjs')].filter((file) => existsSync(file));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const found = text.match(COUNT_LINE)?.length ?? 0;
    if (found !== 1) throw new Mismatch(`tokens-cost: ${file} calls \`counterOf(tokenizer)\` ${found} times, expected once; update the bench`);
    writeFileSync(file, text.replace(COUNT_LINE, 'const $1 = () => 0;'));
  }
  return dir;
}

/** The bundle's `function countRenderedCase(`, wrapped by distWithTimer. */
const COUNT_FUNCTION = 'function countRenderedCase(';
const TIMER_LINE = /^tokens-cost-timer (\d+(?:\.\d+)?) (\d+)$/m;

/**
 * A copy of dist/ whose bundle times every call of `countRenderedCase` (performance.now around
 * it, the tokenizer's load included) and prints the total as `tokens-cost-timer <ms> <calls>` when
 * the process ends: what counting itself costs inside a run, without the run-to-run noise of
 * comparing two whole processes. Only the command line's bundle is patched, as only it runs.
 */
function distWithTimer(root) {
  const dir = join(dataDir, 'dist-token-timer');
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(root, 'dist'), dir, { recursive: true });
  const file = join(dir, 'prompt-contract.cjs');
  const text = readFileSync(file, 'utf8');
  const found = text.split(COUNT_FUNCTION).length - 1;
  if (found !== 1) throw new Mismatch(`tokens-cost: ${file} defines \`countRenderedCase\` ${found} times, expected once; update the bench`);
  const wrapper = [
    'let benchCountMs = 0, benchCountCalls = 0;',
    'process.on("exit", () => process.stderr.write(`tokens-cost-timer ${benchCountMs.toFixed(1)} ${benchCountCalls}\\n`));',
    'function countRenderedCase(...args) { const t0 = performance.now(); try { return benchTimedCount(...args); } finally { benchCountMs += performance.now() - t0; benchCountCalls++; } }',
    'function benchTimedCount(',
  ].join('\n');
  writeFileSync(file, text.replace(COUNT_FUNCTION, wrapper));
  return dir;
}

/** Writes every case's snapshot and the tools baseline with `dist`'s own code: what `-u` would write. */
async function writeSnapshots(dist, dir) {
  const load = (path) => import(pathToFileURL(join(dist, path)).href);
  const api = await load('index.js');
  const { caseTokenizer } = await load('tokens/budget.js');
  const { formatToolsBaseline } = await load('snapshot/format.js');
  const { snapshotFile, toolsBaselineFile } = await load('snapshot/state.js');
  const project = await api.loadProject({ cwd: dir });
  const cases = api.listCases(project.module);
  for (const ref of cases) {
    const rendered = await api.renderAnyCase(project.module, ref.prompt, ref.case, project.registry);
    const definition = project.module.prompts.get(ref.prompt);
    const tokens = api.countRenderedCase(rendered, caseTokenizer(project.config, definition, definition.cases.get(ref.case)));
    const file = snapshotFile(project.config.snapshots, ref.prompt, ref.case);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, api.formatSnapshot(rendered, tokens));
  }
  writeFileSync(toolsBaselineFile(project.config.snapshots), formatToolsBaseline(project.tools));
  return cases.length;
}

export async function tokensCost({ quick, root, result, log }) {
  const [prompts, cases] = quick ? [40, 25] : [200, 25];
  const n = prompts * cases;
  const without = distWithoutCounts(root);
  const sides = { with: { dist: join(root, 'dist') }, without: { dist: without } };
  for (const [name, side] of Object.entries(sides)) {
    side.dir = join(projectsDir, `tokens-cost-${name}-${n}`);
    rmSync(side.dir, { recursive: true, force: true });
    generateProject(side.dir, { prompts, cases });
    side.cases = await writeSnapshots(side.dist, side.dir);
  }
  same('cases of the two projects', sides.with.cases, sides.without.cases);
  const run = (side) => {
    const r = measure(process.execPath, [join(side.dist, 'cli.js'), 'check', '--format', 'json', '--no-cache', '--workers', '1'], { cwd: side.dir, env: projectEnv() });
    if (r.status !== 0 && r.status !== 1) throw new Mismatch(`tokens-cost: check could not run in ${side.dir} (exit ${r.status}): ${r.stderr.slice(-2000)}`);
    const timer = TIMER_LINE.exec(r.stderr);
    return { cpu: r.cpu, findings: JSON.parse(r.stdout).diagnostics.map((d) => `${d.ruleId} ${d.file}:${d.line}`).sort().join('\n'), ...(timer ? { countMs: Number(timer[1]), countCalls: Number(timer[2]) } : {}) };
  };
  const runs = quick ? 3 : 5;
  const load = [loadavg()[0]];
  run(sides.with);
  run(sides.without);
  const cpu = { with: [], without: [] };
  const pairs = [];
  let last;
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? ['with', 'without'] : ['without', 'with'];
    const got = {};
    for (const name of order) got[name] = run(sides[name]);
    cpu.with.push(got.with.cpu);
    cpu.without.push(got.without.cpu);
    pairs.push(got.with.cpu / got.without.cpu);
    last = got;
  }
  // The same runs with counts, timed inside: counting's own share of a run's CPU.
  const timed = { dist: distWithTimer(root), dir: sides.with.dir };
  const inside = [];
  for (let i = 0; i < runs; i++) {
    const r = run(timed);
    if (r.countMs === undefined) throw new Mismatch('tokens-cost: the timed copy printed no tokens-cost-timer line');
    same('cases counted by the timed copy', r.countCalls, sides.with.cases);
    same('findings of the timed copy and of dist/', r.findings, last.with.findings);
    inside.push(r);
  }
  // Milliseconds inside the calls (wall, on one thread) against the rest of the process's CPU.
  const insideRatios = inside.map((r) => r.cpu / (r.cpu - r.countMs));
  load.push(loadavg()[0]);
  same('findings with and without counts', last.with.findings, last.without.findings);
  if (/snapshot\/(outdated|missing)/.test(last.with.findings)) throw new Mismatch('tokens-cost: a snapshot did not match; both sides must compare matching snapshots');
  const ratio = median(cpu.with) / median(cpu.without);
  log(`  with counts ${median(cpu.with).toFixed(0)} ms CPU, without ${median(cpu.without).toFixed(0)} ms CPU, load ${load.map((l) => l.toFixed(2)).join(' -> ')}`);
  result(
    'tokens-cost',
    ratio,
    '<= 1.10 (counting tokens adds at most 10% CPU to check)',
    ratio <= 1.1,
    `CPU of \`prompt-contract check --no-cache --workers 1\` on ${n} generated cases with token counts ÷ the same with a dist/ whose counter counts nothing, each side's snapshots written by its own code so both match every snapshot and report the same findings; medians of ${runs} alternating pairs after a warm-up (${spread(pairs)}); 1-minute load average ${load.map((l) => l.toFixed(2)).join(' at the start, ')} at the end. ` +
      `Counting timed inside the run (a copy of the bundle with a timer around \`countRenderedCase\`, the tokenizer's load included; ${runs} runs): ${median(inside.map((r) => r.countMs)).toFixed(0)} ms of ${median(inside.map((r) => r.cpu)).toFixed(0)} ms CPU, that is ${median(insideRatios).toFixed(3)} × the rest of the run (median of the runs' own ratios, ${spread(insideRatios, 3)}; wall time inside the calls, the run being on one thread, against the process's CPU).`,
  );
  if (!existsSync(sides.with.dir)) throw new Mismatch('tokens-cost: the project vanished');
}
