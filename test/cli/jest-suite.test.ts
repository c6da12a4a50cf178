import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { addJestSuite, demoCopy, runJest as jest } from './helpers.js';

// The contract suite as a user runs it: Jest in a project of its own, with --ci and -u.

function project() {
  const demo = demoCopy();
  addJestSuite(demo.dir);
  return demo;
}

test('--ci never writes: a missing snapshot and an obsolete one fail the run; -u writes and removes them', () => {
  const demo = project();
  try {
    const missing = join(demo.dir, 'snapshots/refund_agent/legacy_order.txt');
    const obsolete = join(demo.dir, 'snapshots/refund_agent/renamed.txt');
    demo.write('snapshots/refund_agent/renamed.txt', demo.read('snapshots/refund_agent/legacy_order.txt'));
    demo.write('snapshots/refund_agent/legacy_order.txt', '');
    spawnSync('rm', [missing]);

    const ci = jest(demo.dir, ['--ci'], { CI: 'true' });
    expect(ci.code).toBe(1);
    expect(ci.out).toContain('has no snapshot, and none was written');
    expect(ci.out).toContain('snapshots/refund_agent/renamed.txt');
    expect(ci.out).toContain('snapshot/obsolete');
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(obsolete)).toBe(true);

    const update = jest(demo.dir, ['-u'], { CI: 'false' });
    expect(update.code).toBe(0);
    expect(update.out).toMatch(/1 snapshot written/);
    expect(existsSync(missing)).toBe(true);
    expect(existsSync(obsolete)).toBe(false);
  } finally {
    demo.remove();
  }
});

test('a wording change fails a local run with its line diff and leaves the snapshot alone', () => {
  const demo = project();
  try {
    const before = demo.read('snapshots/order_triage/cancellation.txt');
    demo.edit('prompts/order_triage.prompt', 'cannot be cancelled or re-addressed', 'can no longer be cancelled or re-addressed');
    const run = jest(demo.dir, [], { CI: 'false' });
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/-Orders that have shipped cannot be cancelled or re-addressed/);
    expect(run.out).toMatch(/\+Orders that have shipped can no longer be cancelled or re-addressed/);
    expect(run.out).toContain("test command with `-u`");
    expect(demo.read('snapshots/order_triage/cancellation.txt')).toBe(before);
  } finally {
    demo.remove();
  }
});

test('a template that cannot compile fails the suite at its file, line and column, with the lines around it', () => {
  const demo = project();
  try {
    demo.edit('prompts/refund_agent.prompt', '{{#each examples}}', '{{#each examples}}{{#if title}}');
    const lines = demo.read('prompts/refund_agent.prompt').split('\n');
    const opened = lines.findIndex((l) => l.includes('{{#if title}}')) + 1;
    const closed = lines.findIndex((l, i) => i >= opened && l.startsWith('{{/each}}')) + 1;
    const run = jest(demo.dir, ['--ci'], { CI: 'true' });
    expect(run.code).toBe(1);
    expect(run.out).toContain(`prompts/refund_agent.prompt:${closed}:1: \`{{/each}}\` closes \`{{#if title}}\`, opened at line ${opened}; expected \`{{/if}}\` before it (render/syntax)`);
    expect(run.out).toMatch(new RegExp(`> ${closed} \\| \\{\\{/each\\}\\}`));
  } finally {
    demo.remove();
  }
});
