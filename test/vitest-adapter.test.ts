// prompt-contract/vitest hands each test to Vitest with the suite's time limit: Vitest's own
// default of 5 s fails a first schema compile or a handler type on a busy CI runner. Vitest
// itself is replaced by a recorder here; test/cli/vitest-suite.test.ts runs the real one.
import { expect, jest, test } from '@jest/globals';
import { repo } from './cli/helpers.js';

const registered: Array<{ name: string; timeout: unknown }> = [];
jest.unstable_mockModule('vitest', () => ({
  describe: (_name: string, fn: () => void) => fn(),
  test: (name: string, _fn: unknown, timeout?: unknown) => registered.push({ name, timeout }),
  afterAll: () => undefined,
  expect: { extend: () => undefined, getState: () => ({}) },
}));

test('every test of the suite gets the time limit: 120 s by default, or the `timeout` option', async () => {
  const { contractSuite } = await import('../src/vitest.js');
  await contractSuite({ cwd: repo });
  expect(registered.length).toBeGreaterThan(3);
  expect(new Set(registered.map((t) => t.timeout))).toEqual(new Set([120_000]));
  registered.length = 0;
  await contractSuite({ cwd: repo, timeout: 7_000 });
  expect(registered.length).toBeGreaterThan(3);
  expect(new Set(registered.map((t) => t.timeout))).toEqual(new Set([7_000]));
});
