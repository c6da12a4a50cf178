import { describe, expect, test } from '@jest/globals';
import type { JsonSchemaObject } from '../../src/tools/types.js';
import { diff, ids, withX } from './helpers.js';

const pick = (found: ReturnType<typeof diff>) => found.map((d) => ({ ruleId: d.ruleId, schemaPath: d.schemaPath, instancePath: d.instancePath }));

describe('nested schemas', () => {
  test('inside array items', () => {
    const before = { type: 'object', properties: { files: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' } } } } } };
    const after = { type: 'object', properties: { files: { type: 'array', items: { type: 'object', properties: { path: { type: 'string', maxLength: 255 } }, required: ['path'] } } } };
    expect(pick(diff(before, after))).toEqual([
      { ruleId: 'compat/required-added', schemaPath: '/properties/files/items/required/0', instancePath: '/files/*/path' },
      { ruleId: 'compat/max-length-added', schemaPath: '/properties/files/items/properties/path/maxLength', instancePath: '/files/*/path' },
    ]);
  });

  test('inside tuple positions (prefixItems)', () => {
    const before = withX({ type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }] });
    const after = withX({ type: 'array', prefixItems: [{ type: 'number' }, { type: 'string', enum: ['a'] }] });
    expect(pick(diff(before, after))).toEqual([{ ruleId: 'compat/enum-added', schemaPath: '/properties/x/prefixItems/1/enum', instancePath: '/x/1' }]);
  });

  test('inside an additionalProperties schema', () => {
    const before = withX({ type: 'object', additionalProperties: { type: 'number' } });
    const after = withX({ type: 'object', additionalProperties: { type: 'number', minimum: 0 } });
    expect(pick(diff(before, after))).toEqual([{ ruleId: 'compat/minimum-added', schemaPath: '/properties/x/additionalProperties/minimum', instancePath: '/x/*' }]);
  });

  test('a declared property removed from an object whose unknown properties must match a schema', () => {
    const before = withX({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'number' } });
    const after = withX({ type: 'object', additionalProperties: { type: 'number' } });
    expect(pick(diff(before, after))).toEqual([{ ruleId: 'compat/type-narrowed', schemaPath: '/properties/x/additionalProperties/type', instancePath: '/x/a' }]);
  });

  test('a changed branch of anyOf is matched by structure, not by position', () => {
    const before = withX({ anyOf: [{ type: 'null' }, { type: 'string', maxLength: 10 }] });
    const after = withX({ anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }] });
    expect(pick(diff(before, after))).toEqual([{ ruleId: 'compat/max-length-decreased', schemaPath: '/properties/x/anyOf/0/maxLength', instancePath: '/x' }]);
  });

  test('a removed anyOf branch', () => {
    const before = withX({ oneOf: [{ type: 'object', properties: { kind: { const: 'card' } } }, { type: 'string' }] });
    const after = withX({ oneOf: [{ type: 'object', properties: { kind: { const: 'card' } } }] });
    expect(pick(diff(before, after))).toEqual([{ ruleId: 'compat/variant-removed', schemaPath: '/properties/x/oneOf', instancePath: '/x' }]);
  });

  test('a nullable anyOf collapsed to its non-null branch', () => {
    const before = withX({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    const after = withX({ type: 'string' });
    expect(pick(diff(before, after))).toEqual([{ ruleId: 'compat/type-narrowed', schemaPath: '/properties/x/type', instancePath: '/x' }]);
  });

  test('a constraint added in an allOf member', () => {
    const before = withX({ type: 'string' });
    const after = withX({ allOf: [{ type: 'string' }, { pattern: '^a' }] });
    expect(pick(diff(before, after))).toEqual([{ ruleId: 'compat/pattern-added', schemaPath: '/properties/x/allOf/1/pattern', instancePath: '/x' }]);
  });

  test('allOf: a member that closes the object rejects properties only its sibling declares', () => {
    const before = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } };
    const after = { allOf: [{ properties: { a: { type: 'string' } }, additionalProperties: false }, { properties: { b: { type: 'string' } } }] };
    expect(ids(diff(before, after))).toContain('compat/property-removed');
  });

  test('a change inside $defs is reported at the definition, for every place that uses it', () => {
    const defs = (max: number): JsonSchemaObject => ({ Money: { type: 'object', properties: { cents: { type: 'integer', maximum: max } } } });
    const schema = (max: number): JsonSchemaObject => ({
      type: 'object',
      properties: { price: { $ref: '#/$defs/Money' }, refund: { $ref: '#/$defs/Money' } },
      $defs: defs(max),
    });
    expect(pick(diff(schema(1000), schema(500)))).toEqual([
      { ruleId: 'compat/maximum-decreased', schemaPath: '/$defs/Money/properties/cents/maximum', instancePath: '/price/cents' },
      { ruleId: 'compat/maximum-decreased', schemaPath: '/$defs/Money/properties/cents/maximum', instancePath: '/refund/cents' },
    ]);
  });

  test('old side through definitions, new side inline', () => {
    const before = { ...withX({ $ref: '#/definitions/S' }), definitions: { S: { type: 'string', maxLength: 10 } } };
    const after = withX({ type: 'string', maxLength: 8 });
    expect(pick(diff(before, after))).toEqual([{ ruleId: 'compat/max-length-decreased', schemaPath: '/properties/x/maxLength', instancePath: '/x' }]);
  });

  test('recursive schemas: a change deep in a tree, without looping', () => {
    const tree = (max: number): JsonSchemaObject => ({
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      $defs: {
        Node: {
          type: 'object',
          properties: { label: { type: 'string', maxLength: max }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
        },
      },
    });
    expect(pick(diff(tree(100), tree(50)))).toEqual([
      { ruleId: 'compat/max-length-decreased', schemaPath: '/$defs/Node/properties/label/maxLength', instancePath: '/root/label' },
    ]);
    expect(diff(tree(100), tree(200))).toEqual([]);
  });

  test('recursion through the root (`$ref: "#"`) and mutual recursion terminate', () => {
    const root = (extra: JsonSchemaObject): JsonSchemaObject => ({ type: 'object', properties: { name: { type: 'string', ...extra }, next: { $ref: '#' } } });
    expect(ids(diff(root({}), root({ minLength: 1 })))).toEqual(['compat/min-length-added']);
    const mutual = (max: number): JsonSchemaObject => ({
      type: 'object',
      properties: { a: { $ref: '#/$defs/A' } },
      $defs: {
        A: { type: 'object', properties: { b: { $ref: '#/$defs/B' }, n: { type: 'number', maximum: max } } },
        B: { anyOf: [{ $ref: '#/$defs/A' }, { type: 'null' }] },
      },
    });
    expect(ids(diff(mutual(10), mutual(5)))).toEqual(['compat/maximum-decreased']);
    expect(diff(mutual(10), mutual(10))).toEqual([]);
  });

  test('a recursive JSON-value union compared with a changed copy', () => {
    const value = (leaf: JsonSchemaObject): JsonSchemaObject => ({
      type: 'object',
      properties: { v: { $ref: '#/$defs/V' } },
      $defs: { V: { anyOf: [leaf, { type: 'number' }, { type: 'boolean' }, { type: 'null' }, { type: 'array', items: { $ref: '#/$defs/V' } }, { type: 'object', additionalProperties: { $ref: '#/$defs/V' } }] } },
    });
    expect(diff(value({ type: 'string' }), value({ type: 'string' }))).toEqual([]);
    expect(ids(diff(value({ type: 'string' }), value({ type: 'string', maxLength: 5 })))).toEqual(['compat/max-length-added']);
  });

  test('an unresolvable $ref is left alone, not guessed at', () => {
    expect(diff(withX({ $ref: 'https://example.com/s.json' }), withX({ $ref: 'https://example.com/other.json' }))).toEqual([]);
  });

  test('property schema `false` where a value was accepted', () => {
    expect(pick(diff(withX({ type: 'string' }), withX(false)))).toEqual([{ ruleId: 'compat/property-removed', schemaPath: '/properties/x', instancePath: '/x' }]);
  });
});
