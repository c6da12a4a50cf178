import { describe, expect, test } from '@jest/globals';
import { SchemaCompiler } from '../../src/schema/validator.js';

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
