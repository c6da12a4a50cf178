import { describe, expect, test } from '@jest/globals';
import { normalizeTools } from '../../../src/tools/normalize.js';
import type { ToolSpec } from '../../../src/tools/types.js';
import { deepseekNotation } from '../../../src/extract/notations/deepseek.js';
import { run, realWorld, labelled, expectTotal, expectLinear } from './harness.js';



const weather = normalizeTools([{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }], 'tools.json');
const calls = (text: string, tools: readonly ToolSpec[] = weather) => run(deepseekNotation, text, tools);
const none = { calls: [], failures: [] };

describe('deepseek-tokens', () => {
  test('V3 / R1: `function` type, the name, a json fence', () => {
    const text = 'Let me check.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>';
    expect(calls(text)).toEqual({ calls: [{ name: 'get_weather', arguments: { city: 'Paris' }, line: 1 }], failures: [] });
  });

  test('V3.1: name, separator, JSON; parallel calls back to back', () => {
    const text = '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Oslo"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>';
    expect(calls(text)).toEqual({
      calls: [
        { name: 'get_weather', arguments: { city: 'Paris' }, line: 1 },
        { name: 'get_weather', arguments: { city: 'Oslo' }, line: 2 },
      ],
      failures: [],
    });
  });

  test('a python fence of code for the interpreter is not a call', () => {
    const text = '<｜tool▁call▁begin｜>function<｜tool▁sep｜>python\n```python\nprint(1)\n```<｜tool▁call▁end｜>';
    expect(calls(text)).toEqual(none);
  });

  test('the format description, a mention in prose and a tool output are not calls', () => {
    expect(calls('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>tool_call_name<｜tool▁sep｜>tool_call_arguments<｜tool▁call▁end｜>{{additional_tool_calls}}<｜tool▁calls▁end｜>')).toEqual(none);
    expect(calls('Each call starts with <｜tool▁call▁begin｜> and ends with <｜tool▁call▁end｜>.')).toEqual(none);
    expect(calls('<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>{"temperature": 10}<｜tool▁output▁end｜><｜tool▁outputs▁end｜>')).toEqual(none);
  });

  test('placeholders are returned as calls for the engine to judge', () => {
    expect(calls('<｜tool▁call▁begin｜>$TOOL<｜tool▁sep｜>{"a": "<value>"}<｜tool▁call▁end｜>').calls).toEqual([{ name: '$TOOL', arguments: { a: '<value>' }, line: 1 }]);
  });

  test('broken arguments, text after them, an unclosed call', () => {
    const broken = '<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": Paris}<｜tool▁call▁end｜>';
    expect(calls(broken)).toEqual({
      calls: [],
      failures: [{ error: 'Unexpected `P` in the DeepSeek call to `get_weather`, expected a JSON value', offset: broken.indexOf('Paris'), tool: 'get_weather', line: 1 }],
    });
    const trailing = '<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"} and more<｜tool▁call▁end｜>';
    expect(calls(trailing).failures).toEqual([
      { error: 'Unexpected `a` after the arguments in the DeepSeek call to `get_weather`, expected `<｜tool▁call▁end｜>`', offset: trailing.indexOf('and'), tool: 'get_weather', line: 1 },
    ]);
    expect(calls('<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}\n\nLater text.').failures).toEqual([
      { error: 'Unclosed `<｜tool▁call▁begin｜>` call to `get_weather`, expected `<｜tool▁call▁end｜>` after the arguments', tool: 'get_weather', line: 1 },
    ]);
    expect(calls('<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris"}\n<｜tool▁call▁end｜>').failures).toHaveLength(1);
  });

  test('linear on hostile input', () => {
    expectLinear(deepseekNotation, ['<｜tool▁call▁begin｜>', '<｜tool▁call▁begin｜>x<｜tool▁sep｜>', '<｜tool▁call▁begin｜>x<｜tool▁sep｜>{"a": [', '<｜tool▁call▁begin｜>function<｜tool▁sep｜>x\n```json\n', '<｜tool▁call▁end｜>'], weather);
  });

  test('never throws, whatever the mix of its tokens', () => {
    expectTotal(deepseekNotation, ['<｜tool▁calls▁begin｜>', '<｜tool▁call▁begin｜>', 'function', '<｜tool▁sep｜>', 'get_weather', '```json\n', '```python\n', '```', '<｜tool▁call▁end｜>', '<｜tool▁calls▁end｜>', '{"city": "Paris"}'], weather);
  });
});

describe('deepseek-tokens on the real-world corpus', () => {
  const corpusFixtures = realWorld();
  for (const f of corpusFixtures.filter((x) => x.notation === 'deepseek-tokens')) {
    test(f.name, () => {
      expect(run(deepseekNotation, f.text, f.tools)).toEqual({ calls: labelled(f), failures: [] });
    });
  }
  test('finds nothing in the fixtures of other notations', () => {
    for (const f of corpusFixtures.filter((x) => x.notation !== 'deepseek-tokens')) {
      expect({ fixture: f.name, ...run(deepseekNotation, f.text, f.tools) }).toEqual({ fixture: f.name, ...none });
    }
  });
});
