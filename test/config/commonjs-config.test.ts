// Issue #28 §3: a CommonJS `prompt-contract.config.js` (`module.exports = {...}` in a package
// without "type": "module") got opposite verdicts: `check` passed, and the Jest suite failed
// with "Unexpected key `default`... `module.exports`". Both now read it as its object.
import { afterAll, expect, test } from '@jest/globals';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addJestSuite, cli, runJestAsync, stableScratch } from '../cli/helpers.js';

const scratch = stableScratch('commonjs-config');
const dir = join(scratch.dir, 'project');
afterAll(() => scratch.remove());

const tool = { name: 'lookup_order', description: 'Look an order up.', input_schema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } };

test('check and the Jest suite give one verdict on a CommonJS config', async () => {
  mkdirSync(join(dir, 'prompts', 'cases'), { recursive: true });
  mkdirSync(join(dir, 'snapshots'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'cjs-project', private: true }));
  writeFileSync(join(dir, 'prompt-contract.config.js'), `module.exports = ${JSON.stringify({ prompts: 'prompts', snapshots: 'snapshots', tools: [tool] })};\n`);
  writeFileSync(join(dir, 'prompts', 'agent.prompt'), '---\ntools: [lookup_order]\n---\nYou look orders up for {{user}}.\n');
  writeFileSync(join(dir, 'prompts', 'cases', 'agent.yaml'), 'prompt: agent\ncases:\n  basic:\n    input:\n      user: Ada\n');
  addJestSuite(dir);
  // The suite as an ES module file: in a CommonJS package a `.ts` test would be compiled to CommonJS, where top-level await cannot stand.
  rmSync(join(dir, 'test', 'prompts.test.ts'));
  writeFileSync(join(dir, 'test', 'prompts.test.mjs'), "import { contractSuite } from 'prompt-contract/jest';\n\nawait contractSuite();\n");
  const written = await runJestAsync(dir, ['-u'], { CI: 'false' });
  expect(written.out).not.toContain("Unexpected key");
  expect(written.code).toBe(0);
  const suite = await runJestAsync(dir, [], { CI: 'true' });
  expect(suite.code).toBe(0);
  const check = cli(['check'], { cwd: dir });
  expect({ code: check.code, stderr: check.stderr }).toEqual({ code: 0, stderr: '' });
  expect(check.stdout).toContain('No problems found.');
}, 120_000);
