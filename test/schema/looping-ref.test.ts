import { describe, expect, test } from '@jest/globals';
import { loopingRef } from '../../src/schema/refs.js';
import { compileFailure, SchemaCompiler } from '../../src/schema/validator.js';
import type { JsonSchemaObject } from '../../src/tools/types.js';

// Ajv compiles a schema whose `$ref` leads back to itself without going into the value, and
// its validator then recurses until the stack runs out on the first call: `validate` stopped
// with "Cannot read recorded calls from calls.jsonl (Maximum call stack size exceeded)".

describe('a $ref that loops without going into the value', () => {
  test.each<[string, JsonSchemaObject, string]>([
    ['the root naming itself', { type: 'object', $ref: '#' }, '/$ref'],
    ['through allOf', { type: 'object', allOf: [{ $ref: '#' }] }, '/allOf/0/$ref'],
    ['two $defs naming each other', { $ref: '#/$defs/a', $defs: { a: { $ref: '#/$defs/b' }, b: { anyOf: [{ $ref: '#/$defs/a' }] } } }, '/$defs/b/anyOf/0/$ref'],
    ['below a property, with a key to escape', { type: 'object', properties: { 'a/b': { not: { $ref: '#/properties/a~1b' } } } }, '/properties/a~1b/not/$ref'],
  ])('%s is found, with the pointer of the $ref that closes the loop', (_what, schema, pointer) => {
    expect(loopingRef(schema)).toBe(pointer);
    expect(compileFailure(schema)).toMatchObject({ kind: 'compile', error: { message: expect.stringContaining('validating would never end') } });
    expect(() => new SchemaCompiler().compile(schema)).toThrow(/leads back to a schema it is applied from/);
  });

  test.each<[string, JsonSchemaObject]>([
    ['a tree: the $ref is under items', { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } }],
    ['a linked list through $defs and properties', { $ref: '#/$defs/node', $defs: { node: { type: 'object', properties: { next: { anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] } } } } }],
    ['a $ref into a sibling that does not come back', { type: 'object', properties: { a: { $ref: '#/$defs/x' }, b: { $ref: '#/$defs/x' } }, $defs: { x: { allOf: [{ type: 'string' }] } } }],
  ])('%s is ordinary recursion and validates', (_what, schema) => {
    expect(loopingRef(schema)).toBeUndefined();
    expect(compileFailure(schema)).toBeUndefined();
    expect(new SchemaCompiler().compile(schema)).toBeDefined();
  });
});
