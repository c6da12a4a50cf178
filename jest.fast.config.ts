/**
 * @jest-config-loader ts-node
 * @jest-config-loader-options {"transpileOnly": true, "compilerOptions": {"module": "CommonJS", "moduleResolution": "Node10"}}
 */
// `npm run test:fast`: the suite without the test files that start processes (the CLI, Jest,
// Vitest, npm), open databases or worker threads. Those files are found by what they call, not
// listed by hand, so a new one is left out of the fast run without anyone remembering to.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Config } from 'jest';
import base from './jest.config';

const slowCalls = /spawnSync|spawnAsync|cliAsync|\bspawn\(|execFile|runJest|JestBatch|\bcli\(\[|\bcli\(args|vitest\(|new Worker|PROMPT_CONTRACT_PG_URL|better-sqlite3|pack-test|PROMPT_CONTRACT_WORKERS|workers: [2-9]/;

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'fixtures' || name === 'node_modules') return [];
    return statSync(path).isDirectory() ? testFiles(path) : name.endsWith('.test.ts') ? [path] : [];
  });
}

const slow = testFiles(join(__dirname, 'test')).filter((file) => slowCalls.test(readFileSync(file, 'utf8')));

const config: Config = {
  ...base,
  setupFiles: [...(base.setupFiles ?? []), '<rootDir>/test/setup/fast.ts'],
  testPathIgnorePatterns: [...(base.testPathIgnorePatterns ?? []), ...slow.map((file) => `<rootDir>/${relative(__dirname, file).replaceAll('\\', '/')}$`)],
};

export default config;
