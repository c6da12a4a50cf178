import { describe, expect, test } from '@jest/globals';
import { extractToolCalls } from '../../src/extract/index.js';
import { blockStructure } from '../../src/extract/markdown.js';
import { normalizeTools } from '../../src/tools/normalize.js';

// Texts as chat templates render them, and call shapes of agent frameworks, that real prompts use.

const calls = (text: string, tools = normalizeTools([])) => extractToolCalls(text, { tools }).examples.map((e) => [e.name, e.arguments, e.line]);

describe('a fence closed by a marker that a special token follows on its line', () => {
  const gemma = ['```tool_code', 'print(convert(amount=2, currency="USD"))', '```<end_of_turn>', '<start_of_turn>user', '<tool_call>', '{"name": "get_weather", "arguments": {"city": "Paris"}}', '</tool_call>', ''].join('\n');

  test('closes the fence: the call after it is read, in both parse modes', () => {
    const tools = normalizeTools([{ name: 'convert', input_schema: { type: 'object', properties: { amount: { type: 'number' }, currency: { type: 'string' } } } }, { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }]);
    expect(calls(gemma, tools)).toEqual([
      ['convert', { amount: 2, currency: 'USD' }, 2],
      ['get_weather', { city: 'Paris' }, 5],
    ]);
    for (const text of [gemma, gemma.replace(/\n/g, '\r\n')]) {
      const fast = blockStructure(text, 'fast');
      expect(blockStructure(text, 'full')).toEqual(fast);
      // The fence ends at its marker, not at the end of the token's line.
      expect(fast.fences.map((f) => text.slice(f.start, f.end))).toEqual([text.slice(0, text.indexOf('```<end_of_turn>') + 3)]);
    }
  });

  test('the rest of the closing line is read as text: a call a template starts there is found', () => {
    const text = ['```json', '{"x": 1}', '```<|im_end|><tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>', ''].join('\n');
    expect(calls(text)).toEqual([['get_weather', { city: 'Oslo' }, 3]]);
  });

  test('a plain closing fence and an unclosed one read as before', () => {
    const open = ['```python', 'x = 1', '<tool_call>{"name": "a", "arguments": {}}</tool_call>', ''].join('\n');
    expect(calls(open)).toEqual([]);
    const closed = ['```python', 'x = 1', '```', '<tool_call>{"name": "a", "arguments": {}}</tool_call>', ''].join('\n');
    expect(calls(closed)).toEqual([['a', {}, 4]]);
  });
});

