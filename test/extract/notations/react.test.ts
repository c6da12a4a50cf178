import { describe, expect, test } from '@jest/globals';
import { normalizeTools } from '../../../src/tools/normalize.js';
import type { ToolSpec } from '../../../src/tools/types.js';
import { reactNotation } from '../../../src/extract/notations/react.js';
import { run, realWorld, labelled, expectTotal, expectLinear } from './harness.js';


const tools = normalizeTools(
  [
    { name: 'multiply', parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] } },
    { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } }, required: ['query'] } },
  ],
  'tools.json',
);
const calls = (text: string, withTools: readonly ToolSpec[] = tools) => run(reactNotation, text, withTools);
const none = { calls: [], failures: [] };

describe('react-text', () => {
  test('Action then a JSON Action Input on the next line', () => {
    const text = 'Thought: I need to multiply.\nAction: multiply\nAction Input: {"a": 2, "b": 4}\nObservation: 8\nThought: Done.\nAnswer: 8';
    expect(calls(text)).toEqual({ calls: [{ name: 'multiply', arguments: { a: 2, b: 4 }, line: 2 }], failures: [] });
  });

  test('a Python dict input, ANSI colour codes, JSON over several lines', () => {
    const text = "\x1b[1;3;38;5;200mThought: x\nAction: multiply\nAction Input: {'a': 2, 'b': 4}\n\x1b[0m\x1b[1;3;34mObservation: 8";
    expect(calls(text).calls).toEqual([{ name: 'multiply', arguments: { a: 2, b: 4 }, line: 2 }]);
    expect(calls('Action: multiply\nAction Input:\n{\n  "a": 3,\n  "b": 5\n}\nObservation: 15').calls).toEqual([{ name: 'multiply', arguments: { a: 3, b: 5 }, line: 1 }]);
  });

  test('a plain input goes to the one required string parameter of a known tool', () => {
    expect(calls('Action: search\nAction Input: weather in Paris\nObservation: sunny').calls).toEqual([{ name: 'search', arguments: { query: 'weather in Paris' }, line: 1 }]);
    expect(calls('Action: search\nAction Input: "weather in Oslo"').calls).toEqual([{ name: 'search', arguments: { query: 'weather in Oslo' }, line: 1 }]);
    // Two required integers: a plain value names no parameter.
    expect(calls('Action: multiply\nAction Input: 2, 4')).toEqual(none);
    // Without tools nothing says which parameter a plain value is.
    expect(calls('Action: search\nAction Input: weather', [])).toEqual(none);
  });

  test('on one line: `Action: tool: input` (the Thought/Action/PAUSE loop) and the ReAct paper\'s `Action: Tool[input]`', () => {
    const loop = 'Thought: I should look it up.\nAction: search: construction year of the Eiffel Tower\nPAUSE\n\nObservation: 1889';
    expect(calls(loop)).toEqual({ calls: [{ name: 'search', arguments: { query: 'construction year of the Eiffel Tower' }, line: 2 }], failures: [] });
    expect(calls('Action: search[Apple Remote]\nObservation: The Apple Remote is a remote control').calls).toEqual([{ name: 'search', arguments: { query: 'Apple Remote' }, line: 1 }]);
    expect(calls('Action: multiply: {"a": 6, "b": 7}\nPAUSE').calls).toEqual([{ name: 'multiply', arguments: { a: 6, b: 7 }, line: 1 }]);
    expect(calls('Action: search[{"query": "x", "limit": 2}]')).toEqual({ calls: [{ name: 'search', arguments: { query: 'x', limit: 2 }, line: 1 }], failures: [] });
    // Without tools: JSON arguments are a call of any identifier; a plain value names no parameter.
    expect(calls('Action: tool_1: {"action_input": "France"}', []).calls).toEqual([{ name: 'tool_1', arguments: { action_input: 'France' }, line: 1 }]);
    expect(calls('Action: search: weather', [])).toEqual(none);
    // Not a tool of the prompt, or words of a format description: no call.
    expect(calls('Action: Note: write the answer down\nAction: Final Answer: 42\nAction: divide[4]')).toEqual(none);
    // Two required integers take no plain value.
    expect(calls('Action: multiply: 6 and 7')).toEqual(none);
  });

  test("the ReAct paper's numbered steps: `Action 1: Search[...]`, and `Action Input 2:` after `Action 2:`", () => {
    // The shape of the paper's few-shot trajectories (HotpotQA), with this file's tools.
    const trajectory = [
      'Question: Which magazine was started first?',
      'Thought 1: I need to search both magazines.',
      'Action 1: search[Arthur\'s Magazine]',
      "Observation 1: Arthur's Magazine (1844-1846) was an American literary periodical.",
      'Thought 2: Now the other one.',
      'Action 2: search[First for Women]',
      'Observation 2: First for Women is a woman\'s magazine published by Bauer Media Group.',
      'Action 3: multiply',
      'Action Input 3: {"a": 18, "b": 44}',
      'Observation 3: 792',
    ].join('\n');
    expect(calls(trajectory)).toEqual({
      calls: [
        { name: 'search', arguments: { query: "Arthur's Magazine" }, line: 3 },
        { name: 'search', arguments: { query: 'First for Women' }, line: 6 },
        { name: 'multiply', arguments: { a: 18, b: 44 }, line: 8 },
      ],
      failures: [],
    });
    // A numbered label after the input, as streamed logs run them on.
    expect(calls('Action 1: multiply\nAction Input 1: {"a": 1, "b": 2}Thought 2: done').calls).toEqual([{ name: 'multiply', arguments: { a: 1, b: 2 }, line: 1 }]);
    // The format description stays no call when numbered, and a number is not a name.
    expect(calls('Action 1: the action to take, one of [multiply, search]\nAction 2: Finish[the answer]\nAction 12345: search[x]\nAction one: search[x]')).toEqual(none);
  });

  test('without tools any identifier is an action', () => {
    expect(calls('Action: get_weather\nAction Input: {"city": "Paris"}', []).calls).toEqual([{ name: 'get_weather', arguments: { city: 'Paris' }, line: 1 }]);
  });

  test('format templates, unknown tools and lone actions are not calls', () => {
    expect(calls('Action: the action to take, should be one of [multiply, search]\nAction Input: the input to the action')).toEqual(none);
    expect(calls('Action: tool name (one of {tool_names}) if using a tool.\nAction Input: the input to the tool, in a JSON format representing the kwargs (e.g. {{"input": "hello world", "num_beams": 5}})', [])).toEqual(none);
    expect(calls('Action: divide\nAction Input: {"a": 1, "b": 2}')).toEqual(none);
    expect(calls('Action: multiply\nObservation: nothing')).toEqual(none);
    expect(calls('Action: multiply\n\nAction Input: {"a": 1, "b": 2}')).toEqual(none);
    expect(calls('The next step. Action: multiply\nAction Input: {"a": 1, "b": 2}')).toEqual(none);
  });

  test('a placeholder that is an identifier is returned as a call for the engine to judge; `$TOOL_NAME` is no identifier', () => {
    expect(calls('Action: $TOOL_NAME\nAction Input: {"query": "<query>"}', []).calls).toEqual([]);
    expect(calls('Action: tool_name\nAction Input: {"query": "<query>"}', []).calls).toEqual([{ name: 'tool_name', arguments: { query: '<query>' }, line: 1 }]);
  });

  test('broken JSON and text after it are failures', () => {
    const text = 'Action: multiply\nAction Input: {"a": 2, "b": four}\nObservation: x';
    expect(calls(text)).toEqual({
      calls: [],
      failures: [{ error: 'Unexpected `f` in the Action Input of `multiply`, expected a JSON value', offset: text.indexOf('four'), tool: 'multiply', line: 1 }],
    });
    const trailing = 'Action: multiply\nAction Input: {"a": 2, "b": 4} (the kwargs)';
    expect(calls(trailing).failures).toEqual([
      { error: 'Unexpected `(` after the Action Input of `multiply`, expected the end of the line', offset: trailing.indexOf('('), tool: 'multiply', line: 1 },
    ]);
  });

  test('linear on hostile input', () => {
    expectLinear(reactNotation, ['Action: multiply\n', 'Action: multiply\nAction Input: {"a": [\n', 'Action: multiply\nAction Input: {\'a\': [\n', '\x1b[1m', 'Action: x\nAction Input:\n', 'Action: search\nAction Input: x\n'], tools);
  });

  test('never throws, whatever the mix of its tokens', () => {
    expectTotal(reactNotation, ['Action: ', 'Action Input: ', 'multiply', 'search', 'Observation: ', 'Thought: ', '\x1b[1;3;34m', '{"a": 2, "b": 4}', "{'a': 2}", 'weather in Paris'], tools);
  });
});

describe('react-text on the real-world corpus', () => {
  const corpusFixtures = realWorld();
  for (const f of corpusFixtures.filter((x) => x.notation === 'react-text')) {
    test(f.name, () => {
      expect(run(reactNotation, f.text, f.tools)).toEqual({ calls: labelled(f), failures: [] });
    });
  }
  test('finds nothing in the fixtures of other notations', () => {
    for (const f of corpusFixtures.filter((x) => x.notation !== 'react-text')) {
      expect({ fixture: f.name, ...run(reactNotation, f.text, f.tools) }).toEqual({ fixture: f.name, ...none });
    }
  });
});
