import { beforeAll, describe, expect, test } from '@jest/globals';
import { checkExamples } from '../../src/checks/examples.js';
import { extractToolCalls } from '../../src/extract/index.js';
import { preloadMarkdown } from '../../src/extract/markdown.js';
import { normalizeTools } from '../../src/tools/normalize.js';

beforeAll(() => preloadMarkdown());

const tools = normalizeTools(
  [
    { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' }, days: { type: 'integer' }, units: { type: 'object', properties: { temp: { type: 'string' } } } }, required: ['location'] } },
    { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
    { name: 'apply_diff', parameters: { type: 'object', properties: { path: { type: 'string' }, diff: { type: 'string' } }, required: ['path', 'diff'] } },
    { name: 'ask_followup_question', parameters: { type: 'object', properties: { question: { type: 'string' }, follow_up: { type: 'string' } }, required: ['question'] } },
    { name: 'new_task', parameters: { type: 'object', properties: { mode: { type: 'string' }, todos: { type: 'object', properties: { item: { type: 'array', items: { type: 'string' } } } } } } },
    { name: 'read_file', parameters: { type: 'object', properties: { absolute_path: { type: 'string' }, limit: { type: 'integer' } }, required: ['absolute_path'] } },
    { name: 'run_shell_command', parameters: { type: 'object', properties: { command: { type: 'string' }, directory: { type: 'string' } }, required: ['command'] } },
    { name: 'glob', parameters: { type: 'object', properties: { pattern: { type: 'string' }, path: { type: 'string' } } } },
    { name: 'read_many_files', parameters: { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } } }, required: ['paths'] } },
  ],
  'tools.json',
);

/** Name, arguments and line of each call read, and the rule and line of each finding. */
function read(text: string) {
  const { examples, diagnostics } = extractToolCalls(text, { tools });
  return {
    calls: examples.map((e) => [e.name, e.arguments, e.line]),
    findings: diagnostics.map((d) => [d.ruleId, d.line]),
  };
}

/** The `example/invalid-arguments` findings of a text's calls: [tool, line]. */
function drift(text: string) {
  const { examples } = extractToolCalls(text, { tools });
  return checkExamples(examples, tools)
    .filter((d) => d.ruleId === 'example/invalid-arguments')
    .map((d) => [d.tool, d.line]);
}

describe('ReAct input followed on its line by the next step', () => {
  test('`Action Input: {...}Observation:` (a streamed log) is a call', () => {
    const text = 'Thought: look it up\nAction: search\nAction Input: {"query": "Paris"}Observation: sunny\nThought: done';
    expect(read(text)).toEqual({ calls: [['search', { query: 'Paris' }, 2]], findings: [] });
    expect(read('Action: search\nAction Input: {"query": "x"} Thought: next').calls).toEqual([['search', { query: 'x' }, 1]]);
  });

  test('anything else after the input is still an error', () => {
    expect(read('Action: search\nAction Input: {"query": "x"} and more').findings).toEqual([['example/unparseable', 1]]);
  });

  test('a drift is caught at the Action line', () => {
    expect(drift('\n\nAction: search\nAction Input: {"q": "x"}Observation: none')).toEqual([['search', 3]]);
  });
});

