import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { diffTools } from '../../src/checks/compat/index.js';
import { SchemaCompiler } from '../../src/schema/validator.js';
import type { JsonSchemaObject } from '../../src/tools/types.js';
import { tool, withX } from './helpers.js';

const compiler = new SchemaCompiler();

const numberSchema = fc.record(
  {
    type: fc.constantFrom('number', 'integer', ['integer', 'null'], ['number', 'string']),
    minimum: fc.integer({ min: -5, max: 5 }),
    maximum: fc.integer({ min: -5, max: 5 }),
    exclusiveMinimum: fc.integer({ min: -5, max: 5 }),
    exclusiveMaximum: fc.integer({ min: -5, max: 5 }),
    multipleOf: fc.constantFrom(0.5, 1, 2, 3, 4),
    enum: fc.uniqueArray(fc.constantFrom(-3, -1, 0, 1, 2, 2.5, 4, null, 'a'), { minLength: 1, maxLength: 4 }),
  },
  { requiredKeys: [] },
);

const stringSchema = fc.record(
  {
    type: fc.constantFrom('string', ['string', 'null']),
    minLength: fc.integer({ min: 0, max: 4 }),
    maxLength: fc.integer({ min: 0, max: 4 }),
    pattern: fc.constantFrom('^a', 'b$', '^a|b$'),
    enum: fc.uniqueArray(fc.constantFrom('', 'a', 'ab', 'ba', 'abcd', null), { minLength: 1, maxLength: 4 }),
  },
  { requiredKeys: [] },
);

const values: unknown[] = [null, 'a', '', 'ab', 'ba', 'abcd', 'abcde', -6, -5, -4.5, -3, -1, 0, 0.5, 1, 2, 2.5, 3, 4, 5, 6, 7.5, true];

/** Soundness: when the checker finds nothing, no probe value valid under the old schema is rejected by the new one. */
function noFindingMeansNoRejection(before: JsonSchemaObject, after: JsonSchemaObject): void {
  const found = diffTools([tool('t', withX(before))], [tool('t', withX(after))]).filter((d) => d.severity === 'error');
  if (found.length > 0) return;
  const oldValid = compiler.compile({ ...withX(before), required: ['x'] });
  const newValid = compiler.compile({ ...withX(after), required: ['x'] });
  for (const v of values) {
    if (oldValid({ x: v })) expect({ before, after, v, valid: newValid({ x: v }) }).toEqual({ before, after, v, valid: true });
  }
}

describe('property-based', () => {
  test('numbers: no finding means no rejected value', () => {
    fc.assert(fc.property(numberSchema, numberSchema, (a, b) => noFindingMeansNoRejection(a, b)), { numRuns: 3000 });
  });

  test('strings: no finding means no rejected value', () => {
    fc.assert(fc.property(stringSchema, stringSchema, (a, b) => noFindingMeansNoRejection(a, b)), { numRuns: 3000 });
  });

  test('any generated schema against a copy of itself: no finding', () => {
    const schema = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        numberSchema,
        stringSchema,
        fc.record({ type: fc.constant('array'), items: tie('node') }),
        fc.record({ type: fc.constant('object'), properties: fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('node')), additionalProperties: fc.boolean() }),
        fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
      ),
    })).node as fc.Arbitrary<JsonSchemaObject>;
    fc.assert(fc.property(schema, (s) => {
      expect(diffTools([tool('t', withX(s))], [tool('t', withX(structuredClone(s)))])).toEqual([]);
    }), { numRuns: 500 });
  });
});

const leaf = fc.oneof(
  fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'null', 'boolean') }),
  fc.record({ type: fc.constant('integer'), maximum: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ enum: fc.uniqueArray(fc.constantFrom('a', 'b', 1, null), { minLength: 1, maxLength: 3 }) }),
  fc.constant({}),
);
const schema = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ type: fc.constant('array'), items: tie('node') }, { requiredKeys: ['type'] }),
    fc.record({ type: fc.constant('object'), properties: fc.record({ a: tie('node'), b: tie('node') }), required: fc.subarray(['a', 'b']), additionalProperties: fc.boolean() }),
    fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
  ),
})).node as fc.Arbitrary<JsonSchemaObject>;
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, fc.constantFrom('a', 'b', 'c', 0, 1, 2, 5, 1.5, null, true),
    fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('v'), { maxKeys: 3 })),
})).v;

// Objects declare both `a` and `b`, so probes never exercise the documented exception
// (an optional property added to an open object that never mentioned it).
describe('property-based, structural', () => {
  test('objects, arrays, anyOf, allOf: no finding means no rejected value', () => {
    fc.assert(fc.property(schema, schema, fc.array(value, { minLength: 20, maxLength: 20 }), (a, b, vs) => {
      const A = { type: 'object', properties: { x: a } };
      const B = { type: 'object', properties: { x: b } };
      const found = diffTools([tool('t', A)], [tool('t', B)]).filter((d) => d.severity === 'error');
      if (found.length > 0) return;
      const va = compiler.compile(A); const vb = compiler.compile(B);
      for (const v of vs) if (va({ x: v })) expect({ a, b, v, ok: vb({ x: v }) }).toEqual({ a, b, v, ok: true });
    }), { numRuns: 1000 });
  });
});
