// The cache of `check` (src/checks/cache.ts) must never hide a finding. For each kind of input
// a person edits, a drift is made in a copy of the demo after a cached run, and the next
// cached run must report exactly what a run without the cache reports, redoing the cases that
// read the edited file and reusing the others.
import { afterAll, afterEach, beforeAll, beforeEach, expect, jest, test } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJiti } from 'jiti';
import { loadProject } from '../../src/project.js';
import { runCheck } from '../../src/checks/run.js';
import { CACHE_DIR_ENV, isCodeFile } from '../../src/checks/cache.js';
import type { Diagnostic } from '../../src/report/diagnostic.js';
import { demoCopy, stableScratch } from '../cli/helpers.js';

// Each test starts with an empty cache folder of its own: no test sees another's entries.
const cacheRoot = mkdtempSync(join(tmpdir(), 'prompt-contract-cache-'));
let cacheDir = '';
let tests = 0;
const saved = { dir: process.env[CACHE_DIR_ENV], stats: process.env.PROMPT_CONTRACT_CACHE_STATS };
beforeAll(() => {
  process.env.PROMPT_CONTRACT_CACHE_STATS = '1';
});
beforeEach(() => {
  cacheDir = join(cacheRoot, String(++tests));
  process.env[CACHE_DIR_ENV] = cacheDir;
});
afterAll(() => {
  for (const [key, value] of [[CACHE_DIR_ENV, saved.dir], ['PROMPT_CONTRACT_CACHE_STATS', saved.stats]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  rmSync(cacheRoot, { recursive: true, force: true });
  scratch.remove();
});

// Each test's demo copy is made afresh in the same folder. The handler type's schema is kept in
// memory for the life of this process by the path of its file, so one path means the TypeScript
// generator runs once here rather than once a test (the file is never edited below).
const scratch = stableScratch('check-cache');
const demos: Array<ReturnType<typeof demoCopy>> = [];
afterEach(() => {
  for (const d of demos.splice(0)) d.remove();
});

/** What a person reads of a finding: rule, place and message. */
type Finding = Pick<Diagnostic, 'ruleId' | 'severity' | 'message'> & { file: string | undefined; line: number | undefined; column: number | undefined };

/** One `check` of `dir` as the CLI runs it (a fresh config import each time, so edits to it are seen), and how many cases the cache gave back. */
async function check(dir: string, cache: boolean): Promise<{ findings: Finding[]; reused: number | undefined }> {
  // A fresh import of the config and the tools each run; the transpile cache is keyed by content.
  const jiti = createJiti(import.meta.url, { moduleCache: false });
  const project = await loadProject({ cwd: dir, importer: (file) => jiti.import(file), lazyModule: true });
  const lines: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  let found: Diagnostic[];
  try {
    found = await runCheck(project, { cache, workers: 1 });
  } finally {
    spy.mockRestore();
  }
  const stat = lines.join('').match(/prompt-contract cache: (\d+) of (\d+) cases reused/);
  // What a person reads: rule, place and message (the order is the report's own).
  // Stored calls are sampled in a random order (`ORDER BY random()`) and never cached: their witnesses differ from run to run.
  const comparable = found.filter((d) => !d.ruleId.startsWith('persisted/'));
  return { findings: comparable.map(({ ruleId, severity, file, line, column, message }) => ({ ruleId, severity, file, line, column, message })), reused: stat ? Number(stat[1]) : undefined };
}

/**
 * Dates every file of the demo copy `seconds` ago, as files long committed are: the cache does
 * not trust a stamp taken within two seconds of the file's time (see `racy` in cache.ts).
 */
let ageStep = 0;
function age(dir: string, seconds = 3600 + ++ageStep): void {
  const when = new Date(Date.now() - seconds * 1000);
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), when, when);
  }
}

const CASES = 9;
/** Cases per prompt in the demo. */
const perPrompt = { order_triage: 3, refund_agent: 3, status_chat: 3 };

