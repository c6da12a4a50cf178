import { expect, test } from '@jest/globals';
import { cliInProcess as cli, lineOf, report, withDemo } from './helpers.js';

// Issue 26, part 1: `check` says what it read, and what it could not, beside its findings.

test('check prints how many calls it read, in which notations, and that every call-like mention was read', () =>
  withDemo(async (demo) => {
    const r = await cli(['check', '--no-cache'], { cwd: demo.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Read \d+ tool calls in 9 cases in \d+ notations \([a-z-, ]+\); every call-like mention of a known tool was read\.\nNo problems found\.\n$/);
    // Machine-read formats carry findings only.
    const json = await cli(['check', '--no-cache', '--format', 'json'], { cwd: demo.dir });
    expect(json.stdout).not.toContain('example/coverage');
  }));

test('a call written in a form no notation reads is a warning at its line, counted in the line', () =>
  withDemo(async (demo) => {
    // An element with attributes: no built-in notation reads it, and it holds a stale argument.
    demo.edit('prompts/refund_agent.prompt', '## Examples', 'To look an order up, write <lookup_order>A-1042</lookup_order>.\n\n## Examples');
    const r = await cli(['check', '--no-cache'], { cwd: demo.dir });
    expect(r.stdout).toMatch(/^Read \d+ tool calls in 9 cases .*; 1 call-like mention of known tools not read \(example\/unread-call\)\.\n/);
    const line = lineOf(demo.read('prompts/refund_agent.prompt'), 'To look an order up');
    expect(r.stdout).toContain('prompts/refund_agent.prompt');
    expect(r.stdout).toMatch(new RegExp(`\\n  ${line}:\\d+\\s+warning\\s+\\[lookup_order\\] Unexpected call of \`lookup_order\` \\(an element named after it\\) that no notation read`));
    // A warning by default (the snapshots differ too: the line is new); the config's rules can make it an error.
    const severity = async (): Promise<string[]> => report(await cli(['check', '--no-cache', '--format', 'json'], { cwd: demo.dir })).diagnostics.filter((d) => d.ruleId === 'example/unread-call').map((d) => d.severity);
    expect(await severity()).toEqual(['warning']);
    demo.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  rules: { 'example/unread-call': 'error' },");
    expect(await severity()).toEqual(['error']);
  }));
