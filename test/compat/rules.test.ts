import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { applyPolicy, compatRules, diffTools, type CompatRuleName } from '../../src/checks/compat/index.js';
import type { Diagnostic } from '../../src/report/diagnostic.js';
import type { JsonSchemaObject } from '../../src/tools/types.js';
import { diff, ids, tool, withX } from './helpers.js';

const pair = (before: unknown, after: unknown) => (): Diagnostic[] => diff(withX(before), withX(after));
const obj = (extra: JsonSchemaObject) => ({ type: 'object', ...extra });

/** One old/new pair per rule that triggers exactly that rule, once. */
const triggers: Record<CompatRuleName, () => Diagnostic[]> = {
  'tool-removed': () => diffTools([tool('a', withX({ type: 'string' }))], []),
  'tool-renamed': () => diffTools([tool('get_order', withX({ type: 'string' }))], [tool('fetch_order', withX({ type: 'string', description: 'new words' }))]),
  'type-narrowed': pair({ type: 'number' }, { type: 'integer' }),
  'enum-narrowed': pair({ enum: ['a', 'b'] }, { enum: ['a'] }),
  'enum-added': pair({ type: 'string' }, { type: 'string', enum: ['a', 'b'] }),
  'const-added': pair({ type: 'string' }, { type: 'string', const: 'a' }),
  'const-changed': pair({ const: 'a' }, { const: 'b' }),
  'maximum-decreased': pair({ type: 'number', maximum: 100000 }, { type: 'number', maximum: 50000 }),
  'maximum-added': pair({ type: 'number' }, { type: 'number', maximum: 50000 }),
  'exclusive-maximum-decreased': pair({ type: 'number', exclusiveMaximum: 100 }, { type: 'number', exclusiveMaximum: 50 }),
  'exclusive-maximum-added': pair({ type: 'number' }, { type: 'number', exclusiveMaximum: 50 }),
  'minimum-increased': pair({ type: 'number', minimum: 0 }, { type: 'number', minimum: 1 }),
  'minimum-added': pair({ type: 'number' }, { type: 'number', minimum: 1 }),
  'exclusive-minimum-increased': pair({ type: 'number', minimum: 0 }, { type: 'number', exclusiveMinimum: 0 }),
  'exclusive-minimum-added': pair({ type: 'number' }, { type: 'number', exclusiveMinimum: 0 }),
  'multiple-of-added': pair({ type: 'number' }, { type: 'number', multipleOf: 5 }),
  'multiple-of-changed': pair({ type: 'number', multipleOf: 2 }, { type: 'number', multipleOf: 3 }),
  'min-length-increased': pair({ type: 'string', minLength: 1 }, { type: 'string', minLength: 3 }),
  'min-length-added': pair({ type: 'string' }, { type: 'string', minLength: 3 }),
  'max-length-decreased': pair({ type: 'string', maxLength: 100 }, { type: 'string', maxLength: 10 }),
  'max-length-added': pair({ type: 'string' }, { type: 'string', maxLength: 10 }),
  'pattern-added': pair({ type: 'string' }, { type: 'string', pattern: '^A-\\d{4}$' }),
  'pattern-changed': pair({ type: 'string', pattern: '^[AB]-\\d{4}$' }, { type: 'string', pattern: '^A-\\d{4}$' }),
  'format-added': pair({ type: 'string' }, { type: 'string', format: 'email' }),
  'format-changed': pair({ type: 'string', format: 'date-time' }, { type: 'string', format: 'date' }),
  'min-items-increased': pair({ type: 'array', minItems: 1 }, { type: 'array', minItems: 2 }),
  'min-items-added': pair({ type: 'array' }, { type: 'array', minItems: 2 }),
  'max-items-decreased': pair({ type: 'array', maxItems: 10 }, { type: 'array', maxItems: 5 }),
  'max-items-added': pair({ type: 'array' }, { type: 'array', maxItems: 5 }),
  'unique-items-added': pair({ type: 'array' }, { type: 'array', uniqueItems: true }),
  'items-closed': pair({ type: 'array', prefixItems: [{ type: 'string' }] }, { type: 'array', prefixItems: [{ type: 'string' }], items: false }),
  'required-added': () => diff(obj({ properties: { a: {}, b: {} }, required: ['a'] }), obj({ properties: { a: {}, b: {} }, required: ['a', 'b'] })),
  'property-removed': () => diff(
    obj({ properties: { a: { type: 'string' }, b: { type: 'string' } }, additionalProperties: false }),
    obj({ properties: { a: { type: 'string' } }, additionalProperties: false }),
  ),
  'property-ignored': () => diff(obj({ properties: { a: { type: 'string' }, b: { type: 'string' } } }), obj({ properties: { a: { type: 'string' } } })),
  'additional-properties-closed': () => diff(obj({ properties: { a: { type: 'string' } } }), obj({ properties: { a: { type: 'string' } }, additionalProperties: false })),
  'min-properties-increased': pair({ type: 'object', minProperties: 1 }, { type: 'object', minProperties: 2 }),
  'min-properties-added': pair({ type: 'object' }, { type: 'object', minProperties: 1 }),
  'max-properties-decreased': pair({ type: 'object', maxProperties: 5 }, { type: 'object', maxProperties: 3 }),
  'max-properties-added': pair({ type: 'object' }, { type: 'object', maxProperties: 3 }),
  'variant-removed': pair({ anyOf: [{ type: 'string' }, { type: 'number' }] }, { anyOf: [{ type: 'string' }] }),
  'constraint-added': pair({ type: 'string' }, { type: 'string', not: { const: '' } }),
  'constraint-changed': pair({ type: 'array', contains: { type: 'string' } }, { type: 'array', contains: { type: 'number' } }),
  'unused-ignore': () => applyPolicy([], { severity: {}, ignore: [{ rule: 'compat/maximum-decreased', tool: 'create_refund', reason: 'approved in #412' }] }),
};

