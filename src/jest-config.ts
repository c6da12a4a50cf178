import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** A Jest config object; typed loosely so this entry does not need Jest's types at run time. */
export type JestConfig = Record<string, unknown>;

export interface JestConfigOptions {
  /** The project folder; `process.cwd()` by default. */
  rootDir?: string;
  /**
   * Transform TypeScript test files with ts-jest in ESM mode. `auto` (the default) turns it on
   * when the project has ts-jest installed and a tsconfig.json.
   */
  typescript?: boolean | 'auto';
  /** The snapshot folder, kept out of watch mode; `snapshots` by default. */
  snapshots?: string;
}

function resolvable(name: string, rootDir: string): boolean {
  try {
    createRequire(join(rootDir, 'package.json')).resolve(name);
    return true;
  } catch {
    return false;
  }
}

const babelConfigs = ['babel.config.js', 'babel.config.cjs', 'babel.config.mjs', 'babel.config.json', 'babel.config.cts', 'babel.config.ts', '.babelrc', '.babelrc.json', '.babelrc.js', '.babelrc.cjs', '.babelrc.mjs'];

/** The project's package.json, or nothing when it has none that parses. */
function packageJson(rootDir: string): { type?: unknown; babel?: unknown } {
  try {
    const value: unknown = JSON.parse(readFileSync(join(rootDir, 'package.json'), 'utf8'));
    return typeof value === 'object' && value !== null ? value : {};
  } catch {
    return {};
  }
}

/** Whether the project has a Babel config: then its JavaScript tests rely on Jest's default transform, babel-jest. */
export function usesBabel(rootDir: string): boolean {
  return babelConfigs.some((name) => existsSync(join(rootDir, name))) || packageJson(rootDir).babel !== undefined;
}

/** Whether the package at `rootDir` is `"type": "module"`: its TypeScript already compiles to ES modules under NodeNext. */
function isModulePackage(rootDir: string): boolean {
  return packageJson(rootDir).type === 'module';
}

/**
 * Over a CommonJS package's tsconfig (`"module": "commonjs"`, or NodeNext in a package without
 * `"type": "module"`), ts-jest would emit CommonJS into Jest's ES module loader, and the config
 * and test file fail with "exports is not defined". Only the output format changes; the rest
 * of the project's tsconfig stands.
 */
const esmOutput = { module: 'esnext', moduleResolution: 'bundler' };

/**
 * A Jest config for a project that runs `contractSuite`: ES modules throughout (this package
 * ships only ES modules), `.mjs` and, with ts-jest, `.ts` test files, the snapshot folder out
 * of watch mode, and a global setup that says how to turn on Node's VM modules when Jest runs
 * without them. `overrides` are merged over it, so a project keeps its own settings:
 *
 * ```js
 * // jest.config.mjs
 * import { promptContractJestConfig } from 'prompt-contract/jest-config';
 * export default promptContractJestConfig({ testTimeout: 10_000 });
 * ```
 */
export function promptContractJestConfig(overrides: JestConfig = {}, options: JestConfigOptions = {}): JestConfig {
  const rootDir = options.rootDir ?? process.cwd();
  const typescript = options.typescript === undefined || options.typescript === 'auto' ? resolvable('ts-jest', rootDir) && existsSync(join(rootDir, 'tsconfig.json')) : options.typescript;
  const config: JestConfig = {
    testEnvironment: 'node',
    globalSetup: createRequire(import.meta.url).resolve('./jest-esm-check.cjs'),
    watchPathIgnorePatterns: [`<rootDir>/${options.snapshots ?? 'snapshots'}/`],
    // No transform for JavaScript, unless the project uses Babel: Jest's default (babel-jest) would turn ES modules into CommonJS.
    transform: {
      ...(typescript ? { '^.+\\.m?tsx?$': ['ts-jest', { useESM: true, ...(isModulePackage(rootDir) ? {} : { tsconfig: esmOutput }) }] } : {}),
      // A project that compiles its own JavaScript tests with Babel keeps babel-jest for them;
      // `.mjs` (the contract test) stays a native ES module.
      ...(usesBabel(rootDir) ? { '^.+\\.[cj]sx?$': 'babel-jest' } : {}),
    },
  };
  if (typescript) {
    config.extensionsToTreatAsEsm = ['.ts', '.tsx', '.mts'];
    // TypeScript's ESM imports name the emitted `.js` file; Jest must find the `.ts` source.
    config.moduleNameMapper = { '^(\\.{1,2}/.*)\\.js$': '$1' };
  }
  return { ...config, ...overrides };
}
