// `recorded-vs-node-ajv-loop`: prompt-contract's recorded-call validation against the loop a
// Node user would write instead (bench/lib/node-ajv-loop.js: readline, JSON.parse, one compiled
// Ajv 2020 validator per tool). Two figures:
//   recorded-vs-node-ajv-loop-1t  the small file, both in this process and one thread, CPU time;
//                                 schemas compiled once outside the timed runs on both sides
//   recorded-vs-node-ajv-loop     the 1 GiB file (full runs only), each side a fresh process
//                                 timed from outside (wall): ours with default options (every
//                                 core), the loop as written (one thread); start-up, imports
//                                 and schema compiles included on both sides
import { join } from 'node:path';
import { compare, measure, median, ms, same, secs, spread } from './common.js';
import { recordedFile } from './data.js';
import { ajvLoop, compileTools } from './node-ajv-loop.js';
import { summarize } from './summary.js';
import { benchTools } from './tools.js';

export async function recordedVsNodeAjvLoop({ quick, root, result, recorded, tools, validateRecordedFiles, SchemaCompiler }) {
  const check = (what, found, file) => {
    same(`rows (generator) vs rows (${what})`, file.rows, found.rows);
    same(`unreadable lines (generator) vs ${what}`, file.corrupt, found.corrupt);
    same(`invalid rows (generator) vs ${what}`, file.invalid, found.invalid);
    same(`unknown-tool rows (generator) vs ${what}`, file.unknown, found.unknown);
  };
  const ours = (found) => ({ rows: found.calls + found.corrupt, corrupt: found.corrupt, invalid: found.invalid, unknown: found.unknown });

  const runs = quick ? 7 : 11;
  const validators = compileTools(benchTools);
  const compiler = new SchemaCompiler();
  const small = await compare(
    () => ajvLoop(validators, recorded.file),
    () => validateRecordedFiles(tools, [recorded.file], { workers: 1, compiler }),
    runs,
  );
  check('the ajv loop', small.a.value, recorded);
  check('ours, one thread', ours(summarize(small.b.value)), recorded);
  const ratio = small.b.cpu / small.a.cpu;
  const mib = (b) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  result(
    'recorded-vs-node-ajv-loop-1t',
    ratio,
    '<= 1.0',
    ratio <= 1.0,
    `CPU time of validateRecordedFiles({workers: 1}) on ${recorded.rows.toLocaleString('en-US')} recorded calls (${mib(recorded.bytes)}), ${ms(small.b.cpu)} ms, divided by the loop a Node user writes (bench/lib/node-ajv-loop.js: readline over the file, JSON.parse of each line, a compiled Ajv 2020 validator per tool with ajv-formats, the same packages as ours), ${ms(small.a.cpu)} ms; ` +
      `both in this process, one thread, schemas compiled once outside the timed runs on both sides (ours also reports each failure with its place and witnesses, the loop only counts). Ratio of the medians of ${runs} alternating pairs after a warm-up; pairs ${spread(small.pairs.all)}. Both count ${recorded.invalid} invalid, ${recorded.unknown} unknown-tool and ${recorded.corrupt} unreadable rows, as the generator made them.` +
      (quick ? ' The 1 GiB comparison (ours on every core against the loop) runs in full mode only.' : ''),
  );
  if (quick) return;

  const big = recordedFile({ bytes: 2 ** 30, name: 'recorded-1gib' });
  const node = process.execPath;
  const sides = {
    ours: [join(root, 'bench', 'lib', 'rss-child.js'), big.file],
    loop: [join(root, 'bench', 'lib', 'node-ajv-loop.js'), big.file],
  };
  const times = { ours: [], loop: [] };
  const pairs = 3;
  for (let i = 0; i < pairs; i++) {
    for (const side of i % 2 === 0 ? ['ours', 'loop'] : ['loop', 'ours']) {
      const r = measure(node, sides[side], { cwd: root });
      if (r.status !== 0) throw new Error(`${side} on the 1 GiB file exited ${r.status}: ${r.stderr.slice(0, 1500)}`);
      const out = JSON.parse(r.stdout);
      check(side === 'ours' ? 'ours, default options, 1 GiB' : 'the ajv loop, 1 GiB', side === 'ours' ? ours(out.found) : out.counts, big);
      times[side].push(r);
    }
  }
  const wall = (side) => median(times[side].map((r) => r.wall));
  const cpu = (side) => median(times[side].map((r) => r.cpu));
  const bigRatio = wall('ours') / wall('loop');
  result(
    'recorded-vs-node-ajv-loop',
    bigRatio,
    '<= 0.8',
    bigRatio <= 0.8,
    `Wall time of a fresh process running validateRecordedFiles with default options (every core: worker threads above 128 MiB) on the ${(big.bytes / 2 ** 30).toFixed(2)} GiB file (${big.rows.toLocaleString('en-US')} rows), ${secs(wall('ours'))} (${secs(cpu('ours'))} CPU), divided by a fresh process running the ajv loop as written (one thread), ${secs(wall('loop'))} (${secs(cpu('loop'))} CPU); ` +
      `process start, imports and schema compiles included on both sides. Ratio of the medians of ${pairs} alternating pairs; pairs ${spread(times.ours.map((r, i) => r.wall / times.loop[i].wall))}. Peak RSS: ours ${(Math.max(...times.ours.map((r) => r.maxRssKiB)) / 1024).toFixed(0)} MiB, loop ${(Math.max(...times.loop.map((r) => r.maxRssKiB)) / 1024).toFixed(0)} MiB. Same counts checked on both sides.`,
  );
}
