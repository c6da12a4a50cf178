// Issue #25 (hostile re-test): the default cache folder, `node_modules/.cache/prompt-contract`,
// reached through a symbolic link that leads outside the project, was read and written
// through: the check cache and the handler-type cache wrote their files in a folder that was
// not the project's, and would have trusted a cache file planted there. The run now keeps no
// cache, says so once, and reports what a cold run reports; a folder named in
// PROMPT_CONTRACT_CACHE_DIR is the user's choice and is used.
import { afterEach, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheRoot } from '../../src/util/cache-folder.js';
import { cli, stableDemoCopy } from '../cli/helpers.js';

const env = { PROMPT_CONTRACT_CACHE_DIR: '' };
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const clean of cleanups.splice(0)) clean();
});

function outsideFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pc-outside-cache-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function demo(name: string) {
  const d = stableDemoCopy(name);
  cleanups.push(d.remove);
  // A finding a cached run must keep reporting.
  d.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
  return d;
}

test.each([
  ['`node_modules/.cache`', (project: string, outside: string) => {
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(outside, join(project, 'node_modules', '.cache'));
  }],
  ['`node_modules/.cache/prompt-contract`', (project: string, outside: string) => {
    mkdirSync(join(project, 'node_modules', '.cache'), { recursive: true });
    symlinkSync(outside, join(project, 'node_modules', '.cache', 'prompt-contract'));
  }],
  ['a dangling `node_modules/.cache/prompt-contract`', (project: string, outside: string) => {
    mkdirSync(join(project, 'node_modules', '.cache'), { recursive: true });
    symlinkSync(join(outside, 'not-yet'), join(project, 'node_modules', '.cache', 'prompt-contract'));
  }],
])('%s linked outside the project: nothing is written there, twice the findings of a cold run', (_what, plant) => {
  const d = demo('cache-link');
  const outside = outsideFolder();
  plant(d.dir, outside);
  const cold = cli(['check', '--no-cache', '--format', 'json'], { cwd: d.dir, env });
  expect(cold.code).toBe(1);
  for (let run = 0; run < 2; run++) {
    const r = cli(['check', '--format', 'json'], { cwd: d.dir, env });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: cold.code, stdout: cold.stdout });
    expect(r.stderr).toMatch(/prompt-contract: not using the cache folder `.*node_modules\/\.cache\/prompt-contract`: it leads to `.*`, outside `.*`; running without a cache/);
  }
  expect(readdirSync(outside)).toEqual([]);
});

test('a cache folder inside the project, or one the environment names, is used as before', () => {
  const d = demo('cache-inside');
  const named = outsideFolder();
  mkdirSync(join(d.dir, 'node_modules'));
  expect(cacheRoot(d.dir, {})).toBe(join(d.dir, 'node_modules', '.cache', 'prompt-contract'));
  expect(cacheRoot(join(d.dir, 'prompts'), {})).toBe(join(d.dir, 'node_modules', '.cache', 'prompt-contract'));
  expect(cacheRoot(d.dir, { PROMPT_CONTRACT_CACHE_DIR: named })).toBe(named);
  const r = cli(['check'], { cwd: d.dir, env });
  expect(r.code).toBe(1);
  expect(r.stderr).toBe('');
  expect(readdirSync(join(d.dir, 'node_modules', '.cache', 'prompt-contract')).some((f) => f.startsWith('check-'))).toBe(true);
  const viaEnv = cli(['check'], { cwd: d.dir, env: { PROMPT_CONTRACT_CACHE_DIR: named } });
  expect(viaEnv.code).toBe(1);
  expect(readdirSync(named).some((f) => f.startsWith('check-'))).toBe(true);
});