describe('call shapes of agent frameworks and protocols', () => {
  test("Semantic Kernel's `action_variables` and MemGPT's `params` hold the arguments", () => {
    expect(calls('```json\n{"action": "CalculatorPlugin.Add", "action_variables": {"number1": "5"}}\n```\n')).toEqual([['CalculatorPlugin.Add', { number1: '5' }, 1]]);
    expect(calls('```json\n{"function": "send_message", "params": {"message": "hi"}}\n```\n')).toEqual([['send_message', { message: 'hi' }, 1]]);
    // `params` beside `name`: a route's or a definition's parameters, no call.
    expect(calls('```json\n{"name": "list_users", "method": "GET", "params": {"page": 1}}\n```\n')).toEqual([]);
    expect(calls('```json\n{"function": "search", "description": "Search the web", "params": {"query": {"type": "string"}}}\n```\n')).toEqual([]);
    // A JSON-RPC request is not a call of its method.
    expect(calls('```json\n{"jsonrpc": "2.0", "method": "resources/read", "params": {"uri": "file:///a"}}\n```\n')).toEqual([]);
  });

  test("an MCP `tools/call` request is a call of its params; Bedrock Converse's `toolUse` block is one call", () => {
    expect(calls('```json\n{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"location": "New York"}}}\n```\n')).toEqual([['get_weather', { location: 'New York' }, 1]]);
    expect(calls('```json\n{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "ping"}}\n```\n')).toEqual([['ping', {}, 1]]);
    expect(calls('```json\n{"role": "assistant", "content": [{"text": "Let me look."}, {"toolUse": {"toolUseId": "t1", "name": "lookup", "input": {"id": 7}}}]}\n```\n')).toEqual([['lookup', { id: 7 }, 2]]);
    expect(calls('```json\n{"output": {"message": {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "lookup", "input": {"id": 8}}}]}}, "stopReason": "tool_use"}\n```\n')).toEqual([['lookup', { id: 8 }, 1]]);
  });

  test("MetaGPT's role commands name the tool under `command_name`, bare in prose as its prompts write them", () => {
    const text = 'Thought: I need to come under the repo path\n{\n    "command_name": "Bash.run",\n    "args": {\n        "cmd": "cd /workspace/MetaGPT"\n    }\n}\n->\n';
    expect(calls(text)).toEqual([['Bash.run', { cmd: 'cd /workspace/MetaGPT' }, 2]]);
    // An unrendered variable in one is a finding, not a call.
    const found = extractToolCalls('```json\n[{"command_name": "Editor.write", "args": {"path": "/tmp/{{project_name}}/prd.md"}}]\n```\n');
    expect(found.examples).toEqual([]);
    expect(found.diagnostics.map((d) => [d.ruleId, d.actual])).toEqual([['example/placeholder', '{{project_name}}']]);
  });

  test("Semantic Kernel's format blobs name a placeholder, not a tool: `FUNCTION.NAME`, `_Namespace_.FUNCTION.NAME`, `$(last_action_name)`", () => {
    for (const name of ['FUNCTION.NAME', '_Namespace_.FUNCTION.NAME', '$(last_action_name)']) {
      const found = extractToolCalls(`{"action": "${name}", "action_variables": {"INPUT": "some input", "PARAMETER_NAME": "some value"}}\n`);
      expect([name, found.examples]).toEqual([name, []]);
      expect(found.diagnostics.map((d) => [d.ruleId, d.actual])).toEqual([['example/placeholder', name]]);
    }
    // A real plugin function still reads.
    expect(calls('{"action": "AuthorPlugin.WritePoem", "action_variables": {"topic": "sea"}}\n')).toEqual([['AuthorPlugin.WritePoem', { topic: 'sea' }, 1]]);
  });

  test("BrowserGym's one-line ```click(\"12\")``` (a code span, not a fence) is a call of a known tool; code in backticks of an unknown name, or inside a sentence, is not", () => {
    const tools = normalizeTools([{ name: 'click', input_schema: { type: 'object', properties: { bid: { type: 'string' } }, required: ['bid'] } }, { name: 'send_msg_to_user', input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }]);
    const text = '"\nIn order to accomplish my goal I need to click on the button with bid 12\n```click("12")```\n"\n\n`send_msg_to_user("$279.49")`\n\n```print("x")```\nThen `click("13")` clicks it.\n```click("14")` is not closed the same way\n';
    expect(calls(text, tools)).toEqual([
      ['click', { bid: '12' }, 3],
      ['send_msg_to_user', { text: '$279.49' }, 6],
    ]);
    // Without the tools, nothing: backticked code is an example only of a tool the prompt has.
    expect(calls(text)).toEqual([]);
  });

  test("Continue's `tool` fence: TOOL_NAME, then BEGIN_ARG/END_ARG values typed by the schema; a broken one is a finding", () => {
    const tools = normalizeTools([{ name: 'ls', input_schema: { type: 'object', properties: { dirPath: { type: 'string' }, recursive: { type: 'boolean' } } } }, { name: 'create_new_file', input_schema: { type: 'object', properties: { filepath: { type: 'string' }, contents: { type: 'string' } } } }]);
    const text = [
      'To list files, call ls:',
      '```tool',
      'TOOL_NAME: ls',
      'BEGIN_ARG: dirPath',
      'src/components',
      'END_ARG',
      'BEGIN_ARG: recursive',
      'false',
      'END_ARG',
      '```',
      '',
      '```tool',
      'TOOL_NAME: create_new_file',
      'BEGIN_ARG: filepath',
      'src/a.ts',
      'END_ARG',
      'BEGIN_ARG: contents',
      'export const a = 1;',
      '',
      'export const b = 2;',
      'END_ARG',
      '```',
      '',
      '```tool',
      'TOOL_NAME: ls',
      'BEGIN_ARG: dirPath',
      'src',
      '```',
      '',
      '```tool',
      'some other kind of tool block',
      '```',
      '',
    ].join('\n');
    const found = extractToolCalls(text, { tools });
    expect(found.examples.map((e) => [e.name, e.arguments, e.notation, e.line])).toEqual([
      ['ls', { dirPath: 'src/components', recursive: false }, 'continue-tool', 3],
      ['create_new_file', { filepath: 'src/a.ts', contents: 'export const a = 1;\n\nexport const b = 2;' }, 'continue-tool', 13],
    ]);
    expect(found.diagnostics.map((d) => [d.ruleId, d.line, d.tool])).toEqual([['example/unparseable', 24, 'ls']]);
    expect(found.diagnostics[0]!.message).toContain('expected `END_ARG` after its value');
    expect(found.diagnostics[0]!.message).not.toMatch(/`tool` fence.*`tool` fence/);
  });

  test("a Continue `tool` fence of 20,000 arguments with the last one unclosed: one finding, for that one", () => {
    const args = Array.from({ length: 20_000 }, (_, i) => `BEGIN_ARG: a${i}\nv${i}\nEND_ARG`).join('\n');
    const text = `\`\`\`tool\nTOOL_NAME: x\n${args}\nBEGIN_ARG: last\nv\n\`\`\`\n`;
    const found = extractToolCalls(text);
    expect(found.examples).toEqual([]);
    expect(found.diagnostics.map((d) => [d.ruleId, d.message.includes('argument `last`')])).toEqual([['example/unparseable', true]]);
  });

  test("a code agent's call of a known tool whose value is assigned (smolagents' CodeAgent) is a call; of an unknown name it is code; a variable for an argument is left out of it", () => {
    const tools = normalizeTools([{ name: 'web_search', input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } }]);
    const text = '<code>\npages = web_search(query="1979 interview Stanislaus Ulam")\nprint(pages)\nrows = load_table(name="x")\nmore = web_search(query=topic)\nok == web_search(query="no")\n</code>\n';
    expect(calls(text, tools)).toEqual([['web_search', { query: '1979 interview Stanislaus Ulam' }, 2]]);
    // In the `py` fence smolagents' older prompts write: the same calls, and code stays code.
    const fenced = '```py\nresults = []\npages = web_search(query="Ulam")  # search first\nfor q in ["a", "b"]:\n    results.append(web_search(query=q))\nif = web_search(query="no")\nprint(pages)\n```<end_code>\n';
    // A call with a variable for its argument is read, that argument left out (and not required when checked).
    expect(calls(fenced, tools)).toEqual([
      ['web_search', { query: 'Ulam' }, 3],
      ['web_search', {}, 5],
    ]);
    expect(calls(fenced)).toEqual([]);
  });

  test("AutoGPT's reply holds its call under `command`", () => {
    const text = '```json\n{"thoughts": {"text": "search first", "plan": "- search"}, "command": {"name": "google", "args": {"input": "weather Paris"}}}\n```\n';
    expect(calls(text)).toEqual([['google', { input: 'weather Paris' }, 1]]);
    // A `command` that is a shell line is no call.
    expect(calls('```json\n{"command": {"name": "ls", "shell": true}}\n```\n')).toEqual([]);
  });

  test("GLM-4.5's key/value pairs in `<tool_call>`, typed by the schema; a bare word in the tags is a mention unless it names a tool", () => {
    const tools = normalizeTools([{ name: 'set_volume', input_schema: { type: 'object', properties: { level: { type: 'integer' }, room: { type: 'string' } } } }, { name: 'ping', input_schema: { type: 'object', properties: {} } }]);
    const text = '<tool_call>set_volume\n<arg_key>level</arg_key>\n<arg_value>7</arg_value>\n<arg_key>room</arg_key>\n<arg_value>42</arg_value>\n</tool_call>\n\n<tool_call>ping</tool_call>\n\nWrap calls in <tool_call>name</tool_call>.\n';
    expect(calls(text, tools)).toEqual([
      ['set_volume', { level: 7, room: '42' }, 1],
      ['ping', {}, 8],
    ]);
  });

  test('GLM-4.5 calls are read in linear time, and a broken one is a finding at its place, not a placeholder', () => {
    const pairs = Array.from({ length: 40 }, (_, i) => `<arg_key>k${i}</arg_key>\n<arg_value>v${i}</arg_value>`).join('\n');
    // The shapes that made the old pattern backtrack: text after the pairs, and a value cut off.
    for (const text of [`<tool_call>send_email\n${pairs}\n(end of call)\n</tool_call>\n`, `<tool_call>send_email\n${pairs}<arg_key>z</arg_key><arg_value>cut</tool_call>\n`]) {
      // Forty pairs: a backtracking reading would not end within the test's time limit.
      const found = extractToolCalls(text);
      expect(found.examples).toEqual([]);
      expect(found.diagnostics.map((d) => [d.ruleId, d.tool])).toEqual([['example/unparseable', 'send_email']]);
    }
  });

  test("MiniMax-M2's `<minimax:tool_call>` holds `<invoke>` elements; an unclosed one names its own tag", () => {
    expect(calls('<minimax:tool_call><invoke name="get_weather"><parameter name="city">\nSeattle\n</parameter></invoke></minimax:tool_call>\n')).toEqual([['get_weather', { city: 'Seattle' }, 1]]);
    const unclosed = extractToolCalls('<minimax:tool_call><invoke name="get_weather"><parameter name="city">Seattle</parameter></invoke>\n');
    expect(unclosed.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('Unclosed `<minimax:tool_call>` block, expected `</minimax:tool_call>`')]);
  });
});
