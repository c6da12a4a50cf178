import { readFileSync } from 'node:fs';
import { describe, expect, jest, test } from '@jest/globals';
import { lintTools, profiles } from '../../src/checks/provider/index.js';
import { checkExamples } from '../../src/checks/examples.js';
import { RecordedAccumulator, accumulate } from '../../src/checks/recorded.js';
import { main } from '../../src/cli-main.js';
import type { Diagnostic } from '../../src/report/diagnostic.js';
import { schemaProblems } from '../../src/schema/problems.js';
import { readRecordedCalls } from '../../src/sources/jsonl.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import type { JsonSchemaObject } from '../../src/tools/types.js';

// Lint and validation agree on what compiles: a schema Ajv cannot compile is a lint error for
// every provider, and `validate` reports its calls as unchecked while checking the rest.

const dir = 'test/provider/fixtures/invalid-schema';
const fixture = (name: string): string => `${dir}/${name}`;

interface Run {
  code: number;
  diagnostics: Diagnostic[];
  summary: { errors: number; warnings: number; infos: number };
  stderr: string;
}

/** The CLI in this process (`main` resolves to the exit code), its JSON report parsed. */
async function run(args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => out.push(String(chunk)) > 0);
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => err.push(String(chunk)) > 0);
  try {
    const code = await main([...args, '--format', 'json']);
    const report = JSON.parse(out.join('')) as { diagnostics: Diagnostic[]; summary: Run['summary'] };
    return { code, diagnostics: report.diagnostics, summary: report.summary, stderr: err.join('') };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

/** The 1-based line of the `nth` occurrence of `needle` in a fixture. */
function lineOf(name: string, needle: string, nth = 1): number {
  const lines = readFileSync(fixture(name), 'utf8').split('\n');
  let seen = 0;
  const index = lines.findIndex((l) => l.includes(needle) && ++seen === nth);
  if (index < 0) throw new Error(`${needle} not in ${name}`);
  return index + 1;
}

const lintProfiles = ['anthropic', 'openai', 'gemini', 'bedrock', 'mcp'] as const;

describe('provider/invalid-schema from `prompt-contract lint`', () => {
  test.each(lintProfiles)('BFCL-style `"type": "dict"` is an error at each `type` for %s, at its line', async (provider) => {
    const { code, diagnostics } = await run(['lint', fixture('dict.json'), '--provider', provider]);
    expect(code).toBe(1);
    const found = diagnostics.filter((d) => d.ruleId === 'provider/invalid-schema');
    expect(found.map((d) => [d.schemaPath, d.severity, d.tool, d.provider, d.file, d.line])).toEqual(
      expect.arrayContaining([
        ['/properties/location/type', 'error', 'get_weather', provider, fixture('dict.json'), lineOf('dict.json', '"type": "dict"', 2)],
        ['/type', 'error', 'get_weather', provider, fixture('dict.json'), lineOf('dict.json', '"type": "dict"', 1)],
      ]),
    );
    expect(found).toHaveLength(2);
    const nested = found.find((d) => d.schemaPath === '/properties/location/type')!;
    expect(nested.message).toMatch(/^Unexpected `"dict"` as `type` at `\/properties\/location\/type`, expected one of `"array"`, .*`"object"`.*, for `[a-z]+`, which /);
    expect(nested.fix).toBe('Write `"object"`, JSON Schema\'s name for `dict`');
    expect(nested).toMatchObject({ actual: 'dict', url: profiles[provider].validSchema.source });
  });

  test.each(lintProfiles)('`properties` written as a list is an error at `/properties` for %s', async (provider) => {
    const { code, diagnostics } = await run(['lint', fixture('list.json'), '--provider', provider]);
    expect(code).toBe(1);
    const found = diagnostics.filter((d) => d.ruleId === 'provider/invalid-schema');
    expect(found.map((d) => [d.schemaPath, d.severity, d.tool, d.file, d.line])).toEqual([
      ['/properties', 'error', 'search_docs', fixture('list.json'), lineOf('list.json', '"properties": [')],
    ]);
    expect(found[0]!.message).toMatch(/^Unexpected `\[\{.*` as `properties` at `\/properties`, expected an object, for /);
    expect(found[0]!.fix).toContain('`{"query":{"type":"string"}}`');
  });

  test('the strict and JSON-Schema profiles report it too', () => {
    const tools = normalizeTools(JSON.parse(readFileSync(fixture('dict.json'), 'utf8')), fixture('dict.json'));
    for (const provider of ['anthropic-strict', 'openai-strict', 'gemini-json-schema'] as const) {
      expect(lintTools(tools, provider).filter((d) => d.ruleId === 'provider/invalid-schema').map((d) => d.schemaPath)).toEqual(['/properties/location/type', '/type']);
    }
  });

  test('every BFCL tool in the acceptance corpus is flagged, at a `type` that says `dict`', () => {
    const corpus = JSON.parse(readFileSync('test/fixtures/acceptance/bfcl/schemas.json', 'utf8')) as Record<string, unknown[]>;
    const tools = Object.values(corpus).flatMap((list) => normalizeTools(list));
    expect(tools.length).toBeGreaterThan(20);
    for (const tool of tools) {
      const found = lintTools([tool], 'openai').filter((d) => d.ruleId === 'provider/invalid-schema');
      expect(found.length).toBeGreaterThan(0);
      for (const d of found) expect(d.schemaPath).toMatch(/(^|\/)type(\/\d+)?$/);
    }
  });

  test('a valid schema has no invalid-schema finding for any profile', () => {
    const tools = normalizeTools(JSON.parse(readFileSync(fixture('arrays.json'), 'utf8')));
    for (const provider of Object.keys(profiles) as Array<keyof typeof profiles>) {
      expect(lintTools(tools, provider).filter((d) => d.ruleId === 'provider/invalid-schema')).toEqual([]);
    }
  });
});

describe('schemaProblems: the keyword, what it holds, what JSON Schema expects there', () => {
  const cases: Array<[string, JsonSchemaObject, string, RegExp, string | undefined]> = [
    ['a bare type name as a property schema', { type: 'object', properties: { x: 'number' } }, '/properties/x', /^Unexpected `"number"` as the schema of property `x` at `\/properties\/x`, expected a schema/, 'write a schema object: `{"type": "number"}`'],
    ['`required` as a string', { type: 'object', required: 'a' }, '/required', /^Unexpected `"a"` as `required` at `\/required`, expected an array$/, 'write a list of names: `["a"]`'],
    ['a type name inside a type list', { type: 'object', properties: { a: { type: ['string', 'dict'] } } }, '/properties/a/type/1', /^Unexpected `"dict"` in `type` at `\/properties\/a\/type\/1`, expected one of /, 'write `"object"`, JSON Schema\'s name for `dict`'],
    ['a `$ref` to nothing', { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }, '/properties/a/$ref', /^Unexpected `"#\/\$defs\/missing"` as `\$ref` at `\/properties\/a\/\$ref`, expected a reference to a schema this one defines/, undefined],
    ['a pattern that is not a regular expression', { type: 'object', properties: { a: { type: 'string', pattern: '(' } } }, '/properties/a/pattern', /^Unexpected `"\("` as `pattern` at `\/properties\/a\/pattern`, expected a valid regular expression \(.+\)$/, undefined],
    ['`"type": "any"`', { type: 'object', properties: { a: { type: 'any' } } }, '/properties/a/type', /expected one of/, 'drop `type` (a schema without `type` accepts any value)'],
    ['a draft-07 `items` string', { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'array', items: 'string' } } }, '/properties/a/items', /^Unexpected `"string"` as `items` at /, 'write a schema object: `{"type": "string"}`'],
  ];
  test.each(cases)('%s', (_title, schema, pointer, message, fix) => {
    const problems = schemaProblems(schema);
    expect(problems.map((p) => p.pointer)).toEqual([pointer]);
    expect(problems[0]!.message).toMatch(message);
    if (fix !== undefined) expect(problems[0]!.fix).toBe(fix);
  });

  test('a schema that compiles has none', () => {
    expect(schemaProblems({ type: 'object', properties: { a: { type: ['string', 'null'], pattern: '^[a-z]+$' } }, required: ['a'] })).toEqual([]);
  });
});

