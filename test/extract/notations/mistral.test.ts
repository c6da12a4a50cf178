import { describe, expect, test } from '@jest/globals';
import { normalizeTools } from '../../../src/tools/normalize.js';
import type { ToolSpec } from '../../../src/tools/types.js';
import { mistralNotation } from '../../../src/extract/notations/mistral.js';
import { run, realWorld, labelled, expectTotal, expectLinear } from './harness.js';


const weather = normalizeTools([{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }], 'tools.json');
const calls = (text: string, tools: readonly ToolSpec[] = weather) => run(mistralNotation, text, tools);
const none = { calls: [], failures: [] };

describe('mistral', () => {
  test('a JSON list of calls after [TOOL_CALLS], with or without ids and spaces', () => {
    const text = '[INST] Weather? [/INST][TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "VvvODy9mT"}, {"name": "get_weather", "arguments": {"city": "Oslo"}}]</s>';
    expect(calls(text)).toEqual({
      calls: [
        { name: 'get_weather', arguments: { city: 'Paris' }, line: 1 },
        { name: 'get_weather', arguments: { city: 'Oslo' }, line: 1 },
      ],
      failures: [],
    });
    expect(calls('[TOOL_CALLS]\n{"name": "get_weather", "arguments": {"city": "Rome"}}').calls).toEqual([{ name: 'get_weather', arguments: { city: 'Rome' }, line: 1 }]);
  });

  test('V11+: [TOOL_CALLS]name[ARGS]{...}, with [CALL_ID], several in a row', () => {
    const text = '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]get_weather[CALL_ID]abc123456[ARGS]{"city": "Oslo"}</s>';
    expect(calls(text)).toEqual({
      calls: [
        { name: 'get_weather', arguments: { city: 'Paris' }, line: 1 },
        { name: 'get_weather', arguments: { city: 'Oslo' }, line: 1 },
      ],
      failures: [],
    });
    expect(calls('[TOOL_CALLS]get_time[ARGS]{}').calls).toEqual([{ name: 'get_time', arguments: {}, line: 1 }]);
  });

  test('the token named in prose, a tool result list and other brackets are not calls', () => {
    expect(calls('- `[TOOL_CALLS]`: Beginning of a tool call')).toEqual(none);
    expect(calls('The [TOOL_CALLS] token precedes the calls.')).toEqual(none);
    expect(calls('[TOOL_CALLS][TOOL_RESULTS] [{"name": "get_weather", "content": 4}][/TOOL_RESULTS]')).toEqual(none);
    expect(calls('[TOOL_RESULTS] {"content": 4, "call_id": "VvvODy9mT"}[/TOOL_RESULTS]')).toEqual(none);
  });

  test('placeholders are returned as calls for the engine to judge', () => {
    expect(calls('[TOOL_CALLS] [{"name": "<function-name>", "arguments": {}}]').calls).toEqual([{ name: '<function-name>', arguments: {}, line: 1 }]);
  });

  test('broken JSON is a failure', () => {
    const text = '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": Paris}}]\n\nMore.';
    expect(calls(text)).toEqual({
      calls: [],
      failures: [{ error: 'Unexpected `P` in the `[TOOL_CALLS]` list, expected a JSON value', offset: text.indexOf('Paris'), line: 1 }],
    });
    const args = '[TOOL_CALLS]get_weather[ARGS]{"city": \'Paris\'}';
    expect(calls(args).failures).toEqual([
      {
        error: 'Unexpected `\'` in the `[TOOL_CALLS]get_weather[ARGS]` call, expected a JSON value (JSON strings use double quotes; this looks like a Python literal)',
        offset: args.indexOf("'"),
        tool: 'get_weather',
        line: 1,
      },
    ]);
    expect(calls('[TOOL_CALLS] [{"name": "get_weather", "content": 4}]').failures).toHaveLength(1);
  });

  test('linear on hostile input', () => {
    expectLinear(mistralNotation, ['[TOOL_CALLS]', '[TOOL_CALLS][{', '[TOOL_CALLS] [{"name": "x", "arguments": {"a": "', '[TOOL_CALLS]x[ARGS]{"a": [', '[TOOL_CALLS]x[CALL_ID]', '[TOOL_CALLS]x'], weather);
  });

  test('`[ARGS]` at the very end of the text is an unparseable call that ends at the text', () => {
    expect(calls('[TOOL_CALLS]A[ARGS]').failures.map((f) => f.line)).toEqual([1]);
  });

  test('never throws, whatever the mix of its tokens', () => {
    expectTotal(mistralNotation, ['[TOOL_CALLS]', '[ARGS]', '[CALL_ID]', 'get_weather', '[{"name": "get_weather", "arguments": {"city": "Paris"}}]', '{"city": "Paris"}', '[TOOL_RESULTS]', '</s>'], weather);
  });
});

describe('mistral on the real-world corpus', () => {
  const corpusFixtures = realWorld();
  for (const f of corpusFixtures.filter((x) => x.notation === 'mistral')) {
    test(f.name, () => {
      // The bare `[{"name", "arguments"}]` lists labelled in the cookbook (lines 70, 170) are JSON calls of another notation.
      expect(run(mistralNotation, f.text, f.tools)).toEqual({ calls: labelled(f, ['[TOOL_CALLS]']), failures: [] });
    });
  }
  test('finds nothing in the fixtures of other notations', () => {
    for (const f of corpusFixtures.filter((x) => x.notation !== 'mistral')) {
      expect({ fixture: f.name, ...run(mistralNotation, f.text, f.tools) }).toEqual({ fixture: f.name, ...none });
    }
  });
});
