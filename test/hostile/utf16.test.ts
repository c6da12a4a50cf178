// Windows PowerShell's `>` writes UTF-16. Read as UTF-8, such a file is NULs and mojibake, and
// the parser's complaint ("null byte is not allowed", "unexpected text") misleads: say what it is.
import { expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readToolsFile } from '../../src/project.js';
import { readRegularFileSync } from '../../src/util/files.js';
import { cli, withDemo } from '../cli/helpers.js';

const utf16le = (text: string, bom = true) => Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => Buffer.from(utf16le(text).map((_, i, b) => b[i ^ 1]!));

test('UTF-16 with either byte order mark, or without one, is named; UTF-8 with NULs further in is read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pc-utf16-'));
  try {
    const text = '[{"name": "t", "input_schema": {"type": "object"}}]';
    for (const [_what, bytes] of [['LE with a BOM', utf16le(text)], ['BE with a BOM', utf16be(text)], ['LE without a BOM', utf16le(text, false)]] as const) {
      const file = join(dir, 'tools.json');
      writeFileSync(file, bytes);
      expect(() => readToolsFile(file, 'tools.json')).toThrow(expect.objectContaining({ code: 'config/unreadable', file: 'tools.json', message: expect.stringContaining('it is UTF-16 text, not UTF-8: save it as UTF-8') }));
    }
    writeFileSync(join(dir, 'ok.txt'), 'plain text\u0000 with a NUL later on');
    expect(readRegularFileSync(join(dir, 'ok.txt'))).toBe('plain text\u0000 with a NUL later on');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a UTF-16 YAML case file stops check with exit 2 naming the file and the encoding', () =>
  withDemo((demo) => {
    demo.write('prompts/cases/order_triage.yaml', utf16le(demo.read('prompts/cases/order_triage.yaml')) as unknown as string);
    const r = cli(['check', '--no-cache'], { cwd: demo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/prompts\/cases\/order_triage\.yaml: Cannot read file \(it is UTF-16 text, not UTF-8: save it as UTF-8/);
  }));
