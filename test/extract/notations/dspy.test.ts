import { describe, expect, test } from '@jest/globals';
import { normalizeTools } from '../../../src/tools/normalize.js';
import { dspyNotation } from '../../../src/extract/notations/dspy.js';
import { extractToolCalls } from '../../../src/extract/index.js';
import { run, expectTotal, expectLinear } from './harness.js';

const tools = normalizeTools([
  { name: 'search_wikipedia', input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
  { name: 'lookup_wikipedia', input_schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } },
]);

// As dspy.ReAct's chat adapter renders a demo and a trajectory (see DSPy's agents tutorial).
const demo = [
  '[[ ## trajectory ## ]]',
  '[[ ## thought_0 ## ]]',
  'I will search first.',
  '',
  '[[ ## tool_name_0 ## ]]',
  'search_wikipedia',
  '',
  '[[ ## tool_args_0 ## ]]',
  '{"query": "Lionheart 1990 film"}',
  '',
  '[[ ## observation_0 ## ]]',
  '[1] «Lionheart (1990 film) | ...»',
  '',
  '[[ ## next_thought ## ]]',
  'Now the actor.',
  '',
  '[[ ## next_tool_name ## ]]',
  'lookup_wikipedia',
  '',
  '[[ ## next_tool_args ## ]]',
  "{'title': 'Jean-Claude Van Damme'}",
  '',
  '[[ ## completed ## ]]',
  '',
].join('\n');

describe('dspy-react', () => {
  test('a trajectory step and a next step: name field, then the arguments field of the same step', () => {
    expect(run(dspyNotation, demo, tools)).toEqual({
      calls: [
        { name: 'search_wikipedia', arguments: { query: 'Lionheart 1990 film' }, line: 5 },
        { name: 'lookup_wikipedia', arguments: { title: 'Jean-Claude Van Damme' }, line: 17 },
      ],
      failures: [],
    });
  });

  test('`finish` ends the loop: no call, unless the tools have one', () => {
    const text = '[[ ## next_tool_name ## ]]\nfinish\n\n[[ ## next_tool_args ## ]]\n{}\n\n[[ ## completed ## ]]\n';
    expect(run(dspyNotation, text, tools).calls).toEqual([]);
    expect(run(dspyNotation, text, normalizeTools([{ name: 'finish', input_schema: { type: 'object' } }])).calls).toEqual([{ name: 'finish', arguments: {}, line: 1 }]);
  });

  test("the format description's fields are a placeholder; a name field without its arguments field is nothing", () => {
    const format = '[[ ## next_tool_name ## ]]\n{next_tool_name}        # note: the value you produce must be one of: search_wikipedia; finish\n\n[[ ## next_tool_args ## ]]\n{next_tool_args}        # note: the value you produce must be pareseable according to the following JSON schema: {"type": "object"}\n\n[[ ## completed ## ]]\n';
    const found = extractToolCalls(format, { tools });
    expect(found.examples).toEqual([]);
    expect(found.diagnostics.map((d) => [d.ruleId, d.actual])).toEqual([['example/placeholder', '{next_tool_args}']]);
    expect(run(dspyNotation, '[[ ## next_tool_name ## ]]\nsearch_wikipedia\n\n[[ ## completed ## ]]\n', tools)).toEqual({ calls: [], failures: [] });
    // Steps do not pair across: tool_name_1 with tool_args_0 is no call.
    expect(run(dspyNotation, '[[ ## tool_name_1 ## ]]\nsearch_wikipedia\n\n[[ ## tool_args_0 ## ]]\n{"query": "x"}\n', tools).calls).toEqual([]);
  });

  test('arguments that do not read are a finding at their place, naming the tool', () => {
    const text = '[[ ## next_tool_name ## ]]\nsearch_wikipedia\n\n[[ ## next_tool_args ## ]]\n{"query": }\n';
    const { failures } = run(dspyNotation, text, tools);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ tool: 'search_wikipedia', offset: text.indexOf('}') });
    expect(failures[0]!.error).toContain('`tool_args` field of `search_wikipedia`');
  });

  test('prose or a heading after a demo\'s last field: the call stands, and the prose is prose', () => {
    for (const after of ['That is one step. Now answer.', '## Next section', '> quoted [[ ## next_tool_name ## ]]']) {
      const text = `[[ ## next_tool_name ## ]]\nsearch_wikipedia\n\n[[ ## next_tool_args ## ]]\n{"query": "one"}\n\n${after}\n`;
      expect([after, extractToolCalls(text, { tools })]).toEqual([after, { examples: [expect.objectContaining({ name: 'search_wikipedia', arguments: { query: 'one' } })], diagnostics: [] }]);
    }
  });

  test('a sentence in the name field, or text after the arguments header, is no call', () => {
    expect(run(dspyNotation, '[[ ## next_tool_name ## ]]\nI will search now\n\n[[ ## next_tool_args ## ]]\n{"query": "x"}\n', tools)).toEqual({ calls: [], failures: [] });
    expect(run(dspyNotation, '[[ ## next_tool_name ## ]]\nsearch_wikipedia\n\n[[ ## next_tool_args ## ]]garbage\n{"query": "x"}\n', tools)).toEqual({ calls: [], failures: [] });
  });

  test('read by the extractor with the other notations, at the name header', () => {
    expect(extractToolCalls(demo, { tools }).examples.map((e) => [e.name, e.notation, e.line])).toEqual([
      ['search_wikipedia', 'dspy-react', 5],
      ['lookup_wikipedia', 'dspy-react', 17],
    ]);
  });

  test('linear on hostile input', () => {
    expectLinear(dspyNotation, ['[[ ## tool_name ## ]]\n', '[[ ## next_tool_name ## ]]\nx\n', '[[ ## next_tool_name ## ]]\nx\n[[ ## next_tool_args ## ]]\n{"a": [', ' '.repeat(50) + '\n', '[[ ## next_tool_args ## ]]\n   \t  '], tools);
  });

  test('never throws, whatever the mix of its tokens', () => {
    expectTotal(dspyNotation, ['[[ ## next_tool_name ## ]]', '[[ ## next_tool_args ## ]]', '[[ ## tool_name_0 ## ]]', '[[ ## tool_args_0 ## ]]', 'search_wikipedia', 'finish', '{"query": "x"}', '# note: y'], tools);
  });
});
