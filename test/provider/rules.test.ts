import { readFileSync } from 'node:fs';
import { describe, expect, test } from '@jest/globals';
import {
  isProviderName,
  issueUrl,
  lintTools,
  profiles,
  providerNames,
  providerRules,
  sources,
  type Fact,
  type ProviderName,
  type ProviderRuleName,
} from '../../src/checks/provider/index.js';
import type { Diagnostic } from '../../src/report/diagnostic.js';
import type { JsonSchemaObject, ToolSpec } from '../../src/tools/types.js';
import { normalizeTools } from '../../src/tools/normalize.js';

function tool(inputSchema: JsonSchemaObject, extra: Partial<ToolSpec> = {}): ToolSpec {
  return { name: 'get_weather', description: 'Current weather for a city.', inputSchema, origin: { shape: 'plain' }, ...extra };
}

/** A schema every strict profile accepts: closed, all required, no bounds. */
function closed(properties: Record<string, unknown>, extra: JsonSchemaObject = {}): JsonSchemaObject {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false, ...extra };
}

const many = (n: number, make: (i: number) => ToolSpec): ToolSpec[] => Array.from({ length: n }, (_, i) => make(i));

interface Case {
  title: string;
  rule: ProviderRuleName;
  providers: ProviderName[];
  bad: ToolSpec[];
  good: ToolSpec[];
  severity?: Diagnostic['severity'];
  schemaPath?: string;
  /** `bad` and `good` are one request each (limits), not one tool a request. */
  together?: boolean;
}

const nest = (depth: number): JsonSchemaObject =>
  depth === 1 ? closed({ leaf: { type: 'string' } }) : closed({ inner: nest(depth - 1) });

