import { describe, expect, test } from '@jest/globals';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { cli, cliInProcess, report, withDemo, type demoCopy } from '../cli/helpers.js';

// Misspelled config keys, through the real binary, for every kind of config file (each kind is
// imported its own way). The tests of what is reported run the CLI in this process (see cliInProcess).

type Demo = ReturnType<typeof demoCopy>;

const check = (dir: string) => cli(['check', '--format', 'json'], { cwd: dir });
const checkInProcess = (dir: string) => cliInProcess(['check', '--format', 'json'], { cwd: dir });

/** 1-based line and column of the first `token` in `text`. */
function at(text: string, token: string): { line: number; column: number } {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(token));
  if (line === -1) throw new Error(`${token} not in the text`);
  return { line: line + 1, column: lines[line]!.indexOf(token) + 1 };
}

/** Replaces the demo's TypeScript config by `file`; the tools come from the committed baseline, as a JSON tools file. */
function useConfig(demo: Demo, file: string, text: string): void {
  demo.write('tools.json', JSON.stringify((JSON.parse(demo.read('snapshots/tools.json')) as { tools: unknown[] }).tools));
  rmSync(join(demo.dir, 'prompt-contract.config.ts'));
  demo.write(file, text);
}

/** `check` exits 1 and reports each misspelled key at its place, with the key it means. */
function expectUnknownKeys(demo: Demo, file: string, keys: Array<[token: string, key: string, meant: string]>): void {
  const result = check(demo.dir);
  const text = demo.read(file);
  expect(result.code).toBe(1);
  const hits = report(result).diagnostics.filter((d) => d.ruleId === 'config/unknown-key');
  const expected = keys.map(([token, key, meant]) => ({ file, ...at(text, token), message: expect.stringMatching(new RegExp(`^Unexpected key \`${key}\` in the config, expected \`${meant}\`: `)) }));
  expect(hits).toEqual(expected.sort((a, b) => a.line - b.line).map((e) => expect.objectContaining(e)));
}

const misspelled: Array<[string, string, string]> = [
  ['descripitons', 'descripitons', 'descriptions'],
  ['recoded', 'recoded', 'recorded'],
  ['provider', 'provider', 'providers'],
];

describe('a misspelled key is config/unknown-key at its file, line and column', () => {
  test('.ts', () =>
    withDemo((demo) => {
      const file = 'prompt-contract.config.ts';
      demo.edit(file, 'descriptions:', 'descripitons:');
      demo.edit(file, 'recorded:', 'recoded:');
      demo.edit(file, 'providers:', 'provider:');
      expectUnknownKeys(demo, file, misspelled.map(([token, ...rest]) => [`${token}:`, ...rest]));
    }));

  test('.mjs, keys quoted or not', () =>
    withDemo((demo) => {
      const file = 'prompt-contract.config.mjs';
      useConfig(demo, file, "export default {\n  tools: 'tools.json',\n  'descripitons': 'prompts/tools/descriptions.yaml',\n  recoded: ['prompts/observed/recorded_calls.jsonl'],\n  \"provider\": ['anthropic'],\n};\n");
      expectUnknownKeys(demo, file, [["'descripitons'", 'descripitons', 'descriptions'], ['recoded:', 'recoded', 'recorded'], ['"provider"', 'provider', 'providers']]);
    }));

  test('.js, through defineConfig', () =>
    withDemo((demo) => {
      const file = 'prompt-contract.config.js';
      useConfig(demo, file, "import { defineConfig } from 'prompt-contract';\n\n// The recorded calls live next to the prompts.\nexport default defineConfig({\n  tools: 'tools.json',\n  descripitons: 'prompts/tools/descriptions.yaml',\n  recoded: ['prompts/observed/recorded_calls.jsonl'],\n  provider: ['anthropic'],\n});\n");
      expectUnknownKeys(demo, file, misspelled.map(([token, ...rest]) => [`${token}:`, ...rest]));
    }));

  test('.json', () =>
    withDemo((demo) => {
      const file = 'prompt-contract.config.json';
      useConfig(demo, file, `${JSON.stringify({ tools: 'tools.json', descripitons: 'prompts/tools/descriptions.yaml', recoded: ['prompts/observed/recorded_calls.jsonl'], provider: ['anthropic'] }, null, 2)}\n`);
      expectUnknownKeys(demo, file, misspelled.map(([token, ...rest]) => [`"${token}"`, ...rest]));
    }));
});

