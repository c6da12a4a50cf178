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
import { regexRuns, regexRunsAsync } from './regex-steps.js';

// `^(a+)+$` backtracks exponentially on a run of `a`s that ends in something else: on a
// backtracking engine 29 characters took 1.1 s here, each more nearly doubles it, and 36 take minutes.
const evil = '^(a+)+$';
const tools = normalizeTools([{ name: 'tag', input_schema: { type: 'object', properties: { code: { type: 'string', pattern: evil, maxLength: 100 } }, required: ['code'] } }]);

// What shows the hostile value was not handed to a backtracking engine is the searches made,
// not the time taken: every native RegExp search goes through `exec`, which `regexRuns`
// records, so none may be of this pattern. The in-process values are kept short (26
// characters), so a backtracking engine answers them in about a second and the test fails
// instead of hanging; the CLI below gets one that would take hours.
const hostile = `${'a'.repeat(25)}!`;
const ofEvil = (runs: ReturnType<typeof regexRuns>) => runs.filter((run) => run.source === evil).map((run) => run.input);

function example(args: unknown): ToolCallExample {
  return { name: 'tag', arguments: args, notation: 'fenced-json', line: 1, column: 1, range: { start: 0, end: 1 } };
}

describe('a schema pattern with catastrophic backtracking', () => {
  test('rejects a hostile value without a backtracking search, and still accepts a matching one', () => {
    const validate = new SchemaCompiler().compile(tools[0]!.inputSchema);
    let valid = true;
    expect(ofEvil(regexRuns(() => (valid = validate({ code: hostile }))))).toEqual([]);
    expect(valid).toBe(false);
    expect(validate({ code: 'aaaa' })).toBe(true);
    // Much longer values too: the engine is linear in the input.
    expect(ofEvil(regexRuns(() => (valid = validate({ code: `${'a'.repeat(99)}!` }))))).toEqual([]);
    expect(valid).toBe(false);
  });

  test('an example with a hostile value is reported as invalid, without a backtracking search', () => {
    let findings: ReturnType<typeof checkExamples> = [];
    expect(ofEvil(regexRuns(() => (findings = checkExamples([example({ code: hostile })], tools))))).toEqual([]);
    expect(findings).toEqual([expect.objectContaining({ ruleId: 'example/invalid-arguments', instancePath: '/code', schemaPath: '#/properties/code/pattern' })]);
  });

  test('recorded calls with hostile values are validated without a backtracking search', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-regex-'));
    try {
      const file = join(dir, 'calls.jsonl');
      writeFileSync(file, `${JSON.stringify({ name: 'tag', arguments: { code: hostile } })}\n${JSON.stringify({ name: 'tag', arguments: { code: 'aaa' } })}\n`);
      let findings: Awaited<ReturnType<typeof validateRecordedFiles>> = [];
      // One worker: validation runs in this thread, where the searches are recorded.
      expect(ofEvil(await regexRunsAsync(async () => (findings = await validateRecordedFiles(tools, [file], { workers: 1 }))))).toEqual([]);
      expect(findings).toEqual([expect.objectContaining({ ruleId: 'recorded/invalid', witnessCount: 1, total: 2, line: 1 })]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // No time bound but the one for a hang: the CLI is killed after 60 s on a machine however
  // loaded (it takes well under a second), where the old engine ran for hours.
  test('`validate` with a 36-character hostile value exits 1 with the finding (the old engine never finished)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-regex-cli-'));
    try {
      writeFileSync(join(dir, 'tools.json'), JSON.stringify([{ name: 'tag', input_schema: { type: 'object', properties: { code: { type: 'string', pattern: evil } } } }]));
      writeFileSync(join(dir, 'calls.jsonl'), `${JSON.stringify({ name: 'tag', arguments: { code: `${'a'.repeat(35)}!` } })}\n`);
      const result = spawnSync(process.execPath, [join(repo, 'dist', 'cli.js'), 'validate', 'tools.json', 'calls.jsonl', '--format', 'json'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
      expect(result.signal).toBeNull();
      expect(result.status).toBe(1);
      const report = JSON.parse(result.stdout) as { diagnostics: Array<{ ruleId: string; instancePath?: string }> };
      expect(report.diagnostics).toEqual([expect.objectContaining({ ruleId: 'recorded/invalid', instancePath: '/code' })]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