const cases: Case[] = [
  {
    title: 'numeric bounds',
    rule: 'unsupported-keyword',
    providers: ['anthropic-strict'],
    bad: [tool(closed({ amount_cents: { type: 'integer', minimum: 0 } }))],
    good: [tool(closed({ amount_cents: { type: 'integer', description: 'at least 0' } }))],
    schemaPath: '/properties/amount_cents/minimum',
  },
  {
    title: '`minItems` other than 0 or 1',
    rule: 'unsupported-keyword',
    providers: ['anthropic-strict'],
    bad: [tool(closed({ tags: { type: 'array', items: { type: 'string' }, minItems: 2 } }))],
    good: [tool(closed({ tags: { type: 'array', items: { type: 'string' }, minItems: 1 } }))],
    schemaPath: '/properties/tags/minItems',
  },
  {
    title: '`allOf` with a `$ref` branch',
    rule: 'unsupported-keyword',
    providers: ['anthropic-strict'],
    bad: [tool(closed({ a: { allOf: [{ $ref: '#/$defs/x' }] } }, { $defs: { x: { type: 'string' } } }))],
    good: [tool(closed({ a: { allOf: [{ type: 'string' }] } }))],
  },
  {
    title: 'a keyword not listed as supported (warning)',
    rule: 'unsupported-keyword',
    providers: ['anthropic-strict'],
    bad: [tool(closed({ n: { type: 'number', exclusiveMinimum: 0 } }))],
    good: [tool(closed({ n: { type: 'number' } }))],
    severity: 'warning',
  },
  {
    title: '`allOf` in strict mode',
    rule: 'unsupported-keyword',
    providers: ['openai-strict'],
    bad: [tool(closed({ a: { allOf: [{ type: 'string' }] } }))],
    good: [tool(closed({ a: { anyOf: [{ type: 'string' }, { type: 'null' }] } }))],
    schemaPath: '/properties/a/allOf',
  },
  {
    title: 'tuple `items` in strict mode',
    rule: 'unsupported-keyword',
    providers: ['openai-strict'],
    bad: [tool(closed({ pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] } }))],
    good: [tool(closed({ pair: { type: 'array', items: { type: 'string' } } }))],
  },
  {
    title: '`default` in strict mode (observed: warning)',
    rule: 'unsupported-keyword',
    providers: ['openai-strict'],
    bad: [tool(closed({ unit: { type: 'string', default: 'c' } }))],
    good: [tool(closed({ unit: { type: 'string' } }))],
    severity: 'warning',
  },
  {
    title: 'keywords outside the OpenAPI subset',
    rule: 'unsupported-keyword',
    providers: ['gemini'],
    bad: [tool({ type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false, $schema: 'http://json-schema.org/draft-07/schema#' })],
    good: [tool({ type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'] })],
    schemaPath: '/additionalProperties',
  },
  {
    title: 'a root union (not in the docs, rejected with a 400 for Anthropic: error)',
    rule: 'root-union',
    providers: ['anthropic', 'anthropic-strict'],
    bad: [tool({ type: 'object', anyOf: [closed({ a: { type: 'string' } }), closed({ b: { type: 'string' } })] })],
    good: [tool(closed({ a: { anyOf: [{ type: 'string' }, { type: 'number' }] } }))],
    severity: 'error',
    schemaPath: '/anyOf',
  },
  {
    title: 'a root union in strict mode',
    rule: 'root-union',
    providers: ['openai-strict'],
    bad: [tool({ type: 'object', oneOf: [closed({ a: { type: 'string' } })] })],
    good: [tool(closed({ a: { type: 'string' } }))],
    severity: 'error',
  },
  {
    title: 'a root that is not an object',
    rule: 'root-not-object',
    providers: ['anthropic', 'anthropic-strict', 'openai-strict', 'gemini-json-schema', 'bedrock', 'mcp'],
    bad: [tool({ type: 'array', items: { type: 'string' } }), tool({ properties: {} })],
    good: [tool(closed({}))],
    schemaPath: '',
  },
  {
    title: 'a dotted name',
    rule: 'name-invalid',
    providers: ['anthropic', 'openai', 'bedrock'],
    bad: [tool(closed({}), { name: 'files.read' })],
    good: [tool(closed({}), { name: 'files_read-v2' })],
  },
  {
    title: 'a name of 65 characters',
    rule: 'name-invalid',
    providers: ['openai', 'bedrock'],
    bad: [tool(closed({}), { name: 'a'.repeat(65) })],
    good: [tool(closed({}), { name: 'a'.repeat(64) })],
  },
  {
    title: 'a name over the old 64 limit (sources disagree: warning)',
    rule: 'name-invalid',
    providers: ['anthropic', 'gemini'],
    bad: [tool(closed({}), { name: 'a'.repeat(100) })],
    good: [tool(closed({}), { name: 'a'.repeat(64) })],
    severity: 'warning',
  },
  {
    title: 'a Gemini name starting with a digit',
    rule: 'name-invalid',
    providers: ['gemini', 'gemini-json-schema'],
    bad: [tool(closed({}), { name: '2fa.verify' })],
    good: [tool(closed({}), { name: 'auth.verify:v2' })],
    severity: 'error',
  },
  {
    title: 'an MCP name with a space (SHOULD: warning)',
    rule: 'name-invalid',
    providers: ['mcp'],
    bad: [tool(closed({}), { name: 'read file' })],
    good: [tool(closed({}), { name: 'fs.read_file' })],
    severity: 'warning',
  },
  {
    title: 'a Gemini parameter name with a dash',
    rule: 'property-name-invalid',
    providers: ['gemini', 'gemini-json-schema'],
    bad: [tool({ type: 'object', properties: { 'user-id': { type: 'string' } } })],
    good: [tool({ type: 'object', properties: { user_id: { type: 'string' } } })],
    schemaPath: '/properties/user-id',
  },
  {
    title: 'an Anthropic top-level key with a space (not in the docs, rejected with a 400: error)',
    rule: 'property-name-invalid',
    providers: ['anthropic'],
    bad: [tool({ type: 'object', properties: { 'user id': { type: 'string' } } })],
    good: [tool({ type: 'object', properties: { 'user.id': { type: 'string' } } })],
    severity: 'error',
  },
  {
    title: 'more than 20 strict tools',
    together: true,
    rule: 'limit-exceeded',
    providers: ['anthropic-strict'],
    bad: many(21, (i) => tool(closed({}), { name: `t${i}` })),
    good: many(20, (i) => tool(closed({}), { name: `t${i}` })),
  },
  {
    title: 'more than 24 optional parameters in all',
    together: true,
    rule: 'limit-exceeded',
    providers: ['anthropic-strict'],
    bad: many(5, (i) => tool({ ...closed({ a: {}, b: {}, c: {}, d: {}, e: {} }), required: [] }, { name: `t${i}` })),
    good: many(4, (i) => tool({ ...closed({ a: {}, b: {}, c: {}, d: {}, e: {}, f: {} }), required: [] }, { name: `t${i}` })),
  },
  {
    title: 'more than 16 union parameters',
    together: true,
    rule: 'limit-exceeded',
    providers: ['anthropic-strict'],
    bad: many(17, (i) => tool(closed({ v: { type: ['string', 'null'] } }), { name: `t${i}` })),
    good: many(16, (i) => tool(closed({ v: { anyOf: [{ type: 'string' }, { type: 'null' }] } }), { name: `t${i}` })),
  },
  {
    title: 'more than 128 declarations',
    together: true,
    rule: 'limit-exceeded',
    providers: ['gemini', 'gemini-json-schema'],
    bad: many(129, (i) => tool({ type: 'object', properties: {} }, { name: `t${i}` })),
    good: many(128, (i) => tool({ type: 'object', properties: {} }, { name: `t${i}` })),
  },
  {
    title: 'more than 10 levels of nesting',
    rule: 'limit-exceeded',
    providers: ['openai-strict'],
    bad: [tool(nest(11))],
    good: [tool(nest(10))],
  },
  {
    title: 'more than 5000 properties',
    rule: 'limit-exceeded',
    providers: ['openai-strict'],
    bad: [tool(closed(Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`p${i}`, { type: 'string' }]))))],
    good: [tool(closed(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`p${i}`, { type: 'string' }]))))],
  },
  {
    title: 'more than 1000 enum values',
    rule: 'limit-exceeded',
    providers: ['openai-strict'],
    bad: [tool(closed({ code: { type: 'integer', enum: Array.from({ length: 1001 }, (_, i) => i) } }))],
    good: [tool(closed({ code: { type: 'integer', enum: Array.from({ length: 1000 }, (_, i) => i) } }))],
  },
  {
    title: 'a string enum of more than 250 values over 15,000 characters',
    rule: 'limit-exceeded',
    providers: ['openai-strict'],
    bad: [tool(closed({ sku: { type: 'string', enum: Array.from({ length: 251 }, (_, i) => `${i}`.padStart(60, 'x')) } }))],
    good: [tool(closed({ sku: { type: 'string', enum: Array.from({ length: 250 }, (_, i) => `${i}`.padStart(60, 'x')) } }))],
    schemaPath: '/properties/sku/enum',
  },
  {
    title: 'more than 120,000 characters of names and enum values',
    rule: 'limit-exceeded',
    providers: ['openai-strict'],
    bad: [tool(closed({ s: { type: 'string', enum: Array.from({ length: 200 }, (_, i) => `${i}`.padStart(601, 'x')) } }))],
    good: [tool(closed({ s: { type: 'string', enum: Array.from({ length: 200 }, (_, i) => `${i}`.padStart(500, 'x')) } }))],
  },
  {
    title: 'a nested object left open',
    rule: 'open-object',
    providers: ['anthropic-strict', 'openai-strict'],
    bad: [tool(closed({ address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }))],
    good: [tool(closed({ address: closed({ city: { type: 'string' } }) }))],
    schemaPath: '/properties/address',
  },
  {
    title: 'an optional property',
    rule: 'optional-property',
    providers: ['openai-strict'],
    bad: [tool({ ...closed({ city: { type: 'string' }, unit: { type: 'string' } }), required: ['city'] })],
    good: [tool(closed({ city: { type: 'string' }, unit: { type: ['string', 'null'] } }))],
    schemaPath: '/properties/unit',
  },
  {
    title: '`uri` in OpenAI strict mode',
    rule: 'unsupported-format',
    providers: ['openai-strict'],
    bad: [tool(closed({ link: { type: 'string', format: 'uri' } }))],
    good: [tool(closed({ link: { type: 'string', format: 'date-time' } }))],
    schemaPath: '/properties/link/format',
  },
  {
    title: 'a format outside the strict set',
    rule: 'unsupported-format',
    providers: ['anthropic-strict'],
    bad: [tool(closed({ color: { type: 'string', format: 'hex-color' } }))],
    good: [tool(closed({ link: { type: 'string', format: 'uri' } }))],
  },
  {
    title: 'a backreference, lookaround, or `\\b`',
    rule: 'pattern-unsupported',
    providers: ['anthropic-strict'],
    bad: [
      tool(closed({ s: { type: 'string', pattern: '^(a+)\\1$' } })),
      tool(closed({ s: { type: 'string', pattern: '^(?!admin).*$' } })),
      tool(closed({ s: { type: 'string', pattern: '\\bword\\b' } })),
    ],
    good: [tool(closed({ s: { type: 'string', pattern: '^[\\b\\d]+\\\\b(?:x)$' } }))],
    schemaPath: '/properties/s/pattern',
  },
  {
    title: 'a number in a Gemini enum',
    rule: 'enum-invalid',
    providers: ['gemini'],
    bad: [tool({ type: 'object', properties: { level: { type: 'integer', enum: [1, 2, 3] } } })],
    good: [tool({ type: 'object', properties: { level: { type: 'string', enum: ['1', '2', '3'] } } })],
    schemaPath: '/properties/level/enum/0',
  },
  {
    title: 'an object in a strict enum',
    rule: 'enum-invalid',
    providers: ['anthropic-strict'],
    bad: [tool(closed({ p: { enum: ['a', { b: 1 }] } }))],
    good: [tool(closed({ p: { enum: ['a', 1, true, null] } }))],
    schemaPath: '/properties/p/enum/1',
  },
  {
    title: 'a type list in Gemini `parameters`',
    rule: 'type-array',
    providers: ['gemini'],
    bad: [tool({ type: 'object', properties: { note: { type: ['string', 'null'] } } })],
    good: [
      tool({ type: 'object', properties: { note: { type: 'string', nullable: true } } }),
      // Gemini's own `nullable` arrives as a type list from the normalizer: not a finding.
      ...normalizeTools({ name: 'n', description: 'd', parameters: { type: 'OBJECT', properties: { note: { type: 'STRING', nullable: true } } } }),
    ],
    schemaPath: '/properties/note/type',
  },
  {
    title: 'a `$ref` with a constraint beside it',
    rule: 'ref-siblings',
    providers: ['gemini-json-schema'],
    bad: [tool({ type: 'object', properties: { n: { $ref: '#/$defs/count', minimum: 1 } }, $defs: { count: { type: 'integer' } } })],
    good: [tool({ type: 'object', properties: { n: { $ref: '#/$defs/count', description: 'how many' } }, $defs: { count: { type: 'integer' } } })],
    schemaPath: '/properties/n/minimum',
  },
  {
    title: 'a recursive tree',
    rule: 'recursive-schema',
    providers: ['anthropic-strict'],
    bad: [
      tool(
        closed({ root: { $ref: '#/$defs/node' } }, {
          $defs: { node: closed({ name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }) },
        }),
      ),
      tool(closed({ again: { $ref: '#' } })),
    ],
    good: [
      tool(closed({ root: { $ref: '#/$defs/leaf' } }, { $defs: { leaf: closed({ name: { type: 'string' } }) } })),
      // A recursive definition nobody uses is not sent as a cycle.
      tool(closed({}, { $defs: { node: closed({ next: { $ref: '#/$defs/node' } }) } })),
    ],
  },
  {
    title: 'an external `$ref`',
    rule: 'external-ref',
    providers: ['anthropic-strict'],
    bad: [tool(closed({ a: { $ref: 'address.json#/$defs/address' } }))],
    good: [tool(closed({ a: { $ref: '#/$defs/address' } }, { $defs: { address: closed({}) } }))],
    schemaPath: '/properties/a/$ref',
  },
  {
    title: 'a boolean subschema',
    rule: 'boolean-schema',
    providers: ['openai-strict'],
    bad: [tool(closed({ anything: true }))],
    good: [tool(closed({ anything: { type: 'string' } }))],
    schemaPath: '/properties/anything',
  },
  {
    title: 'an array without `items` (HTTP 400 `invalid_function_parameters`, strict or not: error)',
    rule: 'array-missing-items',
    providers: ['openai', 'openai-strict'],
    bad: [tool({ type: 'object', properties: { paths: { type: 'array' } } })],
    good: [tool({ type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } } } })],
    severity: 'error',
    schemaPath: '/properties/paths',
  },
  {
    title: 'an ARRAY without `items` for Gemini `parameters` (rejected requests: error)',
    rule: 'array-missing-items',
    providers: ['gemini'],
    bad: [tool({ type: 'object', properties: { tags: { type: 'array' } } })],
    good: [tool({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } })],
    severity: 'error',
    schemaPath: '/properties/tags',
  },
  {
    title: 'an array without `items` in strict mode',
    rule: 'array-missing-items',
    providers: ['openai-strict'],
    bad: [tool(closed({ paths: { type: 'array' } }))],
    good: [tool(closed({ paths: { type: 'array', items: { type: 'string' } } }))],
    severity: 'error',
  },
  {
    title: '`oneOf` in strict mode (rejected requests: error)',
    rule: 'unsupported-keyword',
    providers: ['openai-strict'],
    bad: [tool(closed({ data: { oneOf: [closed({ kind: { const: 'a' } }), closed({ kind: { const: 'b' } })] } }))],
    good: [tool(closed({ data: { anyOf: [closed({ kind: { const: 'a' } }), closed({ kind: { const: 'b' } })] } }))],
    severity: 'error',
    schemaPath: '/properties/data/oneOf',
  },
  {
    title: 'a root object without `properties` (a tool without arguments), strict or not',
    rule: 'object-missing-properties',
    providers: ['openai', 'openai-strict'],
    bad: [tool({ type: 'object' }), tool({ type: 'object', additionalProperties: false })],
    good: [tool({ type: 'object', properties: {} }), tool(closed({}))],
    severity: 'error',
    schemaPath: '',
  },
  {
    title: 'a root that is not an object, for OpenAI strict or not',
    rule: 'root-not-object',
    providers: ['openai', 'openai-strict'],
    bad: [tool({ oneOf: [closed({ a: { type: 'string' } }), closed({ b: { type: 'string' } })] })],
    good: [tool(closed({ a: { type: 'string' } }))],
  },
  {
    title: 'a root `oneOf` or `enum`, for OpenAI strict or not',
    rule: 'root-union',
    providers: ['openai', 'openai-strict'],
    bad: [tool({ type: 'object', properties: {}, oneOf: [{ required: ['a'] }] }), tool({ type: 'object', properties: {}, enum: [{}] })],
    good: [tool({ type: 'object', properties: { a: { type: 'string' } } })],
  },
  {
    title: 'a schema without a type (`items: {}`, only a description) in strict mode',
    rule: 'missing-type',
    providers: ['openai-strict'],
    bad: [tool(closed({ tags: { type: 'array', items: {} } })), tool(closed({ data: { description: 'anything' } })), tool(closed({ v: { anyOf: [{}, { type: 'null' }] } }))],
    good: [
      tool(closed({ tags: { type: 'array', items: { type: 'string' } } })),
      tool(closed({ kind: { enum: ['a', 'b'] }, ref: { $ref: '#/$defs/x' }, v: { anyOf: [{ type: 'string' }, { type: 'null' }] } }, { $defs: { x: { type: 'string' } } })),
    ],
    severity: 'error',
  },
  {
    title: '`description` beside `$ref` in strict mode',
    rule: 'ref-siblings',
    providers: ['openai-strict'],
    bad: [tool(closed({ address: { $ref: '#/$defs/address', description: 'Where to ship' } }, { $defs: { address: closed({ city: { type: 'string' } }) } }))],
    good: [tool(closed({ address: { $ref: '#/$defs/address' } }, { $defs: { address: closed({ city: { type: 'string' } }, { description: 'Where to ship' }) } }))],
    schemaPath: '/properties/address/description',
  },
  {
    title: 'a draft-07 tuple under a draft-07 `$schema`: Anthropic reads every schema as 2020-12',
    rule: 'invalid-schema',
    providers: ['anthropic', 'anthropic-strict', 'bedrock'],
    bad: [tool({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] } } })],
    good: [tool({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }] } } })],
    schemaPath: '/properties/point/items',
  },
  {
    title: 'a BFCL-style `"type": "dict"` (not JSON Schema)',
    rule: 'invalid-schema',
    providers: [...providerNames],
    bad: [tool({ type: 'object', properties: { location: { type: 'dict', properties: {} } } })],
    good: [tool({ type: 'object', properties: { location: { type: 'object', properties: {} } } })],
    severity: 'error',
    schemaPath: '/properties/location/type',
  },
  {
    title: '`properties` written as a list',
    rule: 'invalid-schema',
    providers: [...providerNames],
    bad: [tool({ type: 'object', properties: [{ name: 'city', type: 'string' }] })],
    good: [tool({ type: 'object', properties: { city: { type: 'string' } } })],
    severity: 'error',
    schemaPath: '/properties',
  },
  {
    title: 'an empty description',
    rule: 'description-empty',
    providers: ['bedrock'],
    bad: [tool(closed({}), { description: '' })],
    good: [tool(closed({}), { description: 'Reads a file.' })],
    severity: 'error',
  },
  {
    title: 'no description',
    rule: 'missing-description',
    providers: ['anthropic', 'openai', 'gemini', 'bedrock'],
    bad: [{ name: 'x', inputSchema: closed({}), origin: { shape: 'plain' } }],
    good: [tool(closed({}))],
    severity: 'info',
  },
];

