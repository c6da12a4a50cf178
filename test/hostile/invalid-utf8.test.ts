// Bytes that are not UTF-8 (a Latin-1 file, a stray binary) used to decode to U+FFFD: `check`
// then showed `���` in a snapshot diff, and `-u` would have saved the replacement characters.
// Every input file and standard input is refused at the line and column of the first bad byte.
import { describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { utf8Text } from '../../src/util/files.js';
import { cli, withDemo } from '../cli/helpers.js';

const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe('utf8Text', () => {
  test('UTF-8 is decoded as it is, a U+FFFD written in it included', () => {
    for (const text of ['', 'plain', 'caf\u00e9 \u{1F600}\n\u2603', 'a real \uFFFD stays']) expect(utf8Text(Buffer.from(text))).toBe(text);
  });

  test.each<[string, Buffer, RegExp]>([
    ['a Latin-1 é on line 3', latin1('one\ntwo\nsay caf\u00e9 here\n'), /line 3, column 8 holds the byte 0xe9/],
    ['a bad byte after multi-byte characters on its line (columns count characters)', Buffer.concat([Buffer.from('\u00e9\u00e9 '), Buffer.from([0xff])]), /line 1, column 4 holds the byte 0xff/],
    ['a sequence cut short at the end', Buffer.concat([Buffer.from('ok\n'), Buffer.from([0xe2, 0x82])]), /line 2, column 1 holds the byte 0xe2/],
    ['an overlong encoding of `/`', Buffer.from([0x61, 0xc0, 0xaf]), /line 1, column 2 holds the byte 0xc0/],
    ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80]), /line 1, column 1 holds the byte 0xed/],
  ])('refused: %s', (_what, bytes, where) => {
    expect(() => utf8Text(bytes)).toThrow(where);
    expect(() => utf8Text(bytes)).toThrow(/it is not UTF-8 text: .*save the file as UTF-8/);
  });
});

test('extract refuses a Latin-1 file and standard input naming the place, exit 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pc-utf8-'));
  try {
    const prompt = latin1('Example:\n\n<tool_call>{"name": "lookup", "arguments": {"city": "Mal\u00f6"}}</tool_call>\n');
    writeFileSync(join(dir, 'prompt.txt'), prompt);
    const fromFile = cli(['extract', 'prompt.txt'], { cwd: dir });
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toMatch(/prompt\.txt.*it is not UTF-8 text: line 3, column 57 holds the byte 0xf6/);
    const fromStdin = cli(['extract', '-'], { cwd: dir, input: prompt as unknown as string });
    expect(fromStdin.code).toBe(2);
    expect(fromStdin.stderr).toMatch(/standard input \(it is not UTF-8 text: line 3, column 57/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check stops with exit 2 at a prompt holding a byte that is not UTF-8, and writes no snapshot', () =>
  withDemo((demo) => {
    const before = demo.read('snapshots/refund_agent/standard_refund.txt');
    const text = demo.read('prompts/refund_agent.prompt');
    const at = text.indexOf('\n', text.indexOf('---', 3) + 4) + 1;
    demo.write('prompts/refund_agent.prompt', Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xff]), Buffer.from(text.slice(at))]) as unknown as string);
    const line = text.slice(0, at).split('\n').length;
    for (const args of [['check', '--no-cache'], ['check']]) {
      const r = cli(args, { cwd: demo.dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`prompts/refund_agent.prompt`);
      expect(r.stderr).toContain(`it is not UTF-8 text: line ${line}, column 1 holds the byte 0xff`);
    }
    expect(demo.read('snapshots/refund_agent/standard_refund.txt')).toBe(before);
  }));
