import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { addJestSuite, JestBatch, runJestAsync, stableDemoCopy, type Demo, type JestBatchRun } from './helpers.js';

// The contract suite as a user runs it: Jest in a project of its own, with --ci and -u.
// The projects of the --ci runs share one Jest process (see JestBatch); the local run is Jest
// started in its project folder on its config alone, exactly as a user starts it.

let batch: JestBatch;
let snapshots: Demo;
let template: Demo;
let wording: Demo;
let ci: JestBatchRun;
let local: { code: number; out: string };
let wordingBefore: string;
let opened: number;
let closed: number;

beforeAll(async () => {
  batch = new JestBatch('jest-suite');

  snapshots = batch.project('snapshots');
  const missing = join(snapshots.dir, 'snapshots/refund_agent/legacy_order.txt');
  snapshots.write('snapshots/refund_agent/renamed.txt', snapshots.read('snapshots/refund_agent/legacy_order.txt'));
  snapshots.write('snapshots/refund_agent/legacy_order.txt', '');
  spawnSync('rm', [missing]);

  template = batch.project('template');
  template.edit('prompts/refund_agent.prompt', '{{#each examples}}', '{{#each examples}}{{#if title}}');
  const lines = template.read('prompts/refund_agent.prompt').split('\n');
  opened = lines.findIndex((l) => l.includes('{{#if title}}')) + 1;
  closed = lines.findIndex((l, i) => i >= opened && l.startsWith('{{/each}}')) + 1;

  wording = stableDemoCopy('jest-suite-local');
  addJestSuite(wording.dir);
  wordingBefore = wording.read('snapshots/order_triage/cancellation.txt');
  wording.edit('prompts/order_triage.prompt', 'cannot be cancelled or re-addressed', 'can no longer be cancelled or re-addressed');

  // The local run needs no other: it runs beside the batch, on the other core.
  // `-u` as well: on CI it must write nothing either (issue #25, item 19).
  [ci, local] = await Promise.all([batch.run([snapshots, template], ['--ci', '-u'], { CI: 'true' }), runJestAsync(wording.dir, [], { CI: 'false' })]);
}, 300_000);
afterAll(() => {
  batch?.remove();
  wording?.remove();
});

test('CI never writes, not even with -u: a missing snapshot and an obsolete one fail the run; -u writes and removes them locally', async () => {
  const missing = join(snapshots.dir, 'snapshots/refund_agent/legacy_order.txt');
  const obsolete = join(snapshots.dir, 'snapshots/refund_agent/renamed.txt');
  const run = ci.of(snapshots);
  expect(run.code).toBe(1);
  expect(run.out).toContain('Snapshots are not written on CI (the `CI` environment variable is set)');
  expect(run.out).not.toMatch(/snapshots? written/);
  expect(run.out).toContain('has no snapshot, and none was written');
  expect(run.out).toContain('snapshots/refund_agent/renamed.txt');
  expect(run.out).toContain('snapshot/obsolete');
  expect(existsSync(missing)).toBe(false);
  expect(existsSync(obsolete)).toBe(true);

  // This project alone: the summary line is its own.
  const update = await batch.run([snapshots], ['-u'], { CI: 'false' });
  expect(update.code).toBe(0);
  expect(update.of(snapshots).code).toBe(0);
  expect(update.out).toMatch(/1 snapshot written/);
  expect(update.out).toContain('prompt-contract: removed 1 obsolete snapshot: snapshots/refund_agent/renamed.txt');
  expect(existsSync(missing)).toBe(true);
  expect(existsSync(obsolete)).toBe(false);
}, 120_000);

test('a wording change fails a local run with its line diff and leaves the snapshot alone', () => {
  expect(local.code).toBe(1);
  expect(local.out).toMatch(/-Orders that have shipped cannot be cancelled or re-addressed/);
  expect(local.out).toMatch(/\+Orders that have shipped can no longer be cancelled or re-addressed/);
  expect(local.out).toContain("test command with `-u`");
  expect(wording.read('snapshots/order_triage/cancellation.txt')).toBe(wordingBefore);
});

test('a template that cannot compile fails the suite at its file, line and column, with the lines around it', () => {
  const run = ci.of(template);
  expect(run.code).toBe(1);
  expect(run.out).toContain(`prompts/refund_agent.prompt:${closed}:1: \`{{/each}}\` closes \`{{#if title}}\`, opened at line ${opened}; expected \`{{/if}}\` before it (render/syntax)`);
  expect(run.out).toMatch(new RegExp(`> ${closed} \\| \\{\\{/each\\}\\}`));
});