describe('tag-per-tool bodies are verbatim', () => {
  test('`>>>>>>> REPLACE` keeps its `>` after a blank line (where Markdown would see a quote)', () => {
    const text = 'Example:\n\n<apply_diff>\n<path>a.ts</path>\n<diff>\n<<<<<<< SEARCH\nold\n\n=======\nnew\n\n>>>>>>> REPLACE\n</diff>\n</apply_diff>\n';
    expect(read(text)).toEqual({ calls: [['apply_diff', { path: 'a.ts', diff: '<<<<<<< SEARCH\nold\n\n=======\nnew\n\n>>>>>>> REPLACE' }, 3]], findings: [] });
  });

  test('a real quote still loses its markers', () => {
    const text = '> <search>\n> <query>x</query>\n> </search>\n';
    expect(read(text).calls).toEqual([['search', { query: 'x' }, 1]]);
  });

  test('a string parameter keeps nested elements as text; an object parameter reads them', () => {
    const text = '<ask_followup_question>\n<question>Which?</question>\n<follow_up>\n<suggest>A</suggest>\n<suggest>B</suggest>\n</follow_up>\n</ask_followup_question>\n\n<new_task>\n<mode>code</mode>\n<todos><item>a</item><item>b</item></todos>\n</new_task>';
    expect(read(text).calls).toEqual([
      ['ask_followup_question', { question: 'Which?', follow_up: '<suggest>A</suggest>\n<suggest>B</suggest>' }, 1],
      ['new_task', { mode: 'code', todos: { item: ['a', 'b'] } }, 9],
    ]);
  });
});

describe('DeepSeek V3.2 DSML', () => {
  const B = '｜DSML｜';
  const call = (name: string, params: string) => `<${B}invoke name="${name}">\n${params}\n</${B}invoke>`;
  const param = (name: string, value: string, string = true) => `<${B}parameter name="${name}" string="${string}">${value}</${B}parameter>`;

  test('each invoke is a call at its own line; string="false" values are JSON', () => {
    const text = [`<${B}function_calls>`, call('get_weather', `${param('location', 'San Francisco')}\n${param('days', '3', false)}\n${param('units', '{"temp": "C"}', false)}`), call('search', param('query', ' two  spaces ')), `</${B}function_calls><｜end▁of▁sentence｜>`].join('\n');
    expect(read(text)).toEqual({
      calls: [
        ['get_weather', { location: 'San Francisco', days: 3, units: { temp: 'C' } }, 2],
        ['search', { query: ' two  spaces ' }, 7],
      ],
      findings: [],
    });
  });

  test('the chat template\'s format description is a placeholder, and naming the block in prose is nothing', () => {
    const text = `You can invoke functions by writing a "<${B}function_calls>" block like the following:\n<${B}function_calls>\n<${B}invoke name="$FUNCTION_NAME">\n<${B}parameter name="$PARAMETER_NAME" string="true|false">$PARAMETER_VALUE</${B}parameter>\n...\n</${B}invoke>\n</${B}function_calls>\n\nThen:\n\n<${B}function_calls>\n...\n</${B}function_calls>\n`;
    expect(read(text)).toEqual({ calls: [], findings: [['example/placeholder', 2], ['example/placeholder', 11]] });
  });

  test('a string="false" value that is not JSON is an error at the block', () => {
    const text = `<${B}function_calls>\n${call('get_weather', `${param('location', 'Oslo')}\n${param('days', 'three', false)}`)}\n</${B}function_calls>`;
    expect(read(text).findings).toEqual([['example/unparseable', 1]]);
  });

  test('a drift is caught at the invoke line', () => {
    const text = `Intro\n\n<${B}function_calls>\n${call('get_weather', param('location', 'Oslo'))}\n${call('get_weather', param('city', 'Oslo'))}\n</${B}function_calls>`;
    expect(drift(text)).toEqual([['get_weather', 7]]);
  });
});

describe('AG2 / AutoGen console transcripts', () => {
  const transcript = (name: string, args: string) => `chatbot (to user_proxy):\n\n***** Suggested tool call (call_1): ${name} *****\nArguments:\n${args}\n${'*'.repeat(40)}\n`;

  test('the banner names the tool, the JSON after `Arguments:` is its arguments; the call is at the banner line', () => {
    const text = `${transcript('get_weather', '{"location": "New York", "days": 2}')}***** Suggested function call: search *****\nArguments:\n{\n  "query": "EUR to USD"\n}\n*****\n\n***** Response from calling tool (call_1) *****\nsunny\n*****\n`;
    expect(read(text)).toEqual({ calls: [['get_weather', { location: 'New York', days: 2 }, 3], ['search', { query: 'EUR to USD' }, 7]], findings: [] });
  });

  test('arguments that are not a JSON object are an error at the banner', () => {
    expect(read(transcript('search', '{"query": "x",}')).findings).toEqual([['example/unparseable', 3]]);
    expect(read(transcript('search', 'query=x')).findings).toEqual([['example/unparseable', 3]]);
  });

  test('a drift is caught at the banner line', () => {
    expect(drift(transcript('get_weather', '{"location": "Oslo", "days": "two"}'))).toEqual([['get_weather', 3]]);
  });
});

