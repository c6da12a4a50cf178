import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addJestSuite, cli, demoCopy, runJest } from './helpers.js';

// `-u` accepts wording, never a breaking tool change: that takes a policy entry with a reason,
// and in a pull-request job the base branch's baseline is what counts.

const tighten = (demo: ReturnType<typeof demoCopy>): void =>
  demo.edit('prompts/tools/index.ts', 'amount_cents: z.number().int().min(1).max(100_000)', 'amount_cents: z.number().int().min(1).max(80_000)');

function git(dir: string, args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

test('-u with a breaking change fails and leaves the baseline as it was; a reasoned policy entry accepts it', () => {
  const demo = demoCopy();
  try {
    addJestSuite(demo.dir);
    const before = demo.read('snapshots/tools.json');
    tighten(demo);
    const update = runJest(demo.dir, ['--ci=false', '-u'], { CI: '' });
    expect(update.code).toBe(1);
    expect(update.out).toContain('compat/maximum-decreased');
    expect(update.out).toContain('`-u` alone does not accept them');
    expect(update.out).toContain('It was not rewritten');
    expect(demo.read('snapshots/tools.json')).toBe(before);

    writeFileSync(join(demo.dir, 'policy.yaml'), 'ignore:\n  - rule: compat/maximum-decreased\n    tool: create_refund\n    path: /amount_cents\n    reason: Refunds above £800 go to a human from now on (approved in #7).\n');
    demo.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  policy: 'policy.yaml',");
    const accepted = runJest(demo.dir, ['--ci=false', '-u'], { CI: '' });
    expect(accepted.code).toBe(0);
    expect(demo.read('snapshots/tools.json')).not.toBe(before);
    expect(demo.read('snapshots/tools.json')).toContain('"maximum": 80000');
  } finally {
    demo.remove();
  }
});

test('in a pull-request job the base branch baseline is used, so a rewritten tools.json cannot hide a break', () => {
  const demo = demoCopy();
  try {
    addJestSuite(demo.dir);
    git(demo.dir, ['init', '--quiet', '--initial-branch', 'main']);
    git(demo.dir, ['add', '-A']);
    git(demo.dir, ['commit', '--quiet', '-m', 'base']);
    git(demo.dir, ['update-ref', 'refs/remotes/origin/main', 'HEAD']);
    tighten(demo);
    // The pull request rewrote the working tree's baseline along with the break.
    const policy = join(demo.dir, 'policy.yaml');
    writeFileSync(policy, 'ignore:\n  - rule: compat/maximum-decreased\n    tool: create_refund\n    path: /amount_cents\n    reason: temporary, to rewrite the baseline\n');
    demo.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  policy: 'policy.yaml',");
    expect(runJest(demo.dir, ['--ci=false', '-u'], { CI: '' }).code).toBe(0);
    writeFileSync(policy, 'ignore: []\n');

    const local = runJest(demo.dir, ['--ci'], { CI: 'true' });
    expect(local.code).toBe(0);
    const pr = runJest(demo.dir, ['--ci'], { CI: 'true', GITHUB_BASE_REF: 'main' });
    expect(pr.code).toBe(1);
    expect(pr.out).toContain('compat/maximum-decreased');
    expect(pr.out).toContain('at `origin/main`');
    const check = cli(['check', '--format', 'json'], { cwd: demo.dir, env: { GITHUB_BASE_REF: 'main' } });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('compat/maximum-decreased');
    // A base branch the clone does not have is named, with how to fetch it.
    const shallow = cli(['check'], { cwd: demo.dir, env: { GITHUB_BASE_REF: 'release' } });
    expect(shallow.code).toBe(2);
    expect(shallow.stderr).toContain('(from GITHUB_BASE_REF)');
    expect(shallow.stderr).toContain('fetch-depth: 0');
  } finally {
    demo.remove();
  }
});