const exercised = new Set<string>();

describe.each(cases)('provider/$rule: $title', (c) => {
  test.each(c.providers)('fires for %s', (provider) => {
    const ruleId = providerRules[c.rule].id;
    for (const bad of c.together ? [c.bad] : c.bad.map((t) => [t])) {
      const found = lintTools(bad, provider).filter((d) => d.ruleId === ruleId);
      expect(found).not.toHaveLength(0);
      const first = found[0] as Diagnostic;
      expect(first.provider).toBe(provider);
      expect(first.url).toMatch(/^https:\/\//);
      expect(first.message).toMatch(/^(Unexpected|Missing) /);
      if (c.severity) expect(first.severity).toBe(c.severity);
      if (c.schemaPath !== undefined) expect(first.schemaPath).toBe(c.schemaPath);
    }
    exercised.add(ruleId);
  });
  test.each(c.providers)('stays quiet for %s on the fixed schema', (provider) => {
    const set = c.together ? [c.good] : c.good.map((t) => [t]);
    for (const good of set) expect(lintTools(good, provider).filter((d) => d.ruleId === providerRules[c.rule].id)).toEqual([]);
  });
});

describe('lintTools', () => {
  test('says what is wrong, where, for whom, and how to fix it, in one grammar', () => {
    const [d] = lintTools([tool(closed({ amount_cents: { type: 'integer', minimum: 0 } }), { strict: true, origin: { shape: 'anthropic', file: 'tools.json' } })], 'anthropic-strict');
    expect(d).toEqual({
      ruleId: 'provider/unsupported-keyword',
      severity: 'error',
      provider: 'anthropic-strict',
      tool: 'get_weather',
      file: 'tools.json',
      schemaPath: '/properties/amount_cents/minimum',
      actual: 0,
      url: profiles['anthropic-strict'].rejectedKeywords[0]?.source,
      message:
        'Unexpected keyword `minimum` at `/properties/amount_cents` for `anthropic-strict` (`get_weather` sets `strict: true`), which rejects numeric bounds; move the bound into the description and check it in the handler',
      fix: 'Move the bound into the description and check it in the handler',
    });
  });

  test('does not descend under a keyword it already reported', () => {
    const schema = { type: 'object', properties: {}, $defs: { x: { type: 'object', additionalProperties: false, const: 1 } } };
    const found = lintTools([tool(schema)], 'gemini').map((d) => d.schemaPath);
    expect(found).toEqual(['/$defs']);
  });

  test('a plain closed schema passes every profile but Gemini `parameters`, which rejects `additionalProperties`', () => {
    const schema = closed({ city: { type: 'string', description: 'City name' }, unit: { type: 'string', enum: ['c', 'f'] } });
    for (const provider of providerNames) {
      const found = lintTools([tool(schema)], provider).map((d) => `${d.ruleId} ${d.schemaPath}`);
      expect(found).toEqual(provider === 'gemini' ? ['provider/unsupported-keyword /additionalProperties'] : []);
    }
  });

  test('openai-strict allows recursion that anthropic-strict rejects', () => {
    const schema = closed({ root: { $ref: '#/$defs/node' } }, { $defs: { node: closed({ next: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] } }) } });
    expect(lintTools([tool(schema)], 'openai-strict')).toEqual([]);
    expect(lintTools([tool(schema)], 'anthropic-strict').map((d) => [d.ruleId, d.schemaPath])).toEqual([
      ['provider/recursive-schema', '/$defs/node/properties/next/anyOf/0/$ref'],
    ]);
  });

  test('names the nullable fix for a `[T, "null"]` type list', () => {
    const [d] = lintTools([tool({ type: 'object', properties: { note: { type: ['string', 'null'] } } })], 'gemini');
    expect(d?.message).toContain('`nullable: true`');
  });

  test('OpenAPI `nullable` beside no `type` compiles for every profile: in JSON Schema it means nothing', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: { address: { nullable: true, allOf: [{ $ref: '#/$defs/address' }] }, nullable: { type: 'boolean' } },
      $defs: { address: { type: 'object', properties: { city: { type: 'string' } } } },
    };
    for (const provider of providerNames) expect(lintTools([tool(schema)], provider).filter((d) => d.ruleId === providerRules['invalid-schema'].id)).toEqual([]);
    // A property named `nullable` is a property: its schema is still checked.
    const typo = { ...schema, properties: { ...(schema.properties as object), nullable: { type: 'dict' } } } as JsonSchemaObject;
    expect(lintTools([tool(typo)], 'openai').filter((d) => d.ruleId === providerRules['invalid-schema'].id).map((d) => d.schemaPath)).toEqual(['/properties/nullable/type']);
  });

  test('a draft-07 `$schema` still chooses the draft where the provider honours it (MCP, OpenAI)', () => {
    const tuple = tool({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { point: { type: 'array', items: [{ type: 'number' }] } } });
    for (const provider of ['mcp', 'openai'] as const) expect(lintTools([tuple], provider).filter((d) => d.ruleId === providerRules['invalid-schema'].id)).toEqual([]);
  });

  test('for Gemini, a wrong `type` is not answered with "or a list of them": Gemini takes one type name', () => {
    const [finding] = lintTools([tool({ type: 'object', properties: { a: { type: 'dict' } } })], 'gemini').filter((d) => d.ruleId === providerRules['invalid-schema'].id);
    expect(finding?.message).toMatch(/expected one of `"array"`.*`"string"`, for `gemini`/);
    expect(finding?.message).not.toMatch(/list of them/);
    const [openai] = lintTools([tool({ type: 'object', properties: { a: { type: 'dict' } } })], 'openai').filter((d) => d.ruleId === providerRules['invalid-schema'].id);
    expect(openai?.message).toMatch(/or a list of them/);
  });

  test('strict mode asks for a typed `items` and a typed schema where plain mode allows `{}`', () => {
    const [strict] = lintTools([tool(closed({ paths: { type: 'array' } }))], 'openai-strict').filter((d) => d.ruleId === providerRules['array-missing-items'].id);
    expect(strict?.message).toMatch(/add `items` with the `type` of the elements/);
    const [plain] = lintTools([tool({ type: 'object', properties: { paths: { type: 'array' } } })], 'openai').filter((d) => d.ruleId === providerRules['array-missing-items'].id);
    expect(plain?.message).toMatch(/`\{\}` if anything goes/);
    const [bool] = lintTools([tool(closed({ any: true as never }))], 'openai-strict').filter((d) => d.ruleId === providerRules['boolean-schema'].id);
    expect(bool?.message).toMatch(/schema object with a `type`/);
  });

  test('providerNames and isProviderName agree', () => {
    expect([...providerNames]).toEqual(['anthropic', 'anthropic-strict', 'openai', 'openai-strict', 'gemini', 'gemini-json-schema', 'bedrock', 'mcp']);
    for (const name of providerNames) expect(isProviderName(name)).toBe(true);
    expect(isProviderName('claude')).toBe(false);
    expect(isProviderName(undefined)).toBe(false);
    expect(Object.keys(profiles).sort()).toEqual([...providerNames].sort());
  });
});

