import { describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { initProject } from '../src/init.js';
import { defineContractSuite } from '../src/suite.js';
import { repo } from './cli/helpers.js';

/** The tests a suite defines, from a runtime that only records them, as Jest would see the file at `testPath`. */
async function definedTests(testPath: string | undefined, options: Parameters<typeof defineContractSuite>[1] = {}): Promise<string[]> {
  const names: string[] = [];
  await defineContractSuite(
    {
      name: 'recorder',
      describe: (name, fn) => {
        names.push(`describe: ${name}`);
        fn();
      },
      test: (name) => {
        names.push(name);
      },
      afterAll: () => {},
      expect: { extend: () => {}, getState: () => (testPath === undefined ? {} : { testPath }) },
      importer: (file) => import(pathToFileURL(file).href),
    },
    { cache: false, ...options },
  );
  return names;
}

describe('the project a contract suite checks', () => {
  // A project nested in this repository, whose own config (the demo's) is in the working directory.
  const scratch = join(repo, '.cache', 'suite-project');

  test("is the nearest folder with a config above the test file, not the runner's working directory", async () => {
    mkdirSync(scratch, { recursive: true });
    const dir = mkdtempSync(join(scratch, 'p-'));
    try {
      mkdirSync(join(dir, 'node_modules'));
      symlinkSync(repo, join(dir, 'node_modules', 'prompt-contract'), 'dir');
      initProject(dir);
      const nested = await definedTests(join(dir, 'test', 'prompts.contract.test.mjs'));
      expect(nested[0]).toBe('describe: prompt-contract (prompt-contract.config.mjs)');
      expect(nested.some((n) => n.startsWith('assistant / '))).toBe(true);
      // Without a test path (another runner), and with `cwd` given, the working directory and `cwd` decide.
      expect((await definedTests(undefined))[0]).toBe('describe: prompt-contract (prompt-contract.config.ts)');
      expect((await definedTests(join(dir, 'test', 'x.test.mjs'), { cwd: repo }))[0]).toBe('describe: prompt-contract (prompt-contract.config.ts)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
