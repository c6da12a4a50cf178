import { describe, expect, test } from '@jest/globals';
import { normalizeTools } from '../../../src/tools/normalize.js';
import { pythonTagNotation } from '../../../src/extract/notations/python-tag.js';
import { run, realWorld, labelled, expectTotal, expectLinear } from './harness.js';


const tools = normalizeTools(
  [
    { name: 'brave_search', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
    { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  ],
  'tools.json',
);
const calls = (text: string) => run(pythonTagNotation, text, tools);
const none = { calls: [], failures: [] };

describe('llama-python-tag', () => {
  test('a built-in tool call, named without .call', () => {
    const text = '<|start_header_id|>assistant<|end_header_id|>\n\n<|python_tag|>brave_search.call(query="latest price of 1oz gold")<|eom_id|>';
    expect(calls(text)).toEqual({ calls: [{ name: 'brave_search', arguments: { query: 'latest price of 1oz gold' }, line: 3 }], failures: [] });
    expect(calls('<|python_tag|>brave_search.call("gold")<|eom_id|>').calls).toEqual([{ name: 'brave_search', arguments: { query: 'gold' }, line: 1 }]);
    expect(calls('<|python_tag|>wolfram_alpha.call(query="100th decimal of pi")').calls).toEqual([{ name: 'wolfram_alpha', arguments: { query: '100th decimal of pi' }, line: 1 }]);
  });

  test('a JSON call after the tag (name and parameters, or any call shape)', () => {
    const text = '<|python_tag|>{\n    "type": "function",\n    "name": "get_weather",\n    "parameters": {"city": "Paris"}\n}<|eom_id|>';
    expect(calls(text)).toEqual({ calls: [{ name: 'get_weather', arguments: { city: 'Paris' }, line: 1 }], failures: [] });
    expect(calls('<|python_tag|>[{"name": "get_weather", "arguments": {"city": "Oslo"}}]<|eom_id|>').calls).toEqual([{ name: 'get_weather', arguments: { city: 'Oslo' }, line: 1 }]);
  });

  test('code for the interpreter and the tag named in prose are not calls', () => {
    expect(calls('<|python_tag|>def is_prime(n):\n    return n > 1\n\nprint(is_prime(7))<|eom_id|>')).toEqual(none);
    expect(calls("<|python_tag|>l=[int('0'),int('1')]\nl.remove(3.6)<|eom_id|>")).toEqual(none);
    expect(calls('<|python_tag|>import json\nprint(json.dumps({"a": 1}))<|eom_id|>')).toEqual(none);
    expect(calls('<|python_tag|>[x * 2 for x in range(3)]<|eom_id|>')).toEqual(none);
    expect(calls('<|python_tag|>client.call(fetch())<|eom_id|>')).toEqual(none);
    expect(calls('<|python_tag|>brave_search.call(query="a")\nprint("done")<|eom_id|>')).toEqual(none);
    expect(calls('- Note the `<|python_tag|>` before `brave_search` function call.')).toEqual(none);
  });

  test('placeholders are returned as calls for the engine to judge', () => {
    expect(calls('<|python_tag|>{"name": "function_name", "parameters": {"a": "<value>"}}<|eom_id|>').calls).toEqual([{ name: 'function_name', arguments: { a: '<value>' }, line: 1 }]);
  });

  test('broken calls are failures', () => {
    const text = '<|python_tag|>brave_search.call(query=gold)<|eom_id|>';
    expect(calls(text)).toEqual({
      calls: [],
      failures: [
        {
          error: 'Unexpected `gold` in the `<|python_tag|>` call, expected a Python literal (a quoted string, number, True, False, None, list or dict)',
          offset: text.indexOf('gold'),
          tool: 'brave_search',
          line: 1,
        },
      ],
    });
    const json = '<|python_tag|>{"name": "get_weather", "parameters": {"city": Paris}}<|eom_id|>';
    expect(calls(json).failures).toEqual([{ error: 'Unexpected `P` in the `<|python_tag|>` call, expected a JSON value', offset: json.indexOf('Paris'), line: 1 }]);
    expect(calls('<|python_tag|>{"a": 1}<|eom_id|>').failures).toHaveLength(1);
  });

  test('linear on hostile input', () => {
    expectLinear(pythonTagNotation, ['<|python_tag|>', '<|python_tag|>x.call(a=[', '<|python_tag|>{"name": "x", "parameters": {"a": [', '<|python_tag|>[', '<|'], tools);
  });

  test('never throws, whatever the mix of its tokens', () => {
    expectTotal(pythonTagNotation, ['<|python_tag|>', '<|eom_id|>', '<|eot_id|>', 'brave_search.call(', 'query=', '"gold"', ')', '{"name": "get_weather", "parameters": {"city": "Paris"}}', 'def f():', 'print(1)'], tools);
  });
});

describe('llama-python-tag on the real-world corpus', () => {
  const corpusFixtures = realWorld();
  for (const f of corpusFixtures.filter((x) => x.notation === 'llama-python-tag')) {
    test(f.name, () => {
      // The `<function=name>` calls labelled in the same fixtures are Llama's custom-tool notation.
      expect(run(pythonTagNotation, f.text, f.tools)).toEqual({ calls: labelled(f, ['<|python_tag|>']), failures: [] });
    });
  }
  test('finds nothing in the fixtures of other notations', () => {
    for (const f of corpusFixtures.filter((x) => x.notation !== 'llama-python-tag')) {
      expect({ fixture: f.name, ...run(pythonTagNotation, f.text, f.tools) }).toEqual({ fixture: f.name, ...none });
    }
  });
});
