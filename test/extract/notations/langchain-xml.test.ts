import { describe, expect, test } from '@jest/globals';
import { normalizeTools } from '../../../src/tools/normalize.js';
import type { ToolSpec } from '../../../src/tools/types.js';
import { langchainXmlNotation } from '../../../src/extract/notations/langchain-xml.js';
import { extractToolCalls } from '../../../src/extract/index.js';
import { run, realWorld, expectTotal, expectLinear } from './harness.js';

const tools = normalizeTools(
  [
    { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
    { name: 'multiply', parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] } },
  ],
  'tools.json',
);
const calls = (text: string, withTools: readonly ToolSpec[] = tools) => run(langchainXmlNotation, text, withTools);
const none = { calls: [], failures: [] };

// The shape of LangChain's XML agent prompt: a worked exchange, then the scratchpad.
const agentPrompt = [
  'You are a helpful assistant. Help the user answer any questions.',
  '',
  'You have access to the following tools:',
  '',
  'search: look a question up on the web',
  '',
  'In order to use a tool, you can use <tool></tool> and <tool_input></tool_input> tags. You will then get back a response in the form <observation></observation>',
  "For example, if you have a tool called 'search' that could run a google search, in order to search for the weather in SF you would respond:",
  '',
  '<tool>search</tool><tool_input>weather in SF</tool_input>',
  '<observation>64 degrees</observation>',
  '',
  'When you are done, respond with a final answer between <final_answer></final_answer>.',
].join('\n');

describe('langchain-xml', () => {
  test("the XML agent's worked example: a plain input goes to the one required string parameter", () => {
    expect(calls(agentPrompt)).toEqual({ calls: [{ name: 'search', arguments: { query: 'weather in SF' }, line: 10 }], failures: [] });
  });

  test('a JSON object as the input is the arguments; tags on their own lines; several calls', () => {
    const text = '<tool>multiply</tool>\n<tool_input>{"a": 6, "b": 7}</tool_input>\n<observation>42</observation>\n<tool>search</tool><tool_input>"quoted words"</tool_input>';
    expect(calls(text)).toEqual({
      calls: [
        { name: 'multiply', arguments: { a: 6, b: 7 }, line: 1 },
        { name: 'search', arguments: { query: '"quoted words"' }, line: 4 },
      ],
      failures: [],
    });
  });

  test('an input left open, as the model is stopped at `</tool_input>`, runs to the end of its line', () => {
    expect(calls('<tool>search</tool><tool_input>weather in Oslo\n<observation>cold</observation>').calls).toEqual([{ name: 'search', arguments: { query: 'weather in Oslo' }, line: 1 }]);
    expect(calls('<tool>search</tool><tool_input>one\n<tool>search</tool><tool_input>two</tool_input>').calls).toEqual([
      { name: 'search', arguments: { query: 'one' }, line: 1 },
      { name: 'search', arguments: { query: 'two' }, line: 2 },
    ]);
  });

  test('broken JSON for a tool that takes more than one string is a failure at its place', () => {
    const text = '<tool>multiply</tool><tool_input>{"a": 6, "b": seven}</tool_input>';
    expect(calls(text)).toEqual({
      calls: [],
      failures: [{ error: 'Unexpected `s` in the tool_input of `multiply`, expected a JSON value', offset: text.indexOf('seven'), tool: 'multiply', line: 1 }],
    });
  });

  test('not calls: the format description, unknown tools, a name that is no identifier, a lone tag', () => {
    expect(calls('use <tool></tool> and <tool_input></tool_input> tags')).toEqual(none);
    expect(calls('<tool>divide</tool><tool_input>4</tool_input>')).toEqual(none);
    expect(calls('<tool>the tool name</tool><tool_input>x</tool_input>')).toEqual(none);
    expect(calls('<tool>search</tool> and nothing else')).toEqual(none);
    // Two required integers take no plain value.
    expect(calls('<tool>multiply</tool><tool_input>6 and 7</tool_input>')).toEqual(none);
    // Without tools, JSON arguments are a call of any identifier; a plain value names no parameter.
    expect(calls('<tool>get_weather</tool><tool_input>{"city": "Paris"}</tool_input>', []).calls).toEqual([{ name: 'get_weather', arguments: { city: 'Paris' }, line: 1 }]);
    expect(calls('<tool>search</tool><tool_input>weather</tool_input>', [])).toEqual(none);
  });

  test('through extraction: read and validated, and a plain input to a tool it cannot fit is reported, not passed', () => {
    const read = extractToolCalls(agentPrompt, { tools });
    expect(read.examples.map((e) => [e.notation, e.name, e.arguments, e.line])).toEqual([['langchain-xml', 'search', { query: 'weather in SF' }, 10]]);
    const unfit = extractToolCalls('Example:\n\n<tool>multiply</tool><tool_input>6 and 7</tool_input>\n', { tools });
    expect(unfit.examples).toEqual([]);
    expect(unfit.diagnostics.map((d) => d.ruleId)).toContain('example/unread-call');
  });

  test('linear on hostile input', () => {
    expectLinear(langchainXmlNotation, ['<tool>search</tool><tool_input>', '<tool>search</tool>', '<tool>', '</tool>', '<tool>search</tool><tool_input>{"a": [', '<tool_input>'], tools);
  });

  test('never throws, whatever the mix of its tokens', () => {
    expectTotal(langchainXmlNotation, ['<tool>', '</tool>', '<tool_input>', '</tool_input>', 'search', 'multiply', '{"a": 2, "b": 4}', 'weather in SF', '\n', ' '], tools);
  });
});

describe('langchain-xml on the real-world corpus', () => {
  test('finds nothing in the fixtures of other notations', () => {
    for (const f of realWorld().filter((x) => x.notation !== 'langchain-xml')) {
      expect({ fixture: f.name, ...run(langchainXmlNotation, f.text, f.tools) }).toEqual({ fixture: f.name, ...none });
    }
  });
});
