import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoCopy, repo } from './helpers.js';

// The contract suite as a user runs it: Jest in a project of its own, with --ci and -u.

function jest(dir: string, args: string[], env: NodeJS.ProcessEnv): { code: number; out: string } {
  const result = spawnSync(process.execPath, ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', join(repo, 'node_modules/jest/bin/jest.js'), '--config', join(dir, 'jest.config.json'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
  });
  return { code: result.status ?? -1, out: `${result.stdout}\n${result.stderr}` };
}

function project() {
  const demo = demoCopy();
  mkdirSync(join(demo.dir, 'test'), { recursive: true });
  writeFileSync(join(demo.dir, 'test', 'prompts.test.ts'), "import { contractSuite } from 'prompt-contract/jest';\n\nawait contractSuite();\n");
  writeFileSync(join(demo.dir, 'jest.config.json'), JSON.stringify({
    rootDir: demo.dir,
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts'],
    roots: ['<rootDir>/test'],
    moduleNameMapper: {
      '^prompt-contract$': join(repo, 'src/index.ts'),
      '^prompt-contract/jest$': join(repo, 'src/jest.ts'),
      '^(\\.{1,2}/.*)\\.js$': '$1',
    },
    transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: join(repo, 'tsconfig.json') }] },
  }));
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
    expect(ci.out).toContain('Obsolete snapshot files');
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
    expect(run.out).toContain('Jest command with `-u`');
    expect(demo.read('snapshots/order_triage/cancellation.txt')).toBe(before);
  } finally {
    demo.remove();
  }
});
