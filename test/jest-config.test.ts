import { describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// From the build: the helper names its global setup by the built file's name (jest-esm-check.cjs).
import { promptContractJestConfig } from '../dist/jest-config.js';
import { repo } from './cli/helpers.js';

// scripts/pack-test.mjs runs these configs in real projects; here, what the helper writes for each kind of package.
describe('promptContractJestConfig', () => {
  const scratch = join(repo, '.cache', 'jest-config');

  function project(pkg: Record<string, unknown>): string {
    mkdirSync(scratch, { recursive: true });
    const dir = mkdtempSync(join(scratch, 'p-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
    // ts-jest resolves from this repository's node_modules, as from a project's own.
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs' } }));
    return dir;
  }

  test('in a CommonJS package, ts-jest emits ES modules for Jest (only the output format is overridden)', () => {
    for (const pkg of [{ name: 'a' }, { name: 'b', type: 'commonjs' }]) {
      const dir = project(pkg);
      try {
        expect(promptContractJestConfig({}, { rootDir: dir }).transform).toEqual({ '^.+\\.m?tsx?$': ['ts-jest', { useESM: true, tsconfig: { module: 'esnext', moduleResolution: 'bundler' } }] });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  test('in an ES module package the project tsconfig is used as it is', () => {
    const dir = project({ name: 'c', type: 'module' });
    try {
      expect(promptContractJestConfig({}, { rootDir: dir }).transform).toEqual({ '^.+\\.m?tsx?$': ['ts-jest', { useESM: true }] });
      // Without TypeScript, no transform: Jest's default would turn ES modules into CommonJS.
      expect(promptContractJestConfig({}, { rootDir: dir, typescript: false }).transform).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a project with a Babel config keeps babel-jest for its JavaScript tests; `.mjs` stays native", () => {
    for (const [file, text] of [['babel.config.js', "module.exports = { presets: ['@babel/preset-env'] };"], ['.babelrc', '{}']] as const) {
      const dir = project({ name: 'd' });
      try {
        writeFileSync(join(dir, file), text);
        const transform = promptContractJestConfig({}, { rootDir: dir, typescript: false }).transform as Record<string, unknown>;
        expect(transform).toEqual({ '^.+\\.[cj]sx?$': 'babel-jest' });
        expect(new RegExp(Object.keys(transform)[0]!).test('src/sum.test.js')).toBe(true);
        expect(new RegExp(Object.keys(transform)[0]!).test('test/prompts.contract.test.mjs')).toBe(false);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    const inPackage = project({ name: 'e', babel: { presets: [] } });
    try {
      expect(promptContractJestConfig({}, { rootDir: inPackage, typescript: false }).transform).toEqual({ '^.+\\.[cj]sx?$': 'babel-jest' });
    } finally {
      rmSync(inPackage, { recursive: true, force: true });
    }
  });
});
