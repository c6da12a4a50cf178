import { describe, expect, test } from '@jest/globals';
import { normalizeTools } from '../../../src/tools/normalize.js';
import { functionGemmaNotation } from '../../../src/extract/notations/functiongemma.js';
import { run, realWorld, labelled, expectTotal, expectLinear } from './harness.js';

const tools = normalizeTools(
  [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' }, metric: { type: 'boolean' } }, required: ['city'] } }],
  'tools.json',
);
const calls = (text: string) => run(functionGemmaNotation, text, tools);
const none = { calls: [], failures: [] };

describe('functiongemma', () => {
  test('escaped strings, bare numbers and booleans, nested objects and lists; strings typed by the schema', () => {
    const text = '<start_of_turn>model\n<start_function_call>call:get_weather{city:<escape>Paris, France<escape>,days:<escape>3<escape>,metric:true,extra:{tags:[<escape>a<escape>,2]}}<end_function_call>';
    expect(calls(text)).toEqual({ calls: [{ name: 'get_weather', arguments: { city: 'Paris, France', days: 3, metric: true, extra: { tags: ['a', 2] } }, line: 2 }], failures: [] });
    expect(calls('<start_function_call>call:get_time{}<end_function_call>').calls).toEqual([{ name: 'get_time', arguments: {}, line: 1 }]);
  });

  test('bare numbers: negative, fractional and with an exponent are numbers; null is null; a signed word stays text', () => {
    const text = '<start_function_call>call:set_point{x:-3,y:-0.25,z:.5,big:1e3,small:-2.5E-2,plus:3e+2,whole:1.,none:null,neg:-,dash:-x,list:[-1,-1.5e1,null]}<end_function_call>';
    expect(calls(text)).toEqual({
      calls: [{ name: 'set_point', arguments: { x: -3, y: -0.25, z: 0.5, big: 1000, small: -0.025, plus: 300, whole: 1, none: null, neg: '-', dash: '-x', list: [-1, -15, null] }, line: 1 }],
      failures: [],
    });
    // Each value keeps its type: a number is not read back as a string.
    const args = calls(text).calls[0]!.arguments as Record<string, unknown>;
    for (const key of ['x', 'y', 'z', 'big', 'small', 'plus', 'whole']) expect(typeof args[key]).toBe('number');
  });

  test('declarations, responses and the tokens named in prose are not calls', () => {
    expect(calls('<start_function_declaration>declaration:get_weather{description:<escape>x<escape>}<end_function_declaration>')).toEqual(none);
    expect(calls('<start_function_response>response:get_weather{temperature:72}<end_function_response>')).toEqual(none);
    expect(calls('A call goes between <start_function_call> and <end_function_call>.')).toEqual(none);
  });

  test('a broken value, text after the arguments and an unclosed block are failures naming the tool', () => {
    const unclosedString = '<start_function_call>call:get_weather{city:<escape>Paris}<end_function_call>';
    expect(calls(unclosedString).failures).toEqual([expect.objectContaining({ tool: 'get_weather', error: expect.stringContaining('Unclosed `<escape>` string') })]);
    const missing = '<start_function_call>call:get_weather{city:}<end_function_call>';
    expect(calls(missing).failures).toEqual([{ error: expect.stringContaining('Unexpected `}` in the `<start_function_call>` block, expected a value'), offset: missing.indexOf('}'), tool: 'get_weather', line: 1 }]);
    const after = '<start_function_call>call:get_weather{city:<escape>Oslo<escape>} now<end_function_call>';
    expect(calls(after).failures).toEqual([{ error: 'Unexpected text after the arguments of `get_weather` in the `<start_function_call>` block, expected `<end_function_call>`', offset: after.indexOf('now'), tool: 'get_weather', line: 1 }]);
    expect(calls('<start_function_call>call:get_weather{city:<escape>Oslo<escape>}\n\nMore.').failures).toEqual([
      { error: 'Unclosed `<start_function_call>` block, expected `<end_function_call>` after the arguments of `get_weather`', tool: 'get_weather', line: 1 },
    ]);
    // Nesting past any real argument is refused, not followed down the stack.
    expect(calls(`<start_function_call>call:f{a:${'['.repeat(5000)}}<end_function_call>`).failures).toEqual([expect.objectContaining({ tool: 'f', error: expect.stringContaining('nesting deeper than 64 levels') })]);
  });

  test('linear on hostile input', () => {
    expectLinear(functionGemmaNotation, ['<start_function_call>', '<start_function_call>call:f{a:<escape>', '<start_function_call>call:f{a:[', '<end_function_call>', '<start_function_call>call:f{a:1,']);
  });

  test('never throws, whatever the mix of its tokens', () => {
    expectTotal(functionGemmaNotation, ['<start_function_call>', '<end_function_call>', 'call:get_weather{', '<escape>', 'city:', '}', '[', ']', ',', 'true', '42'], tools);
  });
});

describe('functiongemma on the real-world corpus', () => {
  const corpusFixtures = realWorld();
  for (const f of corpusFixtures.filter((x) => x.notation === 'functiongemma')) {
    test(f.name, () => {
      expect(run(functionGemmaNotation, f.text, f.tools)).toEqual({ calls: labelled(f), failures: [] });
    });
  }
  test('finds nothing in the fixtures of other notations', () => {
    for (const f of corpusFixtures.filter((x) => x.notation !== 'functiongemma')) {
      expect({ fixture: f.name, ...run(functionGemmaNotation, f.text, f.tools) }).toEqual({ fixture: f.name, ...none });
    }
  });
});
