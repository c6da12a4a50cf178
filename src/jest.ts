import type { expect as JestExpect, describe as JestDescribe, test as JestTest, afterAll as JestAfterAll } from '@jest/globals';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { pathToFileURL } from 'node:url';
import { isTypeScriptLoadError, jitiImport, jitiRequire, type Importer } from './config/index.js';
import { localModules } from './config/local-imports.js';
import { defineContractSuite, promptMatchers, type ContractSuiteOptions, type SuiteRuntime } from './suite.js';
import { defineContractSuiteSync } from './suite-sync.js';
import { isModuleScope } from './util/module-scope.js';

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
 * is printed. Call it at the top level of a test file: `contractSuite()` in CommonJS (what
 * plain `jest` runs), `await contractSuite()` in an ES module (Jest with VM modules).
 */
export function contractSuite(options: ContractSuiteOptions = {}): Promise<void> {
  // Jest injects these globals into every test file; importing @jest/globals at run time would
  // tie this module to one copy of Jest.
  const g = globalThis as unknown as { expect: typeof JestExpect; describe: typeof JestDescribe; test: typeof JestTest; afterAll: typeof JestAfterAll };
  const runtime: Omit<SuiteRuntime, 'importer'> = {
    name: 'Jest',
    describe: g.describe,
    test: g.test,
    afterAll: g.afterAll,
    expect: g.expect as unknown as { extend(m: Record<string, unknown>): void; getState(): unknown },
  };
  if (!commonJsBuild && vmModules()) {
    // ES modules: the config and the tools it imports load through Jest's own transform.
    return defineContractSuite({ ...runtime, importer: esModuleImporter }, options);
  }
  // CommonJS only (Jest without Node's VM modules): the test file must define its tests before
  // it returns, so they are planned synchronously (src/suite-sync.ts). Called as
  // `contractSuite()`; the promise it gives is already settled, for `await contractSuite()`.
  defineContractSuiteSync({ ...runtime, importer: commonJsImporter }, options, defineContractSuite);
  return Promise.resolve();
}

declare const __PROMPT_CONTRACT_CJS__: boolean | undefined;
/** Whether this is the CommonJS build (scripts/bundle.mjs defines the name), which a test file `require`d. */
const commonJsBuild = typeof __PROMPT_CONTRACT_CJS__ !== 'undefined' && __PROMPT_CONTRACT_CJS__;

/** Whether this process can load ES modules inside Jest (`--experimental-vm-modules`). */
function vmModules(): boolean {
  return typeof (vm as { SourceTextModule?: unknown }).SourceTextModule === 'function';
}

/**
 * Inside Jest with VM modules: through Jest's own loader, so the project's transform applies.
 * TypeScript that Jest has no transform for (a `.cts` config under an ES module setup, a `.ts`
 * one in a project without ts-jest, a `.ts` module that a `.mjs` config imports) fails to parse
 * there, before any of it runs: it is then loaded as the CLI loads it, with jiti.
 */
const esModuleImporter: Importer = async (file) => {
  if (file.endsWith('.cts')) return jitiImport(file);
  try {
    return await import(pathToFileURL(file).href);
  } catch (error) {
    if (isTypeScriptLoadError(error)) return jitiImport(file);
    if ((error as { name?: unknown }).name === 'SyntaxError' && (typescript(file) || localModules(file).some(typescript))) return jitiImport(file);
    throw error;
  }
};

const typescript = (file: string): boolean => /\.[cm]?tsx?$/.test(file);

/**
 * Inside Jest without VM modules: a CommonJS file (`.cjs`, `.js` outside a `"type": "module"`
 * package) through Jest's own `require`, so the project's transform and mocks apply; any other
 * (TypeScript, ES modules) as the CLI loads it, with jiti.
 */
const commonJsImporter: Importer = async (file) => {
  if (file.endsWith('.cjs') || (file.endsWith('.js') && !isModuleScope(file))) return createRequire(import.meta.url)(file) as unknown;
  return jitiRequire(file);
};
