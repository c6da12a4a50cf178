// What the tests of the check cache share: an empty cache folder per test, demo copies in one
// stable folder, a `check` as the CLI runs it, and files dated as long committed.
import { afterAll, afterEach, beforeAll, beforeEach, expect, jest } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJiti } from 'jiti';
import { loadProject } from '../../src/project.js';
import { runCheck } from '../../src/checks/run.js';
import { CACHE_DIR_ENV } from '../../src/checks/cache.js';
import type { Diagnostic } from '../../src/report/diagnostic.js';
import { demoCopy, stableScratch } from '../cli/helpers.js';

// Each test starts with an empty cache folder of its own: no test sees another's entries.
const cacheRoot = mkdtempSync(join(tmpdir(), 'prompt-contract-cache-'));
export let cacheDir = '';
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
export const scratch = stableScratch('check-cache');
const demos: Array<ReturnType<typeof demoCopy>> = [];
afterEach(() => {
  for (const d of demos.splice(0)) d.remove();
});

/** What a person reads of a finding: rule, place and message. */
export type Finding = Pick<Diagnostic, 'ruleId' | 'severity' | 'message'> & { file: string | undefined; line: number | undefined; column: number | undefined };

/** One `check` of `dir` as the CLI runs it (a fresh config import each time, so edits to it are seen), and how many cases the cache gave back. */
export async function check(dir: string, cache: boolean): Promise<{ findings: Finding[]; reused: number | undefined }> {
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
export function age(dir: string, seconds = 3600 + ++ageStep): void {
  const when = new Date(Date.now() - seconds * 1000);
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), when, when);
  }
}

export const CASES = 9;
/** Cases per prompt in the demo. */
export const perPrompt = { order_triage: 3, refund_agent: 3, status_chat: 3 };

export async function warmDemo(): Promise<ReturnType<typeof demoCopy>> {
  const demo = demoCopy(join(scratch.dir, 'project'));
  demos.push(demo);
  // Stored calls are never cached, and their database is read on every run: left out here.
  demo.edit('prompt-contract.config.ts', /\n  \/\/ Stored conversations[\s\S]*?\n  \],\n/, '\n');
  age(demo.dir);
  // One run fills the cache; each test ends by showing that the run after its own reuses every case.
  expect((await check(demo.dir, true)).reused).toBe(0);
  return demo;
}

