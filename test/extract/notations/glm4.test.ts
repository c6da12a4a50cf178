import { describe, expect, test } from '@jest/globals';
import { extractToolCalls } from '../../../src/extract/index.js';
import { glm4Notation } from '../../../src/extract/notations/glm4.js';
import type { ToolSpec } from '../../../src/tools/types.js';
import { run, expectTotal, expectLinear } from './harness.js';

const weather: ToolSpec = { name: 'get_weather', origin: { shape: 'anthropic' }, inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const calls = (text: string, tools: readonly ToolSpec[] = [weather]) => run(glm4Notation, text, tools);
const none = { calls: [], failures: [] };

describe('glm4', () => {
  test('a known tool named on its own line, after the assistant token or not, then its arguments object', () => {
    const text = '<|user|>\nWeather in Beijing?\n<|assistant|>get_weather\n{"city": "Beijing"}\n<|observation|>\n{"temp": 3}\n\nget_weather\n  {"city": "Oslo"}';
    expect(calls(text)).toEqual({
      calls: [
        { name: 'get_weather', arguments: { city: 'Beijing' }, line: 3 },
        { name: 'get_weather', arguments: { city: 'Oslo' }, line: 8 },
      ],
      failures: [],
    });
  });

  test('no tools known, an unknown name, a heading over a definition, text after the object, or a word in a sentence: no call', () => {
    expect(calls('get_weather\n{"city": "Beijing"}', [])).toEqual(none);
    expect(calls('lookup\n{"city": "Beijing"}')).toEqual(none);
    expect(calls('get_weather\n{"description": "Weather.", "parameters": {"type": "object"}}')).toEqual(none);
    expect(calls('get_weather\n{"city": "Beijing"} is what it sends')).toEqual(none);
    expect(calls('Call get_weather\n{"city": "Beijing"}')).toEqual(none);
  });

  test('decoded from a Python string literal, the call is checked at the literal\'s line', () => {
    const { examples, diagnostics } = extractToolCalls('def test_glm4():\n    assert fmt(call) == ["""get_weather\\n{"city": 7}"""]\n', { tools: [weather] });
    expect([examples.map((e) => [e.name, e.arguments, e.line, e.notation]), diagnostics]).toEqual([[['get_weather', { city: 7 }, 2, 'glm4']], []]);
  });

  test('linear on hostile input', () => {
    expectLinear(glm4Notation, ['get_weather\n{"city": [', 'get_weather\n', '\n{'], [weather]);
  });

  test('never throws, whatever the mix of its pieces', () => {
    expectTotal(glm4Notation, ['<|assistant|>', 'get_weather', '\n', '{"city": "Oslo"}', '{', ' '], [weather]);
  });
});
