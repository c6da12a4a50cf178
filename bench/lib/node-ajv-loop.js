// The peer of recorded-vs-node-ajv-loop: the loop a Node user writes to check recorded tool
// calls against the tools' schemas. readline over the file, JSON.parse of each line, one
// compiled Ajv 2020 validator per tool (the ajv and ajv-formats prompt-contract uses), and the
// rows counted as prompt-contract counts them: unreadable lines, unknown tools, invalid calls.
//   node bench/lib/node-ajv-loop.js FILE   prints the counts, wall ms and peak RSS as JSON
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { benchTools } from './tools.js';

export function compileTools(tools) {
  const ajv = new Ajv2020();
  (ajvFormats.default ?? ajvFormats)(ajv);
  return new Map(tools.map((t) => [t.name, ajv.compile(t.input_schema)]));
}

export async function ajvLoop(validators, file) {
  const counts = { rows: 0, calls: 0, invalid: 0, unknown: 0, corrupt: 0 };
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    counts.rows++;
    let row;
    try {
      row = JSON.parse(line);
    } catch {
      counts.corrupt++;
      continue;
    }
    counts.calls++;
    const validate = validators.get(row.name);
    if (!validate) counts.unknown++;
    else if (!validate(row.type === 'tool_use' ? row.input : row.arguments)) counts.invalid++;
  }
  return counts;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const start = performance.now();
  const counts = await ajvLoop(compileTools(benchTools), process.argv[2]);
  process.stdout.write(`${JSON.stringify({ counts, wall: performance.now() - start, maxRssKiB: process.resourceUsage().maxRSS })}\n`);
}
