import { describe, expect, test } from '@jest/globals';
import { normalizeTools } from '../../../src/tools/normalize.js';
import type { ToolSpec } from '../../../src/tools/types.js';
import { qwenAgentNotation } from '../../../src/extract/notations/qwen-agent.js';
import { run, realWorld, labelled, expectTotal, expectLinear } from './harness.js';


const weather = normalizeTools([{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }], 'tools.json');
const calls = (text: string, tools: readonly ToolSpec[] = weather) => run(qwenAgentNotation, text, tools);
const none = { calls: [], failures: [] };

describe('qwen-agent', () => {
  test('✿FUNCTION✿ then ✿ARGS✿ on the next line, up to ✿RESULT✿', () => {
    const text = '<|im_start|>assistant\n✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Paris"}\n✿RESULT✿: {"temperature": 20}\n✿RETURN✿: Sunny.';
    expect(calls(text)).toEqual({ calls: [{ name: 'get_weather', arguments: { city: 'Paris' }, line: 2 }], failures: [] });
  });

  test('parallel calls; arguments end at the next ✿FUNCTION✿ or a blank line', () => {
    const text = '✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Paris"}\n✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Oslo"}\n\nThen the results.';
    expect(calls(text)).toEqual({
      calls: [
        { name: 'get_weather', arguments: { city: 'Paris' }, line: 1 },
        { name: 'get_weather', arguments: { city: 'Oslo' }, line: 3 },
      ],
      failures: [],
    });
    expect(calls('✿FUNCTION✿：get_weather\n✿ARGS✿：{"city": "Rome"}').calls).toEqual([{ name: 'get_weather', arguments: { city: 'Rome' }, line: 1 }]);
  });

  test('the format templates and the markers named in code are not calls', () => {
    expect(calls('✿FUNCTION✿: 工具名称，必须是[get_weather]之一。\n✿ARGS✿: 工具输入\n✿RESULT✿: 工具结果')).toEqual(none);
    expect(calls('✿FUNCTION✿: The tool to use, should be one of [{tool_names}]\n✿ARGS✿: The input of the tool\n✿RESULT✿: Tool results')).toEqual(none);
    expect(calls("FN_NAME = '✿FUNCTION✿'\nFN_ARGS = '✿ARGS✿'")).toEqual(none);
    expect(calls('✿FUNCTION✿: get_weather\n\n✿ARGS✿: {"city": "Paris"}')).toEqual(none);
    expect(calls('✿FUNCTION✿: code_interpreter\n✿ARGS✿: ```py\nprint(1)\n```')).toEqual(none);
  });

  test('placeholders are returned as calls for the engine to judge', () => {
    expect(calls('✿FUNCTION✿: <tool_name>\n✿ARGS✿: {"city": "$CITY"}').calls).toEqual([{ name: '<tool_name>', arguments: { city: '$CITY' }, line: 1 }]);
  });

  test('broken JSON and text after it are failures', () => {
    const text = '✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": Paris}\n✿RESULT✿: x';
    expect(calls(text)).toEqual({
      calls: [],
      failures: [{ error: 'Unexpected `P` in the `✿ARGS✿` of `get_weather`, expected a JSON value', offset: text.indexOf('Paris'), tool: 'get_weather', line: 1 }],
    });
    const trailing = '✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Paris"} now\n✿RESULT✿: x';
    expect(calls(trailing).failures).toEqual([
      { error: 'Unexpected `n` after the arguments in the `✿ARGS✿` of `get_weather`, expected `✿RESULT✿` or the end of the call', offset: trailing.indexOf('now'), tool: 'get_weather', line: 1 },
    ]);
  });

  test('linear on hostile input', () => {
    expectLinear(qwenAgentNotation, ['✿FUNCTION✿', '✿FUNCTION✿: x\n✿ARGS✿: ', '✿FUNCTION✿: x\n✿ARGS✿: {"a": [', '✿', '✿FUNCTION✿ x '], weather);
  });

  test('never throws, whatever the mix of its tokens', () => {
    expectTotal(qwenAgentNotation, ['✿FUNCTION✿', '✿ARGS✿', '✿RESULT✿', '✿RETURN✿', ': ', 'get_weather', '{"city": "Paris"}'], weather);
  });
});

describe('qwen-agent on the real-world corpus', () => {
  const corpusFixtures = realWorld();
  for (const f of corpusFixtures.filter((x) => x.notation === 'qwen-agent')) {
    test(f.name, () => {
      expect(run(qwenAgentNotation, f.text, f.tools)).toEqual({ calls: labelled(f), failures: [] });
    });
  }
  test('finds nothing in the fixtures of other notations', () => {
    for (const f of corpusFixtures.filter((x) => x.notation !== 'qwen-agent')) {
      expect({ fixture: f.name, ...run(qwenAgentNotation, f.text, f.tools) }).toEqual({ fixture: f.name, ...none });
    }
  });
});
