// `check-scale`: `node dist/cli.js check --no-cache` on generated projects of 500 and 5,000
// cases (quick: 50 and 500), each a fresh process measured from outside (bench/lib/common.js
// `measure`: wall, CPU of every thread, peak RSS). Four figures:
//   check-scale            CPU milliseconds per case at the larger size, default workers
//   check-scale-workers    wall with one thread per core (--workers N) ÷ wall with --workers 1,
//                          larger size; the default's own ratio is in the detail
//   check-scale-linearity  CPU at the larger size ÷ CPU at the smaller (10 times the cases)
//   check-scale-peak-rss   peak RSS of the process (worker threads are inside it), larger size
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { checkFlags, clearCheckCache, missingFlags } from './check-cli.js';
import { cpuMethod, measure, median, ms, same, secs, spread } from './common.js';
import { NOT_NEEDED } from './check-demo.js';
import { packagesOf, tracePreload } from './load-trace.js';
import { benchProject, projectEnv } from './project-gen.js';

export async function checkScale({ quick, root, result, log }) {
  const node = process.execPath;
  const f = checkFlags(root);
  const sizes = quick ? [{ prompts: 2, cases: 25 }, { prompts: 20, cases: 25 }] : [{ prompts: 20, cases: 25 }, { prompts: 200, cases: 25 }];
  const argv = [join(root, 'dist', 'cli.js'), 'check', ...(f.noCache ? ['--no-cache'] : [])];
  const cores = availableParallelism();
  const variants = { all: argv, ...(f.workers ? { one: [...argv, '--workers', '1'] } : {}), ...(f.workers && cores > 1 ? { spread: [...argv, '--workers', String(cores)] } : {}) };

  // A yardstick for the machine, measured alongside: CPU of a bare `node -e ""`.
  const bare = median([0, 1, 2].map(() => measure(node, ['-e', '']).cpu));

  const measured = [];
  for (const size of sizes) {
    const project = benchProject(size, { log });
    // Three runs a side; five for the 500-case project of a full run, which is cheap.
    const runs = !quick && size === sizes[0] ? 5 : 3;
    const env = projectEnv();
    const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
    let out;
    for (let i = -1; i < runs; i++) {
      const names = Object.keys(variants);
      for (const name of i % 2 === 0 ? names : [...names].reverse()) {
        // No cache to read, whether or not the CLI has --no-cache.
        clearCheckCache(project.dir);
        const r = measure(node, variants[name], { cwd: project.dir, env });
        if (r.status !== 0) throw new Error(`check on the ${project.cases}-case project exited ${r.status}: ${(r.stdout + r.stderr).slice(0, 1500)}`);
        if (out !== undefined) same(`check output on the ${project.cases}-case project, run to run and across thread counts`, r.stdout, out);
        out = r.stdout;
        if (i >= 0) times[name].push(r);
      }
    }
    const stats = (list) => ({ wall: median(list.map((r) => r.wall)), cpu: median(list.map((r) => r.cpu)), rss: Math.max(...list.map((r) => r.maxRssKiB)), list });
    measured.push({ project, runs, all: stats(times.all), one: times.one ? stats(times.one) : undefined, spread: times.spread ? stats(times.spread) : undefined });
  }

  // The CPU figure checked once against the process's own process.resourceUsage().
  const small = measured[0].project;
  clearCheckCache(small.dir);
  const cross = measure(node, argv, { cwd: small.dir, env: projectEnv(), selfReport: true });
  const crossText = cross.self ? ` Cross-check on one ${small.cases}-case run: ${ms(cross.cpu)} ms CPU from GNU time, ${ms(cross.self.cpu)} ms from the process's own resourceUsage().` : '';
  // What a run loads (one traced run, not timed): the TypeScript compiler or remark would be a fixed cost of every run.
  const traceFile = join(small.dir, 'node_modules', 'bench-loads.txt');
  rmSync(traceFile, { force: true });
  clearCheckCache(small.dir);
  measure(node, ['-r', tracePreload, ...argv], { cwd: small.dir, env: projectEnv({ BENCH_LOAD_TRACE: traceFile }) });
  const heavy = existsSync(traceFile) ? packagesOf(readFileSync(traceFile, 'utf8').split('\n'), root).filter((p) => NOT_NEEDED.includes(p)) : [];
  rmSync(traceFile, { force: true });
  const loadsText = heavy.length > 0 ? ` A run loads ${heavy.join(', ')} (traced once), a fixed cost in every figure.` : ` A run loads none of ${NOT_NEEDED.join(', ')} (traced once).`;

  const [lo, hi] = measured;
  const shape = (m) => `${m.project.prompts} prompts x ${m.project.casesPerPrompt} cases (${m.project.cases.toLocaleString('en-US')} cases, ${m.project.examplesPerPrompt} examples a prompt; ${m.project.notations.json} json-fence, ${m.project.notations.hermes} Hermes, ${m.project.notations.xml} XML prompts, ${m.project.tight} tight)`;
  const quickNote = quick ? ' Quick mode: 50 and 500 cases instead of the issue\'s 500 and 5,000; the targets are for 5,000.' : '';
  const common = ` Machine yardstick: \`node -e ""\` takes ${ms(bare)} ms CPU. CPU is ${cpuMethod}.${crossText}${loadsText}${missingFlags(f)}${quickNote}`;
  const short = `${missingFlags(f)}${quickNote}`;
  const cmd = `\`node dist/cli.js check${f.noCache ? ' --no-cache' : ''}\``;

  const perCase = hi.all.cpu / hi.project.cases;
  result(
    'check-scale',
    perCase,
    '<= 0.8 ms a case at 5,000 cases',
    quick ? null : perCase <= 0.8,
    `CPU milliseconds per case: ${cmd} (default workers) on a generated project of ${shape(hi)}, ${secs(hi.all.cpu)} CPU (${secs(hi.all.wall)} wall), divided by its ${hi.project.cases.toLocaleString('en-US')} cases; median of ${hi.runs} fresh processes after one warm-up, cache emptied before each (runs: ${hi.all.list.map((r) => ms(r.cpu / hi.project.cases)).join(', ')} ms a case). Exit 0 and the same output in every run. ` +
      `At ${lo.project.cases} cases: ${ms(lo.all.cpu / lo.project.cases)} ms a case.${common}`,
  ).unit = 'ms per case';

  if (hi.one && hi.spread) {
    const speed = hi.spread.wall / hi.one.wall;
    result(
      'check-scale-workers',
      speed,
      '<= 0.6',
      quick ? null : speed <= 0.6,
      `Wall time of ${cmd} with \`--workers ${cores}\` (one thread per core), ${secs(hi.spread.wall)}, divided by the same with \`--workers 1\`, ${secs(hi.one.wall)}, on the ${hi.project.cases.toLocaleString('en-US')}-case project; ratio of the medians of ${hi.runs} runs each, alternating after one warm-up each; pairs ${spread(hi.spread.list.map((r, i) => r.wall / hi.one.list[i].wall))}. CPU: ${secs(hi.spread.cpu)} against ${secs(hi.one.cpu)}. The default threads on this machine: ${(hi.all.wall / hi.one.wall).toFixed(2)} of one thread's wall. Same output checked. At ${lo.project.cases} cases: ${(lo.spread.wall / lo.one.wall).toFixed(2)}.${short}`,
    );
  } else {
    result('check-scale-workers', null, '<= 0.6', null, `Not measured: ${f.workers ? 'this machine has one core' : '`check` has no --workers flag in this build'}.${short}`);
  }

  const base = hi.one && lo.one ? 'one' : 'all';
  const growth = hi[base].cpu / lo[base].cpu;
  result(
    'check-scale-linearity',
    growth,
    '<= 11',
    quick ? null : growth <= 11,
    `CPU time of ${base === 'one' ? cmd.replace(/`$/, ' --workers 1`') : cmd} on ${hi.project.cases.toLocaleString('en-US')} cases, ${secs(hi[base].cpu)}, divided by the same on ${lo.project.cases.toLocaleString('en-US')} cases (${shape(lo)}), ${secs(lo[base].cpu)}: ${(hi.project.cases / lo.project.cases).toFixed(0)} times the cases, so linear work gives at most ${(hi.project.cases / lo.project.cases).toFixed(0)} (fixed start-up costs make it less). Medians of ${hi.runs} and ${lo.runs} runs. Wall: ${(hi[base].wall / lo[base].wall).toFixed(2)}.${short}`,
  );

  const mb = hi.all.rss / 1024;
  result(
    'check-scale-peak-rss',
    mb,
    '<= 250 MB at 5,000 cases',
    quick ? null : mb <= 250,
    `Peak RSS in MiB of ${cmd} (default workers; worker threads share the process, so this is the whole run) on the ${hi.project.cases.toLocaleString('en-US')}-case project, the highest of ${hi.runs} runs: ${mb.toFixed(0)} MiB${hi.one ? `; with --workers 1: ${(hi.one.rss / 1024).toFixed(0)} MiB` : ''}. At ${lo.project.cases} cases: ${(lo.all.rss / 1024).toFixed(0)} MiB.${short}`,
  ).unit = 'MiB';
}