describe('the provider rule registry audits itself', () => {
  const docs = readFileSync(new URL('../../docs/rules/provider.md', import.meta.url), 'utf8');
  const sections = new Set([...docs.matchAll(/^## (\S+)\s*$/gm)].map((m) => m[1]));

  test.each(Object.entries(providerRules))('%s has a docs section, an id in its family and a description', (key, meta) => {
    expect(sections.has(key)).toBe(true);
    expect(meta.id).toBe(`provider/${key}`);
    expect(meta.docs).toBe(`docs/rules/provider.md#${key}`);
    expect(meta.description.length).toBeGreaterThan(10);
  });

  test('every docs section names a rule', () => {
    for (const section of sections) expect(Object.keys(providerRules)).toContain(section);
  });

  const facts: Fact[] = [];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === 'object' && value !== null && !(value instanceof RegExp)) {
      if ('reason' in value) facts.push(value as Fact);
      else Object.values(value).forEach(collect);
    }
  };
  collect(Object.values(profiles));
  const documented = new Set<string>(Object.values(sources));

  test('every profile fact carries an https source and a reason; disputed facts are warnings that say why', () => {
    expect(facts.length).toBeGreaterThan(40);
    for (const fact of facts) {
      expect(fact.source).toMatch(/^https:\/\/[^\s]+$/);
      expect(typeof fact.reason).toBe('string');
      if (fact.severity === 'warning') expect(fact.reason).toMatch(/not in the docs|disagree|SHOULD|does not list/);
    }
  });

  test('every error fact has evidence: the documentation that states it, or a rejected request quoted in a public issue', () => {
    for (const fact of facts.filter((f) => (f.severity ?? 'error') === 'error')) {
      const evidence = documented.has(fact.source) || (fact.rejected !== undefined && fact.source === issueUrl(fact.rejected.issue));
      expect({ reason: fact.reason, evidence }).toEqual({ reason: fact.reason, evidence: true });
      // A fact the docs do not state says so in its findings.
      if (!documented.has(fact.source)) expect(fact.reason).toContain('not in the docs');
    }
  });

  test('docs/rules/provider.md cites every source, every issue and the exact error text of every rejected request', () => {
    const text = docs.replace(/\s*\n\s*/g, ' ');
    for (const fact of facts) {
      expect({ source: fact.source, cited: text.includes(fact.source) }).toEqual({ source: fact.source, cited: true });
      if (fact.rejected === undefined) continue;
      expect(fact.rejected.issue).toMatch(/^[\w.-]+\/[\w.-]+#\d+$/);
      expect({ issue: fact.rejected.issue, cited: text.includes(fact.rejected.issue) }).toEqual({ issue: fact.rejected.issue, cited: true });
      expect({ error: fact.rejected.error, cited: text.includes(fact.rejected.error) }).toEqual({ error: fact.rejected.error, cited: true });
    }
  });

  // Runs after the case tables above (Jest runs a file's tests in order).
  test('every rule is exercised by a failing schema above', () => {
    expect([...exercised].sort()).toEqual(Object.values(providerRules).map((r) => r.id).sort());
  });
});