async function warmDemo(): Promise<ReturnType<typeof demoCopy>> {
  const demo = demoCopy(join(scratch.dir, 'project'));
  demos.push(demo);
  // Stored calls are never cached, and their database is read on every run: left out here.
  demo.edit('prompt-contract.config.ts', /\n  \/\/ Stored conversations[\s\S]*?\n  \],\n/, '\n');
  age(demo.dir);
  const first = await check(demo.dir, true);
  expect(first.reused).toBe(0);
  const second = await check(demo.dir, true);
  expect(second).toEqual({ findings: first.findings, reused: CASES });
  return demo;
}

test.each<[string, (demo: ReturnType<typeof demoCopy>) => void, string, number]>([
  ['a template', (d) => d.edit('prompts/refund_agent.prompt', '## Examples', '```tool_call\n{"name": "create_refund", "arguments": {"order_id": "A-1042"} }\n```\n\n## Examples'), 'example/invalid-arguments', CASES - perPrompt.refund_agent],
  ['a partial', (d) => d.edit('prompts/partials/_hermes_call.prompt', '{{json this}}', '{"name": "{{name}}", "arguments": {}}'), 'example/invalid-arguments', 0],
  ['an example', (d) => d.edit('prompts/examples/order_triage.yaml', 'reason: customer_request', 'reason: changed_my_mind'), 'example/invalid-arguments', CASES - perPrompt.order_triage],
  ['a retrieval stub', (d) => d.edit('prompts/stubs/help_center.yaml', 'name: create_refund', 'name: create_refunds'), 'example/unknown-tool', CASES - perPrompt.refund_agent],
  ['a cases file', (d) => d.edit('prompts/cases/status_chat.yaml', 'question: Is order A-2210 on its way?', 'questions: Is order A-2210 on its way?'), 'render/', CASES - perPrompt.status_chat],
  ['a tool description', (d) => d.edit('prompts/tools/descriptions.yaml', 'Amount to refund in cents, e.g. 4200 for £42.00.', 'Amount to refund, in cents.'), 'snapshot/outdated', 0],
  ['a tool', (d) => d.edit('prompts/tools/index.ts', 'amount_cents: z.number().int().min(1).max(100_000)', 'amount_cents: z.number().int().min(1).max(1_000)'), 'example/invalid-arguments', 0],
 // Provider lint findings are kept under the tools and the providers: a name providers warn about shows through the cache.
  ['a tool\'s fit with a provider', (d) => d.edit('prompts/tools/index.ts', 'note: z.string().max(500).optional(),', "note: z.string().max(500).optional(),\n      'gift card?': z.string().optional(),"), 'provider/', 0],
  ['the config', (d) => d.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  strictExamples: true,"), 'example/', 0],
  ['a snapshot', (d) => d.edit('snapshots/status_chat/first_message.txt', 'Priya', 'Pria'), 'snapshot/outdated', CASES - 1],
  // Recorded calls are kept by their files' stamps: the prompts are untouched, every case is reused.
  ['a recorded-calls file', (d) => d.edit('prompts/observed/recorded_calls.jsonl', /"reason":"goodwill"/g, '"reason":"kindness"'), 'recorded/invalid', CASES],
])('an edit to %s shows its finding through the cache, and redoes only the cases that read it', async (_what, edit, rule, reused) => {
  const demo = await warmDemo();
  edit(demo);
  const cached = await check(demo.dir, true);
  const uncached = await check(demo.dir, false);
  expect(uncached.findings.map((d) => d.ruleId)).toContainEqual(expect.stringContaining(rule));
  expect(cached.findings).toEqual(uncached.findings);
  expect(cached.reused).toBe(reused);
  // And the run after that reuses everything, with the same findings, once the edit is no longer new.
  age(demo.dir);
  await check(demo.dir, true);
  expect(await check(demo.dir, true)).toEqual({ findings: uncached.findings, reused: CASES });
});

test('a same-size edit within the second of a cached run is still seen, where the file system keeps whole seconds', async () => {
  const demo = await warmDemo();
  // A file written at a whole second, checked within it, then written again to the same size in the same second.
  const file = join(demo.dir, 'prompts/examples/order_triage.yaml');
  const second = new Date(Math.floor(Date.now() / 1000) * 1000);
  utimesSync(file, second, second);
  expect((await check(demo.dir, true)).findings).toEqual((await check(demo.dir, false)).findings);
  const before = statSync(file);
  demo.edit('prompts/examples/order_triage.yaml', 'reason: customer_request', 'reason: customer_requesx');
  utimesSync(file, second, second);
  const after = statSync(file);
  expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
  const cached = await check(demo.dir, true);
  expect(cached.findings).toContainEqual(expect.objectContaining({ ruleId: 'example/invalid-arguments', file: 'prompts/examples/order_triage.yaml' }));
  expect(cached.findings).toEqual((await check(demo.dir, false)).findings);
});

test('an in-place rewrite that restores the file\'s time (cp -p, touch -r) is still seen', async () => {
  const demo = await warmDemo();
  const file = join(demo.dir, 'snapshots/status_chat/first_message.txt');
  const before = statSync(file);
  demo.edit('snapshots/status_chat/first_message.txt', 'Priya', 'Pryia');
  utimesSync(file, before.atime, before.mtime);
  const after = statSync(file);
  expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
  const cached = await check(demo.dir, true);
  expect(cached.findings).toContainEqual(expect.objectContaining({ ruleId: 'snapshot/outdated' }));
  expect(cached.findings).toEqual((await check(demo.dir, false)).findings);
});

test('a line limit from the environment is part of the recorded files\' key', async () => {
  const demo = await warmDemo();
  process.env.PROMPT_CONTRACT_MAX_LINE_BYTES = '100';
  try {
    const cached = await check(demo.dir, true);
    expect(cached.findings.map((d) => d.ruleId)).toContain('recorded/line-too-long');
    expect(cached.findings).toEqual((await check(demo.dir, false)).findings);
  } finally {
    delete process.env.PROMPT_CONTRACT_MAX_LINE_BYTES;
  }
});

test('a new file in the prompts folder is read, and every unchanged case is still reused', async () => {
  const demo = await warmDemo();
  writeFileSync(join(demo.dir, 'prompts', 'NOTES.md'), 'Not a prompt.\n');
  const cached = await check(demo.dir, true);
  expect(cached.reused).toBe(CASES);
  expect(cached.findings).toEqual((await check(demo.dir, false)).findings);
});

test('a deleted snapshot is found missing through the cache; --no-cache neither reads nor writes the cache', async () => {
  const demo = await warmDemo();
  rmSync(join(demo.dir, 'snapshots/order_triage/cancellation.txt'));
  const before = readdirSync(cacheDir).sort();
  const uncached = await check(demo.dir, false);
  expect(uncached.reused).toBeUndefined();
  expect(readdirSync(cacheDir).sort()).toEqual(before);
  const cached = await check(demo.dir, true);
  expect(cached.findings).toEqual(uncached.findings);
  expect(cached.findings).toContainEqual(expect.objectContaining({ ruleId: 'snapshot/missing' }));
  expect(cached.reused).toBe(CASES - 1);
});

test('a torn cache file is ignored and replaced', async () => {
  const demo = await warmDemo();
  for (const file of readdirSync(cacheDir).filter((f) => f.startsWith('check-'))) writeFileSync(join(cacheDir, file), '{"format": 1, "run": "x", "cas');
  const again = await check(demo.dir, true);
  expect(again.reused).toBe(0);
  expect((await check(demo.dir, true)).reused).toBe(CASES);
});

test('the code that keys the cache: every module a run can load, and no declaration or map', () => {
  // What `npm run build` writes to dist/, and the sources a run under ts-jest loads.
  for (const name of ['run.js', 'meta-2020-12.cjs', 'loader.mjs', 'run.ts', 'jest-esm-check.cts']) expect(isCodeFile(name)).toBe(true);
  for (const name of ['run.d.ts', 'run.js.map', 'jest-esm-check.d.cts', 'index.d.mts', '.tsbuildinfo', 'README.md']) expect(isCodeFile(name)).toBe(false);
});
