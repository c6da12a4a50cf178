import { describe, expect, test } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { SchemaCompiler, explain } from '../../src/schema/validator.js';

describe('explain', () => {
  const compiler = new SchemaCompiler();

  // Ajv names the property in `params`, unescaped; the instance path is a JSON Pointer.
  test('a missing property with `/` and `~` in its name is escaped in the instance path', () => {
    const validate = compiler.compile({ type: 'object', properties: { 'a/b~c': { type: 'string' } }, required: ['a/b~c'] });
    expect(validate.errors({})).toEqual([
      expect.objectContaining({ keyword: 'required', instancePath: '/a~1b~0c', message: 'Missing required property `a/b~c` in the arguments' }),
    ]);
  });

  test('an unexpected property with `/` and `~` in its name is escaped in the instance path', () => {
    const validate = compiler.compile({ type: 'object', properties: { x: { type: 'object', properties: {}, additionalProperties: false } } });
    expect(validate.errors({ x: { 'a/b~c': 1 } })).toEqual([
      expect.objectContaining({ keyword: 'additionalProperties', instancePath: '/x/a~1b~0c', message: 'Unexpected property `a/b~c` in `/x`, expected only []' }),
    ]);
  });
});

describe('string lengths', () => {
  // The reference: Ajv with its own maxLength/minLength, which count every code point.
  const stock = new Ajv2020({ allErrors: true, strict: false, verbose: true });
  const compiler = new SchemaCompiler();
  const pair = '\u{1F600}'; // one code point, two UTF-16 units
  const strings = ['', 'a', 'ab', 'abc', 'abcd', pair, pair + pair, `a${pair}`, `${pair}ab`, pair.repeat(3), '\ud83d', '\ud83da', 'a\ude00', 'x'.repeat(40), pair.repeat(20)];

  test.each([0, 1, 2, 3, 4, 5, 20, 39, 40, 41])('maxLength and minLength %i agree with Ajv on every string, errors included', (limit) => {
    for (const keyword of ['maxLength', 'minLength']) {
      const schema = { type: 'object', properties: { s: { type: 'string', [keyword]: limit } } };
      const ours = compiler.compile(schema);
      const reference = stock.compile(schema);
      for (const s of strings) {
        const value = { s };
        const valid = reference(value);
        expect([keyword, limit, s, ours(value)]).toEqual([keyword, limit, s, valid]);
        expect(ours.errors(value)).toEqual(valid ? [] : explain(reference.errors ?? []));
      }
    }
  });

  test('a long string under maxLength is not counted code point by code point, and one over it still fails', () => {
    const validate = compiler.compile({ type: 'string', maxLength: 5 });
    expect(validate('\u{1F600}'.repeat(5))).toBe(true);
    expect(validate.errors('\u{1F600}'.repeat(6))).toEqual([
      expect.objectContaining({ keyword: 'maxLength', instancePath: '', schemaPath: '#/maxLength', expected: 5 }),
    ]);
  });
});

describe('places', () => {
  test('are the errors without their messages, cheaper to build', () => {
    const compiler = new SchemaCompiler();
    const validate = compiler.compile({
      type: 'object',
      properties: { a: { type: 'integer', maximum: 3 }, b: { enum: ['x', 'y'] }, c: { const: 1 }, list: { type: 'array', items: { type: 'string', pattern: '^z' } }, 'd/e': {} },
      required: ['a', 'd/e'],
      additionalProperties: false,
    });
    const value = { a: 7, b: 'q', c: 2, list: ['z', 'w'], extra: true };
    expect(validate(value)).toBe(false);
    const errors = validate.errors(value);
    expect(errors.map((e) => e.keyword).sort()).toEqual(['additionalProperties', 'const', 'enum', 'maximum', 'pattern', 'required']);
    expect(validate.places(value)).toEqual(errors.map(({ message: _m, actual: _a, ...place }) => place));
    expect(validate.places({ a: 1, 'd/e': 0 })).toEqual([]);
  });
});
