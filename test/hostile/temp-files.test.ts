import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replaceFile, temporaryName, writeNewFile } from '../../src/util/files.js';

// Issue #25, item 7: a temporary file is created, never followed. Before, `-u` and the check
// cache wrote `<file>.<pid>.tmp` with a plain write, which follows a symbolic link planted at
// that name: a file outside the project was overwritten with our text.

function scratch(): { dir: string; outside: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pc-tmp-'));
  const outside = join(mkdtempSync(join(tmpdir(), 'pc-victim-')), 'victim.txt');
  writeFileSync(outside, 'precious\n');
  return { dir, outside };
}

describe('temporary files', () => {
  test('a link planted at the name the old code used is left alone, and nothing outside is written', () => {
    const { dir, outside } = scratch();
    const file = join(dir, 'case.txt');
    const planted = `${file}.${process.pid}.tmp`;
    symlinkSync(outside, planted);
    replaceFile(file, 'snapshot text\n');
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
    expect(readFileSync(file, 'utf8')).toBe('snapshot text\n');
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    // The planted link is not ours to remove.
    expect(lstatSync(planted).isSymbolicLink()).toBe(true);
  });

  test('the temporary name is unpredictable: two writes of one file use different names', () => {
    const file = join(scratch().dir, 'case.txt');
    const a = temporaryName(file);
    const b = temporaryName(file);
    expect(a).not.toBe(b);
    expect(a.startsWith(`${file}.${process.pid}.`)).toBe(true);
    expect(a).toMatch(/\.[0-9a-f]{12}\.tmp$/);
  });

  test('an exclusive create refuses a link at its name, even a dangling one, and writes nothing through it', () => {
    const { dir, outside } = scratch();
    const at = join(dir, 'x.tmp');
    symlinkSync(outside, at);
    expect(() => writeNewFile(at, 'ours')).toThrow(/EEXIST/);
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
    const dangling = join(dir, 'y.tmp');
    symlinkSync(join(dir, 'nothing-here'), dangling);
    expect(() => writeNewFile(dangling, 'ours')).toThrow(/EEXIST/);
    expect(readdirSync(dir).sort()).toEqual(['x.tmp', 'y.tmp']);
  });

  test('a failed write leaves no temporary file of its own behind', () => {
    const { dir } = scratch();
    // A folder where the file belongs: the rename fails after the temporary file was written.
    const file = join(dir, 'taken');
    writeFileSync(join(dir, 'keep'), '');
    mkdirSync(join(file, 'inner'), { recursive: true });
    expect(() => replaceFile(file, 'text')).toThrow();
    expect(readdirSync(dir).sort()).toEqual(['keep', 'taken']);
  });
});
