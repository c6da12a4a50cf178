import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliInProcess, JestBatch, type Demo, type JestBatchRun } from './helpers.js';

// `-u` accepts wording, never a breaking tool change: that takes a policy entry with a reason,
// and in a pull-request job the base branch's baseline is what counts.
// The projects share Jest runs where their steps agree (see JestBatch); `check` runs in this
// process (see cliInProcess).

const tighten = (demo: Demo): void =>
  demo.edit('prompts/tools/index.ts', 'amount_cents: z.number().int().min(1).max(100_000)', 'amount_cents: z.number().int().min(1).max(80_000)');

function git(dir: string, args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

/** A pull request that tightens a bound and rewrites the working tree's baseline along with it, the base branch at `origin/main`. */
function pullRequest(name: string): Demo {
  const demo = batch.project(name);
  git(demo.dir, ['init', '--quiet', '--initial-branch', 'main']);
  git(demo.dir, ['add', '-A']);
  git(demo.dir, ['commit', '--quiet', '-m', 'base']);
  git(demo.dir, ['update-ref', 'refs/remotes/origin/main', 'HEAD']);
  tighten(demo);
  // The pull request rewrote the working tree's baseline along with the break.
  writeFileSync(join(demo.dir, 'policy.yaml'), 'ignore:\n  - rule: compat/maximum-decreased\n    tool: create_refund\n    path: /amount_cents\n    reason: temporary, to rewrite the baseline\n');
  demo.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  policy: 'policy.yaml',");
  return demo;
}

let batch: JestBatch;
let breaking: Demo;
/** The pull request, twice: as a local run sees it, and as its CI job does (`GITHUB_BASE_REF`). */
let pr: Demo;
let prJob: Demo;
let breakingBefore: string;
/** The first `--ci=false -u` run of the projects. */
let first: JestBatchRun;

beforeAll(async () => {
  batch = new JestBatch('jest-breaking');

  breaking = batch.project('breaking');
  breakingBefore = breaking.read('snapshots/tools.json');
  tighten(breaking);

  pr = pullRequest('pull-request');
  prJob = pullRequest('pull-request-job');

  // Under -u Jest's exit code follows the failed tests alone, so each project's own is exact.
  first = await batch.run([breaking, pr, prJob], ['--ci=false', '-u'], { CI: '' });
}, 300_000);
afterAll(() => batch?.remove());

test('-u with a breaking change fails and leaves the baseline as it was; a reasoned policy entry accepts it', async () => {
  const update = first.of(breaking);
  expect(update.code).toBe(1);
  expect(update.out).toContain('compat/maximum-decreased');
  expect(update.out).toContain('`-u` alone does not accept them');
  expect(update.out).toContain('It is not rewritten while the breaking changes above stand, under `-u` too');
  // Nothing says that `-u` would accept it.
  expect(update.out).not.toContain('If the change is intended, run your test command with `-u` and commit the updated snapshot');
  expect(breaking.read('snapshots/tools.json')).toBe(breakingBefore);

  writeFileSync(join(breaking.dir, 'policy.yaml'), 'ignore:\n  - rule: compat/maximum-decreased\n    tool: create_refund\n    path: /amount_cents\n    reason: Refunds above £800 go to a human from now on (approved in #7).\n');
  breaking.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  policy: 'policy.yaml',");
  const accepted = await batch.run([breaking], ['--ci=false', '-u'], { CI: '' });
  expect(accepted.code).toBe(0);
  expect(breaking.read('snapshots/tools.json')).not.toBe(breakingBefore);
  expect(breaking.read('snapshots/tools.json')).toContain('"maximum": 80000');
}, 120_000);

test('in a pull-request job the base branch baseline is used, so a rewritten tools.json cannot hide a break', async () => {
  for (const demo of [pr, prJob]) {
    expect(first.of(demo).code).toBe(0);
    writeFileSync(join(demo.dir, 'policy.yaml'), 'ignore: []\n');
  }

  // The local run and the pull-request job (`prJob` alone has GITHUB_BASE_REF) in one Jest run,
  // and `check` beside it; nothing they run writes.
  const jobs = batch.run([pr, prJob], ['--ci'], { CI: 'true' }, [[prJob, { GITHUB_BASE_REF: 'main' }]]);
  jobs.catch(() => undefined); // awaited below
  const check = await cliInProcess(['check', '--format', 'json'], { cwd: pr.dir, env: { GITHUB_BASE_REF: 'main' } });
  // A base branch the clone does not have is named, with how to fetch it.
  const shallow = await cliInProcess(['check'], { cwd: pr.dir, env: { GITHUB_BASE_REF: 'release' } });
  const ran = await jobs;
  const local = ran.of(pr);
  const job = ran.of(prJob);
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
