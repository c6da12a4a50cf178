// `check-demo`: `prompt-contract check` on this repository's demo project against a bare
// `node -e ""`, and against a floor process that only imports the packages the run needs
// (bench/lib/demo-floor.js). Beside it: the Jest contract suite against an empty test file in
// the same Jest config, and the packages the real run loads (bench/lib/load-trace.cjs).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Mismatch, measure, median, ms, same, spread } from './common.js';
import { floorPackages } from './demo-floor.js';
import { packagesOf, tracePreload } from './load-trace.js';

/** Packages a demo run has no need for: loading one costs start-up time for nothing. */
export const NOT_NEEDED = ['remark-parse', 'micromark', 'mdast-util-from-markdown', 'unified', 'typescript', 'ts-json-schema-generator', 'diff'];

export async function checkDemo({ quick, root, result }) {
  const node = process.execPath;
  const runs = quick ? 5 : 9;
  const sides = {
    bare: ['-e', ''],
    floor: [join(root, 'bench', 'lib', 'demo-floor.js')],
    check: [join(root, 'dist', 'cli.js'), 'check'],
  };
  const times = { bare: [], floor: [], check: [] };
  const cpu = { bare: [], floor: [], check: [] };
  let checkOut;
  // One warm-up of each (file cache, jiti's transform cache), then rounds in rotating order.
  for (let i = -1; i < runs; i++) {
    const names = Object.keys(sides);
    const order = i < 0 ? names : names.map((_, k) => names[(k + i) % names.length]);
    for (const name of order) {
      const r = measure(node, sides[name], { cwd: root });
      if (r.status !== 0) throw new Error(`\`${name}\` exited ${r.status}: ${(r.stderr || r.stdout).slice(0, 1500)}`);
      if (name === 'check') {
        if (checkOut !== undefined) same('`check` output on the demo, run to run', checkOut, r.stdout);
        checkOut = r.stdout;
      }
      if (i >= 0) {
        times[name].push(r.wall);
        cpu[name].push(r.cpu);
      }
    }
  }
  const wall = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  const cpuMs = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, median(v)]));
  const pairRatios = times.check.map((t, i) => t / times.bare[i]);

  // Which packages the run loads, and which the floor loads (the floor's packages and their
  // own dependencies): one traced run of each, not timed.
  const traceFile = join(root, 'bench', '.data', 'check-demo-loads.txt');
  mkdirSync(join(root, 'bench', '.data'), { recursive: true });
  const trace = (argv) => {
    rmSync(traceFile, { force: true });
    const r = measure(node, ['-r', tracePreload, ...argv], { cwd: root, env: { ...process.env, BENCH_LOAD_TRACE: traceFile } });
    const packages = packagesOf(readFileSync(traceFile, 'utf8').split('\n'), root);
    rmSync(traceFile, { force: true });
    return { r, packages };
  };
  const traced = trace(sides.check);
  same('`check` output on the demo, traced run vs timed runs', traced.r.stdout, checkOut);
  const loaded = traced.packages;
  const floorLoads = trace(sides.floor).packages;
  const notNeeded = NOT_NEEDED.filter((p) => loaded.includes(p));
  const floorMissing = floorPackages.filter((p) => !loaded.includes(p));
  const beyond = loaded.filter((p) => p !== 'prompt-contract' && !floorLoads.includes(p));

  // The Jest contract suite against an empty test file, same config; one unmeasured run of each first.
  const jestRuns = quick ? 1 : 3;
  const emptyDir = join(root, 'bench', '.data', 'jest-empty');
  mkdirSync(emptyDir, { recursive: true });
  writeFileSync(join(emptyDir, 'empty.test.ts'), "// The empty-suite baseline of bench/lib/check-demo.js.\ntest('nothing', () => {});\n");
  // The empty file lives outside test/, so that a concurrent `npm test` never picks it up; both runs get the same extra root.
  const jest = (file) => measure(node, ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', 'node_modules/jest/bin/jest.js', '--roots', '<rootDir>/test', '<rootDir>/bench/.data/jest-empty', '--runTestsByPath', file], { cwd: root });
  const jestTimes = { empty: [], suite: [] };
  for (let i = -1; i < jestRuns; i++) {
    const order = i % 2 === 0 ? ['suite', 'empty'] : ['empty', 'suite'];
    for (const which of order) {
      const r = jest(which === 'empty' ? 'bench/.data/jest-empty/empty.test.ts' : 'test/contract.test.ts');
      if (r.status !== 0) throw new Mismatch(`the Jest ${which === 'suite' ? 'contract suite' : 'empty baseline'} failed (exit ${r.status}); its time would not be a full run: ${r.stderr.slice(-800)}`);
      if (i >= 0) jestTimes[which].push(r.wall);
    }
  }
  const jestRatio = median(jestTimes.suite) / median(jestTimes.empty);

  const ratio = wall.check / wall.bare;
  const r = result(
    'check-demo',
    ratio,
    '<= 4.5',
    ratio <= 4.5,
    `Wall time of \`node dist/cli.js check\` on the demo, ${ms(wall.check)} ms (exit 0, ${ms(cpuMs.check)} ms CPU), divided by \`node -e ""\`, ${ms(wall.bare)} ms (${ms(cpuMs.bare)} ms CPU): the ratio of the medians of ${runs} runs each after one warm-up, the three commands in rotating order; per-round ratios ${spread(pairRatios)}. ` +
      `Floor: a process that only imports ${floorPackages.join(', ')} (bench/lib/demo-floor.js), ${ms(wall.floor)} ms: floor ÷ bare ${(wall.floor / wall.bare).toFixed(2)}, check ÷ floor ${(wall.check / wall.floor).toFixed(2)}. ` +
      `Packages the run loads (traced with bench/lib/load-trace.cjs, a resolve hook plus the require cache, worker threads included): ${loaded.join(', ')}.` +
      (notNeeded.length > 0 ? ` WARNING: the demo run loads ${notNeeded.join(', ')}, which it should not need.` : ` None of ${NOT_NEEDED.join(', ')} is loaded.`) +
      (floorMissing.length > 0 ? ` The floor imports ${floorMissing.join(', ')}, which the run did not load.` : '') +
      ` Loaded by the run and not by the floor (whose imports bring ${floorLoads.length} packages with their dependencies): ${beyond.length === 0 ? 'none' : beyond.join(', ')}. ` +
      `Jest contract suite (test/contract.test.ts), ${ms(median(jestTimes.suite))} ms, divided by an empty test file in the same config, ${ms(median(jestTimes.empty))} ms: ${jestRatio.toFixed(2)} (wall, medians of ${jestRuns} after one unmeasured run of each). ${availableParallelism()} cores.`,
  );
  r.jestRatio = Math.round(jestRatio * 100) / 100;
  r.loaded = loaded;
}
