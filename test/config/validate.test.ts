import { afterAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.js';
import { InputError } from '../../src/util/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'pc-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let count = 0;

/** Loads `text` as a JSON config. */
function loadJson(text: string): ReturnType<typeof loadConfig> {
  const file = `c${++count}.json`;
  writeFileSync(join(dir, file), text);
  return loadConfig({ cwd: dir, file });
}

/**
 * Loads a module config whose text is `text` and whose value is `value`: the importer stands
 * in for running the module, so the text can be laid out freely.
 */
function loadModule(text: string, value: object): ReturnType<typeof loadConfig> {
  const file = `c${++count}.mjs`;
  writeFileSync(join(dir, file), text);
  return loadConfig({ cwd: dir, file, importer: async () => ({ default: value }) });
}

/** 1-based line and column of the first `token` in `text`. */
function at(text: string, token: string): { line: number; column: number } {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(token));
  if (line === -1) throw new Error(`${token} not in the text`);
  return { line: line + 1, column: lines[line]!.indexOf(token) + 1 };
}

async function failure(promise: Promise<unknown>): Promise<InputError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('unknown keys are findings, not errors', () => {
  test('a JSON config may name its JSON Schema for editors', async () => {
    const config = await loadJson(JSON.stringify({ $schema: './prompt-contract.schema.json', tools: [] }));
    expect(config.findings).toEqual([]);
  });

  test('a valid config has none', async () => {
    const config = await loadJson(JSON.stringify({ tools: [], recorded: ['calls.jsonl'], providers: ['anthropic'] }));
    expect(config.findings).toEqual([]);
  });

  test('a misspelled key is config/unknown-key at its line and column, with the key it means, and is left out of the config', async () => {
    const text = '{\n  "tools": [],\n  "recoded": ["calls.jsonl"]\n}\n';
    const config = await loadJson(text);
    expect(config.findings).toEqual([
      expect.objectContaining({
        ruleId: 'config/unknown-key',
        severity: 'error',
        file: expect.stringMatching(/^c\d+\.json$/),
        ...at(text, '"recoded"'),
        message: 'Unexpected key `recoded` in the config, expected `recorded`: the key is ignored, so this run has no `recorded`; rename it to `recorded`',
      }),
    ]);
    expect(config).not.toHaveProperty('recoded');
    expect(config.recorded).toBeUndefined();
  });

  test.each([
    ['unquoted', 'provider: ["anthropic"],'],
    ['single-quoted', "'provider': ['anthropic'],"],
    ['double-quoted', '"provider": ["anthropic"],'],
  ])('a %s key in a module is found in its text', async (_, entry) => {
    // The name comes first in a comment and in a value: only an object key counts.
    const text = `// provider: names below\nexport default {\n  prompts: 'provider',\n  tools: [],\n    ${entry}\n};\n`;
    const config = await loadModule(text, { prompts: 'provider', tools: [], provider: ['anthropic'] });
    expect(config.findings).toEqual([expect.objectContaining({ ruleId: 'config/unknown-key', line: 5, column: 5, message: expect.stringContaining('expected `providers`') })]);
  });

  test('comments are passed over; a `//` inside a string is not a comment', async () => {
    const text = "export default {\n  tools: [], /* recoded: ['old.jsonl'] */\n  persisted: [{ name: 'pg', postgres: 'postgres://reader@db/app', query: 'SELECT 1', idColum: 'id' }],\n  recoded: ['calls.jsonl'],\n};\n";
    const persisted = [{ name: 'pg', postgres: 'postgres://reader@db/app', query: 'SELECT 1', idColum: 'id' }];
    const config = await loadModule(text, { tools: [], persisted, recoded: ['calls.jsonl'] });
    expect(config.findings.map((d) => [d.message.split(',')[0], d.line, d.column])).toEqual([
      ['Unexpected key `idColum` in `persisted[0]`', 3, text.split('\n')[2]!.indexOf('idColum') + 1],
      ['Unexpected key `recoded` in the config', 4, 3],
    ]);
  });

  test('a key not written out in the text (built in code) has no line', async () => {
    const config = await loadModule("const extra = { ['desc' + 'ripitons']: 'd.yaml' };\nexport default { tools: [], ...extra };\n", { tools: [], descripitons: 'd.yaml' });
    expect(config.findings).toHaveLength(1);
    expect(config.findings[0]).not.toHaveProperty('line');
    expect(config.findings[0]!.message).toContain('expected `descriptions`');
  });

  test('a key nobody could mean lists the keys there are', async () => {
    const config = await loadJson(JSON.stringify({ tools: [], frobnicate: true }));
    expect(config.findings[0]!.message).toMatch(/^Unexpected key `frobnicate` in the config, expected one of `prompts`, `tools`, .*`strictExamples`, `notations`: the key is ignored; rename or delete it$/);
  });

  test('inside a persisted source: named by its place, and the source keeps its other keys', async () => {
    const text = '{\n  "tools": [],\n  "persisted": [\n    { "name": "db", "sqlite": "db.sqlite", "query": "SELECT 1", "timeoutMS": 5000 }\n  ]\n}\n';
    const config = await loadJson(text);
    expect(config.findings).toEqual([
      expect.objectContaining({
        ruleId: 'config/unknown-key',
        ...at(text, '"timeoutMS"'),
        message: 'Unexpected key `timeoutMS` in `persisted[0]`, expected `timeoutMs`: the key is ignored, so this run has no `timeoutMs`; rename it to `timeoutMs`',
      }),
    ]);
    expect(config.persisted).toEqual([{ name: 'db', sqlite: join(dir, 'db.sqlite'), query: 'SELECT 1' }]);
  });

  test('inside a handler reference', async () => {
    const schema = { type: 'object' };
    const config = await loadModule('export default {\n  tools: [],\n  handlers: { a: { kind: "json-schema", schema, shema: schema } },\n};\n', { tools: [], handlers: { a: { kind: 'json-schema', schema, shema: schema } } });
    expect(config.findings).toEqual([expect.objectContaining({ ruleId: 'config/unknown-key', line: 3, message: expect.stringMatching(/^Unexpected key `shema` in `handlers.a`, expected `schema`: the key is ignored;/) })]);
    expect(config.handlers).toEqual({ a: { kind: 'json-schema', schema } });
  });
});

