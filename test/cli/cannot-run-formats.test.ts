import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliInProcess as cli, report, withDemo } from './helpers.js';

// CI reads stdout in the format it asked for: a run that could not run must still say so there.
// The CLI runs in this process (see cliInProcess): its exit code is what `main` resolves to.

test('--format json prints a report holding the error, with its code as rule id', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'pc-no-config-'));
  try {
    const r = await cli(['check', '--format', 'json'], { cwd: empty });
    expect(r.code).toBe(2);
    const json = report(r);
    expect(json.diagnostics).toHaveLength(1);
    expect(json.diagnostics[0]).toMatchObject({ ruleId: 'config/missing', severity: 'error' });
    expect(json.summary.errors).toBe(1);
    expect(r.stderr).toContain('config/missing');
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test('--format github prints an annotation at the file and line of the error', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/cases/refund_agent.yaml', 'retrieval: legacy_orders', 'retrieval: [legacy_orders');
    const r = await cli(['check', '--format=github'], { cwd: demo.dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^::error file=prompts\/cases\/refund_agent\.yaml,line=\d+,col=\d+,title=config\/yaml-syntax::/);
  }));

test('the pretty format keeps stdout empty and the error on stderr', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/cases/refund_agent.yaml', 'retrieval: legacy_orders', 'retrieval: [legacy_orders');
    const r = await cli(['check'], { cwd: demo.dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('config/yaml-syntax');
  }));
