// Issue #25 (hostile re-test): UTF-32 input was half-read (its NULs and characters read as
// UTF-8 text), and UTF-32 with a little-endian byte order mark was called UTF-16, whose mark
// begins the same way. Every reader names UTF-32 and refuses it, as it does UTF-16.
import { describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readToolsFile } from '../../src/project.js';
import { wideEncoding } from '../../src/util/files.js';
import { cli } from '../cli/helpers.js';

const utf32le = (text: string, bom = true): Buffer => {
  const points = [...(bom ? '\ufeff' : ''), ...text].map((c) => c.codePointAt(0)!);
  const out = Buffer.alloc(points.length * 4);
  points.forEach((p, i) => out.writeUInt32LE(p, i * 4));
  return out;
};
const utf32be = (text: string, bom = true): Buffer => {
  const le = utf32le(text, bom);
  const out = Buffer.alloc(le.length);
  for (let i = 0; i < le.length; i += 4) out.writeUInt32BE(le.readUInt32LE(i), i);
  return out;
};
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

describe('wideEncoding', () => {
  test.each([
    ['UTF-32 LE with a mark', utf32le('{"a": 1}'), 'UTF-32'],
    ['UTF-32 BE with a mark', utf32be('{"a": 1}'), 'UTF-32'],
    ['UTF-32 LE without one', utf32le('{"a": 1}', false), 'UTF-32'],
    ['UTF-32 BE without one', utf32be('{"a": 1}', false), 'UTF-32'],
    ['UTF-16 LE with a mark', utf16le('{"a": 1}'), 'UTF-16'],
    ['UTF-16 LE without a mark', Buffer.from('{"a": 1}', 'utf16le'), 'UTF-16'],
    // FF FE 00 00 is both; Unicode's table of byte order marks reads it as UTF-32.
    ['a mark of FF FE 00 00', utf16le('\u0000abc'), 'UTF-32'],
    ['UTF-8', Buffer.from('{"a": 1}'), undefined],
    ['UTF-8 with a mark', Buffer.from('\ufeff{"a": 1}'), undefined],
    ['UTF-8 with NULs after the first 8 bytes', Buffer.from('12345678\u0000\u0000\u0000'), undefined],
    ['two bytes', Buffer.from([0xff, 0xfe]), 'UTF-16'],
    ['nothing', Buffer.alloc(0), undefined],
  ])('%s', (_what, bytes, expected) => {
    expect(wideEncoding(bytes)).toBe(expected);
  });
});

test('a UTF-32 tools file, recorded-calls file and standard input are refused naming UTF-32, exit 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pc-utf32-'));
  try {
    const tools = '[{"name": "lookup", "input_schema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}]';
    for (const bytes of [utf32le(tools), utf32be(tools, false)]) {
      writeFileSync(join(dir, 'tools.json'), bytes);
      expect(() => readToolsFile(join(dir, 'tools.json'), 'tools.json')).toThrow(expect.objectContaining({ code: 'config/unreadable', message: expect.stringContaining('it is UTF-32 text, not UTF-8') }));
    }
    writeFileSync(join(dir, 'tools.json'), tools);
    const calls = `${JSON.stringify({ name: 'lookup', arguments: { n: 1 } })}\n${JSON.stringify({ name: 'lookup', arguments: { n: 'x' } })}\n`;
    writeFileSync(join(dir, 'calls.jsonl'), utf32le(calls));
    const validate = cli(['validate', 'tools.json', 'calls.jsonl'], { cwd: dir });
    expect(validate.stderr).toMatch(/calls\.jsonl.*it is UTF-32 text, not UTF-8.*\(recorded\/unreadable\)/);
    expect(validate.code).toBe(2);
    const extract = cli(['extract', '-'], { cwd: dir, input: utf32le('<tool_call>{"name": "lookup", "arguments": {"n": 1}}</tool_call>\n') as unknown as string });
    expect(extract.stdout).toBe('');
    expect(extract.stderr).toContain('it is UTF-32 text, not UTF-8');
    expect(extract.code).toBe(2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
