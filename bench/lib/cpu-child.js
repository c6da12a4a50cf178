#!/usr/bin/env node
// Runs one command and prints, as JSON, its wall time, CPU time (user + system, every thread
// and every process it waited for) and peak RSS: the measurement bench/run.js uses for child
// processes (bench/lib/common.js `measure`).
//   node bench/lib/cpu-child.js [--self] -- COMMAND [ARGS...]
// `--self` (Node commands only) also reports the process's own process.resourceUsage() at
// exit, to cross-check the figure GNU time gives.
import { cpuMethod, measure } from './common.js';

const argv = process.argv.slice(2);
const at = argv.indexOf('--');
const [command, ...args] = at === -1 ? argv : argv.slice(at + 1);
if (!command) {
  process.stderr.write('usage: node bench/lib/cpu-child.js [--self] -- COMMAND [ARGS...]\n');
  process.exit(2);
}
const r = measure(command === 'node' ? process.execPath : command, args, { selfReport: argv.slice(0, Math.max(at, 0)).includes('--self') });
process.stdout.write(`${JSON.stringify({ status: r.status, wallMs: Math.round(r.wall), cpuMs: Math.round(r.cpu), maxRssKiB: r.maxRssKiB, ...(r.self ? { self: { cpuMs: Math.round(r.self.cpu), maxRssKiB: r.self.maxRssKiB } } : {}), method: cpuMethod })}\n`);
