// The cache of `check` (src/checks/cache.ts) must never hide a finding. For each kind of input
// a person edits, a drift is made in a copy of the demo after a cached run, and the next
// cached run must report exactly what a run without the cache reports, redoing the cases that
// read the edited file and reusing the others.
import { expect, test } from '@jest/globals';
import { readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCodeFile } from '../../src/checks/cache.js';
import { demoCopy } from '../cli/helpers.js';
import { sample } from '../helpers/runs.js';
import { age, cacheDir, CASES, check, perPrompt, warmDemo } from './helpers.js';

test('an unchanged project: the next cached run reuses every case and reports what a run without the cache reports', async () => {
  const demo = await warmDemo();
  const uncached = await check(demo.dir, false);
  expect(uncached.findings.length).toBeGreaterThan(0);
  expect(await check(demo.dir, true)).toEqual({ findings: uncached.findings, reused: CASES });
});

// Every kind of edit in `npm test`; every third in `npm run test:fast` (see `sample`).
test.each<[string, (demo: ReturnType<typeof demoCopy>) => void, string, number]>(sample([
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
  ['few-shot turns', (d) => d.edit('prompts/examples/status_chat.yaml', 'order_id: A-1042', 'order_ref: A-1042'), 'example/invalid-arguments', CASES - perPrompt.status_chat],
  ['a snapshot', (d) => d.edit('snapshots/status_chat/first_message.txt', 'Priya', 'Pria'), 'snapshot/outdated', CASES - 1],
  ['the tools baseline', (d) => d.edit('snapshots/tools.json', '"name": "lookup_order"', '"name": "lookup_orders"'), 'compat/tool-renamed', CASES],
  ['a handler type', (d) => d.edit('prompts/handlers/lookup-order.ts', 'export interface LookupOrderArgs {', 'export interface LookupOrderArgs {\n  tenant: string;'), 'handler/required-not-in-schema', CASES],
  // Recorded calls are kept by their files' stamps: the prompts are untouched, every case is reused.
  ['a recorded-calls file', (d) => d.edit('prompts/observed/recorded_calls.jsonl', /"reason":"goodwill"/g, '"reason":"kindness"'), 'recorded/invalid', CASES],
]))('an edit to %s shows its finding through the cache, and redoes only the cases that read it', async (_what, edit, rule, reused) => {
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
