import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffTools } from '../../src/checks/compat/index.js';
import { lintTools } from '../../src/checks/provider/index.js';
import { MAX_SCHEMA_DEPTH, shortPointer, tooDeepAt } from '../../src/schema/depth.js';
import { normalizeTools, ToolShapeError } from '../../src/tools/normalize.js';
import type { ToolSpec } from '../../src/tools/types.js';
import { InputError } from '../../src/util/errors.js';
import { cli, cliInProcess } from '../cli/helpers.js';

// Issue #10, item 8: a schema 10,000 levels deep (or a 10,000-long chain of `$ref`s) ends
// with a message and exit code 1 or 2, never a RangeError stack trace.

const LEVELS = 10_000;

/** `{"type":"object","properties":{"a": ... }}` nested `levels` times, built as text: JSON.stringify itself overflows on it. */
function deepSchemaText(levels: number, leaf: string): string {
  return `${'{"type":"object","properties":{"a":'.repeat(levels)}${leaf}${'}}'.repeat(levels)}`;
}

/** A schema whose definitions form a chain d0 -> d1 -> ... of `length` `$ref`s, each one level deep. */
function refChain(length: number, leafType: string): object {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < length - 1; i++) $defs[`d${i}`] = { type: 'object', properties: { a: { $ref: `#/$defs/d${i + 1}` } } };
  $defs[`d${length - 1}`] = { type: leafType };
  return { name: 'nested', description: 'Deeply nested.', input_schema: { type: 'object', properties: { root: { $ref: '#/$defs/d0' } }, $defs } };
}

const stack = /^\s+at /m;
let dir: string;
const file = (name: string): string => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pc-deep-'));
  writeFileSync(file('old.json'), `{"name":"nested","description":"Deeply nested.","input_schema":${deepSchemaText(LEVELS, '{"type":"string"}')}}`);
  writeFileSync(file('new.json'), `{"name":"nested","description":"Deeply nested.","input_schema":${deepSchemaText(LEVELS, '{"type":"integer"}')}}`);
  writeFileSync(file('calls.jsonl'), `${JSON.stringify({ name: 'nested', arguments: { a: { a: 'x' } } })}\n`);
  writeFileSync(file('chain.json'), JSON.stringify(refChain(LEVELS, 'string')));
  writeFileSync(file('chain-new.json'), JSON.stringify(refChain(LEVELS, 'integer')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a schema 10,000 levels deep', () => {
  test.each([
    ['lint --provider openai', () => ['lint', file('old.json'), '--provider', 'openai']],
    ['diff OLD NEW', () => ['diff', file('old.json'), file('new.json')]],
    ['validate', () => ['validate', file('old.json'), file('calls.jsonl')]],
  ])('%s: exit 2 naming the file and where it gets too deep, no stack trace', (_name, args) => {
    const result = cli(args());
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${file('old.json')}: `);
    expect(result.stderr).toContain(`the input schema of \`nested\` nests deeper than ${MAX_SCHEMA_DEPTH} levels at \`/properties/a/properties/a/`);
    expect(result.stderr).toContain('(config/tool-shape)');
    expect(result.stderr).not.toMatch(stack);
    expect(result.stderr).not.toContain('RangeError');
  });
});

// The schema 10,000 levels deep goes through the built binary above; the chains run the CLI in
// this process (see cliInProcess), where a walk that recursed once per `$ref` would run out of
// stack sooner than in a process of its own.
describe('a chain of 10,000 `$ref`s, each one level deep', () => {
  test('lint walks it: findings, no stack trace', async () => {
    const result = await cliInProcess(['lint', file('chain.json'), '--provider', 'openai-strict', '--format', 'json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const { diagnostics } = JSON.parse(result.stdout) as { diagnostics: Array<{ ruleId: string }> };
    expect(diagnostics.filter((d) => d.ruleId === 'provider/open-object').length).toBeGreaterThanOrEqual(LEVELS - 1);
  });

  test('diff of the chain with itself finds nothing', async () => {
    const result = await cliInProcess(['diff', file('chain.json'), file('chain.json')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  test('diff with a change at its far end is refused with a message, not a stack overflow', async () => {
    const result = await cliInProcess(['diff', file('chain.json'), file('chain-new.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^prompt-contract: .*chain-new\.json: Cannot compare tool `nested`: the new schema nests deeper than 512 levels, counting each `\$ref` followed, at `\/\$defs\/d\d+`/);
    expect(result.stderr).not.toMatch(stack);
  });
});

describe('the depth bound itself', () => {
  const nest = (levels: number): Record<string, unknown> => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
    return schema;
  };

  test('counts JSON levels and names the first value past the bound', () => {
    expect(tooDeepAt({ a: [{ b: 1 }] }, 3)).toBeUndefined();
    expect(tooDeepAt({ a: [{ b: {} }] }, 3)).toBe('/a/0/b');
    expect(tooDeepAt({ 'x/y': { '~': {} } }, 2)).toBe('/x~1y/~0');
    // One schema level is two JSON levels (the schema, then its `properties`).
    expect(tooDeepAt(nest(MAX_SCHEMA_DEPTH / 2 - 1))).toBeUndefined();
    expect(tooDeepAt(nest(MAX_SCHEMA_DEPTH / 2))).toMatch(/^(\/properties\/a){128}$/);
  });

  test('a long pointer is cut between segments, with its length', () => {
    const pointer = '/properties/a'.repeat(100);
    const short = shortPointer(pointer);
    expect(short.length).toBeLessThan(120);
    expect(short).toMatch(/^\/properties\/a\/properties.*\/…\/.*\/a \(200 segments\)$/);
  });

  test('normalizeTools refuses a deep schema in every tool shape, before the Gemini conversion', () => {
    const deep = nest(LEVELS);
    for (const tool of [
      { name: 't', input_schema: deep },
      { type: 'function', function: { name: 't', parameters: deep } },
      { name: 't', parameters: { ...deep, type: 'OBJECT' } },
    ]) {
      expect(() => normalizeTools([tool], 'tools.json')).toThrow(ToolShapeError);
      expect(() => normalizeTools([tool], 'tools.json')).toThrow(/^tools\.json\[0\]: the input schema of `t` nests deeper than 256 levels at `\/properties\/a/);
    }
  });

  test('lintTools and diffTools guard tools built by hand, naming the tool and its file', () => {
    const tool: ToolSpec = { name: 'by_hand', inputSchema: nest(LEVELS) as ToolSpec['inputSchema'], origin: { shape: 'anthropic', file: 'hand.json' } };
    const small: ToolSpec = { name: 'by_hand', inputSchema: { type: 'object' }, origin: { shape: 'anthropic' } };
    expect(() => lintTools([tool], 'openai')).toThrow(InputError);
    expect(() => lintTools([tool], 'openai')).toThrow(/The input schema of tool `by_hand` nests deeper than 256 levels/);
    expect(() => diffTools([small], [tool])).toThrow(/The new input schema of tool `by_hand` nests deeper than 256 levels/);
    try {
      diffTools([tool], [small]);
      throw new Error('expected an InputError');
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).file).toBe('hand.json');
    }
  });
});
