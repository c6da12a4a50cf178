// Issue #28 §3: one verdict in every config format. For each format a project holds the same
// config, a prompt with one stale example and one good one; `prompt-contract check` and the
// Jest suite (plain `jest`, CommonJS test files, and Jest with VM modules, ES module test
// files) must report the same findings, finding by finding (the suite's `report` option writes
// them as `check --format json` prints them).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliAsync, repo, spawnAsync, stableScratch } from '../cli/helpers.js';

const scratch = stableScratch('config-formats');
afterAll(() => { if (!process.env.KEEP_SCRATCH) scratch.remove(); });

const settings = {
  prompts: 'prompts',
  snapshots: 'snapshots',
  tools: [{ name: 'lookup_order', description: 'Look an order up.', input_schema: { type: 'object', properties: { order_id: { type: 'string', pattern: '^A-\\d+$' } }, required: ['order_id'], additionalProperties: false } }],
  providers: ['openai-strict'],
};
const body = JSON.stringify(settings, null, 2);

/** Each format: the config file, its text, and the package's `type`. */
const formats: Array<{ name: string; file: string; text: string; type?: 'module' }> = [
  { name: '.ts', file: 'prompt-contract.config.ts', text: `import { defineConfig } from 'prompt-contract';\n\nexport default defineConfig(${body});\n` },
  { name: '.mts', file: 'prompt-contract.config.mts', text: `import { defineConfig } from 'prompt-contract';\n\nexport default defineConfig(${body});\n` },
  { name: '.cts', file: 'prompt-contract.config.cts', text: `import { defineConfig } from 'prompt-contract';\n\nexport = defineConfig(${body});\n` },
  { name: '.mjs', file: 'prompt-contract.config.mjs', text: `export default ${body};\n` },
  { name: '.js in a CommonJS package', file: 'prompt-contract.config.js', text: `const { defineConfig } = require('prompt-contract');\n\nmodule.exports = defineConfig(${body});\n` },
  { name: '.js in an ES module package', file: 'prompt-contract.config.js', text: `import { defineConfig } from 'prompt-contract';\n\nexport default defineConfig(${body});\n`, type: 'module' },
  { name: '.cjs', file: 'prompt-contract.config.cjs', text: `module.exports = ${body};\n`, type: 'module' },
  { name: '.json', file: 'prompt-contract.config.json', text: `${body}\n` },
];

const prompt = [
  '---',
  'tools: [lookup_order]',
  '---',
  'You look orders up for {{user}}.',
  '<tool_call>',
  '{"name": "lookup_order", "arguments": {"order_id": "A-1"}}',
  '</tool_call>',
  '<tool_call>',
  '{"name": "lookup_order", "arguments": {"order_id": 7}}',
  '</tool_call>',
  '',
].join('\n');

const dirs = formats.map((_, i) => join(scratch.dir, `f${i}`));

interface Finding { ruleId: string; file?: string; line?: number; message: string }
const key = (d: Finding): string => `${d.ruleId} ${d.file ?? ''}:${d.line ?? ''} ${d.message}`;
const findings = (report: { diagnostics: Finding[] }): string[] => report.diagnostics.map(key).sort();

const jestBin = join(repo, 'node_modules/jest/bin/jest.js');

beforeAll(() => {
  formats.forEach((format, i) => {
    const dir = dirs[i]!;
    mkdirSync(join(dir, 'prompts', 'cases'), { recursive: true });
    mkdirSync(join(dir, 'test'), { recursive: true });
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    symlinkSync(repo, join(dir, 'node_modules', 'prompt-contract'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `format-${i}`, private: true, ...(format.type ? { type: format.type } : {}) }));
    writeFileSync(join(dir, format.file), format.text);
    writeFileSync(join(dir, 'prompts', 'agent.prompt'), prompt);
    writeFileSync(join(dir, 'prompts', 'cases', 'agent.yaml'), 'prompt: agent\ncases:\n  basic:\n    input:\n      user: Ada\n');
    // Plain `jest`: CommonJS. Jest with VM modules: an ES module.
    writeFileSync(join(dir, 'test', 'contract.test.cjs'), `const { contractSuite } = require('prompt-contract/jest');\n\ncontractSuite({ report: ${JSON.stringify(join(dir, 'report-cjs.json'))} });\n`);
    writeFileSync(join(dir, 'test', 'contract.test.mjs'), `import { contractSuite } from 'prompt-contract/jest';\n\nawait contractSuite({ report: ${JSON.stringify(join(dir, 'report-esm.json'))} });\n`);
  });
});

