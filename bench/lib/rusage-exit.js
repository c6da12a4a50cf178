// Preloaded with `node --import` by bench/lib/common.js's `measure`: when the process exits, it
// writes its own process.resourceUsage() (CPU of every thread, peak RSS) to $BENCH_RUSAGE_OUT.
// A way to read a child's CPU time where GNU time is missing, and a cross-check where it is not.
import { writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const out = process.env.BENCH_RUSAGE_OUT;
if (out && isMainThread) process.on('exit', () => writeFileSync(out, JSON.stringify(process.resourceUsage())));
