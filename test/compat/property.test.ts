import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { diffTools } from '../../src/checks/compat/index.js';
import { SchemaCompiler } from '../../src/schema/validator.js';
import type { JsonSchemaObject } from '../../src/tools/types.js';
import { tool, withX } from './helpers.js';
import { runs } from '../helpers/runs.js';

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
    fc.assert(fc.property(numberSchema, numberSchema, (a, b) => noFindingMeansNoRejection(a, b)), { numRuns: runs(3000) });
  });

  test('strings: no finding means no rejected value', () => {
    fc.assert(fc.property(stringSchema, stringSchema, (a, b) => noFindingMeansNoRejection(a, b)), { numRuns: runs(3000) });
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
    }), { numRuns: runs(500) });
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
    }), { numRuns: runs(1000) });
  });
});

// Precision: the other direction. Each pair below is built so that the new schema accepts
// every value the old one did (equal, bounds loosened or merged, an `allOf` split into
// members or merged from them, a type or enum widened, a property made optional or added as
// optional, a branch added), so no error may be reported. A probe run checks the generator
// itself: a pair that is not a widening would fail here before it could blame the checker.

type Bound = { value: number; exclusive: boolean };
/** The bound a conjunction of bounds keeps: the highest lower bound, exclusive on a tie. */
const tightest = (bounds: Bound[], dir: 'min' | 'max'): Bound | undefined =>
  bounds.reduce<Bound | undefined>((best, b) => {
    if (best === undefined) return b;
    if (b.value !== best.value) return (dir === 'min' ? b.value > best.value : b.value < best.value) ? b : best;
    return b.exclusive ? b : best;
  }, undefined);
/** A bound moved outward by `by` (0 keeps it), and made inclusive when `open`. */
const loosen = (b: Bound, dir: 'min' | 'max', by: number, inclusive: boolean): Bound => ({ value: dir === 'min' ? b.value - by : b.value + by, exclusive: b.exclusive && !inclusive });
const boundKeyword = (b: Bound, dir: 'min' | 'max'): Record<string, number> => ({ [b.exclusive ? (dir === 'min' ? 'exclusiveMinimum' : 'exclusiveMaximum') : dir === 'min' ? 'minimum' : 'maximum']: b.value });

/** Old and new laid out as one node or as `allOf` members, each member one keyword. */
const layout = (base: Record<string, unknown>, parts: Array<Record<string, unknown>>, split: boolean): JsonSchemaObject =>
  split && parts.length > 0 ? { ...base, allOf: parts } : Object.assign({ ...base }, ...parts);

const loosenBy = fc.record({ by: fc.constantFrom(0, 0, 1, 2), inclusive: fc.boolean(), drop: fc.boolean() });

const widerNumber: fc.Arbitrary<[JsonSchemaObject, JsonSchemaObject]> = fc
  .record({
    type: fc.constantFrom('integer', 'number'),
    // Several bounds on one side only combine inside `allOf`: the old side then splits.
    lower: fc.array(fc.record({ value: fc.integer({ min: -5, max: 5 }), exclusive: fc.boolean() }), { maxLength: 2 }),
    upper: fc.array(fc.record({ value: fc.integer({ min: -5, max: 5 }), exclusive: fc.boolean() }), { maxLength: 2 }),
    step: fc.constantFrom(undefined, [4, 2], [4, 4], [2, 1], [1, 0.5]),
    newType: fc.constantFrom('same', 'number', 'nullable'),
    lo: loosenBy,
    hi: loosenBy,
    oldSplit: fc.boolean(),
    newSplit: fc.boolean(),
  })
  .map(({ type, lower, upper, step, newType, lo, hi, oldSplit, newSplit }) => {
    const oldParts = [...lower.map((b) => boundKeyword(b, 'min')), ...upper.map((b) => boundKeyword(b, 'max')), ...(step ? [{ multipleOf: step[0] }] : [])];
    const before = layout({ type }, oldParts, oldSplit || lower.length > 1 || upper.length > 1);
    const l = tightest(lower, 'min');
    const u = tightest(upper, 'max');
    const newParts = [
      ...(l && !lo.drop ? [boundKeyword(loosen(l, 'min', lo.by, lo.inclusive), 'min')] : []),
      ...(u && !hi.drop ? [boundKeyword(loosen(u, 'max', hi.by, hi.inclusive), 'max')] : []),
      ...(step ? [{ multipleOf: step[1] }] : []),
    ];
    const t = newType === 'same' ? type : newType === 'number' ? 'number' : [type, 'null'];
    return [before, layout({ type: t }, newParts, newSplit)] as [JsonSchemaObject, JsonSchemaObject];
  });

const widerString: fc.Arbitrary<[JsonSchemaObject, JsonSchemaObject]> = fc
  .record({
    minLength: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 2 }),
    maxLength: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 2 }),
    pattern: fc.constantFrom(undefined, '^a', 'b$'),
    enum: fc.option(fc.uniqueArray(fc.constantFrom<string>('', 'a', 'ab', 'ba', 'abcd'), { minLength: 1, maxLength: 3 }), { nil: undefined }),
    added: fc.uniqueArray(fc.constantFrom<string>('x', 'y', 'a'), { maxLength: 2 }),
    by: fc.record({ min: fc.constantFrom(0, 1), max: fc.constantFrom(0, 1), drop: fc.boolean() }),
    oldSplit: fc.boolean(),
    newSplit: fc.boolean(),
    nullable: fc.boolean(),
  })
  .map(({ minLength, maxLength, pattern, enum: values, added, by, oldSplit, newSplit, nullable }) => {
    const oldParts = [...minLength.map((n) => ({ minLength: n })), ...maxLength.map((n) => ({ maxLength: n })), ...(pattern ? [{ pattern }] : []), ...(values ? [{ enum: values }] : [])];
    const before = layout({ type: 'string' }, oldParts, oldSplit || minLength.length > 1 || maxLength.length > 1);
    const lo = minLength.length > 0 ? Math.max(...minLength) : undefined;
    const hi = maxLength.length > 0 ? Math.min(...maxLength) : undefined;
    const newParts = [
      ...(lo !== undefined && !by.drop ? [{ minLength: Math.max(0, lo - by.min) }] : []),
      ...(hi !== undefined ? [{ maxLength: hi + by.max }] : []),
      ...(pattern && !by.drop ? [{ pattern }] : []),
      ...(values ? [{ enum: [...values, ...added.filter((v) => !values.includes(v))] }] : []),
    ];
    return [before, layout({ type: nullable ? ['string', 'null'] : 'string' }, newParts, newSplit)] as [JsonSchemaObject, JsonSchemaObject];
  });

