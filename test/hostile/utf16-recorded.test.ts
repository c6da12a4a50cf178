// Windows PowerShell's `>` writes UTF-16. A recorded-calls file written so was read as UTF-8: one
// `recorded/corrupt` warning a line, no call checked, exit 0; on standard input, `extract` found
// no example. Every reader refuses it, names the file and the encoding, and exits 2.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateRecordedFiles } from '../../src/checks/recorded-files.js';
import { readRecordedCalls } from '../../src/sources/jsonl.js';
import { cli } from '../cli/helpers.js';

const utf16le = (text: string, bom = true) => Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => Buffer.from(utf16le(text).map((_, i, b) => b[i ^ 1]!));

const tools = [{ name: 'lookup', input_schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }];
const calls = `${Array.from({ length: 40 }, (_, i) => JSON.stringify({ name: 'lookup', arguments: { n: i } })).join('\n')}\n${JSON.stringify({ name: 'lookup', arguments: { n: 'x' } })}\n`;
const encodings = [
  ['UTF-16 LE with a byte order mark', utf16le(calls)],
  ['UTF-16 BE with a byte order mark', utf16be(calls)],
  ['UTF-16 LE without one', utf16le(calls, false)],
] as const;
const named = /calls\.jsonl.*it is UTF-16 text, not UTF-8: save it as UTF-8/;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pc-utf16-recorded-'));
  writeFileSync(join(dir, 'tools.json'), JSON.stringify(tools));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a UTF-16 recorded-calls file', () => {
  test.each(encodings)('%s stops `validate` with exit 2, naming the file and the encoding', (_what, bytes) => {
    writeFileSync(join(dir, 'calls.jsonl'), bytes);
    const result = cli(['validate', 'tools.json', 'calls.jsonl'], { cwd: dir });
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(named);
    expect(result.stderr).toContain('(recorded/unreadable)');
    expect(result.code).toBe(2);
  });

  test('is refused by worker threads too, and by the JSON report', () => {
    writeFileSync(join(dir, 'calls.jsonl'), utf16le(calls));
    const result = cli(['validate', 'tools.json', 'calls.jsonl', '--format', 'json'], { cwd: dir, env: { PROMPT_CONTRACT_WORKERS: '2' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(named);
    expect(JSON.parse(result.stdout)).toMatchObject({ diagnostics: [{ ruleId: 'recorded/unreadable', file: 'calls.jsonl' }] });
  });

  test('is refused by every shard, the stream reader and the splitter alike', async () => {
    const file = join(dir, 'calls.jsonl');
    writeFileSync(file, utf16le(calls));
    const unreadable = expect.objectContaining({ code: 'recorded/unreadable', message: expect.stringMatching(named) });
    for (const index of [1, 2]) await expect(validateRecordedFiles(tools.map((t) => ({ name: t.name, inputSchema: t.input_schema })) as never, [file], { shard: { index, total: 2 } })).rejects.toEqual(unreadable);
    await expect((async () => {
      for await (const _item of readRecordedCalls(file)) void _item;
    })()).rejects.toEqual(unreadable);
  });

  test('UTF-8 with a byte order mark is read as before', () => {
    writeFileSync(join(dir, 'calls.jsonl'), `\ufeff${calls}`);
    const result = cli(['validate', 'tools.json', 'calls.jsonl', '--format', 'json'], { cwd: dir });
    expect(result.code).toBe(1);
    expect((JSON.parse(result.stdout) as { diagnostics: Array<{ ruleId: string }> }).diagnostics.map((d) => d.ruleId)).toEqual(['recorded/invalid']);
  });
});

describe('other UTF-16 input', () => {
  test('`extract -` refuses UTF-16 on standard input with exit 2', () => {
    const result = cli(['extract', '-'], { cwd: dir, input: utf16le('<tool_call>{"name": "lookup", "arguments": {"n": 1}}</tool_call>\n') as unknown as string });
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/<stdin>: Cannot read standard input \(it is UTF-16 text, not UTF-8: save it as UTF-8/);
    expect(result.code).toBe(2);
  });

  test('a UTF-16 tools file stops `validate` with exit 2', () => {
    writeFileSync(join(dir, 'calls.jsonl'), calls);
    writeFileSync(join(dir, 'tools16.json'), utf16le(JSON.stringify(tools)));
    const result = cli(['validate', 'tools16.json', 'calls.jsonl'], { cwd: dir });
    expect(result.stderr).toMatch(/tools16\.json: Cannot read the tools file \(it is UTF-16 text, not UTF-8/);
    expect(result.code).toBe(2);
  });
});
