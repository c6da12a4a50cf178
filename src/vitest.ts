import { afterAll, describe, expect, test } from 'vitest';
import { defaultImporter } from './config/index.js';
import { defineContractSuite, promptMatchers, type ContractSuiteOptions } from './suite.js';

export { promptMatchers };
export type { ContractSuiteOptions };

interface PromptMatchers<R = unknown> {
  toMatchPromptSnapshot(options?: { dir?: string }): R;
  toHaveValidToolExamples(options?: { strict?: boolean }): R;
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Matchers<T = any> extends PromptMatchers<T> {}
}

/**
 * The contract suite in Vitest, with the same tests and snapshot semantics as in Jest: a new
 * snapshot is written on a local run, `-u` rewrites changed ones and removes obsolete ones, and
 * under CI nothing is written. Call it at the top level of a test file: `await contractSuite()`.
 */
export async function contractSuite(options: ContractSuiteOptions = {}): Promise<void> {
  await defineContractSuite(
    {
      name: 'Vitest',
      describe: (name, fn) => describe(name, fn),
      test: (name, fn, timeout) => test(name, fn, timeout),
      afterAll: (fn) => afterAll(fn),
      expect: expect as unknown as { extend(m: Record<string, unknown>): void; getState(): unknown },
      // Vitest runs installed packages in plain Node, not through its transform: TypeScript
      // configs load the way the CLI loads them.
      importer: defaultImporter,
    },
    options,
  );
}
