// Validates one JSONL file in a fresh process and prints its peak resident memory
// (the whole process, worker threads included), its wall time and what it found.
// usage: node bench/lib/rss-child.js FILE [WORKERS]
import { normalizeTools } from '../../dist/index.js';
import { validateRecordedFiles } from '../../dist/checks/recorded-files.js';
import { summarize } from './summary.js';
import { benchTools } from './tools.js';

const [file, workers] = process.argv.slice(2);
const tools = normalizeTools(benchTools);
const start = performance.now();
const diagnostics = await validateRecordedFiles(tools, [file], workers === undefined ? {} : { workers: Number(workers) });
const wall = performance.now() - start;
process.stdout.write(`${JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS, wall, found: summarize(diagnostics) })}\n`);
