// A `prompt-contract.config.mjs` (as `init` writes it) that imports a TypeScript module
// (`import { tools } from './src/tools.ts'`): `check` loads it with jiti and passes, while the
// suites failed with `Cannot load the config: Unknown file extension ".ts"`: plain `jest` (its
// worker imported the config with Node's own `import()`), Vitest (the same, from the installed
// package) and Jest with VM modules (Jest's transform, without a TypeScript one, cannot parse
// the module). Each must give the verdict `check` gives.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliAsync, repo, spawnAsync, stableScratch } from '../cli/helpers.js';

const scratch = stableScratch('ts-import-config');
afterAll(() => { if (!process.env.KEEP_SCRATCH) scratch.remove(); });

const jestBin = join(repo, 'node_modules/jest/bin/jest.js');
const vitestBin = join(repo, 'node_modules/vitest/vitest.mjs');

/** A project whose `.mjs` config imports its tools from a TypeScript file (a type annotation Node cannot read). */
function project(name: string, pkg: Record<string, unknown> = {}): string {
  const dir = join(scratch.dir, name);
  mkdirSync(join(dir, 'prompts', 'cases'), { recursive: true });
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'test'), { recursive: true });
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, ...pkg }));
  writeFileSync(join(dir, 'src', 'tools.ts'), [
    'interface Tool { name: string; description: string; input_schema: Record<string, unknown> }',
    '',
    "export const tools: Tool[] = [{ name: 'lookup_order', description: 'Look an order up.', input_schema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } }];",
    '',
  ].join('\n'));
  writeFileSync(join(dir, 'prompt-contract.config.mjs'), "import { defineConfig } from 'prompt-contract';\nimport { tools } from './src/tools.ts';\n\nexport default defineConfig({ prompts: 'prompts', snapshots: 'snapshots', tools });\n");
  writeFileSync(join(dir, 'prompts', 'agent.prompt'), '---\ntools: [lookup_order]\n---\nYou look orders up for {{user}}.\n');
  writeFileSync(join(dir, 'prompts', 'cases', 'agent.yaml'), 'prompt: agent\ncases:\n  basic:\n    input:\n      user: Ada\n');
  return dir;
}

// A local run has no `CI` at all: Vitest takes any value of it, `false` too, for CI.
const { NODE_OPTIONS: _dropped, CI: _ci, ...baseEnv } = process.env;
const env = (ci: boolean): NodeJS.ProcessEnv => ({ ...baseEnv, ...(ci ? { CI: 'true' } : {}), NO_COLOR: '1', FORCE_COLOR: '0' });

/** Jest in `dir` as its users run it: plain `jest` over `test/contract.test.cjs`, or with VM modules over `test/contract.test.mjs`. */
async function jest(dir: string, mode: 'cjs' | 'esm', ci: boolean): Promise<{ code: number; out: string }> {
  const flags = mode === 'esm' ? ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning'] : [];
  const r = await spawnAsync(process.execPath, [...flags, jestBin, '--config', `jest.${mode}.json`, ...(ci ? ['--ci'] : [])], { cwd: dir, env: env(ci) });
  return { code: r.code, out: `${r.stdout}\n${r.stderr}` };
}

async function vitest(dir: string, ci: boolean): Promise<{ code: number; out: string }> {
  const r = await spawnAsync(process.execPath, [vitestBin, 'run'], { cwd: dir, env: env(ci) });
  return { code: r.code, out: `${r.stdout}\n${r.stderr}` };
}

let jestProject: string;
let vitestProject: string;

beforeAll(() => {
  // Jest: the package linked in, as format-matrix.test.ts does; a CommonJS package (npm's default).
  jestProject = project('jest');
  symlinkSync(repo, join(jestProject, 'node_modules', 'prompt-contract'), 'dir');
  writeFileSync(join(jestProject, 'test', 'contract.test.cjs'), "const { contractSuite } = require('prompt-contract/jest');\n\ncontractSuite();\n");
  writeFileSync(join(jestProject, 'test', 'contract.test.mjs'), "import { contractSuite } from 'prompt-contract/jest';\n\nawait contractSuite();\n");
  // No TypeScript transform: Jest's default (babel-jest) cannot read `src/tools.ts`.
  writeFileSync(join(jestProject, 'jest.cjs.json'), JSON.stringify({ testEnvironment: 'node', testMatch: ['<rootDir>/test/contract.test.cjs'] }));
  writeFileSync(join(jestProject, 'jest.esm.json'), JSON.stringify({ testEnvironment: 'node', testMatch: ['<rootDir>/test/contract.test.mjs'] }));

  // Vitest: the package installed as a copy, as npm installs it. Vitest runs a package in
  // node_modules in plain Node; a linked one it would transform itself, reading `.ts` on its own.
  vitestProject = project('vitest', { type: 'module' });
  const installed = join(vitestProject, 'node_modules', 'prompt-contract');
  mkdirSync(installed);
  cpSync(join(repo, 'package.json'), join(installed, 'package.json'));
  cpSync(join(repo, 'dist'), join(installed, 'dist'), { recursive: true });
  writeFileSync(join(vitestProject, 'test', 'contract.test.mjs'), "import { contractSuite } from 'prompt-contract/vitest';\n\nawait contractSuite();\n");
  writeFileSync(join(vitestProject, 'vitest.config.mjs'), "export default { test: { include: ['test/contract.test.mjs'] } };\n");
});

test('plain jest and jest with VM modules load a .mjs config that imports TypeScript, as check does', async () => {
  // A local run writes the snapshots; then check and both Jest setups pass under CI.
  const written = await jest(jestProject, 'cjs', false);
  expect(written.out).not.toContain('Unknown file extension');
  expect({ code: written.code, out: written.out }).toEqual({ code: 0, out: expect.stringContaining('2 snapshots written') });
  const check = await cliAsync(['check'], { cwd: jestProject, env: { CI: 'true' } });
  expect({ code: check.code, stderr: check.stderr }).toEqual({ code: 0, stderr: '' });
  expect(check.stdout).toContain('No problems found.');
  const [cjs, esm] = await Promise.all([jest(jestProject, 'cjs', true), jest(jestProject, 'esm', true)]);
  expect({ code: cjs.code, out: cjs.out }).toEqual({ code: 0, out: expect.stringContaining('Tests:       7 passed, 7 total') });
  expect({ code: esm.code, out: esm.out }).toEqual({ code: 0, out: expect.stringContaining('Tests:       7 passed, 7 total') });
}, 120_000);

test('vitest loads a .mjs config that imports TypeScript, as check does', async () => {
  const written = await vitest(vitestProject, false);
  expect(written.out).not.toContain('Unknown file extension');
  expect({ code: written.code, out: written.out }).toEqual({ code: 0, out: expect.stringMatching(/Snapshots\s+2 written/) });
  const check = await cliAsync(['check'], { cwd: vitestProject, env: { CI: 'true' } });
  expect({ code: check.code, stderr: check.stderr }).toEqual({ code: 0, stderr: '' });
  expect(check.stdout).toContain('No problems found.');
  const ci = await vitest(vitestProject, true);
  expect({ code: ci.code, out: ci.out }).toEqual({ code: 0, out: expect.stringMatching(/Tests\s+7 passed/) });
}, 120_000);