test('a misspelled `descriptions` is the first error, ahead of the snapshots that differ because of it', () =>
  withDemo(async (demo) => {
    const file = 'prompt-contract.config.ts';
    demo.edit(file, 'descriptions:', 'descripitons:');
    const result = await checkInProcess(demo.dir);
    expect(result.code).toBe(1);
    const { diagnostics } = report(result);
    const errors = diagnostics.filter((d) => d.severity === 'error');
    // The run goes on without descriptions: the rendered prompts lose them and differ from their snapshots.
    expect(errors.some((d) => d.ruleId === 'snapshot/outdated')).toBe(true);
    expect(errors[0]).toMatchObject({ ruleId: 'config/unknown-key', file, ...at(demo.read(file), 'descripitons:'), message: expect.stringContaining('so this run has no `descriptions`') });
  }));

test('a misspelled key inside a persisted source', () =>
  withDemo(async (demo) => {
    const file = 'prompt-contract.config.ts';
    demo.edit(file, /(\n\s+query: )/, '\n      timeoutMS: 30_000,$1');
    const result = await checkInProcess(demo.dir);
    const hits = report(result).diagnostics.filter((d) => d.ruleId === 'config/unknown-key');
    expect(hits).toEqual([expect.objectContaining({ file, ...at(demo.read(file), 'timeoutMS:'), message: expect.stringMatching(/^Unexpected key `timeoutMS` in `persisted\[0\]`, expected `timeoutMs`: /) })]);
    expect(result.code).toBe(1);
  }));

describe('cannot run: exit 2 naming the key, at its line', () => {
  test('a known key with a value of the wrong type', () =>
    withDemo(async (demo) => {
      const file = 'prompt-contract.config.json';
      useConfig(demo, file, `${JSON.stringify({ tools: 'tools.json', recorded: 'prompts/observed/recorded_calls.jsonl' }, null, 2)}\n`);
      const { line, column } = at(demo.read(file), '"recorded"');
      const result = await cliInProcess(['check'], { cwd: demo.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${file}:${line}:${column}: Expected \`recorded\` to be a list of JSONL file paths (config/invalid)`);
      const json = await checkInProcess(demo.dir);
      expect(json.code).toBe(2);
      expect(report(json).diagnostics).toEqual([expect.objectContaining({ ruleId: 'config/invalid', line, column })]);
    }));

  test('a misspelled key a source needs: the error says which key was meant', () =>
    withDemo(async (demo) => {
      const file = 'prompt-contract.config.ts';
      demo.edit(file, /(\n\s+)query: /, '$1qurey: ');
      const result = await cliInProcess(['check'], { cwd: demo.dir });
      expect(result.code).toBe(2);
      const { line, column } = at(demo.read(file), 'qurey:');
      expect(result.stderr).toMatch(new RegExp(`${file}:${line}:${column}: Expected \`persisted\\[0\\]\` to have .*; did you mean \`query\` instead of \`qurey\`\\? \\(config/invalid\\)`));
    }));
});

test('an ES module `.js` config in a CommonJS package says to rename it, as the README does', () =>
  withDemo((demo) => {
    useConfig(demo, 'prompt-contract.config.js', "import { defineConfig } from 'prompt-contract';\nexport default defineConfig({ tools: './tools.json' });\n");
    demo.write('package.json', JSON.stringify({ name: 'agent', type: 'commonjs' }));
    const r = cli(['check'], { cwd: demo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/prompt-contract\.config\.js:1:1: Cannot load the config: Cannot use import statement outside a module; this package is CommonJS .*: rename it to `prompt-contract\.config\.mjs` or `\.ts` \(config\/load-failed\)/);
  }));
