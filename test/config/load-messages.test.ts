// What the command line says about a config that does not load: where the syntax error is, as
// `file:line:column`, on one line; and a config with no default export is told so, not asked for `tools`.
import { expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../cli/helpers.js';

function check(name: string, text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'pc-config-msg-'));
  try {
    writeFileSync(join(dir, name), text);
    return cli(['check'], { cwd: dir, timeout: 60_000 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test.each([
  ['prompt-contract.config.mjs', 'export default {\n  tools: [,\n  prompts: = "p",\n};\n', 3],
  ['prompt-contract.config.ts', 'const limit: number = ;\nexport default {};\n', 1],
])('a syntax error in %s: exit 2 at its line, the message on one line', (name, text, line) => {
  const r = check(name, text);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(new RegExp(`${name.replace(/\./g, '\\.')}:${line}:\\d+: Cannot load the config: ParseError: Unexpected token[^\\n]* \\(config/load-failed\\)\\n$`));
  expect(r.stderr).not.toContain('\\n');
});

test.each([
  ['only named exports', 'export const config = { tools: [] };\nexport const other = 1;\n', 'it exports only `config`, `other`'],
  ['no export at all', 'const config = { tools: [] };\n', 'it exports nothing'],
  ['a null default export', 'export default null;\n', 'its default export is null'],
])('a config with %s is told to export its settings as the default', (_what, text, found) => {
  const r = check('prompt-contract.config.mjs', text);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("Expected the settings as the config's default export (`export default defineConfig({ tools, ... })`");
  expect(r.stderr).toContain(`${found} (config/invalid)`);
});

test('a default export without `tools` is still asked for `tools`', () => {
  const r = check('prompt-contract.config.mjs', 'export default { prompts: "prompts" };\n');
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('Expected `tools` in the config');
});

test.each([
  ['a comma where a value goes', '{\n  "tools": [,]\n}\n', 2, 13, 'Unexpected `,`'],
  ['a missing comma', '{\n  "tools": []\n  "prompts": "prompts"\n}\n', 3, 3, 'expected `,` or `}`'],
  ['text after the value', '{"tools": []}\n}\n', 2, 1, 'after the JSON value, expected the end of the file'],
])('a JSON config with %s: exit 2 at its line and column', (_what, text, line, column, words) => {
  const r = check('prompt-contract.config.json', text);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`prompt-contract.config.json:${line}:${column}: Invalid JSON in the config: `);
  expect(r.stderr).toContain(words);
});

test('a syntax error is placed in the file that holds it: a CommonJS config, or a module the config imports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pc-config-msg-'));
  try {
    writeFileSync(join(dir, 'prompt-contract.config.cjs'), 'module.exports = {\n  tools [\n};\n');
    const cjs = cli(['check'], { cwd: dir, timeout: 60_000 });
    expect(cjs.code).toBe(2);
    expect(cjs.stderr).toContain('prompt-contract.config.cjs:2:9: Cannot load the config: Unexpected token');
    rmSync(join(dir, 'prompt-contract.config.cjs'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'tools.ts'), "export const tools = [\n  { name: 'x' description: 'y' },\n];\n");
    writeFileSync(join(dir, 'prompt-contract.config.mjs'), "import { tools } from './src/tools.ts';\nexport default { tools };\n");
    const imported = cli(['check'], { cwd: dir, timeout: 60_000 });
    expect(imported.code).toBe(2);
    expect(imported.stderr).toMatch(/src\/tools\.ts:2:15: Cannot load the config: ParseError: Unexpected token/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