describe('a known key with a wrong value cannot run: config/invalid at its line', () => {
  // Each entry, the message, and the key the error points at.
  test.each([
    ['"recorded": "calls.jsonl"', 'Expected `recorded` to be a list of JSONL file paths', '"recorded"'],
    ['"prompts": 3', 'Expected `prompts` to be a path string, got 3', '"prompts"'],
    ['"maxLineBytes": 0.5', 'Expected `maxLineBytes` to be a whole number of bytes, at least 1, got 0.5', '"maxLineBytes"'],
    ['"strictExamples": "yes"', 'Expected `strictExamples` to be true or false, got "yes"', '"strictExamples"'],
    ['"providers": "anthropic"', 'Expected `providers` to be a list of provider names', '"providers"'],
    ['"rules": {\n    "Compat": "off"\n  }', 'Unexpected rule id `Compat` in `rules`, expected `family/name` or `family/*`', '"Compat"'],
    ['"rules": {\n    "compat/*": "loud"\n  }', 'Unexpected severity "loud" for `compat/*` in `rules`, expected error, warning, info or off', '"compat/*"'],
    ['"handlers": { "a": "src/a.ts" }', 'Expected the handler of `a` as `path/to/file.ts#TypeName`, got `src/a.ts`', '"a"'],
    ['"persisted": [\n    { "name": "db", "sqlite": "db.sqlite", "query": "SELECT 1", "timeoutMs": "60s" }\n  ]', 'Expected `persisted[0].timeoutMs` to be a whole number of milliseconds from 1 to 2147483647, got "60s"', '"timeoutMs"'],
  ])('%s', async (entry, message, key) => {
    const text = `{\n  "tools": [],\n  ${entry}\n}\n`;
    expect(await failure(loadJson(text))).toMatchObject({ code: 'config/invalid', message, ...at(text, key) });
  });

  test('a source without `sqlite` or `postgres` keeps its message and points at `persisted`', async () => {
    const text = '{\n  "tools": [],\n  "persisted": [{ "name": "db", "query": "SELECT 1" }]\n}\n';
    const error = await failure(loadJson(text));
    expect(error).toMatchObject({ code: 'config/invalid', message: 'Expected `persisted[0]` to have `name`, `query` and one of `sqlite` (a file) or `postgres` (a connection string or env:VAR)', ...at(text, '"persisted"') });
  });

  test('a source with both `sqlite` and `postgres` is refused', async () => {
    const error = await failure(loadJson(JSON.stringify({ tools: [], persisted: [{ name: 'db', sqlite: 'a', postgres: 'env:B', query: 'SELECT 1' }] })));
    expect(error.message).toBe('Unexpected both `sqlite` and `postgres` in `persisted[0]`, expected one of them');
  });

  test('a misspelled required key: the error names the misspelling and points at it', async () => {
    const text = '{\n  "tools": [],\n  "persisted": [\n    { "name": "db", "sqlite": "db.sqlite", "qurey": "SELECT 1" }\n  ]\n}\n';
    const error = await failure(loadJson(text));
    expect(error).toMatchObject({ code: 'config/invalid', ...at(text, '"qurey"') });
    expect(error.message).toMatch(/^Expected `persisted\[0\]` to have `name`, `query` .*; did you mean `query` instead of `qurey`\?$/);
  });

  test('an unknown key elsewhere is not blamed for a wrong value', async () => {
    const text = '{\n  "tools": [],\n  "recoded": [],\n  "prompts": 3\n}\n';
    expect(await failure(loadJson(text))).toMatchObject({ message: 'Expected `prompts` to be a path string, got 3', ...at(text, '"prompts"') });
  });

  test('a misspelled `tools`', async () => {
    const text = '{\n  "tool": []\n}\n';
    const error = await failure(loadJson(text));
    expect(error).toMatchObject({ message: 'Expected `tools` in the config: tool definitions in any provider shape, or a JSON tools file; did you mean `tools` instead of `tool`?', ...at(text, '"tool"') });
  });

  test('a handler reference with a misspelled key', async () => {
    const text = 'export default {\n  tools: [],\n  handlers: {\n    a: { kind: "typescript", file: "a.ts", typ: "A" },\n  },\n};\n';
    const error = await failure(loadModule(text, { tools: [], handlers: { a: { kind: 'typescript', file: 'a.ts', typ: 'A' } } }));
    expect(error).toMatchObject({ code: 'config/invalid', ...at(text, 'typ:') });
    expect(error.message).toMatch(/^Expected the handler of `a` as `path\/to\/file.ts#TypeName` or a handler reference .*; did you mean `type` instead of `typ`\?$/);
  });

  test('a config that is not an object', async () => {
    const error = await failure(loadJson('[]'));
    expect(error).toMatchObject({ code: 'config/invalid', message: 'Expected the config file to export a config object (`export default defineConfig({...})`)', line: undefined });
  });
});
