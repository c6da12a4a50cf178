import { describe, expect, test } from '@jest/globals';
import { diffTools } from '../../src/checks/compat/index.js';
import type { JsonSchemaObject } from '../../src/tools/types.js';
import { diff, tool, withX } from './helpers.js';

const refund = (amount: JsonSchemaObject, extra: JsonSchemaObject = {}): JsonSchemaObject => ({
  type: 'object',
  properties: { order_id: { type: 'string' }, amount_cents: amount },
  required: ['order_id', 'amount_cents'],
  ...extra,
});

/** Changes that keep every old call valid: none may be flagged. */
const clean: Array<[string, JsonSchemaObject, JsonSchemaObject]> = [
  ['description and title edits', withX({ type: 'string', description: 'old words', title: 'X' }, { description: 'a' }), withX({ type: 'string', description: 'new words' }, { description: 'b', title: 'T' })],
  ['maximum raised', withX({ type: 'number', maximum: 10 }), withX({ type: 'number', maximum: 20 })],
  ['maximum removed', withX({ type: 'number', maximum: 10 }), withX({ type: 'number' })],
  ['minimum lowered', withX({ type: 'number', minimum: 10 }), withX({ type: 'number', minimum: 0 })],
  ['exclusive bound made inclusive', withX({ type: 'number', exclusiveMaximum: 10 }), withX({ type: 'number', maximum: 10 })],
  ['draft-04 boolean exclusive to numeric form, same meaning', withX({ type: 'number', maximum: 10, exclusiveMaximum: true }), withX({ type: 'number', exclusiveMaximum: 10 })],
  ['integer bound rewritten: < 11 is <= 10', withX({ type: 'integer', maximum: 10 }), withX({ type: 'integer', exclusiveMaximum: 11 })],
  ['lengths loosened', withX({ type: 'string', minLength: 3, maxLength: 10 }), withX({ type: 'string', minLength: 1, maxLength: 100 })],
  ['item counts loosened', withX({ type: 'array', minItems: 3, maxItems: 10 }), withX({ type: 'array', minItems: 1 })],
  ['multipleOf changed to a divisor', withX({ type: 'number', multipleOf: 10 }), withX({ type: 'number', multipleOf: 5 })],
  ['multipleOf 1 on integers', withX({ type: 'integer' }), withX({ type: 'integer', multipleOf: 1 })],
  ['enum widened', withX({ enum: ['a', 'b'] }), withX({ enum: ['a', 'b', 'c'] })],
  ['enum reordered', withX({ enum: ['a', 'b'] }), withX({ enum: ['b', 'a'] })],
  ['enum removed', withX({ type: 'string', enum: ['a', 'b'] }), withX({ type: 'string' })],
  ['enum gets a type that all its values have', withX({ enum: ['a', 'b'] }), withX({ type: 'string', enum: ['a', 'b'] })],
  ['enum gets a maxLength all its values meet', withX({ type: 'string', enum: ['ab', 'cd'] }), withX({ type: 'string', enum: ['ab', 'cd'], maxLength: 2 })],
  ['boolean becomes an enum of both values', withX({ type: 'boolean' }), withX({ enum: [true, false] })],
  ['const becomes an enum containing it', withX({ const: 'a' }), withX({ enum: ['a', 'b'] })],
  ['pattern removed', withX({ type: 'string', pattern: '^a' }), withX({ type: 'string' })],
  ['pattern widened by an alternative', withX({ type: 'string', pattern: '^A-\\d{4}$' }), withX({ type: 'string', pattern: '^A-\\d{4}$|^B-\\d{4}$' })],
  ['optional property added to an open object', withX({ type: 'string' }), { type: 'object', properties: { x: { type: 'string' }, y: { type: 'integer', maximum: 3 } } }],
  ['optional property added to a closed object', withX({ type: 'string' }, { additionalProperties: false }), { type: 'object', properties: { x: { type: 'string' }, y: { type: 'string' } }, additionalProperties: false }],
  ['required entry removed', refund({ type: 'integer' }), { ...refund({ type: 'integer' }), required: ['order_id'] }],
  ['type widened integer -> number', withX({ type: 'integer' }), withX({ type: 'number' })],
  ['type widened string -> [string, null]', withX({ type: 'string' }), withX({ type: ['string', 'null'] })],
  ['type removed', withX({ type: 'string', maxLength: 3 }), withX({})],
  ['additionalProperties opened', withX({ type: 'string' }, { additionalProperties: false }), withX({ type: 'string' })],
  ['additionalProperties opened to true', withX({ type: 'string' }, { additionalProperties: false }), withX({ type: 'string' }, { additionalProperties: true })],
  ['default and examples changed', withX({ type: 'number', default: 1, examples: [1] }), withX({ type: 'number', default: 2, examples: [5, 6] })],
  ['type object added at the root (arguments are always objects)', { properties: { x: { type: 'string' } } }, withX({ type: 'string' })],
  ['$schema and $comment changed', { ...withX({ type: 'string' }), $schema: 'http://json-schema.org/draft-07/schema#' }, { ...withX({ type: 'string' }), $comment: 'hi' }],
  ['inline schema moved to $defs', refund({ type: 'integer', minimum: 1 }), { ...refund({ $ref: '#/$defs/Cents' }), $defs: { Cents: { type: 'integer', minimum: 1 } } }],
  ['$defs moved to definitions', { ...withX({ $ref: '#/$defs/S' }), $defs: { S: { type: 'string' } } }, { ...withX({ $ref: '#/definitions/S' }), definitions: { S: { type: 'string' } } }],
  ['$ref inlined', { ...withX({ $ref: '#/$defs/S' }), $defs: { S: { type: 'string', maxLength: 4 } } }, withX({ type: 'string', maxLength: 4 })],
  ['pydantic-style allOf wrapper around a $ref', { ...withX({ $ref: '#/$defs/S' }), $defs: { S: { type: 'string' } } }, { ...withX({ allOf: [{ $ref: '#/$defs/S' }], description: 'd' }), $defs: { S: { type: 'string' } } }],
  ['anyOf branch added', withX({ anyOf: [{ type: 'string' }] }), withX({ anyOf: [{ type: 'string' }, { type: 'null' }] })],
  ['anyOf branches reordered', withX({ anyOf: [{ type: 'string' }, { type: 'number' }] }), withX({ anyOf: [{ type: 'number' }, { type: 'string' }] })],
  ['type array rewritten as anyOf', withX({ type: ['string', 'null'] }), withX({ anyOf: [{ type: 'string' }, { type: 'null' }] })],
  ['anyOf rewritten as a type array', withX({ anyOf: [{ type: 'string' }, { type: 'integer' }] }), withX({ type: ['string', 'number'] })],
  ['anyOf of nullable removed', withX({ anyOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }] }), withX({ type: ['string', 'null'] })],
  ['allOf merged into one schema', withX({ allOf: [{ type: 'string' }, { maxLength: 5 }] }), withX({ type: 'string', maxLength: 5 })],
  ['one schema split into allOf', withX({ type: 'string', maxLength: 5 }), withX({ allOf: [{ type: 'string' }, { maxLength: 5 }] })],
  ['object properties split across allOf', { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } }, { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { properties: { b: { type: 'number' } } }] }],
  ['items loosened', withX({ type: 'array', items: { type: 'integer', maximum: 5 } }), withX({ type: 'array', items: { type: 'number' } })],
  ['closed tuple opened', withX({ type: 'array', prefixItems: [{ type: 'string' }], items: false }), withX({ type: 'array', prefixItems: [{ type: 'string' }] })],
  ['draft-07 tuple rewritten as prefixItems', withX({ type: 'array', items: [{ type: 'string' }], additionalItems: false }), withX({ type: 'array', prefixItems: [{ type: 'string' }], items: false })],
  ['format removed', withX({ type: 'string', format: 'email' }), withX({ type: 'string' })],
  ['uniqueItems switched off', withX({ type: 'array', uniqueItems: true }), withX({ type: 'array' })],
  ['vendor keyword added', withX({ type: 'string' }), withX({ type: 'string', 'x-order': 3 })],
  ['a maximum on a string property changes nothing', withX({ type: 'string' }), withX({ type: 'string', maximum: 3 })],
];

describe('clean changes are not flagged', () => {
  test.each(clean)('%s', (_name, before, after) => {
    expect(diff(before, after)).toEqual([]);
  });

  test('a tool added', () => {
    expect(diffTools([tool('a', withX({}))], [tool('a', withX({})), tool('b', withX({}))])).toEqual([]);
  });

  test('tools reordered', () => {
    const a = tool('a', withX({ type: 'string' }));
    const b = tool('b', withX({ type: 'number' }));
    expect(diffTools([a, b], [b, a])).toEqual([]);
  });

  test('the same schema, as separate objects', () => {
    const schema = refund({ type: 'integer', maximum: 100 });
    expect(diff(schema, structuredClone(schema))).toEqual([]);
  });
});
