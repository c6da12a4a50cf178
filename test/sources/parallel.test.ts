// Recorded-call validation split over worker threads must give exactly what one thread gives:
// same findings, counts, witnesses and line numbers. Worker threads cannot load the .ts
// sources, so the parallel runs use the built package (`npm test` builds it first) in a
// child process; the reference is the source reader, in this process.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRecorded } from '../../src/checks/recorded.js';
import type { Diagnostic } from '../../src/report/diagnostic.js';
import { forEachLine, splitAtLines, type LineRange } from '../../src/sources/chunks.js';
import { readRecordedCalls } from '../../src/sources/jsonl.js';
import type { RecordedItem } from '../../src/sources/types.js';
import { normalizeTools } from '../../src/tools/normalize.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const CHUNK = 256 * 1024;

const rawTools = [
  {
    name: 'create_refund',
    input_schema: {
      type: 'object',
      properties: { order_id: { type: 'string', pattern: '^[AB]-\\d{4}$' }, amount_cents: { type: 'integer', minimum: 1, maximum: 100000 } },
      required: ['order_id', 'amount_cents'],
      additionalProperties: false,
    },
  },
  { name: 'lookup_order', input_schema: { type: 'object', properties: { order_id: { type: 'string', pattern: '^[AB]-\\d{4}$' } }, required: ['order_id'] } },
];
const tools = normalizeTools(rawTools);
const options = { maxWitnesses: 1000, maxCorrupt: 1000 };

let dir: string;
let file: string;
let toolsFile: string;

/**
 * About 3 MB of calls: valid ones, invalid ones (some without an id, so that their witness
 * is `file:line`), unknown tools, CRLF and blank lines, and a corrupt line, an invalid
 * call and a blank line just before every multiple of the chunk size.
 */
function generate(): string {
  const lines: string[] = [];
  let bytes = 0;
  let nextMark = CHUNK - 300;
  const push = (line: string, end = '\n') => {
    lines.push(line + end);
    bytes += Buffer.byteLength(line + end);
  };
  for (let i = 1; bytes < 3_000_000; i++) {
    if (bytes >= nextMark) {
      push(`{"id":"cut_${i}","name":"lookup_order","arguments":{"order_id":"A-1`);
      push(`{"name":"create_refund","arguments":{"order_id":"A-${String(i % 10000).padStart(4, '0')}","amount_cents":999999}}`);
      push('');
      push(`{"name":"lookup_order","arguments":{"order_id":"Z-${i}"}}`, '\r\n');
      nextMark += CHUNK;
      continue;
    }
    const order = `A-${String(i % 10000).padStart(4, '0')}`;
    if (i % 97 === 0) push(`{"name":"create_refund","arguments":{"order_id":"${order}","amount_cents":${100000 + i}}}`);
    else if (i % 89 === 0) push(`{"id":"call_${i}","name":"create_refnd","arguments":{"order_id":"${order}"}}`);
    else if (i % 83 === 0) push(`{"id":"call_${i}","name":"lookup_order","arguments":{"order_id":"B-${i}"}}`, '\r\n');
    else if (i % 2 === 0) push(`{"id":"call_${i}","name":"create_refund","arguments":{"order_id":"${order}","amount_cents":${1 + (i % 5000)}}}`);
    else push(`{"id":"call_${i}","type":"tool_use","name":"lookup_order","input":{"order_id":"${order}"}}`);
  }
  return lines.join('');
}

type Run = { workers: number } & Record<string, unknown>;
/** The runs of the built package below: with one thread and with two, and both with witness caps and three. */
const runs = { one: { workers: 1 }, two: { workers: 2 }, cappedOne: { workers: 1, maxWitnesses: 2, maxCorrupt: 3 }, cappedThree: { workers: 3, maxWitnesses: 2, maxCorrupt: 3 } } satisfies Record<string, Run>;
type Built = Record<keyof typeof runs, Diagnostic[]>;

/**
 * Diagnostics of the built package in a fresh process, for each of `runs`: each run calls
 * `validateRecordedFiles` afresh (its own worker threads, which it ends before the next run
 * starts). One process for all of them: starting one and loading the package cost more than
 * a run. It runs beside the tests of this process.
 */