describe("gemini-cli's `[tool_call: ...]` shorthand", () => {
  test('`for key value` pairs, an unnamed value for the one required parameter, lists, trailing prose', () => {
    const text = [
      "model: [tool_call: run_shell_command for 'node server.js &' because it must run in the background]",
      "[tool_call: read_file for absolute_path '/src/auth.py' and limit 20]",
      "[tool_call: read_many_files for paths ['**/*.test.ts', 'src/**/*.spec.ts'] assuming it is in src]",
      "[tool_call: glob for pattern '**/app.config', path 'src']",
      "[tool_call: read_file for absolute_path '/a/b.ts' or use glob to find \\`b.ts\\` if its location is unknown]",
    ].join('\n');
    expect(read(text)).toEqual({
      calls: [
        ['run_shell_command', { command: 'node server.js &' }, 1],
        ['read_file', { absolute_path: '/src/auth.py', limit: 20 }, 2],
        ['read_many_files', { paths: ['**/*.test.ts', 'src/**/*.spec.ts'] }, 3],
        ['glob', { pattern: '**/app.config', path: 'src' }, 4],
        ['read_file', { absolute_path: '/a/b.ts' }, 5],
      ],
      findings: [],
    });
  });

  test('prose arguments give a call without arguments; two tools offered are no call', () => {
    const text = '[tool_call: glob to create /a/b.test.ts with the test code]\n[tool_call: read_file or glob to look around]';
    expect(read(text)).toEqual({ calls: [['glob', {}, 1]], findings: [] });
  });

  test('an unnamed value for a tool with no single parameter is an error', () => {
    expect(read("x\n[tool_call: glob for '**/*.ts']").findings).toEqual([['example/unparseable', 2]]);
  });

  test('a drift is caught at the line', () => {
    expect(drift("Example:\n\n[tool_call: read_file for path '/src/a.ts']")).toEqual([['read_file', 3]]);
  });
});

describe('Cohere action blocks', () => {
  const block = '<|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "search", "parameters": {"query": "biggest penguin"}},\n    {"tool_call_id": "1", "tool_name": "get_weather", "parameters": {"location": "Oslo"}}\n]<|END_ACTION|>';
  const expected = (first: number) => [
    ['search', { query: 'biggest penguin' }, first],
    ['get_weather', { location: 'Oslo' }, first + 1],
  ];

  test('read the same in prose and in every fence, each call at its own line', () => {
    expect(read(`Example:\n\n${block}\n`)).toEqual({ calls: expected(4), findings: [] });
    for (const lang of ['', 'text', 'xml', 'markdown', 'tool_call', 'json', 'python', 'js']) {
      expect([lang, read(`Example:\n\n\`\`\`${lang}\n${block}\n\`\`\`\n`)]).toEqual([lang, { calls: expected(5), findings: [] }]);
    }
  });

  test('the tokens named in prose are no block; a block without its end token is an error', () => {
    expect(read('Wrap the calls in <|START_ACTION|> and <|END_ACTION|>.')).toEqual({ calls: [], findings: [] });
    expect(read('x\n<|START_ACTION|>[{"tool_name": "search", "parameters": {"query": "q"}}]\nThen stop.').findings).toEqual([['example/unparseable', 2]]);
  });

  test('a drift is caught at the line of its call', () => {
    expect(drift(`Example:\n\n${block.replace('"location"', '"city"')}\n`)).toEqual([['get_weather', 5]]);
  });
});