describe('`prompt-contract validate` with a tool whose schema does not compile', () => {
  test("reports the good tool's invalid call as usual and the bad tool's calls as unchecked, exit 1", async () => {
    const { code, diagnostics, stderr } = await run(['validate', fixture('mixed.json'), fixture('calls.jsonl')]);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(diagnostics.map((d) => [d.ruleId, d.severity, d.tool])).toEqual([
      ['recorded/invalid', 'error', 'create_refund'],
      ['recorded/unchecked-schema', 'error', 'get_weather'],
    ]);
    const [invalid, unchecked] = diagnostics as [Diagnostic, Diagnostic];
    expect(invalid).toMatchObject({ instancePath: '/amount_cents', witnessCount: 1, total: 2, file: fixture('calls.jsonl'), line: 3 });
    expect(unchecked).toMatchObject({
      schemaPath: '/properties/location/type',
      witnessCount: 3,
      file: fixture('mixed.json'),
      line: lineOf('mixed.json', '"type": "dict"'),
    });
    expect(unchecked.witnesses?.map((w) => w.id)).toEqual(['call_2', 'call_4', 'call_5']);
    expect(unchecked.message).toMatch(
      /^3 recorded calls to `get_weather` are not checked, because its input schema does not compile: Unexpected `"dict"` as `type` at `\/properties\/location\/type`, expected one of .*; calls: call_2, call_4, call_5$/,
    );
    expect(unchecked.fix).toContain('`"object"`');
  });

  test('one finding per tool, however many calls; the counts survive splitting the input and merging', async () => {
    const tools = normalizeTools(JSON.parse(readFileSync(fixture('mixed.json'), 'utf8')), fixture('mixed.json'));
    const items = [];
    for await (const item of readRecordedCalls(fixture('calls.jsonl'))) items.push(item);
    const whole = await accumulate(new RecordedAccumulator(tools, { maxWitnesses: 2 }), items);
    const first = await accumulate(new RecordedAccumulator(tools, { maxWitnesses: 2 }), items.slice(0, 2));
    const rest = await accumulate(new RecordedAccumulator(tools, { maxWitnesses: 2 }), items.slice(2));
    const merged = new RecordedAccumulator(tools, { maxWitnesses: 2 }).merge(first.state()).merge(rest.state());
    expect(merged.toDiagnostics()).toEqual(whole.toDiagnostics());
    const unchecked = whole.toDiagnostics().filter((d) => d.ruleId === 'recorded/unchecked-schema');
    expect(unchecked).toHaveLength(1);
    expect(unchecked[0]).toMatchObject({ witnessCount: 3, total: 3 });
    expect(unchecked[0]!.message).toContain('calls: call_2, call_4, and 1 more');
  });

  test('no calls to the broken tool: nothing to report about it', async () => {
    const tools = normalizeTools(JSON.parse(readFileSync(fixture('mixed.json'), 'utf8')));
    const only = await accumulate(new RecordedAccumulator(tools), [{ name: 'create_refund', arguments: { order_id: 'x', amount_cents: 1 }, where: { source: 'x.jsonl', line: 1 } }]);
    expect(only.toDiagnostics()).toEqual([]);
  });

  test('one call is one call; stored (persisted) calls are unchecked the same way', async () => {
    const tools = normalizeTools(JSON.parse(readFileSync(fixture('mixed.json'), 'utf8')));
    const one = await accumulate(new RecordedAccumulator(tools), [{ name: 'get_weather', arguments: {}, where: { source: 'x.jsonl', line: 7 } }]);
    expect(one.toDiagnostics().map((d) => d.message)).toEqual([expect.stringMatching(/^1 recorded call to `get_weather` is not checked, because /)]);
    const stored = await accumulate(new RecordedAccumulator(tools, { kind: 'persisted' }), [{ name: 'get_weather', arguments: {}, where: { source: 'db', row: '7' } }]);
    expect(stored.toDiagnostics().map((d) => d.ruleId)).toEqual(['persisted/unchecked-schema']);
  });
});

