import type { expect as JestExpect, describe as JestDescribe, test as JestTest, afterAll as JestAfterAll } from '@jest/globals';
import { pathToFileURL } from 'node:url';
import { defineContractSuite, promptMatchers, type ContractSuiteOptions } from './suite.js';

export { promptMatchers };
export type { ContractSuiteOptions };

declare module '@jest/expect' {
  interface Matchers<R> {
    toMatchPromptSnapshot(options?: { dir?: string }): R;
    toHaveValidToolExamples(options?: { strict?: boolean }): R;
  }
}

// The global `expect` of @types/jest reads its matchers from this namespace.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R> {
      toMatchPromptSnapshot(options?: { dir?: string }): R;
      toHaveValidToolExamples(options?: { strict?: boolean }): R;
    }
  }
}

/**
 * Defines the contract tests for a project in Jest: the config and tools load cleanly; per
 * prompt and case, the snapshot and the tool-call examples written in its templates; every
 * curated example and stub entry, once, at its YAML line; the tools baseline (breaking
 * changes); handler types; recorded and persisted calls; provider profiles; the snapshots
 * folder. It reports what `prompt-contract check` reports: an error fails a test, a warning
 * is printed. Call it at the top level of a test file: `await contractSuite()`.
 */
export async function contractSuite(options: ContractSuiteOptions = {}): Promise<void> {
  // Jest injects these globals into every test file; importing @jest/globals at run time would
  // tie this module to one copy of Jest.
  const g = globalThis as unknown as { expect: typeof JestExpect; describe: typeof JestDescribe; test: typeof JestTest; afterAll: typeof JestAfterAll };
  await defineContractSuite(
    {
      name: 'Jest',
      describe: g.describe,
      test: g.test,
      afterAll: g.afterAll,
      expect: g.expect as unknown as { extend(m: Record<string, unknown>): void; getState(): unknown },
      // Inside Jest, the config and the tools it imports load through Jest's own transform.
      importer: (file) => import(pathToFileURL(file).href),
    },
    options,
  );
}
