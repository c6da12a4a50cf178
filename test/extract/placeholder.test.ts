import { describe, expect, test } from '@jest/globals';
import { extractToolCalls } from '../../src/extract/index.js';
import { placeholderInCall, placeholderInText } from '../../src/extract/placeholder.js';

// A format description fills the arguments with the name of a type or a role in angle
// brackets: none of these is a value a model should copy.
const generic = ['<string>', '<value>', '<query>', '<str>', '<number>', '<int>', '<integer>', '<float>', '<bool>', '<boolean>', '<object>', '<dict>', '<array>', '<list>', '<json>', '<name>', '<input>', '<code>', '<text>', '<param>', '<arg>', '<args>', '<argument>', '<arguments>', '<values>', '<val>', '<params>', '<parameter>', '<STRING>', '<value1>', '<string2>'];

describe('generic placeholder values', () => {
  test.each(generic)('%s as an argument value is a placeholder, not a value', (token) => {
    expect(placeholderInCall('search', { q: token })).toEqual({ token, unrendered: false });
    // Nested, and with spaces around it.
    expect(placeholderInCall('search', { filter: { terms: ['web', ` ${token} `] } })).toEqual({ token, unrendered: false });
  });

  test('a tag-like value that is no generic word stays a value: the model may copy it on purpose', () => {
    for (const value of ['<b>', '<city>', '<html>', '<strings>', '<query', 'string', '<>', 'a <string> b']) expect(placeholderInCall('search', { q: value })).toBeUndefined();
  });

  test('a call whose arguments are generic placeholders is example/placeholder, not an example checked against the schema', () => {
    for (const token of ['<string>', '<value>', '<query>']) {
      const { examples, diagnostics } = extractToolCalls(`<tool_call>\n{"name": "search", "arguments": {"q": "${token}"}}\n</tool_call>\n`);
      expect(examples).toEqual([]);
      expect(diagnostics.map((d) => [d.ruleId, d.severity, d.actual, d.line])).toEqual([['example/placeholder', 'warning', token, 1]]);
    }
  });

  test('in text that did not parse, an unquoted generic word is a placeholder too', () => {
    for (const token of ['<value>', '<string>', '<json>']) expect(placeholderInText(`{"name": "search", "arguments": {"q": ${token}}}`)).toEqual({ token, unrendered: false });
  });
});