describe("Continue's `tool` fences", () => {
  const continueTools = normalizeTools([{ name: 'read_file', parameters: { type: 'object', properties: { filepath: { type: 'string' } }, required: ['filepath'] } }], 'tools.json');
  const fence = (name: string, key: string, value: string) => `\`\`\`tool\nTOOL_NAME: ${name}\nBEGIN_ARG: ${key}\n${value}\nEND_ARG\n\`\`\``;

  test("Continue's own example for a tool is read: its values are text, never placeholders", () => {
    const text = `To read a file located at 'path/to/file.txt', you would respond with this:\n\n${fence('read_file', 'filepath', 'path/to/the_file.txt')}\n`;
    const { examples, diagnostics } = extractToolCalls(text, { tools: continueTools });
    expect([examples.map((e) => [e.name, e.arguments, e.notation, e.line]), diagnostics]).toEqual([[['read_file', { filepath: 'path/to/the_file.txt' }, 'continue-tool', 4]], []]);
  });

  test('a made-up tool name and unrendered template text are still format descriptions', () => {
    const text = `${fence('example_tool', 'arg_1', 'The value\nof arg 1')}\n\n${fence('read_file', 'filepath', '{{ path }}')}\n`;
    const { examples, diagnostics } = extractToolCalls(text, { tools: continueTools });
    expect([examples, diagnostics.map((d) => [d.ruleId, d.line, d.actual])]).toEqual([[], [['example/placeholder', 1, 'example_tool'], ['example/placeholder', 9, '{{ path }}']]]);
  });

  test('a drift in the example is caught at its TOOL_NAME line', () => {
    const { examples } = extractToolCalls(`x\n\n${fence('read_file', 'path', 'path/to/the_file.txt')}`, { tools: continueTools });
    expect(checkExamples(examples, continueTools).filter((d) => d.ruleId === 'example/invalid-arguments').map((d) => [d.tool, d.line])).toEqual([['read_file', 4]]);
  });
});

describe('xLAM-style Python-repr message lists', () => {
  const list = "[{'role': 'user', 'content': \"What's the weather in Oslo?\"}, {'role': 'assistant', 'content': None, 'tool_calls': [{'name': 'get_weather', 'arguments': {'location': 'Oslo', 'days': 2}}]}]";

  test('read the same in prose and in text and python fences', () => {
    expect(read(`Output:\n${list}\n`).calls).toEqual([['get_weather', { location: 'Oslo', days: 2 }, 2]]);
    for (const lang of ['', 'text', 'python']) expect([lang, read(`Output:\n\n\`\`\`${lang}\n${list}\n\`\`\`\n`)]).toEqual([lang, { calls: [['get_weather', { location: 'Oslo', days: 2 }, 4]], findings: [] }]);
  });
});

