import { describe, expect, test } from '@jest/globals';
import { PromptEnvironment } from '../../src/render/handlebars.js';
import { InputError } from '../../src/util/errors.js';

// Strict mode makes an unknown name an error; names every object inherits rendered as ''.
const env = new PromptEnvironment(new Map(), new WeakMap());
const render = (body: string, context: object) => env.render({ file: 't.prompt', body, bodyLine: 3 }, context).text;

describe('a template that names an inherited property', () => {
  test.each(['{{__proto__}}', '{{constructor}}', '{{toString}}', '{{hasOwnProperty}}', '{{customer.__proto__}}', '{{customer.constructor}}', '{{@root.valueOf}}'])(
    '%s is a missing variable, like any unknown name',
    (body) => {
      let error: unknown;
      try {
        render(`Hello\n${body}`, { customer: { name: 'Ada' } });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputError);
      // Placed as any missing variable is: the column of the name inside the braces.
      let missing: unknown;
      try {
        render('Hello\n{{nobody}}', {});
      } catch (e) {
        missing = e;
      }
      expect(error).toMatchObject({ code: 'render/missing-variable', file: 't.prompt', line: 4, column: (missing as InputError).column });
      expect((error as Error).message).toMatch(/^Missing template variable `(__proto__|constructor|toString|hasOwnProperty|valueOf)`/);
    },
  );

  test('renders the input\'s own property of that name', () => {
    expect(render('{{__proto__}} {{constructor}}', JSON.parse('{"__proto__": "own", "constructor": "built"}') as object)).toBe('own built');
    expect(render('{{customer.__proto__}}', { customer: JSON.parse('{"__proto__": 7}') as object })).toBe('7');
  });

  test('ordinary names still render, and a missing one is still an error', () => {
    expect(render('{{customer.name}}', { customer: { name: 'Ada' } })).toBe('Ada');
    expect(() => render('{{customer.age}}', { customer: { name: 'Ada' } })).toThrow(expect.objectContaining({ code: 'render/missing-variable' }) as unknown as Error);
  });
});
