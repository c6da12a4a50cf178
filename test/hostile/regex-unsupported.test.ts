import { describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkExamples } from '../../src/checks/examples.js';
import { checkPersisted } from '../../src/checks/persisted.js';
import { validateRecordedFiles } from '../../src/checks/recorded-files.js';
import type { ToolCallExample } from '../../src/extract/types.js';
import { SchemaCompiler } from '../../src/schema/validator.js';
import { normalizeTools } from '../../src/tools/normalize.js';

// Backreferences and lookaround need a backtracking engine; the linear one cannot run them.
// Validation skips that one keyword, says so, and checks everything else.
const tools = normalizeTools([
  {
    name: 'pair',
    input_schema: {
      type: 'object',
      properties: {
        twice: { type: 'string', pattern: '^(ab)\\1$', maxLength: 4 },
        code: { type: 'string', pattern: '^(?=A)[A-Z]-\\d{4}$' },
      },
      required: ['twice'],
    },
  },
]);

function example(args: unknown): ToolCallExample {
  return { name: 'pair', arguments: args, notation: 'fenced-json', line: 3, column: 1, range: { start: 10, end: 20 } };
}

describe('patterns the linear-time engine cannot run', () => {
  test('are listed by the compiled validator, with where they are written and why', () => {
    const validate = new SchemaCompiler().compile(tools[0]!.inputSchema);
    expect(validate.skippedPatterns).toEqual([
      { pattern: '^(ab)\\1$', schemaPath: '#/properties/twice/pattern', reason: expect.stringContaining('backreference') },
      { pattern: '^(?=A)[A-Z]-\\d{4}$', schemaPath: '#/properties/code/pattern', reason: expect.stringContaining('lookahead') },
    ]);
    // The other keywords are still checked.
    expect(validate.errors({ twice: 'abcdef' })).toEqual([expect.objectContaining({ keyword: 'maxLength', instancePath: '/twice' })]);
    expect(validate({ twice: 'wxyz', code: 'B-12' })).toBe(true);
  });

  test('an example is checked without them, and one warning per pattern says so', () => {
    const findings = checkExamples([example({ twice: 'abcdef' }), example({ twice: 'x' })], tools);
    expect(findings.filter((f) => f.ruleId === 'example/unsupported-pattern')).toEqual([
      expect.objectContaining({ severity: 'warning', tool: 'pair', schemaPath: '#/properties/twice/pattern', actual: '^(ab)\\1$', line: 3 }),
      expect.objectContaining({ severity: 'warning', tool: 'pair', schemaPath: '#/properties/code/pattern', actual: '^(?=A)[A-Z]-\\d{4}$' }),
    ]);
    expect(findings.find((f) => f.ruleId === 'example/unsupported-pattern')?.message).toMatch(/backreference.*linear-time regex engine; expected/);
    expect(findings.filter((f) => f.ruleId === 'example/invalid-arguments')).toEqual([expect.objectContaining({ instancePath: '/twice', schemaPath: '#/properties/twice/maxLength' })]);
  });

  test('recorded calls are validated without them, with one warning per pattern and the number of calls concerned', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-unsupported-'));
    try {
      const file = join(dir, 'calls.jsonl');
      writeFileSync(file, ['{"name":"pair","arguments":{"twice":"abab"}}', '{"name":"pair","arguments":{"twice":"zzzzzz"}}', ''].join('\n'));
      const findings = await validateRecordedFiles(tools, [file], { workers: 1 });
      expect(findings.filter((f) => f.ruleId === 'recorded/unsupported-pattern')).toEqual([
        expect.objectContaining({ severity: 'warning', tool: 'pair', schemaPath: '#/properties/twice/pattern', total: 2 }),
        expect.objectContaining({ severity: 'warning', tool: 'pair', schemaPath: '#/properties/code/pattern', total: 2 }),
      ]);
      expect(findings.filter((f) => f.ruleId === 'recorded/invalid')).toEqual([expect.objectContaining({ instancePath: '/twice', witnessCount: 1, line: 2 })]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('stored calls too: a warning per pattern, and the rest of the schema still checked', async () => {
    async function* rows() {
      yield { name: 'pair', arguments: { twice: 'abab' }, where: { source: 'store', row: '1' } };
      yield { name: 'pair', arguments: { twice: 'zzzzzz' }, where: { source: 'store', row: '2' } };
    }
    const findings = await checkPersisted(tools, rows(), new Map());
    expect(findings.filter((f) => f.ruleId === 'persisted/unsupported-pattern')).toEqual([
      expect.objectContaining({ severity: 'warning', tool: 'pair', schemaPath: '#/properties/twice/pattern', total: 2 }),
      expect.objectContaining({ severity: 'warning', tool: 'pair', schemaPath: '#/properties/code/pattern', total: 2 }),
    ]);
    expect(findings.filter((f) => f.ruleId === 'persisted/invalid')).toEqual([expect.objectContaining({ instancePath: '/twice', witnessCount: 1 })]);
  });
});
