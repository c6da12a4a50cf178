import { describe, expect, test } from '@jest/globals';
import { normalizeTools } from '../../../src/tools/normalize.js';
import { lfmNotation } from '../../../src/extract/notations/lfm.js';
import { run, realWorld, labelled, expectTotal, expectLinear } from './harness.js';


const tools = normalizeTools(
  [
    { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] } },
    { name: 'get_time', parameters: { type: 'object', properties: {} } },
  ],
  'tools.json',
);
const calls = (text: string) => run(lfmNotation, text, tools);
const none = { calls: [], failures: [] };

describe('lfm', () => {
  test('a pythonic call list between the tokens', () => {
    const text = '<|im_start|>assistant\n<|tool_call_start|>[get_weather(city="Paris", days=3), get_time()]<|tool_call_end|>Checking.<|im_end|>';
    expect(calls(text)).toEqual({
      calls: [
        { name: 'get_weather', arguments: { city: 'Paris', days: 3 }, line: 2 },
        { name: 'get_time', arguments: {}, line: 2 },
      ],
      failures: [],
    });
  });

  test('positional arguments take the schema order', () => {
    expect(calls('<|tool_call_start|>[get_weather("Oslo", 2)]<|tool_call_end|>').calls).toEqual([{ name: 'get_weather', arguments: { city: 'Oslo', days: 2 }, line: 1 }]);
  });

  test('a JSON call or list of calls between the tokens', () => {
    expect(calls('<|tool_call_start|>{"name": "get_weather", "arguments": {"city": "Rome"}}<|tool_call_end|>').calls).toEqual([{ name: 'get_weather', arguments: { city: 'Rome' }, line: 1 }]);
    expect(calls('<|tool_call_start|>\n[{"name": "get_time", "arguments": {}}]\n<|tool_call_end|>').calls).toEqual([{ name: 'get_time', arguments: {}, line: 1 }]);
  });

  test('the tokens named in prose, a tool list and a tool response are not calls', () => {
    expect(calls('Calls go between <|tool_call_start|> and <|tool_call_end|>.')).toEqual(none);
    expect(calls('List of tools: <|tool_list_start|>[{"name": "get_time"}]<|tool_list_end|>')).toEqual(none);
    expect(calls('<|im_start|>tool\n<|tool_response_start|>{"time": "12:00"}<|tool_response_end|><|im_end|>')).toEqual(none);
  });

  test('placeholders are returned as calls for the engine to judge', () => {
    expect(calls('<|tool_call_start|>[func_name1(param_name1="value")]<|tool_call_end|>').calls).toEqual([{ name: 'func_name1', arguments: { param_name1: 'value' }, line: 1 }]);
  });

  test('a broken list, text after it, an unclosed block', () => {
    const text = '<|tool_call_start|>[get_weather(city=Paris)]<|tool_call_end|>';
    expect(calls(text)).toEqual({
      calls: [],
      failures: [
        {
          error: 'Unexpected `Paris` in the `<|tool_call_start|>` block, expected a Python literal (a quoted string, number, True, False, None, list or dict)',
          offset: text.indexOf('Paris'),
          tool: 'get_weather',
          line: 1,
        },
      ],
    });
    const trailing = '<|tool_call_start|>[get_time()] now<|tool_call_end|>';
    expect(calls(trailing).failures).toEqual([{ error: 'Unexpected text after the call list in the `<|tool_call_start|>` block, expected `<|tool_call_end|>`', offset: trailing.indexOf('now'), line: 1 }]);
    expect(calls('<|tool_call_start|>[get_time()]\n\nMore text.').failures).toEqual([{ error: 'Unclosed `<|tool_call_start|>` block, expected `<|tool_call_end|>` after the calls', line: 1 }]);
    expect(calls('<|tool_call_start|>{"name": "get_time", "arguments": {}<|tool_call_end|>').failures).toHaveLength(1);
  });

  test('linear on hostile input', () => {
    expectLinear(lfmNotation, ['<|tool_call_start|>', '<|tool_call_start|>[f(a=[', '<|tool_call_start|>{"name": "x", "arguments": {"a": [', '<|tool_call_end|>', '<|tool_call_start|>[get_time()]'], tools);
  });

  test('never throws, whatever the mix of its tokens', () => {
    expectTotal(lfmNotation, ['<|tool_call_start|>', '<|tool_call_end|>', '[get_weather(city="Paris")]', 'get_weather(', 'city=', '"Paris"', ')', '{"name": "get_time", "arguments": {}}'], tools);
  });
});

describe('lfm on the real-world corpus', () => {
  const corpusFixtures = realWorld();
  for (const f of corpusFixtures.filter((x) => x.notation === 'lfm' || x.notation === 'lfm-tokens')) {
    test(f.name, () => {
      expect(run(lfmNotation, f.text, f.tools)).toEqual({ calls: labelled(f), failures: [] });
    });
  }
  test('finds nothing in the fixtures of other notations', () => {
    for (const f of corpusFixtures.filter((x) => x.notation !== 'lfm' && x.notation !== 'lfm-tokens')) {
      expect({ fixture: f.name, ...run(lfmNotation, f.text, f.tools) }).toEqual({ fixture: f.name, ...none });
    }
  });
});