const widerLeaf = fc.oneof(widerNumber, widerString, fc.oneof(numberSchema, stringSchema).map((s) => [s as JsonSchemaObject, structuredClone(s) as JsonSchemaObject] as [JsonSchemaObject, JsonSchemaObject]));

const wider: fc.Arbitrary<[JsonSchemaObject, JsonSchemaObject]> = fc.letrec<{ pair: [JsonSchemaObject, JsonSchemaObject] }>((tie) => ({
  pair: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    widerLeaf,
    // An object: each property widened, a required one made optional, optional ones added.
    fc
      .record({ a: tie('pair'), b: tie('pair'), required: fc.subarray(['a', 'b']), keep: fc.subarray(['a', 'b']), add: fc.boolean(), closed: fc.boolean(), open: fc.boolean() })
      .map(({ a, b, required, keep, add, closed, open }) => {
        const before: JsonSchemaObject = { type: 'object', properties: { a: a[0], b: b[0] }, required, additionalProperties: !closed };
        const after: JsonSchemaObject = {
          type: 'object',
          // An added property narrows nothing where unknown names were refused; where they were allowed, only one that takes any value.
          properties: { a: a[1], b: b[1], ...(add ? { c: closed ? { type: 'string' } : {} } : {}) },
          required: required.filter((k) => keep.includes(k)),
          ...(closed && !open ? { additionalProperties: false } : {}),
        };
        return [before, after] as [JsonSchemaObject, JsonSchemaObject];
      }),
    // An array of widened items, its length bounds loosened.
    fc.record({ items: tie('pair'), maxItems: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }), more: fc.constantFrom(0, 1) })
      .map(({ items, maxItems, more }) => [
        { type: 'array', items: items[0], ...(maxItems === undefined ? {} : { maxItems }) },
        { type: 'array', items: items[1], ...(maxItems === undefined ? {} : { maxItems: maxItems + more }) },
      ] as [JsonSchemaObject, JsonSchemaObject]),
    // A union: each old branch widened, and perhaps a branch added.
    fc.record({ branches: fc.array(tie('pair'), { minLength: 1, maxLength: 2 }), extra: fc.option(tie('pair'), { nil: undefined }) })
      .map(({ branches, extra }) => [
        { anyOf: branches.map((p) => p[0]) },
        { anyOf: [...branches.map((p) => p[1]), ...(extra ? [extra[1]] : [])] },
      ] as [JsonSchemaObject, JsonSchemaObject]),
  ),
})).pair;

describe('property-based, precision', () => {
  test('a new schema at least as permissive as the old one: no error', () => {
    fc.assert(fc.property(wider, fc.array(value, { minLength: 20, maxLength: 20 }), ([before, after], vs) => {
      const A = { type: 'object', properties: { x: before } };
      const B = { type: 'object', properties: { x: after } };
      // The generator's promise, checked on probes of every kind.
      const va = compiler.compile(A);
      const vb = compiler.compile(B);
      for (const v of [...vs, ...values]) if (va({ x: v })) expect({ before, after, v, ok: vb({ x: v }) }).toEqual({ before, after, v, ok: true });
      const errors = diffTools([tool('t', A)], [tool('t', B)]).filter((d) => d.severity === 'error');
      expect({ before, after, errors: errors.map((d) => `${d.ruleId} ${d.schemaPath ?? ''}`) }).toEqual({ before, after, errors: [] });
    }), { numRuns: runs(1500) });
  });

  test.each([
    ['bounds of one side merged from allOf', { allOf: [{ minimum: 0 }, { minimum: 3 }], type: 'integer' }, { type: 'integer', minimum: 3 }],
    ['bounds of both sides merged from allOf', { type: 'number', allOf: [{ minimum: 0 }, { maximum: 10 }, { maximum: 7 }] }, { type: 'number', minimum: 0, maximum: 7 }],
    ['bounds split into allOf', { type: 'number', minimum: 0, maximum: 10 }, { type: 'number', allOf: [{ minimum: 0 }, { maximum: 10 }] }],
    ['lengths merged from allOf', { type: 'string', allOf: [{ minLength: 1 }, { minLength: 2 }, { maxLength: 9 }, { maxLength: 5 }] }, { type: 'string', minLength: 2, maxLength: 5 }],
    ['an exclusive bound merged with an inclusive one at the same value', { type: 'number', allOf: [{ minimum: 2 }, { exclusiveMinimum: 2 }] }, { type: 'number', exclusiveMinimum: 2 }],
  ] as Array<[string, JsonSchemaObject, JsonSchemaObject]>)('%s: no finding', (_title, before, after) => {
    expect(diffTools([tool('t', withX(before))], [tool('t', withX(after))])).toEqual([]);
  });
});
