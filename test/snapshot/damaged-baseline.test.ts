// A tools baseline cut short (a disk filled mid-write by another tool, a merge gone wrong) was
// called "not written by prompt-contract", and `-u` refused to touch it: it is ours, outdated.
import { expect, test } from '@jest/globals';
import { cliInProcess as cli, withDemo } from '../cli/helpers.js';

test('check reports a cut-short tools.json as outdated, with the diff; diff says there is nothing to compare with', () =>
  withDemo(async (demo) => {
    demo.write('snapshots/tools.json', demo.read('snapshots/tools.json').slice(0, 500));
    const r = await cli(['check', '--no-cache', '--format', 'json'], { cwd: demo.dir });
    expect(r.code).toBe(1);
    const findings = (JSON.parse(r.stdout) as { diagnostics: Array<{ ruleId: string; file: string; message: string }> }).diagnostics;
    expect(findings.map((d) => [d.ruleId, d.file])).toEqual([['snapshot/outdated', 'snapshots/tools.json']]);
    expect(findings[0]!.message).not.toContain('not written by prompt-contract');
    const diff = await cli(['diff'], { cwd: demo.dir });
    expect(diff.code).toBe(2);
    expect(diff.stderr).toContain('No tools baseline to compare with (missing, cut short, or not written by prompt-contract)');
  }));

test('a tools.json or a case snapshot cut inside a character is outdated too, not unreadable', () =>
  withDemo(async (demo) => {
    const { readFileSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    for (const file of ['snapshots/tools.json', 'snapshots/refund_agent/standard_refund.txt']) {
      const bytes = readFileSync(join(demo.dir, file));
      // Cut after the first byte of the first character outside ASCII, or add a lone lead byte at the end.
      const at = bytes.findIndex((b) => b >= 0xc2);
      writeFileSync(join(demo.dir, file), at > 0 ? bytes.subarray(0, at + 1) : Buffer.concat([bytes, Buffer.from([0xe2])]));
    }
    const r = await cli(['check', '--no-cache', '--format', 'json'], { cwd: demo.dir });
    expect(r.code).toBe(1);
    const findings = (JSON.parse(r.stdout) as { diagnostics: Array<{ ruleId: string; file: string }> }).diagnostics;
    expect(findings.map((d) => [d.ruleId, d.file]).sort()).toEqual([
      ['snapshot/outdated', 'snapshots/refund_agent/standard_refund.txt'],
      ['snapshot/outdated', 'snapshots/tools.json'],
    ]);
  }));