describe('trailing commas, as Python and JavaScript write them and JSON does not', () => {
  test('a Python list of OpenAI messages with a trailing comma is read, in prose and in a python fence', () => {
    const list = 'examples = [\n    {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "search", "arguments": {"query": "Oslo"}}}]},\n]';
    expect(read(`${list}\n`)).toEqual({ calls: [['search', { query: 'Oslo' }, 2]], findings: [] });
    expect(read(`Example:\n\n\`\`\`python\n${list}\n\`\`\`\n`)).toEqual({ calls: [['search', { query: 'Oslo' }, 5]], findings: [] });
  });

  test('a tool list written with trailing commas is data, not a broken call, and the call after it is read', () => {
    // The shape of a chat-format document: the tools the system turn lists, then the assistant's call, in one fence with no blank line.
    const text = [
      '```',
      '<|im_start|>system name=<|plugin|>',
      '[',
      '    {',
      '        "name": "get_weather",',
      '        "description": "The weather in a place",',
      '        "parameters": {"type": "object", "properties": {"location": {"type": "string",},}, "required": ["location"],},',
      '    }',
      ']',
      '<|im_end|>',
      '<|im_start|>assistant',
      'Sure.<|action_start|><|plugin|>',
      '{"name": "get_weather", "parameters": {"location": "Shanghai"}}<|action_end|><|im_end|>',
      '```',
    ].join('\n');
    expect(read(text)).toEqual({ calls: [['get_weather', { location: 'Shanghai' }, 13]], findings: [] });
  });

  test('a call with a trailing comma in prose is read, as Python and JavaScript read it; in a json fence it stays a finding (`example/not-json`)', () => {
    expect(read('Call:\n{"name": "search", "arguments": {"query": "x",},}\n')).toEqual({ calls: [['search', { query: 'x' }, 2]], findings: [] });
    expect(read('Call:\n\n```json\n{"name": "search", "arguments": {"query": "x",}}\n```\n').findings).toEqual([['example/not-json', 3]]);
  });
});

describe('fences other agents write calls in', () => {
  test('an `antml` fence (Anthropic\'s own prompts) is read as the markup it holds', () => {
    const text = 'Example:\n\n```antml\n<function_calls>\n  <invoke name="search">\n    <parameter name="query">weather in Oslo</parameter>\n  </invoke>\n</function_calls>\n```\n';
    expect(read(text)).toEqual({ calls: [['search', { query: 'weather in Oslo' }, 4]], findings: [] });
  });

  test('a `tool` fence that is not Continue\'s: JSON read as in a `json` fence, tags as prose, other text left alone', () => {
    expect(read('Assistant:\n```tool\n{"tool": "search", "input": {"query": "weather"}}\n```\n')).toEqual({ calls: [['search', { query: 'weather' }, 2]], findings: [] });
    expect(read('```tool\n<tool_call>{"name": "search", "arguments": {"query": "x"}}</tool_call>\n```\n').calls).toEqual([['search', { query: 'x' }, 2]]);
    expect(read('```tool\nsearch the help center first\n```\n')).toEqual({ calls: [], findings: [] });
  });

  test('a `json` fence of tool definitions that is not valid JSON is no broken call; a broken call still is', () => {
    const definitions = '```json\n{\n  "tools": [\n    {\n      "name": "search",\n      "description": "Web search.",\n      "parameters": {\n        "query": {\n          "type": "string",\n          "options": [\'a\', \'b\']\n          "description": "A query."\n        }\n      }\n    }\n  ]\n}\n```\n';
    expect(read(definitions)).toEqual({ calls: [], findings: [] });
    expect(read('```json\n{"name": "search", "arguments": {"query": \'x\'}}\n```\n').findings.length).toBeGreaterThan(0);
  });
});

describe('calls under the keys datasets and hand-written prompts use', () => {
  test('a dataset row `{"conversations": [messages]}` holding an assistant\'s tool_calls', () => {
    const row = '```\n{\n  "conversations": [\n    {"role": "user", "content": "Weather in Taipei?"},\n    {"role": "assistant", "content": "", "tool_calls": [{"name": "get_weather", "arguments": {"location": "Taipei"}}]}\n  ]\n}\n```\n';
    expect(read(row).calls).toEqual([['get_weather', { location: 'Taipei' }, 2]]);
  });

  test('`{"function_calls": [{name, parameters}]}`: each call listed; a list of other things under that key is data', () => {
    expect(read('Action:\n{"function_calls": [{"name": "search", "parameters": {"query": "llama 3"}}, {"name": "get_weather", "parameters": {"location": "Oslo"}}]}\n').calls).toEqual([
      ['search', { query: 'llama 3' }, 2],
      ['get_weather', { location: 'Oslo' }, 2],
    ]);
    expect(read('Config:\n{"function_calls": ["enabled", "logged"]}\n')).toEqual({ calls: [], findings: [] });
  });
});
