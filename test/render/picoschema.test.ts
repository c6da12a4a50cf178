import { picoschema, PicoschemaError } from '../../src/render/picoschema.js';

function error(run: () => unknown): PicoschemaError {
  try {
    run();
  } catch (e) {
    if (e instanceof PicoschemaError) return e;
    throw e;
  }
  throw new Error('expected a PicoschemaError');
}

describe('picoschema', () => {
  test('no schema is undefined', () => {
    expect(picoschema(undefined)).toBeUndefined();
    expect(picoschema(null)).toBeUndefined();
    expect(picoschema('')).toBeUndefined();
  });

  test('scalars, descriptions, optional fields made nullable', () => {
    expect(picoschema({ id: 'integer', 'name': 'string,  the name, in full', 'age?': 'number', 'extra?': 'any, anything' })).toEqual({
      type: 'object',
      properties: {
        id: { type: 'integer' },
        name: { type: 'string', description: 'the name, in full' },
        age: { type: ['number', 'null'] },
        extra: { description: 'anything' },
      },
      required: ['id', 'name'],
      additionalProperties: false,
    });
  });

  test('objects, arrays, enums and the wildcard', () => {
    expect(
      picoschema({
        'address?(object, where)': { street: 'string', 'zip?': 'string' },
        'tags(array)': 'string',
        'rows?(array, the rows)': { n: 'number' },
        'size(enum)': ['S', 'M'],
        'color?(enum)': ['RED', null],
        '(*)': 'string',
      }),
    ).toEqual({
      type: 'object',
      properties: {
        address: {
          type: ['object', 'null'],
          description: 'where',
          properties: { street: { type: 'string' }, zip: { type: ['string', 'null'] } },
          required: ['street'],
          additionalProperties: false,
        },
        tags: { type: 'array', items: { type: 'string' } },
        rows: { type: ['array', 'null'], description: 'the rows', items: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false } },
        size: { enum: ['S', 'M'] },
        color: { enum: ['RED', null] },
      },
      required: ['tags', 'size'],
      additionalProperties: { type: 'string' },
    });
  });

  test('JSON Schema passes through; named schemas resolve', () => {
    const json = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(picoschema(json)).toBe(json);
    expect(picoschema({ properties: { a: { type: 'string' } } })).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    const schemas = { Money: { type: 'object', properties: { cents: { type: 'integer' } } } };
    expect(picoschema('Money, the total', { schemas })).toEqual({ ...schemas.Money, description: 'the total' });
    expect(picoschema({ 'price?': 'Money' }, { resolveSchema: (n) => (n === 'Money' ? schemas.Money : undefined) })).toEqual({
      type: 'object',
      properties: { price: { type: ['object', 'null'], properties: { cents: { type: 'integer' } } } },
      additionalProperties: false,
    });
    // The named schema itself is not changed by making a use of it nullable.
    expect(schemas.Money.type).toBe('object');
  });

  test('an unknown type is an error naming the field', () => {
    const e = error(() => picoschema({ order: { total: 'money, in cents' } }));
    expect(e.path).toBe('order.total');
    expect(e.message).toContain('unknown type `money`');
    expect(e.message).toContain('`order.total`');

    const top = error(() => picoschema('strin'));
    expect(top.path).toBe('');
    expect(top.message).toContain('unknown type `strin`');

    const named = error(() => picoschema({ 'price?': 'Money' }, { schemas: {} }));
    expect(named.path).toBe('price');
    expect(named.message).toMatch(/no schema of that name/);
  });

  test('malformed values are errors naming the field', () => {
    expect(error(() => picoschema({ 'kind(tuple)': 'string' })).message).toMatch(/unknown type `\(tuple\)` for field `kind`/);
    expect(error(() => picoschema({ 'kind(enum)': 'RED' })).path).toBe('kind');
    expect(error(() => picoschema({ 'meta(object)': 'string' })).path).toBe('meta');
    expect(error(() => picoschema({ count: 3 })).message).toMatch(/field `count` must be a type name/);
    expect(error(() => picoschema(42)).path).toBe('');
  });
});