function built(): Promise<Built> {
  const dist = (path: string) => JSON.stringify(new URL(`dist/${path}`, `file://${repo}`).href);
  const script = join(dir, 'run-built.mjs');
  writeFileSync(
    script,
    `import { readFileSync } from 'node:fs';
    import { normalizeTools } from ${dist('index.js')};
    import { validateRecordedFiles } from ${dist('checks/recorded-files.js')};
    const [toolsFile, file, runs] = process.argv.slice(2);
    const tools = normalizeTools(JSON.parse(readFileSync(toolsFile, 'utf8')));
    const out = {};
    for (const [name, opts] of Object.entries(JSON.parse(runs))) out[name] = await validateRecordedFiles(tools, [file], opts);
    process.stdout.write(JSON.stringify(out));
    `,
  );
  const withOptions = Object.fromEntries(Object.entries(runs).map(([name, run]) => [name, { ...options, chunkBytes: CHUNK, ...run }]));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, toolsFile, file, JSON.stringify(withOptions)], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`validateRecordedFiles failed (exit ${code}): ${Buffer.concat(err).toString('utf8')}`));
      else resolve(JSON.parse(Buffer.concat(out).toString('utf8')) as Built);
    });
  });
}
let fromBuilt: Promise<Built>;

async function reference(): Promise<Diagnostic[]> {
  return JSON.parse(JSON.stringify(await checkRecorded(tools, readRecordedCalls(file), options))) as Diagnostic[];
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'prompt-contract-parallel-'));
  file = join(dir, 'calls.jsonl');
  toolsFile = join(dir, 'tools.json');
  writeFileSync(file, generate());
  writeFileSync(toolsFile, JSON.stringify(rawTools));
  fromBuilt = built();
  // Awaited by the tests that read it; a failure is theirs, not an unhandled rejection.
  fromBuilt.catch(() => undefined);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('splitAtLines', () => {
  test('cuts after a newline, covers the file, and numbers each range from the lines before it', async () => {
    const ranges: LineRange[] = [];
    for await (const range of splitAtLines(file, CHUNK)) ranges.push(range);
    const bytes = readFileSync(file);
    expect(ranges.length).toBeGreaterThanOrEqual(10);
    expect(ranges[0]!.start).toBe(0);
    expect(ranges.at(-1)!.end).toBe(bytes.length);
    const text = bytes.toString('utf8');
    for (let i = 1; i < ranges.length; i++) {
      expect(ranges[i]!.start).toBe(ranges[i - 1]!.end);
      expect(bytes[ranges[i]!.start - 1]).toBe(0x0a);
      const before = text.slice(0, ranges[i]!.start);
      expect(ranges[i]!.firstLine).toBe((before.match(/\r\n|\n|\r/g) ?? []).length + 1);
    }
    // The generated edge cases sit right at the cuts: the line before some cut is corrupt or invalid.
    const nearCut = ranges.slice(1).filter((r) => /cut_|Z-|999999/.test(text.slice(Math.max(0, r.start - 400), r.start + 200)));
    expect(nearCut.length).toBeGreaterThan(3);
  });

  test('gives no range for an empty file and one range for a file smaller than the target', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const none: LineRange[] = [];
    for await (const range of splitAtLines(empty, CHUNK)) none.push(range);
    expect(none).toEqual([]);
    const small = join(dir, 'small.jsonl');
    writeFileSync(small, '{"name":"a","arguments":{}}\n{"name":"b","arguments":{}}');
    const one: LineRange[] = [];
    for await (const range of splitAtLines(small, CHUNK)) one.push(range);
    expect(one).toEqual([{ start: 0, end: 55, firstLine: 1 }]);
  });
});

