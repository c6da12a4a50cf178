import { describe, expect, test } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkRecorded } from '../../src/checks/recorded.js';
import { SchemaCompiler } from '../../src/schema/validator.js';
import { readRecordedCalls } from '../../src/sources/jsonl.js';
import type { RecordedCall, RecordedItem } from '../../src/sources/types.js';
import { normalizeTools } from '../../src/tools/normalize.js';

// Real, third-party data vendored under test/fixtures/acceptance (see its PROVENANCE.md); a missing file is a failure, never a skip.
const corpus = fileURLToPath(new URL('../fixtures/acceptance/', import.meta.url));

function path(relative: string): string {
  const file = corpus + relative;
  if (!existsSync(file)) throw new Error(`Acceptance data missing: ${file} (expected the vendored corpus at ${corpus}, see its PROVENANCE.md)`);
  return file;
}

const json = (relative: string): unknown => JSON.parse(readFileSync(path(relative), 'utf8'));

async function collect(items: AsyncIterable<RecordedItem>): Promise<RecordedItem[]> {
  const out: RecordedItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('OpenAI cookbook', () => {
  test('all 8 recorded tool_calls, arguments parsed from JSON strings, validate against their tools', async () => {
    const tools = normalizeTools(json('openai-cookbook/schemas.json'));
    const items = await collect(readRecordedCalls(path('openai-cookbook/calls.jsonl')));
    expect(items).toHaveLength(8);
    expect(items.every((item) => !('corrupt' in item) && typeof item.arguments === 'object')).toBe(true);
    expect(await checkRecorded(tools, items)).toEqual([]);
  });
});

describe('LangChain few-shot calls', () => {
  test('the published calls name tools that do not exist (`Multiply` for `multiply`)', async () => {
    const tools = normalizeTools(json('langchain/schemas.json'));
    const diagnostics = await checkRecorded(tools, readRecordedCalls(path('langchain/few_shot_calls.jsonl')));
    expect(diagnostics.map((d) => [d.ruleId, d.tool, d.expected, d.witnesses?.map((w) => w.id)])).toEqual([
      ['recorded/unknown-tool', 'Add', 'add', ['2']],
      ['recorded/unknown-tool', 'Multiply', 'multiply', ['1']],
    ]);
  });

  test('with the names fixed, the argument names are still stale (`x`, `y` for `a`, `b`)', async () => {
    const tools = normalizeTools(json('langchain/schemas.json'));
    const renamed = (await collect(readRecordedCalls(path('langchain/few_shot_calls.jsonl')))).map((item) =>
      'corrupt' in item ? item : { ...item, name: item.name.toLowerCase() },
    );
    const diagnostics = await checkRecorded(tools, renamed);
    expect(diagnostics.map((d) => [d.ruleId, d.tool, d.instancePath, d.witnessCount])).toEqual([
      ['recorded/invalid', 'add', '/a', 1],
      ['recorded/invalid', 'add', '/b', 1],
      ['recorded/invalid', 'multiply', '/a', 1],
      ['recorded/invalid', 'multiply', '/b', 1],
    ]);
  });
});

// BFCL writes Python and Java/JavaScript type names; this is the test's own mapping to JSON Schema
// (after BFCL's raw/type_mappings.py). `undefined` means no constraint (`any`).
const bfclTypes: Record<string, string | undefined> = {
  dict: 'object',
  object: 'object',
  HashMap: 'object',
  Hashtable: 'object',
  float: 'number',
  double: 'number',
  number: 'number',
  integer: 'integer',
  int: 'integer',
  long: 'integer',
  short: 'integer',
  byte: 'integer',
  Bigint: 'integer',
  string: 'string',
  String: 'string',
  char: 'string',
  boolean: 'boolean',
  bool: 'boolean',
  Boolean: 'boolean',
  array: 'array',
  list: 'array',
  tuple: 'array',
  Array: 'array',
  ArrayList: 'array',
  Queue: 'array',
  Stack: 'array',
  Set: 'array',
  any: undefined,
  Any: undefined,
};

function bfclToJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(bfclToJsonSchema);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'type' && typeof inner === 'string') {
      if (!(inner in bfclTypes)) throw new Error(`Unmapped BFCL type \`${inner}\``);
      const mapped = bfclTypes[inner];
      if (mapped !== undefined) out.type = mapped;
    } else out[key] = bfclToJsonSchema(inner);
  }
  return out;
}

describe('BFCL', () => {
  test('after mapping BFCL types, exactly the three known defects fail', async () => {
    const schemas = json('bfcl/schemas.json') as Record<string, unknown[]>;
    const refs = new Map<string, string>();
    for (const line of readFileSync(path('bfcl/calls.jsonl'), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const row = JSON.parse(line) as { id: string; schema_ref: string };
      refs.set(row.id, row.schema_ref);
    }
    const byRef = new Map<string, RecordedCall[]>();
    for (const item of await collect(readRecordedCalls(path('bfcl/calls.jsonl')))) {
      if ('corrupt' in item) throw new Error(`Unreadable BFCL line ${item.where.line}: ${item.message}`);
      const ref = refs.get(item.id!)!;
      byRef.set(ref, [...(byRef.get(ref) ?? []), item]);
    }
    expect([...byRef.values()].flat()).toHaveLength(82);

    const failing: string[] = [];
    const compiler = new SchemaCompiler();
    for (const [ref, calls] of byRef) {
      const tools = normalizeTools(bfclToJsonSchema(schemas[ref]));
      for (const d of await checkRecorded(tools, calls, { compiler })) {
        expect(d.ruleId).toBe('recorded/invalid');
        failing.push(...(d.witnesses ?? []).map((w) => `${w.id} ${d.instancePath} ${d.schemaPath?.split('/').pop()}`));
      }
    }
    expect(failing.sort()).toEqual([
      'live_parallel_multiple_2-2-0#1 /command enum',
      'simple_javascript_5#0 /store/initialState type',
      'simple_javascript_5#0 /store/reducers type',
      'simple_javascript_9#0 /jsonPayload type',
    ]);
  });
});