describe('the compat rule registry', () => {
  const names = Object.keys(compatRules) as CompatRuleName[];
  const docs = readFileSync(new URL('../../docs/rules/compat.md', import.meta.url), 'utf8');
  const headings = new Set([...docs.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim()));

  test.each(names)('%s has a docs section, a description and a trigger', (name) => {
    const rule = compatRules[name];
    expect(rule.id).toBe(`compat/${name}`);
    expect(rule.docs).toBe(`docs/rules/compat.md#${name}`);
    expect(rule.description.length).toBeGreaterThan(20);
    expect(headings.has(name)).toBe(true);
    expect(typeof triggers[name]).toBe('function');
  });

  test('the docs have no section for a rule that does not exist', () => {
    // Rule sections are named by the rule; prose sections ("Reading a finding") are capitalized.
    expect([...headings].filter((h) => /^[a-z][a-z0-9-]*$/.test(h) && !(h in compatRules))).toEqual([]);
  });

  test.each(names)('%s: its trigger reports exactly that rule', (name) => {
    const found = triggers[name]();
    expect(ids(found)).toEqual([`compat/${name}`]);
    const [d] = found;
    expect(d!.severity).toBe(compatRules[name].severity);
    expect(d!.url).toBe(compatRules[name].url);
    expect(d!.message).toMatch(/`/);
    // Every compat finding says how to ship the change safely.
    expect(d!.fix).toEqual(expect.any(String));
  });
});

describe('findings carry both coordinates and one message grammar', () => {
  test('maximum decreased', () => {
    const refund = (maximum: number) => tool('create_refund', { type: 'object', properties: { amount_cents: { type: 'integer', maximum } } });
    const [d] = diffTools([refund(100000)], [refund(50000)]);
    expect(d).toMatchObject({
      ruleId: 'compat/maximum-decreased',
      tool: 'create_refund',
      schemaPath: '/properties/amount_cents/maximum',
      instancePath: '/amount_cents',
      expected: 100000,
      actual: 50000,
      message: '`create_refund` `/amount_cents`: `maximum` decreased from 100000 to 50000; calls above 50000 that were valid are now rejected',
    });
  });

  test('required-added carries the two-step advice', () => {
    const [d] = triggers['required-added']();
    expect(d).toMatchObject({ schemaPath: '/required/1', instancePath: '/b', expected: ['a'], actual: ['a', 'b'] });
    expect(d!.fix).toMatch(/optional with a default.*recorded calls.*then make it required/);
  });

  test('tool renamed names both tools', () => {
    const [d] = triggers['tool-renamed']();
    expect(d!.message).toBe('`get_order`: tool renamed to `fetch_order` with the same schema; calls still naming `get_order` now fail');
  });

  test('enum narrowed lists the removed values', () => {
    const [d] = diff(withX({ enum: ['duplicate_charge', 'goodwill', 'fraud'] }), withX({ enum: ['duplicate_charge'] }));
    expect(d!.message).toBe('`t` `/x`: `enum` narrowed: "goodwill", "fraud" removed; calls sending them are now rejected');
    expect(d!.schemaPath).toBe('/properties/x/enum');
  });

  test('an exclusive bound that replaces an inclusive one at the same value', () => {
    const [d] = diff(withX({ type: 'number', maximum: 10 }), withX({ type: 'number', exclusiveMaximum: 10 }));
    expect(d!.ruleId).toBe('compat/exclusive-maximum-decreased');
    expect(d!.message).toContain('from <= 10 to < 10; calls above or equal to 10');
  });

  test('draft-04 boolean exclusiveMaximum is read as an exclusive bound', () => {
    const [d] = diff(withX({ type: 'number', maximum: 10 }), withX({ type: 'number', maximum: 10, exclusiveMaximum: true }));
    expect(d).toMatchObject({ ruleId: 'compat/exclusive-maximum-decreased', schemaPath: '/properties/x/exclusiveMaximum' });
  });

  test('type narrowed from [string, null] to string', () => {
    const [d] = diff(withX({ type: ['string', 'null'] }), withX({ type: 'string' }));
    expect(d!.message).toBe('`t` `/x`: `type` narrowed from [string, null] to string; values of null that were valid are now rejected');
  });

  test('a type where there was none', () => {
    expect(ids(diff(withX({}), withX({ type: 'string' })))).toEqual(['compat/type-narrowed']);
  });

  test('several changes in one schema are all reported, in schema order', () => {
    const before = obj({ properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] });
    const after = obj({ properties: { a: { type: 'string', maxLength: 3 }, b: { type: 'number', minimum: 1 } }, required: ['a', 'b'] });
    expect(ids(diff(before, after))).toEqual(['compat/required-added', 'compat/max-length-added', 'compat/minimum-added']);
  });
});
