// Issue #25, items 1 to 4: a cached run never reports less than a cold run. Each test makes
// the cache see something a hostile or unlucky user could make it see, and compares the
// cached run with one that reads no cache.
import { expect, test } from '@jest/globals';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createJiti } from 'jiti';
import { loadProject } from '../../src/project.js';
import { runCheck } from '../../src/checks/run.js';
import { CheckCache, parseCacheFile } from '../../src/checks/cache.js';
import { exactKey } from '../../src/util/values.js';
import { InputError } from '../../src/util/errors.js';
import { age, cacheDir, CASES, check, scratch, warmDemo } from '../cache/helpers.js';
import { demoCopy } from '../cli/helpers.js';
import { sample } from '../helpers/runs.js';

function cacheFiles(): string[] {
  return readdirSync(cacheDir).filter((f) => f.startsWith('check-') && f.endsWith('.json')).map((f) => join(cacheDir, f));
}

test('a key tells apart every value a tool can carry, where JSON writes them all as null', () => {
  const keys = [Infinity, -Infinity, NaN, null, undefined, 0, 10n].map((v) => exactKey({ maximum: [v] }));
  expect(new Set(keys).size).toBe(keys.length);
  expect(exactKey(new Map([['a', 1]]))).not.toBe(exactKey(new Map([['a', 2]])));
  expect(exactKey({ a: 1, b: 2 })).toBe(exactKey({ a: 1, b: 2 }));
});

