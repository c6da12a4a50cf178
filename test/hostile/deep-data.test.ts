import { describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliInProcess } from '../cli/helpers.js';

// A log line whose arguments nest ten thousand levels deep parses (JSON.parse does not
// recurse), fails its schema, and is then shown in the finding: JSON.stringify of it ran out
// of stack and the whole run stopped with "the input nests too deeply", naming no file.

const tools = [{ name: 'f', input_schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } }];
const deep = (levels: number): string => `{"name":"f","arguments":{"a":${'['.repeat(levels)}${']'.repeat(levels)}}}`;

describe('a recorded call nested deeper than the stack', () => {
  test.each(['pretty', 'json', 'github', 'markdown'])('is a finding at its line, shown cut short, in the %s report', async (format) => {
    const dir = mkdtempSync(join(tmpdir(), 'prompt-contract-deep-'));
    try {
      writeFileSync(join(dir, 'tools.json'), JSON.stringify(tools));
      writeFileSync(join(dir, 'calls.jsonl'), `${deep(10_000)}\n{"name":"f","arguments":{"a":"ok"}}\n`);
      const r = await cliInProcess(['validate', 'tools.json', 'calls.jsonl', '--format', format], { cwd: dir });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('recorded/invalid');
      expect(r.stdout).toMatch(/calls\.jsonl.*1/);
      // The value beside the finding is a preview, not ten thousand brackets.
      expect(r.stdout.length).toBeLessThan(5_000);
      if (format === 'json') {
        const report = JSON.parse(r.stdout) as { diagnostics: Array<{ ruleId: string; line?: number; witnesses?: Array<{ value?: unknown }> }> };
        const [d] = report.diagnostics;
        expect(d).toMatchObject({ ruleId: 'recorded/invalid' });
        expect(d!.witnesses![0]!.value).toMatch(/^\[\[\[\[.*\.\.\.$/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a small offending value is still given as it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prompt-contract-deep-'));
    try {
      writeFileSync(join(dir, 'tools.json'), JSON.stringify(tools));
      writeFileSync(join(dir, 'calls.jsonl'), '{"name":"f","arguments":{"a":[1,{"b":2}]}}\n');
      const r = await cliInProcess(['validate', 'tools.json', 'calls.jsonl', '--format', 'json'], { cwd: dir });
      const report = JSON.parse(r.stdout) as { diagnostics: Array<{ witnesses?: Array<{ value?: unknown }> }> };
      expect(report.diagnostics[0]!.witnesses![0]!.value).toEqual([1, { b: 2 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
