// prompt-contract/vitest hands each test to Vitest with the suite's time limit: Vitest's own
// default of 5 s fails a first schema compile or a handler type on a busy CI runner. Vitest
// itself is replaced by a recorder here; test/cli/vitest-suite.test.ts runs the real one.
import { expect, jest, test } from '@jest/globals';
import { repo, withDemo } from './cli/helpers.js';

const registered: Array<{ name: string; fn: () => Promise<void>; timeout: unknown }> = [];
jest.unstable_mockModule('vitest', () => ({
  describe: (_name: string, fn: () => void) => fn(),
  test: (name: string, fn: () => Promise<void>, timeout?: unknown) => registered.push({ name, fn, timeout }),
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

test("a could-not-run error in a case's test is its message alone: no stack of this package's code, no chain of causes", () =>
  withDemo(async (demo) => {
    demo.edit('prompts/cases/order_triage.yaml', 'order_id: A-2051', 'order_number: A-2051');
    registered.length = 0;
    const { contractSuite } = await import('../src/vitest.js');
    await contractSuite({ cwd: demo.dir, cache: false });
    const broken = registered.find((t) => t.name.includes('order_triage') && t.name.includes('address_change'));
    expect(broken).toBeDefined();
    const error = await broken!.fn().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/render\/missing-variable/);
    expect(error!.stack).not.toMatch(/\n\s+at /);
    expect(error!.cause).toBeUndefined();
  }));
