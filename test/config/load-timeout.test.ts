// A config that never finishes loading while something keeps the process alive (a connection
// that never answers, a timer beside a promise that never settles) held `check` with no word.
// It is now a could-not-run error after PROMPT_CONTRACT_CONFIG_TIMEOUT seconds (120 by default).
import { describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configTimeoutSeconds, DEFAULT_CONFIG_TIMEOUT_S } from '../../src/config/index.js';
import { cli } from '../cli/helpers.js';

/** A project whose config is `config`; the CLI is spawned, so nothing it leaves open reaches this worker. */
function inProject<T>(config: string, fn: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'pc-config-timeout-'));
  try {
    writeFileSync(join(dir, 'prompt-contract.config.mjs'), config);
    return fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a config that does not finish loading', () => {
  test.each([
    ['a timer beside a promise that never settles', 'setInterval(() => {}, 1000);\nexport default new Promise(() => {});\n'],
    ['a connection that never answers, awaited at the top level', "import { createServer, connect } from 'node:net';\nconst server = createServer(() => {}).listen(0);\nawait new Promise((r) => server.on('listening', r));\nconst socket = connect(server.address().port);\nawait new Promise((r) => socket.on('data', r));\nexport default { tools: [] };\n"],
  ])('%s: exit 2 after the limit, naming the config', (_what, config) =>
    inProject(config, (dir) => {
      const started = Date.now();
      const r = cli(['check'], { cwd: dir, env: { PROMPT_CONTRACT_CONFIG_TIMEOUT: '1' }, timeout: 60_000 });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('prompt-contract.config.mjs: Cannot load the config: it has not finished loading after 1 s');
      expect(r.stderr).toContain('(config/load-failed)');
      // The limit, not a hang: the spawn would otherwise wait for ever.
      expect(Date.now() - started).toBeLessThan(30_000);
    }),
  );

  test('with nothing else pending, a promise that never settles still ends the run at once, before any limit', () =>
    inProject('export default new Promise(() => {});\n', (dir) => {
      const r = cli(['check'], { cwd: dir, env: { PROMPT_CONTRACT_CONFIG_TIMEOUT: '600' }, timeout: 60_000 });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('a promise that never settles');
    }));

  test('a config that loads but leaves a timer running: the run gives its verdict and ends, a second later', () =>
    inProject("setInterval(() => {}, 1000);\nexport default { tools: [] };\n", (dir) => {
      const r = cli(['check', '--format', 'json'], { cwd: dir, timeout: 60_000 });
      // Killed by the timeout, the code would be -1 and the verdict never given.
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('prompts');
    }));

  test('PROMPT_CONTRACT_CONFIG_TIMEOUT: seconds above 0, or a could-not-run naming it', () => {
    expect(configTimeoutSeconds({})).toBe(DEFAULT_CONFIG_TIMEOUT_S);
    expect(configTimeoutSeconds({ PROMPT_CONTRACT_CONFIG_TIMEOUT: ' 2.5 ' })).toBe(2.5);
    for (const bad of ['0', '-1', 'soon', '1e3']) expect(() => configTimeoutSeconds({ PROMPT_CONTRACT_CONFIG_TIMEOUT: bad })).toThrow(/Invalid PROMPT_CONTRACT_CONFIG_TIMEOUT=.*expected a number of seconds above 0/);
  });
});
