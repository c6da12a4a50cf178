import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateRecordedFiles } from '../../src/checks/recorded-files.js';
import { forEachLine, splitAtLines } from '../../src/sources/chunks.js';
import { readRecordedCalls } from '../../src/sources/jsonl.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import { cliInProcess } from '../cli/helpers.js';
import { runs } from '../helpers/runs.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pc-lines-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tools = normalizeTools([{ name: 't', input_schema: { type: 'object', properties: { s: { type: 'string', maxLength: 5 } } } }]);

describe('a very long line', () => {
  test('is read in time linear in its length (joined once, not at every read)', async () => {
    // 4 MB read 2 KiB at a time: joining the line at every read copied about 4 GB; holding the
    // pieces and joining once copies the line once. Bytes copied, not seconds: the figure does
    // not depend on how loaded the machine is (the bench measures time).
    const file = join(dir, 'long.jsonl');
    writeFileSync(file, `{"name":"t","arguments":{"blob":"${'x'.repeat(4_000_000)}"}}\n{"name":"t","arguments":{"s":"after"}}\n`);
    const seen: Array<[number, number]> = [];
    const concat = Buffer.concat;
    let copied = 0;
    const spy = jest.spyOn(Buffer, 'concat').mockImplementation((list, total) => {
      const out = concat(list, total);
      copied += out.length;
      return out;
    });
    try {
      await forEachLine(file, undefined, (text, line) => seen.push([line, text.length]), 2048);
    } finally {
      spy.mockRestore();
    }
    expect(seen).toEqual([[1, 4_000_036], [2, 38]]);
    expect(copied).toBeGreaterThan(0);
    expect(copied).toBeLessThan(3 * 4_000_036);
  });

  test('over the cap is reported at its file and line, and the lines after it are still read and numbered', async () => {
    const file = join(dir, 'capped.jsonl');
    const long = `{"name":"t","arguments":{"blob":"${'y'.repeat(1000)}"}}`;
    writeFileSync(file, ['{"name":"t","arguments":{"s":"ok"}}', long, '{"name":"t","arguments":{"s":"too long a value"}}', '', long, '{"name":"t","arguments":{}}'].join('\n'));
    const findings = await validateRecordedFiles(tools, [file], { workers: 1, maxLineBytes: 200 });
    expect(findings.map((f) => [f.ruleId, f.line, f.actual])).toEqual([
      ['recorded/invalid', 3, undefined],
      ['recorded/line-too-long', 2, Buffer.byteLength(long)],
      ['recorded/line-too-long', 5, Buffer.byteLength(long)],
    ]);
    expect(findings[1]).toMatchObject({ severity: 'warning', file, message: `Line 2 is ${Buffer.byteLength(long).toLocaleString('en-US')} bytes long, over the limit of 200 bytes; expected a tool call of at most that size (the line was not read, the lines after it were)` });
    expect(findings[0]).toMatchObject({ total: 3, witnessCount: 1 });
    // The streaming reader agrees.
    const items = [];
    for await (const item of readRecordedCalls(file, { maxLineBytes: 200 })) items.push(['corrupt' in item ? `too long ${item.tooLong}` : item.name, item.where.line]);
    expect(items).toEqual([['t', 1], [`too long ${Buffer.byteLength(long)}`, 2], ['t', 3], [`too long ${Buffer.byteLength(long)}`, 5], ['t', 6]]);
  });

  // The variable is read by `main`, which the binary runs as well: the CLI runs in this process (see cliInProcess).
  test('the cap of `validate` comes from PROMPT_CONTRACT_MAX_LINE_BYTES; a bad value cannot run', async () => {
    const calls = join(dir, 'env.jsonl');
    writeFileSync(calls, `{"name":"t","arguments":{"blob":"${'z'.repeat(500)}"}}\n{"name":"t","arguments":{"s":"too long a value"}}\n`);
    writeFileSync(join(dir, 'tools.json'), JSON.stringify(tools.map((t) => ({ name: t.name, input_schema: t.inputSchema }))));
    const cli = (env: string) => cliInProcess(['validate', 'tools.json', 'env.jsonl', '--format', 'json'], { cwd: dir, env: { PROMPT_CONTRACT_MAX_LINE_BYTES: env } });
    const capped = await cli('100');
    expect(capped.code).toBe(1);
    expect((JSON.parse(capped.stdout) as { diagnostics: Array<{ ruleId: string; line: number }> }).diagnostics.map((d) => [d.ruleId, d.line]).sort()).toEqual([['recorded/invalid', 2], ['recorded/line-too-long', 1]]);
    const bad = await cli('lots');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/PROMPT_CONTRACT_MAX_LINE_BYTES="lots"; expected a whole number of bytes/);
  });
});

// Lines of every kind (short, long, multi-byte, blank), ended every way, read in reads of
// every size, with a cap: what the reader reports must be what splitting the text says.
const piece = fc.oneof(
  fc.constantFrom('{}', '{"a":1}', '   ', '', 'é€😀', '\ufeff{}'),
  fc.integer({ min: 1, max: 60 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1, max: 30 }).map((n) => 'é'.repeat(n)),
);
const ending = fc.constantFrom('\n', '\r\n', '\r');

function reference(text: string, cap: number): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    const line = i + 1;
    const content = line === 1 && raw.startsWith('\ufeff') && Buffer.byteLength(raw) <= cap ? raw.slice(1) : raw;
    if (Buffer.byteLength(raw) > cap) out.push([`too long ${Buffer.byteLength(raw)}`, line]);
    else if (!/^\s*$/.test(content)) out.push([content, line]);
  });
  return out;
}

test('forEachLine reports each line, or its length when over the cap, exactly as splitting the text does', async () => {
  const file = join(dir, 'random.jsonl');
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(piece, ending), { maxLength: 12 }), fc.boolean(), fc.integer({ min: 1, max: 70 }), fc.integer({ min: 1, max: 80 }), async (lines, endsWithLineEnd, bufferBytes, cap) => {
      let text = lines.map(([p, e]) => p + e).join('');
      if (!endsWithLineEnd && lines.length > 0) text = text.slice(0, -lines[lines.length - 1]![1].length);
      writeFileSync(file, text);
      const got: Array<[string, number]> = [];
      const options = { bufferBytes, maxLineBytes: cap, onTooLong: (line: number, bytes: number) => got.push([`too long ${bytes}`, line]) };
      await forEachLine(file, undefined, (t, line) => got.push([t, line]), options);
      const want = reference(text, cap);
      expect({ text, bufferBytes, cap, got }).toEqual({ text, bufferBytes, cap, got: want });
      // Range by range (as worker threads read) gives the same.
      const ranged: Array<[string, number]> = [];
      for await (const range of splitAtLines(file, 7)) await forEachLine(file, range, (t, line) => ranged.push([t, line]), { ...options, onTooLong: (line, bytes) => ranged.push([`too long ${bytes}`, line]) });
      expect({ text, bufferBytes, cap, ranged }).toEqual({ text, bufferBytes, cap, ranged: want });
    }),
    { numRuns: runs(400) },
  );
  // 400 files written and read twice: about a second alone, several on a loaded CI machine.
}, 30_000);
