// The Jest contract suite reads the cache `check` keeps: a case found clean last time, with
// nothing it reads changed since, passes without being rendered (and counts as a matched
// snapshot); an edit after a cached run still fails the suite at the edited line.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addJestSuite, lineOf, runJestAsync, stableDemoCopy } from '../cli/helpers.js';

// At a stable path: the child Jest's transform cache is keyed by its config, which names the folder.
const demo = stableDemoCopy('suite-cache');
const cacheDir = mkdtempSync(join(tmpdir(), 'prompt-contract-suite-cache-'));
const env = { PROMPT_CONTRACT_CACHE_DIR: cacheDir, PROMPT_CONTRACT_CACHE_STATS: '1', CI: '' };
beforeAll(() => {
  addJestSuite(demo.dir);
  // Files long committed: the cache does not trust a stamp within two seconds of a file's time.
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const e of readdirSync(demo.dir, { recursive: true, withFileTypes: true })) if (e.isFile()) utimesSync(join(e.parentPath, e.name), hourAgo, hourAgo);
});
afterAll(() => {
  demo.remove();
  rmSync(cacheDir, { recursive: true, force: true });
});

const reused = (out: string): number | undefined => {
  const m = /prompt-contract cache: (\d+) of (\d+) cases reused/.exec(out);
  return m ? Number(m[1]) : undefined;
};

// Four child Jest runs in a row: on a loaded two-core machine they passed 30 s (the limit is a safety cap, not a measure).
test('a second run reuses every clean case; an edited example and an edited log fail the next run, and only the example\'s prompt is redone', async () => {
  const first = await runJestAsync(demo.dir, [], env);
  expect(first.code).toBe(0);
  expect(reused(first.out)).toBe(0);

  const second = await runJestAsync(demo.dir, [], env);
  expect(second.code).toBe(0);
  expect(reused(second.out)).toBe(9);
  // Reused cases count as matched snapshots, as the first run counted them.
  const snapshots = (out: string) => /Snapshots:\s+(.*)/.exec(out)?.[1];
  expect(snapshots(second.out)).toBe(snapshots(first.out));

  demo.edit('prompts/examples/order_triage.yaml', 'reason: customer_request', 'reason: changed_my_mind');
  // Recorded calls are kept by their files' stamps: an edited log is read again.
  demo.edit('prompts/observed/recorded_calls.jsonl', /"reason":"goodwill"/g, '"reason":"kindness"');
  const third = await runJestAsync(demo.dir, [], env);
  expect(third.out).toMatch(/✕ recorded tool calls fit the current schemas/);
  expect(third.out).toContain('recorded/invalid');
  expect(third.code).toBe(1);
  const line = lineOf(demo.read('prompts/examples/order_triage.yaml'), 'reason: changed_my_mind');
  expect(third.out).toMatch(new RegExp(`prompts/examples/order_triage\\.yaml\\s+${line}:\\d+\\s+error\\s.*example/invalid-arguments`));
  // The prompt files changed: the cases are keyed one by one, and only order_triage's are redone.
  expect(reused(third.out)).toBe(6);
}, 120_000);
