import { checkExamples } from '../../src/checks/examples.js';
import { snapshotFindings } from '../../src/checks/run.js';
import type { SnapshotResult } from '../../src/snapshot/state.js';
import { ruleFamilies, allRules } from '../../src/report/registry.js';
import { report } from '../../src/report/rule.js';
import type { ToolSpec } from '../../src/tools/types.js';

describe('every finding says what to do', () => {
  // compat findings get their fix from the change (test/compat/rules.test.ts), snapshot findings from the comparison (below).
  const general = allRules.filter((r) => r.severity === 'error' && !['compat', 'snapshot'].includes(r.id.split('/')[0]!));
  test.each(general.map((r) => [r.id, r] as const))('%s carries a fix', (_id, rule) => {
    const fix = report(rule, { message: 'x' }).fix;
    expect(fix).toEqual(expect.any(String));
    // Our grammar: an instruction, one sentence, no trailing period.
    expect(fix).toMatch(/^[A-Z`]/);
    expect(fix!.length).toBeLessThan(200);
  });

  test('a rule whose docs section has a fix carries one, warnings and infos too', () => {
    for (const family of ['example', 'handler', 'recorded', 'persisted', 'provider']) {
      for (const rule of Object.values(ruleFamilies[family]!)) expect([rule.id, rule.fix]).toEqual([rule.id, expect.any(String)]);
    }
  });

  test('snapshot findings say how to accept or restore a snapshot', () => {
    const found = [
      ...snapshotFindings({ status: 'missing', file: 's.md' } as SnapshotResult, { prompt: 'p', case: 'c' }),
      ...snapshotFindings({ status: 'mismatch', file: 's.md', diff: '-a\n+b' } as SnapshotResult, { prompt: 'p', case: 'c' }),
    ];
    expect(found.map((d) => [d.ruleId, d.severity, typeof d.fix])).toEqual([
      ['snapshot/missing', 'error', 'string'],
      ['snapshot/outdated', 'error', 'string'],
    ]);
  });

  test('example/invalid-arguments has a fix', () => {
    const tool: ToolSpec = { name: 'get_weather', inputSchema: { type: 'object', properties: { days: { type: 'integer', maximum: 14 } } }, origin: { shape: 'plain' } };
    const [d] = checkExamples([{ name: 'get_weather', arguments: { days: 30 }, notation: 'json', line: 1, column: 1, range: { start: 0, end: 10 } } as never], [tool]);
    expect(d).toMatchObject({ ruleId: 'example/invalid-arguments', fix: expect.stringMatching(/^Update the example/) });
    // A check that knows the specific fix says it instead of the rule's.
    const rule = allRules.find((r) => r.id === 'example/unknown-tool')!;
    expect(report(rule, { message: 'x', fix: 'Rename the call to `multiply`' }).fix).toBe('Rename the call to `multiply`');
  });
});
