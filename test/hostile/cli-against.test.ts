import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cliInProcess as cli, report, withDemo } from '../cli/helpers.js';

// Issue #10, item 8: `--against` is a git revision, never an option for git. Before the fix,
// `--against '--output=FILE'` reached `git show` as an option and git wrote FILE.
// The CLI runs in this process (see cliInProcess); git runs as the binary runs it.

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' };

test('an --against that looks like an option exits 2 and git writes nothing', () =>
  withDemo(async (demo) => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: demo.dir, stdio: 'pipe', env: gitEnv });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'baseline');
    // `git show --output=OUT:./snapshots/tools.json` writes there when the folder exists: make it exist.
    const out = join(demo.dir, 'out');
    mkdirSync(join(demo.dir, 'out:.', 'snapshots'), { recursive: true });
    const written = (): string[] => readdirSync(join(demo.dir, 'out:.', 'snapshots'));

    for (const args of [
      ['check', `--against=--output=${out}`],
      ['check', '--against', `--output=${out}`],
      ['diff', `--against=--output=${out}`],
      ['check', '--against=-p'],
    ]) {
      const result = await cli(args, { cwd: demo.dir });
      expect(result.code).toBe(2);
      expect(written()).toEqual([]);
      expect(existsSync(out)).toBe(false);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^prompt-contract: Unexpected --against "-.*": expected a git revision such as `main`, `v1\.2\.0` or `HEAD~1`, which never starts with `-` \(usage\)\n$/);
    }

    // Revisions still work, and one that does not exist is named.
    const head = await cli(['check', '--against', 'HEAD~0', '--format', 'json'], { cwd: demo.dir });
    expect(head.code).toBe(0);
    expect(report(head).diagnostics).toEqual([]);
    const unknown = await cli(['check', '--against', 'no-such-branch'], { cwd: demo.dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Cannot find the git revision `no-such-branch` (from --against)');
  }));
