// The command line starts from its CommonJS bundle with V8's code cache (src/util/code-cache.ts,
// src/cli.ts). The cache must help and never change a result: data V8 refuses (corrupt, from
// another build) is compiled anew and replaced, a changed file gets a cache of its own, and the
// loaded file is the one `require` hands out afterwards (the config's `import 'prompt-contract'`).
import { afterEach, expect, test } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadWithCodeCache } from '../../src/util/code-cache.js';
import { cli, repo, stableDemoCopy } from '../cli/helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const clean of cleanups.splice(0)) clean();
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pc-code-cache-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A CommonJS file with enough functions that V8 keeps code for them; `answer()` says which version it is. */
function module(dir: string, version: number): string {
  const file = join(dir, 'lib.cjs');
  const helpers = Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x * ${i} + ${version}; }`).join('\n');
  writeFileSync(file, `${helpers}\nexports.answer = () => f7(6) - 42;\nexports.self = module;\n`);
  return file;
}

/**
 * Loads `file` in a new process, as the command line does (V8 keeps what a process compiled in
 * memory and would take that over any cache file), and saves the cache: whether V8 took the
 * cache file, and what the module answers.
 */
function loadInChild(file: string, folder: string | undefined): { cached: boolean; answer: number; same: boolean } {
  const script = `const { loadWithCodeCache } = await import(${JSON.stringify(join(repo, 'dist', 'util', 'code-cache.js'))});
const loaded = loadWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(folder)});
loaded.save();
const { createRequire } = await import('node:module');
const same = createRequire(${JSON.stringify(file)})(${JSON.stringify(file)}) === loaded.exports;
process.stdout.write(JSON.stringify({ cached: loaded.cached, answer: loaded.exports.answer(), same }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as { cached: boolean; answer: number; same: boolean };
}

const cacheFiles = (folder: string): string[] => readdirSync(folder).filter((f) => f.endsWith('.v8'));

test('the first load writes a cache the second load takes; a later `require` of the file gets the loaded module', () => {
  const dir = scratch();
  const file = module(dir, 1);
  const folder = join(dir, 'cache');
  expect(loadInChild(file, folder)).toEqual({ cached: false, answer: 1, same: true });
  const [name] = cacheFiles(folder);
  expect(name).toMatch(/^lib\.cjs-[0-9a-f]{24}\.v8$/);
  expect(statSync(join(folder, name!)).mode & 0o777).toBe(0o600);
  expect(loadInChild(file, folder)).toEqual({ cached: true, answer: 1, same: true });

});

test('a corrupt cache file is refused by V8, compiled anew and replaced', () => {
  const dir = scratch();
  const file = module(dir, 2);
  const folder = join(dir, 'cache');
  loadInChild(file, folder);
  const [name] = cacheFiles(folder);
  writeFileSync(join(folder, name!), Buffer.alloc(4096, 0x5a));
  expect(loadInChild(file, folder)).toEqual({ cached: false, answer: 2, same: true });
  expect(readFileSync(join(folder, name!)).equals(Buffer.alloc(4096, 0x5a))).toBe(false);
  expect(loadInChild(file, folder)).toEqual({ cached: true, answer: 2, same: true });
});

test('a changed file gets its own cache, and the old one is removed', () => {
  const dir = scratch();
  const folder = join(dir, 'cache');
  const file = module(dir, 3);
  expect(loadInChild(file, folder)).toEqual({ cached: false, answer: 3, same: true });
  const [before] = cacheFiles(folder);
  // Same length, other text: V8 checks only the length, so the name must change with the file.
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll('+ 3', '+ 4'));
  utimesSync(file, new Date(), new Date(Date.now() + 5000));
  expect(loadInChild(file, folder)).toEqual({ cached: false, answer: 4, same: true });
  expect(cacheFiles(folder)).toHaveLength(1);
  expect(cacheFiles(folder)[0]).not.toBe(before);
});

test('no folder, or one that cannot be written, is no cache and no error', () => {
  const dir = scratch();
  const file = module(dir, 5);
  const none = loadWithCodeCache<{ answer(): number }>(file, undefined);
  expect(none.exports.answer()).toBe(5);
  expect(() => none.save()).not.toThrow();
  const locked = join(dir, 'locked');
  writeFileSync(locked, 'a file where the folder would be');
  const blocked = loadWithCodeCache<{ answer(): number }>(file, join(locked, 'cache'));
  expect(blocked.exports.answer()).toBe(5);
  expect(() => blocked.save()).not.toThrow();
});

test('the command line keeps its code cache in the project cache folder, not with --no-cache, and says the same with and without it', () => {
  const d = stableDemoCopy('code-cache');
  cleanups.push(d.remove);
  d.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
  const env = { PROMPT_CONTRACT_CACHE_DIR: join(d.dir, 'cache') };
  const bare = cli(['check', '--no-cache', '--format', 'json'], { cwd: d.dir, env });
  expect(bare.code).toBe(1);
  expect(() => readdirSync(join(d.dir, 'cache'))).toThrow();
  const runs = [0, 1].map(() => cli(['check', '--format', 'json'], { cwd: d.dir, env }));
  for (const r of runs) expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: bare.code, stdout: bare.stdout, stderr: '' });
  expect(cacheFiles(join(d.dir, 'cache', 'code'))).toEqual([expect.stringMatching(/^prompt-contract\.cjs-[0-9a-f]{24}\.v8$/)]);
});
