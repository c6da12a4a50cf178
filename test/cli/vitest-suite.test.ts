import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoCopy, repo } from './helpers.js';

// prompt-contract/vitest: the same suite and the same snapshot semantics as under Jest.

function vitest(dir: string, args: string[], env: NodeJS.ProcessEnv): { code: number; out: string } {
  const r = spawnSync(process.execPath, [join(repo, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
  });
  return { code: r.status ?? -1, out: `${r.stdout}\n${r.stderr}` };
}

function project() {
  const demo = demoCopy();
  mkdirSync(join(demo.dir, 'test'), { recursive: true });
  writeFileSync(join(demo.dir, 'test', 'prompts.test.mjs'), "import { contractSuite } from 'prompt-contract/vitest';\n\nawait contractSuite();\n");
  return demo;
}

test('under CI nothing is written and a missing or obsolete snapshot fails; -u writes and removes; then CI passes', () => {
  const demo = project();
  try {
    const missing = join(demo.dir, 'snapshots/refund_agent/legacy_order.txt');
    const obsolete = join(demo.dir, 'snapshots/refund_agent/retired.txt');
    demo.write('snapshots/refund_agent/retired.txt', demo.read('snapshots/refund_agent/legacy_order.txt'));
    spawnSync('rm', [missing]);

    const ci = vitest(demo.dir, [], { CI: 'true' });
    expect(ci.code).toBe(1);
    expect(ci.out).toContain('has no snapshot, and none was written');
    expect(ci.out).toContain('snapshot/obsolete');
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(obsolete)).toBe(true);

    const update = vitest(demo.dir, ['-u'], { CI: '' });
    expect(update.code).toBe(0);
    expect(update.out).toMatch(/Snapshots\s+1 written/);
    expect(existsSync(missing)).toBe(true);
    expect(existsSync(obsolete)).toBe(false);

    expect(vitest(demo.dir, [], { CI: 'true' }).code).toBe(0);
  } finally {
    demo.remove();
  }
});

test('a stale example fails the run, named at its YAML line', () => {
  const demo = project();
  try {
    demo.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
    const line = demo.read('prompts/examples/refund_agent.yaml').split('\n').findIndex((l) => l.includes('amount_cents: 420000')) + 1;
    const r = vitest(demo.dir, [], { CI: 'true' });
    expect(r.code).toBe(1);
    expect(r.out).toContain('every curated example and retrieval-stub entry fits the current schemas');
    expect(r.out).toContain('prompts/examples/refund_agent.yaml');
    expect(r.out).toMatch(new RegExp(`\\n\\s+${line}:\\d+\\s+error`));
    expect(r.out).toContain('example/invalid-arguments');
  } finally {
    demo.remove();
  }
});
