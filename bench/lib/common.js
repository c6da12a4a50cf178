// What every benchmark module shares: the Mismatch error (two sides did different work),
// medians and spreads, in-process timing with alternating pairs, and timing a child process
// for wall time, CPU time (every thread of it, and of what it waited for) and peak RSS.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Two sides of a benchmark did different work: the figure would mean nothing. */
export class Mismatch extends Error {}

export function same(what, a, b) {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  if (x !== y) throw new Mismatch(`${what}: ${x.slice(0, 500)} != ${y.slice(0, 500)}`);
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const quartiles = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const at = (q) => s[Math.min(s.length - 1, Math.round(q * (s.length - 1)))];
  return [at(0.25), at(0.75)];
};

export const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
export const round = (x) => Math.round(x * 100) / 100;
export const secs = (x) => `${(x / 1000).toFixed(x >= 10_000 ? 1 : 2)} s`;

/** "a to b" of a list of ratios: the lowest and highest when there are few, else the middle half. */
export function spread(ratios, digits = 2) {
  const s = [...ratios].sort((a, b) => a - b);
  const [lo, hi] = s.length <= 4 ? [s[0], s.at(-1)] : quartiles(s);
  return `${s.length <= 4 ? 'range' : 'middle half'} ${lo.toFixed(digits)} to ${hi.toFixed(digits)}`;
}

/** Wall and CPU milliseconds of one call (CPU: every thread of this process). */
export async function timed(fn) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / 1000, value };
}

/**
 * Runs `a` and `b` in pairs after one warm-up each, the order alternating (ab, ba, ab, ...)
 * so that a drift in the machine's speed weighs on both sides alike. Returns the medians of
 * wall and CPU time of each side (the figure is the ratio of these medians), the pairs' own
 * CPU ratios b/a (their spread goes in the detail), and the result of each side's last run.
 */
export async function compare(a, b, runs) {
  await a();
  await b();
  const ta = { wall: [], cpu: [] };
  const tb = { wall: [], cpu: [] };
  const pairs = [];
  let va;
  let vb;
  for (let i = 0; i < runs; i++) {
    let ra;
    let rb;
    if (i % 2 === 0) {
      ra = await timed(a);
      rb = await timed(b);
    } else {
      rb = await timed(b);
      ra = await timed(a);
    }
    ta.wall.push(ra.wall);
    ta.cpu.push(ra.cpu);
    tb.wall.push(rb.wall);
    tb.cpu.push(rb.cpu);
    pairs.push(rb.cpu / ra.cpu);
    va = ra.value;
    vb = rb.value;
  }
  return {
    a: { wall: median(ta.wall), cpu: median(ta.cpu), value: va },
    b: { wall: median(tb.wall), cpu: median(tb.cpu), value: vb },
    pairs: { median: median(pairs), quartiles: quartiles(pairs), all: pairs },
  };
}

const gnuTime = existsSync('/usr/bin/time') && spawnSync('/usr/bin/time', ['-f', '%e', 'true'], { encoding: 'utf8' }).status === 0 ? '/usr/bin/time' : undefined;
const rusageExit = join(here, 'rusage-exit.js');

/** How child CPU time is read: GNU time's rusage of the child, or (without it) the Node process's own resourceUsage at exit. */
export const cpuMethod = gnuTime ? 'GNU time (getrusage of the waited-for child: every thread, and its own children)' : "the Node process's own process.resourceUsage() at exit (bench/lib/rusage-exit.js; every thread, not its children)";

/**
 * Runs a command to its end and measures it: wall milliseconds (around the spawn), CPU
 * milliseconds (user + system of the child, every thread, and of any process it waited for)
 * and its peak RSS in KiB. With GNU time (`/usr/bin/time -f`) the kernel's rusage of the
 * child is read; without it, a Node command reports its own `process.resourceUsage()` from an
 * exit hook (bench/lib/rusage-exit.js). Throws when the command could not start.
 * `selfReport: true` adds that exit hook under GNU time too, for cross-checking the two.
 */
export function measure(command, argv, { cwd, env = process.env, selfReport = false, input } = {}) {
  const work = mkdtempSync(join(tmpdir(), 'bench-measure-'));
  try {
    const timeFile = join(work, 'time');
    const selfFile = join(work, 'self');
    const isNode = command === process.execPath;
    const hook = isNode && (selfReport || !gnuTime);
    const args = hook ? ['--import', rusageExit, ...argv] : argv;
    const childEnv = hook ? { ...env, BENCH_RUSAGE_OUT: selfFile } : env;
    const spawnArgs = gnuTime ? [gnuTime, ['-f', '%e %U %S %M', '-o', timeFile, command, ...args]] : [command, args];
    const t0 = performance.now();
    const r = spawnSync(spawnArgs[0], spawnArgs[1], { cwd, env: childEnv, encoding: 'utf8', maxBuffer: 256 << 20, ...(input === undefined ? { stdio: ['ignore', 'pipe', 'pipe'] } : { input }) });
    const wall = performance.now() - t0;
    if (r.error) throw r.error;
    const out = { wall, status: r.status, stdout: r.stdout, stderr: r.stderr };
    if (gnuTime) {
      // GNU time writes "Command exited with non-zero status N" first when the child fails.
      const line = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1);
      const [, user, system, rss] = line.split(' ').map(Number);
      out.cpu = (user + system) * 1000;
      out.maxRssKiB = rss;
    }
    if (hook && existsSync(selfFile)) {
      const self = JSON.parse(readFileSync(selfFile, 'utf8'));
      out.self = { cpu: (self.userCPUTime + self.systemCPUTime) / 1000, maxRssKiB: self.maxRSS };
      if (!gnuTime) {
        out.cpu = out.self.cpu;
        out.maxRssKiB = out.self.maxRssKiB;
      }
    }
    if (out.cpu === undefined) throw new Error(`no CPU figure for \`${command} ${argv.join(' ')}\`: GNU time is missing and the command is not Node`);
    return out;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
