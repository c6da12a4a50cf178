import { describe, expect, test } from '@jest/globals';
import { extractToolCalls } from '../../src/extract/index.js';
import { placeholderInCall, placeholderInText } from '../../src/extract/placeholder.js';
import { normalizeTools } from '../../src/tools/normalize.js';

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

describe('placeholders against what the prompt has', () => {
  const sizeTool = (name: string) => normalizeTools([{ name, parameters: { type: 'object', properties: { foo: { type: 'string' }, size: { type: 'integer' } }, required: ['foo', 'size'] } }]);
  const call = '<tool_call>\n{"name": "tool_name", "arguments": {"foo": "bar", "size": "ten"}}\n</tool_call>\n';

  test('a tool the prompt has is no placeholder, whatever its name looks like: its call is read and checked', () => {
    const { examples, diagnostics } = extractToolCalls(call, { tools: sizeTool('tool_name') });
    expect(examples.map((e) => [e.name, e.arguments, e.line])).toEqual([['tool_name', { foo: 'bar', size: 'ten' }, 1]]);
    expect(diagnostics).toEqual([]);
  });

  test('the same call without such a tool is still a format description', () => {
    for (const tools of [undefined, sizeTool('search')]) {
      const { examples, diagnostics } = extractToolCalls(call, tools ? { tools } : {});
      expect([examples, diagnostics.map((d) => [d.ruleId, d.actual])]).toEqual([[], [['example/placeholder', 'tool_name']]]);
    }
    expect(placeholderInCall('tool_name', {}, { tools: new Set(['tool_name']) })).toBeUndefined();
    expect(placeholderInCall('tool_name', {}, { tools: new Set(['search']) })).toEqual({ token: 'tool_name', unrendered: false });
  });

  test('a path under `/path/to/` is a value in an example, and a placeholder only in a usage block', () => {
    const tools = normalizeTools([{ name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }]);
    const example = "Example:\n[tool_call: read_file for path '/path/to/tests/test_auth.py']\n";
    expect(extractToolCalls(example, { tools }).examples.map((e) => [e.name, e.arguments])).toEqual([['read_file', { path: '/path/to/tests/test_auth.py' }]]);
    const usage = 'Usage:\n<read_file>\n<path>path/to/file</path>\n</read_file>\n';
    expect(extractToolCalls(usage, { tools })).toEqual({ examples: [], diagnostics: [] });
    expect(placeholderInCall('read_file', { path: '/path/to/file' })).toBeUndefined();
    expect(placeholderInCall('read_file', { path: '/path/to/file' }, { usage: true })).toEqual({ token: '/path/to/file', unrendered: false });
  });
});
