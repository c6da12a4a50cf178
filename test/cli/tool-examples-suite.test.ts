import { addJestSuite, cliInProcess, demoCopy, lineOf, report, runJestAsync } from './helpers.js';

// The demo's update_shipping_address sends an input example. Broken, it fails the Jest
// suite's one test for tool-level examples, and `check` reports the same finding. (The
// snapshots of the cases that send the tool fail too: they show the example as sent.)

test('a demo input example the schema rejects fails "tool-level examples fit their schemas" and check, at its line in prompts/tools/index.ts', async () => {
  const demo = demoCopy();
  try {
    demo.edit('prompts/tools/index.ts', "country: 'GB' } } }]", "country: 'gb' } } }]");
    addJestSuite(demo.dir);
    const line = lineOf(demo.read('prompts/tools/index.ts'), 'inputExamples: [');
    const [suite, check] = await Promise.all([runJestAsync(demo.dir, ['--ci'], { CI: 'true' }), cliInProcess(['check', '--format', 'json'], { cwd: demo.dir })]);
    expect(suite.code).toBe(1);
    expect(suite.out).toMatch(/✕ tool-level examples fit their schemas/);
    expect(suite.out).toMatch(new RegExp(`prompts/tools/index\\.ts\\s+${line}:\\d+ +error +\\[update_shipping_address\\]`));
    expect(suite.out).toContain('`inputExamples[0]` of tool `update_shipping_address`');
    const found = (report(check).diagnostics as Array<{ ruleId: string; file?: string; line?: number; instancePath?: string }>).filter((d) => d.ruleId.startsWith('example/'));
    expect(found).toEqual([expect.objectContaining({ ruleId: 'example/invalid-arguments', file: 'prompts/tools/index.ts', line, instancePath: '/address/country' })]);
  } finally {
    demo.remove();
  }
});