test.each([
  ['Infinity', '`Infinity` at `/properties/n/maximum`'],
  ['-Infinity', '`-Infinity` at `/properties/n/maximum`'],
  ['NaN', '`NaN` at `/properties/n/maximum`'],
  ['[1, undefined]', '`undefined` at `/properties/n/maximum/1`'],
])('a tool whose schema holds %s is refused at the tool, not sent as null nor cached as it', async (value, said) => {
  const demo = await warmDemo();
  // A JSON Schema written by hand in a tools module, beside the zod tools.
  demo.edit('prompts/tools/index.ts', 'export const tools = [\n', `export const tools = [\n  { name: 'ping', description: 'Ping.', input_schema: { type: 'object', properties: { n: { type: 'number', maximum: ${value} } } } },\n`);
  const jiti = createJiti(import.meta.url, { moduleCache: false });
  let error: unknown;
  try {
    await loadProject({ cwd: demo.dir, importer: (file) => jiti.import(file), lazyModule: true });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(InputError);
  expect((error as InputError).message).toContain(said);
  expect((error as InputError).message).toContain('tool `ping`');
  expect((error as InputError).file).toMatch(/prompts\/tools\/index\.ts$/);
  expect((error as InputError).line).toBeGreaterThan(1);
});

test('a data file outside the prompts folder replaced during a run (cp -p) is seen by the next run', async () => {
  const demo = await warmDemo();
  // The examples of one prompt live in a folder the team shares, outside `prompts/`.
  mkdirSync(join(demo.dir, 'team-examples'));
  copyFileSync(join(demo.dir, 'prompts/examples/order_triage.yaml'), join(demo.dir, 'team-examples/order_triage.yaml'));
  demo.edit('prompts/order_triage.prompt', 'file: examples/order_triage.yaml', 'file: ../team-examples/order_triage.yaml');
  age(demo.dir);
  const clean = await check(demo.dir, true);
  expect(clean.findings.filter((d) => d.severity === 'error')).toEqual([]);
  // A run that reads the file, and the file replaced with a stale one, its time kept, before the run ends.
  const jiti = createJiti(import.meta.url, { moduleCache: false });
  const project = await loadProject({ cwd: demo.dir, importer: (file) => jiti.import(file), lazyModule: true });
  void project.module;
  const file = join(demo.dir, 'team-examples/order_triage.yaml');
  const before = statSync(file);
  writeFileSync(join(demo.dir, 'stale.yaml'), readFileSync(file, 'utf8').replace('reason: customer_request', 'reason: changed_my_mind'));
  copyFileSync(join(demo.dir, 'stale.yaml'), file);
  utimesSync(file, before.atime, before.mtime);
  await runCheck(project, { cache: true, workers: 1 });
  // The next run, and every one after, reports what a cold run does.
  const cold = await check(demo.dir, false);
  expect(cold.findings).toContainEqual(expect.objectContaining({ ruleId: 'example/invalid-arguments' }));
  expect((await check(demo.dir, true)).findings).toEqual(cold.findings);
  expect((await check(demo.dir, true)).findings).toEqual(cold.findings);
});

test('a snapshot replaced between its stamp and the store is checked again by the next run', async () => {
  const demo = await warmDemo();
  const jiti = createJiti(import.meta.url, { moduleCache: false });
  const project = await loadProject({ cwd: demo.dir, importer: (file) => jiti.import(file), lazyModule: true });
  const cache = CheckCache.open(project, { strict: false })!;
  const ref = { prompt: 'status_chat', case: 'first_message' };
  const stamp = cache.snapshotStamp(ref);
  // The case is checked against the file as it was; then the file is replaced, its time kept.
  const file = join(demo.dir, 'snapshots/status_chat/first_message.txt');
  const before = statSync(file);
  writeFileSync(file, readFileSync(file, 'utf8').replace('Priya', 'Pryia'));
  utimesSync(file, before.atime, before.mtime);
  cache.storeCase(ref, [], stamp);
  cache.save([ref], false);
  cache.write();
  const next = CheckCache.open(project, { strict: false })!;
  expect(next.case(ref)).toBeUndefined();
  const cold = await check(demo.dir, false);
  expect(cold.findings).toContainEqual(expect.objectContaining({ ruleId: 'snapshot/outdated' }));
  expect((await check(demo.dir, true)).findings).toEqual(cold.findings);
});

// Every crafted file in `npm test`; every third in `npm run test:fast` (see `sample`).
test.each<[string, (cache: Record<string, unknown>) => unknown]>(sample([
  ['findings that are not a list', (c) => ({ ...c, cases: Object.fromEntries(Object.entries(c.cases as object).map(([k, v]) => [k, { ...v, diagnostics: 'none' }])) })],
  ['a case entry without its key', (c) => ({ ...c, cases: Object.fromEntries(Object.entries(c.cases as object).map(([k]) => [k, { diagnostics: [] }])) })],
  ['a list where an object belongs', (c) => ({ ...c, items: [] })],
  ['a finding without a rule', (c) => ({ ...c, items: Object.fromEntries(Object.keys(c.items as object).map((k) => [k, { key: 'x', diagnostics: [{ message: 'hi' }] }])) })],
  ['an order of another prompt', (c) => ({ ...c, order: [{ prompt: 'elsewhere', case: 'nothing' }], prompts: ['elsewhere'], items: { elsewhere: { key: 'x', diagnostics: [] } }, cases: { 'elsewhere\u0000nothing': { key: 'x', snapshot: 'absent', diagnostics: [] } } })],
  ['an order with a case left out', (c) => ({ ...c, order: (c.order as unknown[]).slice(1) })],
  ['a cache of another format', (c) => ({ ...c, format: 4 })],
]))('a cache file with %s is read as empty: the run reports what a cold run does', async (_what, craft) => {
  const demo = await warmDemo();
  // A drift the cache had seen: the crafted cache must not hide it.
  demo.edit('prompts/examples/order_triage.yaml', 'reason: customer_request', 'reason: changed_my_mind');
  age(demo.dir);
  const cold = await check(demo.dir, true);
  expect(cold.findings).toContainEqual(expect.objectContaining({ ruleId: 'example/invalid-arguments' }));
  expect((await check(demo.dir, true)).reused).toBe(CASES);
  for (const file of cacheFiles()) {
    const stored = parseCacheFile(readFileSync(file, 'utf8'));
    expect(stored).toBeDefined();
    writeFileSync(file, JSON.stringify(craft(stored as unknown as Record<string, unknown>)));
  }
  const again = await check(demo.dir, true);
  expect(again.findings).toEqual(cold.findings);
});

test('a run without cache reads and writes no cache at all, the handler types\' included', async () => {
  const demo = demoCopy(join(scratch.dir, 'project'));
  try {
    const uncached = await check(demo.dir, false);
    expect(uncached.findings.filter((d) => d.severity === 'error')).toEqual([]);
    expect(existsSync(cacheDir)).toBe(false);
  } finally {
    demo.remove();
  }
});

test('a cases folder reached through a link is stamped through it: an edit there is seen by the cached run', async () => {
  const demo = await warmDemo();
  // The cases live in a folder the team shares inside the project; `prompts/cases` links to it.
  renameSync(join(demo.dir, 'prompts/cases'), join(demo.dir, 'shared-cases'));
  symlinkSync(join(demo.dir, 'shared-cases'), join(demo.dir, 'prompts/cases'));
  age(demo.dir);
  await check(demo.dir, true);
  expect((await check(demo.dir, true)).reused).toBe(CASES);
  demo.edit('shared-cases/status_chat.yaml', 'question: Is order A-2210 on its way?', 'questions: Is order A-2210 on its way?');
  const cached = await check(demo.dir, true);
  const cold = await check(demo.dir, false);
  expect(cold.findings.map((d) => d.ruleId)).toContainEqual(expect.stringContaining('render/'));
  expect(cached.findings).toEqual(cold.findings);
});