describe('forEachLine', () => {
  test('reads the lines node:readline reads, with the same numbers, whole or range by range, as readRecordedCalls does', async () => {
    const tricky = join(dir, 'tricky.jsonl');
    const long = 'x'.repeat(3000);
    writeFileSync(
      tricky,
      Buffer.concat([
        Buffer.from('\ufeff{"name":"a","arguments":{}}\r\n\n   \n{"name":"b","arguments":{"s":"é€😀"}}\r{"name":"c","arguments":{}}\n'),
        Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]),
        Buffer.from(`{"name":"d","arguments":{"long":"${long}"}}\r\n\r\n{"name":"e","arguments":{}}`),
      ]),
    );
    const { parseRecordedLine } = await import('../../src/sources/jsonl.js');
    // The reference is node:readline, which both readers follow (readRecordedCalls shares forEachLine's splitter).
    const expected: Array<[string, number]> = [];
    const { createInterface } = await import('node:readline');
    const { createReadStream } = await import('node:fs');
    let n = 0;
    for await (const raw of createInterface({ input: createReadStream(tricky, { encoding: 'utf8' }), crlfDelay: Infinity })) {
      n++;
      const text = n === 1 && raw.startsWith('\ufeff') ? raw.slice(1) : raw;
      if (/^\s*$/.test(text)) continue;
      for (const item of parseRecordedLine(text, { source: tricky, line: n }) as RecordedItem[]) {
        expected.push(['corrupt' in item ? `corrupt ${item.message}` : `${item.name} ${JSON.stringify(item.arguments)}`, n]);
      }
    }
    const streamed: Array<[string, number]> = [];
    for await (const item of readRecordedCalls(tricky)) {
      streamed.push(['corrupt' in item ? `corrupt ${item.message}` : `${item.name} ${JSON.stringify(item.arguments)}`, item.where.line!]);
    }
    expect(streamed).toEqual(expected);
    const read = async (target?: number, bufferBytes?: number): Promise<Array<[string, number]>> => {
      const out: Array<[string, number]> = [];
      const collect = (text: string, line: number) => {
        for (const item of parseRecordedLine(text, { source: tricky, line }) as RecordedItem[]) {
          out.push(['corrupt' in item ? `corrupt ${item.message}` : `${item.name} ${JSON.stringify(item.arguments)}`, line]);
        }
      };
      if (target === undefined) await forEachLine(tricky, undefined, collect, bufferBytes);
      else for await (const range of splitAtLines(tricky, target)) await forEachLine(tricky, range, collect, bufferBytes);
      return out;
    };
    expect(expected.length).toBe(6);
    expect(await read()).toEqual(expected);
    for (const target of [1, 7, 40, 100, 5000]) expect(await read(target)).toEqual(expected);
    // Reads that cut lines, `\r\n` pairs, multi-byte characters and a line longer than the buffer.
    for (const bufferBytes of [1, 2, 3, 5, 64, 1000]) {
      expect(await read(undefined, bufferBytes)).toEqual(expected);
      expect(await read(40, bufferBytes)).toEqual(expected);
    }
  });
});

describe('validateRecordedFiles over worker threads', () => {
  test('2 workers and 1 thread give identical diagnostics, equal to the streaming reader', async () => {
    const expected = await reference();
    const { one, two } = await fromBuilt;
    expect(two).toEqual(one);
    expect(one).toEqual(expected);
    // The comparison means something: every kind of finding, witnesses named by line, lines near the cuts.
    const rules = new Set(expected.map((d) => d.ruleId));
    expect([...rules].sort()).toEqual(['recorded/corrupt', 'recorded/invalid', 'recorded/unknown-tool']);
    const invalid = expected.filter((d) => d.ruleId === 'recorded/invalid');
    const byLine = invalid.flatMap((d) => d.witnesses ?? []).filter((w) => /:\d+$/.test(w.id));
    expect(byLine.length).toBeGreaterThan(20);
    expect(expected.filter((d) => d.ruleId === 'recorded/corrupt').length).toBeGreaterThan(10);
  }, 60_000);

  test('witness caps and counts survive the merge', async () => {
    const { cappedOne: one, cappedThree: three } = await fromBuilt;
    expect(three).toEqual(one);
    expect(one.find((d) => d.ruleId === 'recorded/invalid')?.witnesses).toHaveLength(2);
    expect(one.filter((d) => d.ruleId === 'recorded/corrupt' && d.line !== undefined)).toHaveLength(3);
  }, 60_000);
});
