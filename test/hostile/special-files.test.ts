import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRecordedCalls } from '../../src/sources/jsonl.js';
import { InputError } from '../../src/util/errors.js';
import { repo, withDemo } from '../cli/helpers.js';
import { allOf, describeWhere, devZero, namedPipes } from '../helpers/platform.js';

// A named pipe blocks its reader until something writes, `/dev/zero` never ends and a
// directory is not text. Each must be refused at once with exit code 2 and a message naming
// the path and what it is, never hang or grow memory without bound.
const fifoSupported = allOf(namedPipes, devZero).has;
const maybe = describeWhere(allOf(namedPipes, devZero));

let dir: string;
let fifo: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pc-special-'));
  fifo = join(dir, 'calls.fifo');
  if (fifoSupported) execFileSync('mkfifo', [fifo]);
  mkdirSync(join(dir, 'folder.jsonl'));
  writeFileSync(join(dir, 'tools.json'), JSON.stringify([{ name: 'f', input_schema: { type: 'object' } }]));
});
afterAll(() => {
  // A reader left waiting on the pipe (a broken build) is let go: a writer opens and closes it.
  if (fifoSupported) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader waiting (ENXIO): nothing to let go.
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

// No time bound but the one for a hang: each refusal takes well under a second, a hang lasts
// forever. The CLI is killed after 60 s (a hang shows as a signal, not a stuck test) and each
// test has 90 s, generous on a loaded machine.
const HANG = 60_000;
const TEST_TIMEOUT = 90_000;

/** The built CLI, killed after `timeout` ms. */
function run(args: string[], cwd: string, timeout = HANG, input = ''): { status: number | null; signal: string | null; stderr: string; stdout: string } {
  return runWith(args, cwd, {}, timeout, input);
}

/** `run` with more environment variables. */
function runWith(args: string[], cwd: string, env: NodeJS.ProcessEnv, timeout = HANG, input = ''): { status: number | null; signal: string | null; stderr: string; stdout: string } {
  const r = spawnSync(process.execPath, [join(repo, 'dist', 'cli.js'), ...args], { cwd, encoding: 'utf8', timeout, input, env: { ...process.env, NO_COLOR: '1', ...env } });
  return { status: r.status, signal: r.signal, stderr: r.stderr, stdout: r.stdout };
}

maybe('validate <tools> <calls...> with a path that is not a regular file', () => {
  test.each([
    ['a named pipe', () => fifo, /calls\.fifo.*named pipe \(FIFO\), not a regular file.*expected a regular JSONL file/],
    ['/dev/zero', () => '/dev/zero', /`\/dev\/zero` \(it is a character device, not a regular file\); expected a regular JSONL file/],
    ['a directory', () => join(dir, 'folder.jsonl'), /folder\.jsonl` \(it is a directory, not a regular file\)/],
  ])('%s exits 2 at once, naming the path and what was expected', (_what, path, message) => {
    const result = run(['validate', 'tools.json', path()], dir);
    expect(result.signal).toBeNull();
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('(recorded/unreadable)');
  }, TEST_TIMEOUT);

  test('readRecordedCalls refuses a named pipe with an InputError instead of waiting for a writer', async () => {
    // Waiting for a writer would never end: the test's timeout is the bound.
    const outcome = await (async () => {
      for await (const _item of readRecordedCalls(fifo)) return 'read';
      return 'empty';
    })().catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(InputError);
    expect(outcome).toMatchObject({ code: 'recorded/unreadable', file: fifo, message: expect.stringContaining('named pipe') });
  }, TEST_TIMEOUT);
});

maybe('extract with a path that is not a regular file', () => {
  test.each([
    ['a named pipe', () => fifo, /named pipe \(FIFO\), not a regular file/],
    ['/dev/zero', () => '/dev/zero', /character device, not a regular file/],
    ['a directory', () => dir, /is a directory, not a regular file/],
  ])('%s exits 2 at once, naming the path and what was expected', (_what, path, message) => {
    const result = run(['extract', path()], dir);
    expect(result.signal).toBeNull();
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/expected a regular file with the prompt text, or `-` for standard input/);
  }, TEST_TIMEOUT);

  test('`-` still reads standard input', () => {
    const result = run(['extract', '-'], dir, HANG, '<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>\n');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('<stdin>:1:1');
    // A byte order mark in front is no column of the text.
    const marked = run(['extract', '-'], dir, HANG, '\uFEFF<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>\n');
    expect(marked.stdout).toBe(result.stdout);
  }, TEST_TIMEOUT);
});

maybe('a config whose `recorded` names a named pipe', () => {
  test('check exits 2 naming it, instead of hanging', () => {
    withDemo((demo) => {
      demo.edit('prompt-contract.config.ts', "recorded: ['prompts/observed/recorded_calls.jsonl']", `recorded: [${JSON.stringify(fifo)}]`);
      const result = run(['check'], demo.dir);
      expect(result.signal).toBeNull();
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/named pipe \(FIFO\), not a regular file/);
    });
  }, TEST_TIMEOUT);
});

// Each project file a run reads, replaced by a named pipe: refused by name, never waited on.
maybe('a named pipe where a project file belongs', () => {
  test.each([
    ['a snapshot', 'snapshots/order_triage/address_change.txt', ['check', '--no-cache'], /snapshots\/order_triage\/address_change\.txt: Cannot read the snapshot: it is a named pipe \(FIFO\), not a regular file/],
    ['the tools baseline, read by `diff`', 'snapshots/tools.json', ['diff'], /snapshots\/tools\.json: Cannot read the tools baseline: it is a named pipe \(FIFO\), not a regular file/],
    ['a TypeScript handler file', 'prompts/handlers/lookup-order.ts', ['check', '--no-cache'], /Cannot read handler file `.*lookup-order\.ts` \(looking for type `LookupOrderArgs`\): it is a named pipe \(FIFO\), not a regular file \(handler\/type-not-found\)/],
    ['the config', 'prompt-contract.config.ts', ['check', '--no-cache'], /prompt-contract\.config\.ts: Cannot load the config: it is a named pipe \(FIFO\), not a regular file.*\(config\/load-failed\)/],
    ['a module the config imports', 'prompts/tools/index.ts', ['check', '--no-cache'], /prompt-contract\.config\.ts:\d+:\d+: Cannot load the config: `\.\/prompts\/tools\/index\.js` leads to prompts\/tools\/index\.ts, which is a named pipe \(FIFO\), not a regular file.*\(config\/load-failed\)/],
  ])('%s: the command exits 2 naming it, instead of waiting for a writer', (_what, file, args, message) => {
    withDemo((demo) => {
      rmSync(join(demo.dir, file));
      execFileSync('mkfifo', [join(demo.dir, file)]);
      const result = run(args, demo.dir);
      expect(result.signal).toBeNull();
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(message);
    });
  }, TEST_TIMEOUT);
});

maybe('named pipes at paths a command reads besides the project files', () => {
  test('`init` with a package.json that is a named pipe exits 2 naming it and writes nothing', () => {
    const project = mkdtempSync(join(tmpdir(), 'pc-init-fifo-'));
    try {
      execFileSync('mkfifo', [join(project, 'package.json')]);
      const result = run(['init'], project);
      expect(result.signal).toBeNull();
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/package\.json: Cannot read package\.json \(it is a named pipe \(FIFO\), not a regular file\)/);
      expect(readdirSync(project)).toEqual(['package.json']);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, TEST_TIMEOUT);

  test('a cache folder that is a file is passed over: check runs as without a cache, no internal error', () => {
    withDemo((demo) => {
      const cacheDir = join(demo.dir, 'cache-is-a-file');
      writeFileSync(cacheDir, 'not a folder\n');
      const result = runWith(['check'], demo.dir, { PROMPT_CONTRACT_CACHE_DIR: cacheDir });
      expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    });
  }, TEST_TIMEOUT);

  test('a cache file that is a named pipe is passed over and replaced: check runs as without a cache', () => {
    withDemo((demo) => {
      const cacheDir = join(demo.dir, '.pc-cache');
      const env = { PROMPT_CONTRACT_CACHE_DIR: cacheDir, PROMPT_CONTRACT_CACHE_STATS: '1' };
      expect(runWith(['check'], demo.dir, env).status).toBe(0);
      const entry = readdirSync(cacheDir).find((f) => f.startsWith('check-'))!;
      rmSync(join(cacheDir, entry));
      execFileSync('mkfifo', [join(cacheDir, entry)]);
      const result = runWith(['check'], demo.dir, env);
      expect(result.signal).toBeNull();
      expect(result.status).toBe(0);
      expect(result.stderr).toMatch(/prompt-contract cache: 0 of \d+ cases reused/);
      expect(statSync(join(cacheDir, entry)).isFile()).toBe(true);
    });
  }, TEST_TIMEOUT);
});