describe('provider/array-missing-items for `openai`', () => {
  test('is an error (HTTP 400 `invalid_function_parameters`), with the rejected request as its evidence', async () => {
    const { code, diagnostics } = await run(['lint', fixture('arrays.json'), '--provider', 'openai']);
    expect(code).toBe(1);
    expect(diagnostics.map((d) => [d.ruleId, d.severity, d.schemaPath, d.line])).toEqual([
      ['provider/array-missing-items', 'error', '/properties/paths', lineOf('arrays.json', '"paths"')],
    ]);
    const fact = profiles.openai.arrayItems!;
    expect(diagnostics[0]!.url).toBe(fact.source);
    expect(fact.rejected?.error).toContain('array schema missing items');
  });
});

describe('example/unchecked names the keyword that does not compile', () => {
  test('once per tool, with the pointer into the schema', () => {
    const tools = normalizeTools(JSON.parse(readFileSync(fixture('dict.json'), 'utf8')));
    const example = { name: 'get_weather', arguments: { location: { city: 'Oslo' } }, notation: 'json' as const, range: { start: 0, end: 10 }, line: 3, column: 1 };
    const found = checkExamples([example, { ...example, line: 9 }], tools);
    expect(found.map((d) => [d.ruleId, d.schemaPath, d.line])).toEqual([['example/unchecked', '/properties/location/type', 3]]);
    expect(found[0]!.message).toMatch(/^Examples of `get_weather` are not checked, because its input schema does not compile: Unexpected `"dict"` as `type` at `\/properties\/location\/type`, .*, and 1 more \(`prompt-contract lint` lists them\)$/);
  });
});
