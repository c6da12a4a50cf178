import { afterAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.js';

const dir = mkdtempSync(join(tmpdir(), 'pc-json-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a JSON config', () => {
  // Importing JSON without `with { type: 'json' }` draws a deprecation warning under Jest:
  // a JSON config never goes through the importer (Jest's loader, in src/jest.ts).
  test('is read and parsed, not imported, whatever importer is given', async () => {
    writeFileSync(join(dir, 'prompt-contract.config.json'), JSON.stringify({ tools: 'tools.json', recorded: ['calls.jsonl'], maxLineBytes: 4096 }));
    const imported: string[] = [];
    const config = await loadConfig({ cwd: dir, importer: async (file) => { imported.push(file); return {}; } });
    expect(imported).toEqual([]);
    expect(config).toMatchObject({ tools: 'tools.json', recorded: [join(dir, 'calls.jsonl')], maxLineBytes: 4096 });
  });

  test('invalid JSON is an InputError at its line and column', async () => {
    writeFileSync(join(dir, 'broken.json'), '{\n  "tools": "tools.json",\n  oops\n}\n');
    await expect(loadConfig({ cwd: dir, file: 'broken.json', importer: async () => ({ tools: [] }) })).rejects.toMatchObject({ code: 'config/json-syntax', line: 3, column: 3 });
  });

  test('a `maxLineBytes` that is not a whole number of bytes is refused', async () => {
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ tools: [], maxLineBytes: 0.5 }));
    await expect(loadConfig({ cwd: dir, file: 'bad.json' })).rejects.toMatchObject({ code: 'config/invalid', message: expect.stringContaining('maxLineBytes') });
  });
});
