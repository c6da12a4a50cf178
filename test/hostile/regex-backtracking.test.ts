import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkExamples } from '../../src/checks/examples.js';
import { validateRecordedFiles } from '../../src/checks/recorded-files.js';
import { SchemaCompiler } from '../../src/schema/validator.js';
import type { ToolCallExample } from '../../src/extract/types.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import { repo } from '../cli/helpers.js';

// `^(a+)+$` backtracks exponentially on a run of `a`s that ends in something else: on a
// backtracking engine 29 characters took 1.1 s here, each more nearly doubles it, and 36 take minutes.
const evil = '^(a+)+$';
const tools = normalizeTools([{ name: 'tag', input_schema: { type: 'object', properties: { code: { type: 'string', pattern: evil, maxLength: 100 } }, required: ['code'] } }]);

function ms(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function example(args: unknown): ToolCallExample {
  return { name: 'tag', arguments: args, notation: 'fenced-json', line: 1, column: 1, range: { start: 0, end: 1 } };
}

describe('a schema pattern with catastrophic backtracking', () => {
  test('rejects a hostile value at once, and still accepts a matching one', () => {
    const validate = new SchemaCompiler().compile(tools[0]!.inputSchema);
    let valid = true;
    // 31 characters: about 4 s on a backtracking engine (measured 1.1 s at 29, doubling every 1-2 characters).
    expect(ms(() => (valid = validate({ code: `${'a'.repeat(30)}!` })))).toBeLessThan(500);
    expect(valid).toBe(false);
    expect(validate({ code: 'aaaa' })).toBe(true);
    // Much longer values stay fast: the engine is linear in the input.
    expect(ms(() => (valid = validate({ code: `${'a'.repeat(99)}!` })))).toBeLessThan(500);
    expect(valid).toBe(false);
  });

  test('an example with a hostile value is reported as invalid, quickly', () => {
    let findings: ReturnType<typeof checkExamples> = [];
    expect(ms(() => (findings = checkExamples([example({ code: `${'a'.repeat(30)}!` })], tools)))).toBeLessThan(500);
    expect(findings).toEqual([expect.objectContaining({ ruleId: 'example/invalid-arguments', instancePath: '/code', schemaPath: '#/properties/code/pattern' })]);
  });

  test('recorded calls with hostile values are validated in linear time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-regex-'));
    try {
      const file = join(dir, 'calls.jsonl');
      writeFileSync(file, `${JSON.stringify({ name: 'tag', arguments: { code: `${'a'.repeat(30)}!` } })}\n${JSON.stringify({ name: 'tag', arguments: { code: 'aaa' } })}\n`);
      const start = Date.now();
      const findings = await validateRecordedFiles(tools, [file], { workers: 1 });
      expect(Date.now() - start).toBeLessThan(1000);
      expect(findings).toEqual([expect.objectContaining({ ruleId: 'recorded/invalid', witnessCount: 1, total: 2, line: 1 })]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('`validate` with a 36-character hostile value exits 1 within seconds (the old engine never finished)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-regex-cli-'));
    try {
      writeFileSync(join(dir, 'tools.json'), JSON.stringify([{ name: 'tag', input_schema: { type: 'object', properties: { code: { type: 'string', pattern: evil } } } }]));
      writeFileSync(join(dir, 'calls.jsonl'), `${JSON.stringify({ name: 'tag', arguments: { code: `${'a'.repeat(35)}!` } })}\n`);
      const result = spawnSync(process.execPath, [join(repo, 'dist', 'cli.js'), 'validate', 'tools.json', 'calls.jsonl', '--format', 'json'], { cwd: dir, encoding: 'utf8', timeout: 8000 });
      expect(result.signal).toBeNull();
      expect(result.status).toBe(1);
      const report = JSON.parse(result.stdout) as { diagnostics: Array<{ ruleId: string; instancePath?: string }> };
      expect(report.diagnostics).toEqual([expect.objectContaining({ ruleId: 'recorded/invalid', instancePath: '/code' })]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
