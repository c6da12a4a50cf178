/**
 * @jest-config-loader ts-node
 * @jest-config-loader-options {"transpileOnly": true, "compilerOptions": {"module": "CommonJS", "moduleResolution": "Node10"}}
 */
// One docblock: Jest reads only the first, and without `transpileOnly` ts-node type-checks
// this file (and the Jest types it imports) on every run, seconds before any test starts.
import type { Config } from 'jest';

// ESM throughout: unified and remark ship only as ES modules, so Jest runs with
// --experimental-vm-modules (see the "test" script) and ts-jest emits ESM.
const config: Config = {
  testEnvironment: 'node',
  // Jest's default leaves one core idle; the CLI tests mostly wait on child processes.
  maxWorkers: '100%',
  // Property tests and spawned CLIs take a second alone and several on a loaded CI machine;
  // tests that prove something ends quickly measure that themselves.
  testTimeout: 30_000,
  // After the last test file a worker holds no handle but its IPC channel and stdio, and its
  // `exit` event comes 2 ms after Jest asks it to end; but it has grown to 1.7–2.2 GB (one ES
  // module registry per test file), and the process took 1.2–1.6 s more to be gone (measured
  // 6 December on 2 cores). Past Jest's default 500 ms it was killed and the run printed "A
  // worker process has failed to exit gracefully". A handle left open keeps a worker alive
  // for ever, so it is still caught, 5 s later.
  workerGracefulExitTimeout: 5_000,
  extensionsToTreatAsEsm: ['.ts'],
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Full runs unless jest.fast.config.ts says otherwise (test/helpers/runs.ts).
  setupFiles: ['<rootDir>/test/setup/full.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/setup/markdown.ts'],
  moduleNameMapper: {
    // The demo imports the package by name, as a user's project would; tests use the source.
    '^prompt-contract$': '<rootDir>/src/index.ts',
    '^prompt-contract/jest$': '<rootDir>/src/jest.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
  // Golden folders and scratch copies are data, not tests.
  testPathIgnorePatterns: ['/node_modules/', '/fixtures/'],
  watchPathIgnorePatterns: ['<rootDir>/snapshots/'],
};

export default config;
