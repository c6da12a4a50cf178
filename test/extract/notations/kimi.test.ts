import { describe, expect, test } from '@jest/globals';
import { kimiNotation } from '../../../src/extract/notations/kimi.js';
import { run, realWorld, labelled, expectTotal, expectLinear } from './harness.js';

const calls = (text: string) => run(kimiNotation, text, []);
const none = { calls: [], failures: [] };

describe('kimi-tokens', () => {
  test('calls in a tool-calls section, ids with and without `functions.`, spaces and line breaks between tokens', () => {
    const text = 'Checking. <|tool_calls_section_begin|> <|tool_call_begin|>\nfunctions.get_weather:0 <|tool_call_argument_begin|> {"city": "Oslo"} <|tool_call_end|><|tool_call_begin|>get_time:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>';
    expect(calls(text)).toEqual({
      calls: [
        { name: 'get_weather', arguments: { city: 'Oslo' }, line: 1 },
        { name: 'get_time', arguments: {}, line: 2 },
      ],
      failures: [],
    });
  });

  test('the tokens named in prose, or an id without its index, hold no call', () => {
    expect(calls('A call goes between <|tool_call_begin|> and <|tool_call_end|>, its arguments after <|tool_call_argument_begin|>.')).toEqual(none);
    expect(calls('<|tool_call_begin|>functions.get_weather.0<|tool_call_argument_begin|>{"city": "Oslo"}<|tool_call_end|>')).toEqual(none);
  });

  test('broken arguments, text after them and an unclosed call are failures naming the tool', () => {
    const broken = '<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Oslo" <|tool_call_end|>';
    expect(calls(broken).failures).toEqual([expect.objectContaining({ tool: 'get_weather', line: 1, error: expect.stringContaining('in the `<|tool_call_begin|>` block') })]);
    const after = '<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Oslo"} please<|tool_call_end|>';
    expect(calls(after).failures).toEqual([{ error: 'Unexpected text after the arguments of `get_weather` in the `<|tool_call_begin|>` block, expected `<|tool_call_end|>`', offset: after.indexOf('please'), tool: 'get_weather', line: 1 }]);
    expect(calls('<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Oslo"}\n\nMore.').failures).toEqual([
      { error: 'Unclosed `<|tool_call_begin|>` block, expected `<|tool_call_end|>` after the arguments of `get_weather`', tool: 'get_weather', line: 1 },
    ]);
  });

  test('linear on hostile input', () => {
    expectLinear(kimiNotation, ['<|tool_call_begin|><|tool_call_argument_begin|>', '<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": [', '<|tool_call_end|><|tool_call_argument_begin|>']);
  });

  test('never throws, whatever the mix of its tokens', () => {
    expectTotal(kimiNotation, ['<|tool_call_begin|>', '<|tool_call_argument_begin|>', '<|tool_call_end|>', 'functions.get_weather:0', '{"city": "Oslo"}', '<|tool_calls_section_begin|>']);
  });
});

describe('kimi-tokens on the real-world corpus', () => {
  const corpusFixtures = realWorld();
  for (const f of corpusFixtures.filter((x) => x.notation === 'kimi-tokens')) {
    test(f.name, () => {
      expect(run(kimiNotation, f.text, f.tools)).toEqual({ calls: labelled(f), failures: [] });
    });
  }
  test('finds nothing in the fixtures of other notations', () => {
    for (const f of corpusFixtures.filter((x) => x.notation !== 'kimi-tokens')) {
      expect({ fixture: f.name, ...run(kimiNotation, f.text, f.tools) }).toEqual({ fixture: f.name, ...none });
    }
  });
});