/** One Jest process over every project (Jest's `projects`), as its users would run it in each. */
async function jestOver(mode: 'cjs' | 'esm'): Promise<{ code: number; out: string }> {
  const projects = dirs.map((rootDir) => ({
    rootDir,
    displayName: rootDir,
    testEnvironment: 'node',
    testMatch: [`<rootDir>/test/contract.test.${mode === 'cjs' ? 'cjs' : 'mjs'}`],
    // With VM modules, the TypeScript config goes through Jest's transform as ES modules.
    ...(mode === 'esm' ? { transform: { '^.+\\.m?ts$': ['ts-jest', { useESM: true, isolatedModules: true, tsconfig: { module: 'esnext', moduleResolution: 'bundler', target: 'es2022', esModuleInterop: true } }] }, extensionsToTreatAsEsm: ['.ts', '.mts'] } : { transform: {} }),
  }));
  const config = join(scratch.dir, `jest.${mode}.json`);
  writeFileSync(config, JSON.stringify({ projects }));
  const { NODE_OPTIONS: _dropped, ...env } = process.env;
  const flags = mode === 'esm' ? ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning'] : [];
  const r = await spawnAsync(process.execPath, [...flags, jestBin, '--config', config, '--ci'], { cwd: scratch.dir, env: { ...env, CI: 'true', NO_COLOR: '1' } });
  return { code: r.code, out: `${r.stdout}\n${r.stderr}` };
}

describe('one verdict in every config format', () => {
  let cli: Map<string, string[]>;
  let cjs: { code: number; out: string };
  let esm: { code: number; out: string };

  beforeAll(async () => {
    const checks = await Promise.all(dirs.map((dir) => cliAsync(['check', '--format', 'json'], { cwd: dir, env: { CI: 'true' } })));
    cli = new Map(checks.map((r, i) => [dirs[i]!, r.code === 2 ? [`could not run: ${r.stderr}`] : findings(JSON.parse(r.stdout) as { diagnostics: Finding[] })]));
    cjs = await jestOver('cjs');
    esm = await jestOver('esm');
  }, 240_000);

  test.each(formats.map((f, i) => [f.name, i] as const))('%s: check, plain jest and jest with VM modules report the same findings', (_name, i) => {
    const dir = dirs[i]!;
    const fromCli = cli.get(dir)!;
    // The stale example, the missing snapshots (nothing written under CI), and the strict-mode lint.
    expect(fromCli).toEqual(expect.arrayContaining([expect.stringMatching(/^example\/invalid-arguments prompts\/agent\.prompt:8 /), expect.stringMatching(/^snapshot\/missing /)]));
    // One Jest process ran every project from their parent folder: a snapshot path is shown from
    // there (`f0/snapshots/...`), where `check`, run in the project, shows it from the project.
    const prefix = `f${i}/`;
    const fromRoot = (d: Finding): Finding => (d.file?.startsWith(prefix) ? { ...d, file: d.file.slice(prefix.length) } : d);
    const read = (file: string): string[] => findings({ diagnostics: (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { diagnostics: Finding[] }).diagnostics.map(fromRoot) });
    expect(read('report-cjs.json')).toEqual(fromCli);
    expect(read('report-esm.json')).toEqual(fromCli);
  });

  test('both Jest runs fail, as check exits 1', () => {
    expect(cjs.code).toBe(1);
    expect(esm.code).toBe(1);
    expect(cjs.out).not.toContain('Unexpected key');
    expect(esm.out).not.toContain('Unexpected key');
  });
});
