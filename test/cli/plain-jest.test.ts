// Issue #28 §1: a project whose test script is plain `jest` (no --experimental-vm-modules, no
// NODE_OPTIONS) passes after `init`, in CommonJS and ES module packages, JavaScript and
// TypeScript. Each project is made by init, then Jest runs as the project's `npm test` would:
// Jest's bin with no flag, in the project folder, with the project's own Jest config or none.
import { afterAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { initProject } from '../../src/init.js';
import { repo, spawnAsync, stableScratch } from './helpers.js';

const scratch = stableScratch('plain-jest');
afterAll(() => scratch.remove());

const jestBin = join(repo, 'node_modules/jest/bin/jest.js');

function project(name: string, files: Record<string, string>, links: string[] = []): string {
  const dir = join(scratch.dir, name);
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  // As installed: the package under node_modules (its CommonJS build is what `require` finds).
  symlinkSync(repo, join(dir, 'node_modules', 'prompt-contract'), 'dir');
  for (const pkg of links) symlinkSync(join(repo, 'node_modules', pkg), join(dir, 'node_modules', pkg), 'dir');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

/** `jest` as npm runs the script: no Node flag, no NODE_OPTIONS. */
async function jest(dir: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  const { NODE_OPTIONS: _dropped, ...rest } = process.env;
  const r = await spawnAsync(process.execPath, [jestBin, ...args], { cwd: dir, env: { ...rest, NO_COLOR: '1', FORCE_COLOR: '0', ...env } });
  return { code: r.code, out: `${r.stdout}\n${r.stderr}` };
}

/** npm's placeholder: init replaces it with the test script it writes. */
const placeholder = 'echo "Error: no test specified" && exit 1';

const cases: Array<[string, Record<string, string>, string[], string]> = [
  ['a CommonJS JavaScript package', { 'package.json': JSON.stringify({ name: 'cjs-js', private: true, scripts: { test: placeholder } }) }, [], 'test/prompts.contract.test.js'],
  ['an ES module JavaScript package', { 'package.json': JSON.stringify({ name: 'esm-js', private: true, type: 'module', scripts: { test: placeholder } }) }, [], 'test/prompts.contract.test.cjs'],
  [
    'a TypeScript package with ts-jest (CommonJS output, isolatedModules)',
    {
      'package.json': JSON.stringify({ name: 'ts-cjs', private: true, scripts: { test: placeholder }, devDependencies: { 'ts-jest': '*', typescript: '^5' } }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', target: 'es2022', strict: true, esModuleInterop: true, skipLibCheck: true, isolatedModules: true } }),
      'jest.config.js': "module.exports = { testEnvironment: 'node', transform: { '^.+\\\\.ts$': ['ts-jest', { isolatedModules: true }] } };\n",
    },
    ['ts-jest'],
    'test/prompts.contract.test.ts',
  ],
  [
    // ts-jest's default: every test file type-checked. A CommonJS tsconfig resolves modules as
    // Node 10 did, without package.json `exports`: the package's typesVersions serve it.
    'a TypeScript package with ts-jest type-checking (Node 10 module resolution)',
    {
      'package.json': JSON.stringify({ name: 'ts-checked', private: true, scripts: { test: placeholder }, devDependencies: { 'ts-jest': '*', typescript: '^5' } }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', target: 'es2022', strict: true, esModuleInterop: true, skipLibCheck: true } }),
      'jest.config.js': "module.exports = { testEnvironment: 'node', transform: { '^.+\\\\.ts$': 'ts-jest' } };\n",
    },
    ['ts-jest'],
    'test/prompts.contract.test.ts',
  ],
];

describe('plain `jest` after init', () => {
  test.each(cases)('in %s: writes snapshots, passes on CI, and fails on a drift with the rule id', async (_what, files, links, suite) => {
    const dir = project(String(cases.findIndex((c) => c[0] === _what)), files, links);
    const result = initProject(dir);
    expect(result.steps).toContainEqual({ file: suite, action: 'created' });
    expect((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: { test: string } }).scripts.test).toBe('jest');
    // First local run: writes the snapshots.
    const first = await jest(dir, [], { CI: 'false' });
    expect(first.out).not.toContain('VM modules');
    expect(first.out).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect(first.code).toBe(0);
    // On CI: nothing written, everything matches.
    const ci = await jest(dir, ['--ci'], { CI: 'true' });
    expect(ci.code).toBe(0);
    // A drift: the scaffold's example no longer fits the schema.
    const examples = join(dir, 'prompts/examples/assistant.yaml');
    writeFileSync(examples, readFileSync(examples, 'utf8').replace('unit: fahrenheit', 'unit: kelvin'));
    const drift = await jest(dir, ['--ci'], { CI: 'true' });
    expect(drift.code).toBe(1);
    expect(drift.out).toContain('example/invalid-arguments');
    expect(drift.out).toContain('prompts/examples/assistant.yaml');
  }, 180_000);

  test('a config that cannot load fails the test file with its place, as `check` says it', async () => {
    const dir = project('broken-config', { 'package.json': JSON.stringify({ name: 'broken', private: true, scripts: { test: placeholder } }) });
    initProject(dir);
    writeFileSync(join(dir, 'prompt-contract.config.mjs'), "export default { tools: 'prompts/tools.json', prompts: 'prompts', nonsense: 1 };\n");
    const r = await jest(dir, ['--ci'], { CI: 'true' });
    expect(r.code).toBe(1);
    expect(r.out).toContain('prompt-contract.config.mjs');
    expect(r.out).toContain('nonsense');
  }, 120_000);
});
