import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliAsync, JestBatch, type Demo, type JestBatchRun } from './helpers.js';

// `-u` accepts wording, never a breaking tool change: that takes a policy entry with a reason,
// and in a pull-request job the base branch's baseline is what counts.
// Both projects share Jest runs where their steps agree (see JestBatch).

const tighten = (demo: Demo): void =>
  demo.edit('prompts/tools/index.ts', 'amount_cents: z.number().int().min(1).max(100_000)', 'amount_cents: z.number().int().min(1).max(80_000)');

function git(dir: string, args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

let batch: JestBatch;
let breaking: Demo;
let pr: Demo;
let breakingBefore: string;
/** The first `--ci=false -u` run of both projects. */
let first: JestBatchRun;

beforeAll(async () => {
  batch = new JestBatch('jest-breaking');

  breaking = batch.project('breaking');
  breakingBefore = breaking.read('snapshots/tools.json');
  tighten(breaking);

  pr = batch.project('pull-request');
  git(pr.dir, ['init', '--quiet', '--initial-branch', 'main']);
  git(pr.dir, ['add', '-A']);
  git(pr.dir, ['commit', '--quiet', '-m', 'base']);
  git(pr.dir, ['update-ref', 'refs/remotes/origin/main', 'HEAD']);
  tighten(pr);
  // The pull request rewrote the working tree's baseline along with the break.
  writeFileSync(join(pr.dir, 'policy.yaml'), 'ignore:\n  - rule: compat/maximum-decreased\n    tool: create_refund\n    path: /amount_cents\n    reason: temporary, to rewrite the baseline\n');
  pr.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  policy: 'policy.yaml',");

  // Under -u Jest's exit code follows the failed tests alone, so each project's own is exact.
  first = await batch.run([breaking, pr], ['--ci=false', '-u'], { CI: '' });
}, 300_000);
afterAll(() => batch?.remove());

test('-u with a breaking change fails and leaves the baseline as it was; a reasoned policy entry accepts it', async () => {
  const update = first.of(breaking);
  expect(update.code).toBe(1);
  expect(update.out).toContain('compat/maximum-decreased');
  expect(update.out).toContain('`-u` alone does not accept them');
  expect(update.out).toContain('It was not rewritten');
  expect(breaking.read('snapshots/tools.json')).toBe(breakingBefore);

  writeFileSync(join(breaking.dir, 'policy.yaml'), 'ignore:\n  - rule: compat/maximum-decreased\n    tool: create_refund\n    path: /amount_cents\n    reason: Refunds above £800 go to a human from now on (approved in #7).\n');
  breaking.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  policy: 'policy.yaml',");
  const accepted = await batch.run([breaking], ['--ci=false', '-u'], { CI: '' });
  expect(accepted.code).toBe(0);
  expect(breaking.read('snapshots/tools.json')).not.toBe(breakingBefore);
  expect(breaking.read('snapshots/tools.json')).toContain('"maximum": 80000');
}, 120_000);

test('in a pull-request job the base branch baseline is used, so a rewritten tools.json cannot hide a break', async () => {
  expect(first.of(pr).code).toBe(0);
  writeFileSync(join(pr.dir, 'policy.yaml'), 'ignore: []\n');

  // The pull-request job and `check` run beside each other; nothing they run writes.
  const [local, job, check, shallow] = await Promise.all([
    batch.run([pr], ['--ci'], { CI: 'true' }),
    batch.run([pr], ['--ci'], { CI: 'true', GITHUB_BASE_REF: 'main' }),
    cliAsync(['check', '--format', 'json'], { cwd: pr.dir, env: { GITHUB_BASE_REF: 'main' } }),
    // A base branch the clone does not have is named, with how to fetch it.
    cliAsync(['check'], { cwd: pr.dir, env: { GITHUB_BASE_REF: 'release' } }),
  ]);
  expect(local.code).toBe(0);
  expect(job.code).toBe(1);
  expect(job.out).toContain('compat/maximum-decreased');
  expect(job.out).toContain('at `origin/main`');
  expect(check.code).toBe(1);
  expect(check.stdout).toContain('compat/maximum-decreased');
  expect(shallow.code).toBe(2);
  expect(shallow.stderr).toContain('(from GITHUB_BASE_REF)');
  expect(shallow.stderr).toContain('fetch-depth: 0');
}, 120_000);
