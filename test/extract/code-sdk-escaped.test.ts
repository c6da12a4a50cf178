import { describe, expect, test } from '@jest/globals';
import { checkExamples } from '../../src/checks/examples.js';
import { extractToolCalls } from '../../src/extract/index.js';
import type { ToolSpec } from '../../src/tools/types.js';
import { hostileLength } from '../helpers/runs.js';

// Calls written as code, as SDK objects, as object literals and escaped inside JSON strings:
// each is read at its own line, and a drift in it (a wrong argument type) is found there.

const weather: ToolSpec = {
  name: 'get_weather',
  origin: { shape: 'anthropic' },
  inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] },
};
const tools = [weather];

function run(text: string, withTools: readonly ToolSpec[] = tools) {
  const { examples, diagnostics } = extractToolCalls(text, { tools: withTools });
  return { examples, diagnostics, checked: checkExamples(examples, withTools) };
}
const read = (text: string, withTools: readonly ToolSpec[] = tools) => run(text, withTools).examples.map((e) => [e.name, e.arguments, e.line]);
/** The drift findings (and anything else) of a text, as rule and line. */
const findings = (text: string) => {
  const r = run(text);
  return [...r.diagnostics, ...r.checked].map((d) => [d.ruleId, d.line, d.instancePath ?? '']);
};

describe('calls of known tools in code', () => {
  test('Python and JS calls in code fences, with qualifiers, assignments, print and await', () => {
    const text = [
      '```python',
      'import math',
      'summary = get_weather(city="Oslo")',
      'print(default_api.get_weather(city="Rome", days=3))',
      'x = math.sqrt(2)',
      '```',
      '',
      '```ts',
      "const r = await tools.get_weather({ city: 'Lima', days: 2, });",
      "client.get_weather({ city: 'Nope' });",
      'function get_weather(args) { return args; }',
      '```',
    ].join('\n');
    expect(read(text)).toEqual([
      ['get_weather', { city: 'Oslo' }, 3],
      ['get_weather', { city: 'Rome', days: 3 }, 4],
      ['get_weather', { city: 'Lima', days: 2 }, 9],
    ]);
    // Without the tools, code calls nothing.
    expect(extractToolCalls(text).examples).toEqual([]);
  });

  test('a drift in a code call is example/invalid-arguments at its line', () => {
    expect(findings("```js\nawait tools.get_weather({ city: 'Oslo', days: 'three' });\n```\n")).toEqual([['example/invalid-arguments', 2, '/days']]);
    expect(findings('```tool_code\nsummary = get_weather(city="Oslo", days="x")\nprint(summary)\n```\n')).toEqual([['example/invalid-arguments', 2, '/days']]);
  });

  test('an argument that is an expression is left out, listed as unread, and not reported missing; the literal ones are checked', () => {
    const r = run('```python\ncity = pick()\nget_weather(city=city, days="x")\n```\n');
    expect(r.examples.map((e) => [e.name, e.arguments, e.unread, e.line])).toEqual([['get_weather', { days: 'x' }, ['city'], 3]]);
    expect(r.checked.map((d) => [d.ruleId, d.instancePath])).toEqual([['example/invalid-arguments', '/days']]);
    // `**kwargs`: any key may be missing.
    const spread = run('```python\nget_weather(**params)\n```\n');
    expect(spread.examples.map((e) => e.unread)).toEqual([['*']]);
    expect(spread.checked).toEqual([]);
  });

  test('in prose a known tool call stands as a statement with literal arguments; a sentence and a code step with variables are not examples', () => {
    expect(read("await tools.get_weather({ city: 'Oslo' })\n\n- get_weather (to look up the weather)\n\nfinal = get_weather(city=chosen)\n")).toEqual([['get_weather', { city: 'Oslo' }, 1]]);
  });
});

describe('SDK objects that hold a call', () => {
  test('each SDK class is read where it starts, with its name and arguments; results are not calls', () => {
    const text = [
      '```python',
      'print(messages)',
      '"""',
      "ModelResponse(parts=[ToolCallPart(tool_name='get_weather', args={'city': 'Oslo'}, tool_call_id='c1', timestamp=datetime.datetime(...))])",
      "ModelRequest(parts=[ToolReturnPart(tool_name='get_weather', content='sunny', tool_call_id='c1')])",
      '"""',
      "FunctionCall(id='call_1', arguments='{\"city\": \"Rome\"}', name='get_weather')",
      "FunctionExecutionResult(content='sunny', call_id='call_1', is_error=False, name='get_weather')",
      'BetaToolUseBlock(',
      "    type='tool_use', input={'city': 'Lima'}, id='t1',",
      "    name='get_weather',",
      ')',
      "types.Part.from_function_call(name='get_weather', args={'city': 'Quito'})",
      "AIMessage(content='', tool_calls=[{'name': 'get_weather', 'args': {'city': 'Bogota'}, 'id': '1'}])",
      "ChatCompletionMessageToolCall(id='c', function=Function(arguments='{\"city\": \"Cusco\"}', name='get_weather'), type='function')",
      '```',
      '',
      '```csharp',
      'var call = new FunctionCallContent(name: "get_weather", id: "call_123");',
      '```',
    ].join('\n');
    expect(run(text).examples.map((e) => [e.name, e.arguments, e.line, e.notation])).toEqual([
      ['get_weather', { city: 'Oslo' }, 4, 'sdk-repr'],
      ['get_weather', { city: 'Rome' }, 7, 'sdk-repr'],
      ['get_weather', { city: 'Lima' }, 9, 'sdk-repr'],
      ['get_weather', { city: 'Quito' }, 13, 'sdk-repr'],
      ['get_weather', { city: 'Bogota' }, 14, 'sdk-repr'],
      ['get_weather', { city: 'Cusco' }, 15, 'sdk-repr'],
      ['get_weather', {}, 19, 'sdk-repr'],
    ]);
  });

  test('without tools AutoGen reprs are its calls, never calls named FunctionCall or FunctionExecutionResult', () => {
    const text = "[FunctionCall(id='call_1', arguments='{\"city\": \"Oslo\"}', name='get_weather')]\n\n[FunctionExecutionResult(content='sunny', call_id='call_1', is_error=False)]\n";
    expect(extractToolCalls(text).examples.map((e) => [e.name, e.arguments, e.line])).toEqual([['get_weather', { city: 'Oslo' }, 1]]);
  });

  test('a drift in an SDK object is example/invalid-arguments at its line', () => {
    expect(findings("Messages:\n\nToolCallPart(\n    tool_name='get_weather',\n    args={'city': 'Oslo', 'days': 'soon'},\n)\n")).toEqual([['example/invalid-arguments', 3, '/days']]);
    expect(findings("FunctionCall(id='c', arguments='{\"city\": 7}', name='get_weather')\n")).toEqual([['example/invalid-arguments', 1, '/city']]);
  });

  test('a class definition or a name in a variable is no call', () => {
    expect(read('```python\nclass ToolCallPart(BaseModel):\n    tool_name: str\n\npart = ToolCallPart(tool_name=name, args=args)\n```\n')).toEqual([]);
  });
});

describe('object literals of a call shape', () => {
  test("the AI SDK's tool-call part in TypeScript is read at its brace; a tool-result part is not a call", () => {
    const text = [
      '```ts',
      'const result = await generateText({',
      '  model: __MODEL__,',
      '  messages: [',
      "    { role: 'user', content: 'How many calories?' },",
      '    {',
      "      role: 'assistant',",
      '      content: [',
      '        {',
      "          type: 'tool-call',",
      "          toolCallId: '12345',",
      "          toolName: 'get_weather',",
      "          input: { city: 'Oslo', days: 'two' },",
      '        },',
      '      ],',
      '    },',
      "    { role: 'tool', content: [{ type: 'tool-result', toolCallId: '12345', toolName: 'get_weather', output: { type: 'json', value: {} } }] },",
      '  ],',
      '});',
      '```',
    ].join('\n');
    expect(read(text)).toEqual([['get_weather', { city: 'Oslo', days: 'two' }, 9]]);
    expect(findings(text)).toEqual([['example/invalid-arguments', 9, '/days']]);
  });

  test('a definition written as an object literal is no call', () => {
    expect(read("```ts\nconst t = { name: 'get_weather', description: 'Weather.', parameters: { type: 'object', properties: { city: { type: 'string' } } } };\n```\n")).toEqual([]);
  });
});

describe('calls escaped inside JSON string values', () => {
  test('a training row and a transcript: decoded, read with the same notations, at the line of the string', () => {
    const text = [
      '[',
      '  {"conversations": [',
      '    {"from": "human", "value": "Weather in Oslo?"},',
      '    {"from": "function_call", "value": "{\\"name\\": \\"get_weather\\", \\"arguments\\": {\\"city\\": \\"Oslo\\"}}"},',
      '    {"from": "observation", "value": "{\\"temp\\": 3}"},',
      '    {"from": "gpt", "value": "It is 3 degrees."}',
      '  ]},',
      '  {"messages": [{"role": "assistant", "content": "<tool_call>\\n{\\"name\\": \\"get_weather\\", \\"arguments\\": {\\"city\\": \\"Rome\\", \\"days\\": \\"x\\"}}\\n</tool_call>"}]}',
      ']',
    ].join('\n');
    expect(read(text)).toEqual([
      ['get_weather', { city: 'Oslo' }, 4],
      ['get_weather', { city: 'Rome', days: 'x' }, 8],
    ]);
    expect(findings(text)).toEqual([['example/invalid-arguments', 8, '/days']]);
  });

  test('the OpenAI arguments string of a call is its arguments, not a second call', () => {
    const text = '{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Oslo\\"}"}}]}\n';
    expect(read(text)).toEqual([['get_weather', { city: 'Oslo' }, 1]]);
  });

  test('reading escaped strings is linear: many long strings with escapes and call words take no longer than a straight pass', () => {
    const row = `{"value": "${'\\"name\\": \\"x\\", '.repeat(200)}"}\n`;
    const text = row.repeat(hostileLength(300));
    const t0 = process.hrtime.bigint();
    extractToolCalls(text, { tools });
    expect(Number(process.hrtime.bigint() - t0) / 1e6).toBeLessThan(3000);
  });
});

describe('calls in the Python string literals of quoted source', () => {
  test('a triple-quoted literal with escapes, and literals joined across lines, are decoded and read at their lines', () => {
    const text = [
      'def test_qwen():',
      '    assert fmt(call) == ["""<tool_call>\\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\\n</tool_call>"""]',
      '',
      'def test_llama3_multi():',
      '    assert fmt(calls) == [',
      '        """[{"name": "get_weather", "parameters": {"city": "Rome"}}, """',
      '        """{"name": "get_weather", "parameters": {"city": "Lima", "days": "two"}}]"""',
      '        """<|eot_id|>"""',
      '    ]',
      '',
      'def test_mistral():',
      '    assert fmt(call) == ["[TOOL_CALLS] " """[{"name": "get_weather", "arguments": {"city": "Quito"}}]""", "</s>"]',
    ].join('\n');
    const { examples, diagnostics } = run(text);
    expect(examples.map((e) => [e.name, e.arguments, e.line])).toEqual([
      ['get_weather', { city: 'Oslo' }, 2],
      ['get_weather', { city: 'Rome' }, 6],
      ['get_weather', { city: 'Lima', days: 'two' }, 6],
      ['get_weather', { city: 'Quito' }, 12],
    ]);
    expect(diagnostics).toEqual([]);
    expect(findings(text)).toEqual([['example/invalid-arguments', 6, '/days']]);
  });

  test('an f-string, or a lone literal without escapes, is not decoded; prose in double quotes is no literal run', () => {
    const text = [
      'p = f"""<tool_call>\\n{{"name": "get_weather", "arguments": {args}}}\\n</tool_call>"""',
      '',
      'Say "hello" and "bye" to the user.',
    ].join('\n');
    expect(read(text)).toEqual([]);
  });

  test('quotes that never close, a long line of them, are read in linear time', () => {
    for (const text of ['"""' + '\\"'.repeat(hostileLength(300_000)), `x = """a"""\n${'"\\"'.repeat(hostileLength(300_000))}`, '"""\\"'.repeat(hostileLength(200_000)) + '"""{"name": "get_weather"}']) {
      const t0 = process.hrtime.bigint();
      extractToolCalls(text, { tools });
      expect(Number(process.hrtime.bigint() - t0) / 1e6).toBeLessThan(3000);
    }
  });
});

describe('SDK objects inside data', () => {
  const message = ['{', '    "messages": [', '        AIMessage(', '            "", tool_calls=[{"name": "get_weather", "args": {"city": "Oslo", "days": "two"}, "id": "1"}]', '        )', '    ]', '}'];

  test('a dict holding an SDK message, in code or in prose, leaves the message to be read where it stands', () => {
    for (const [text, line] of [[['```python', 'node.invoke(', ...message, ')', '```'].join('\n'), 6], [['node.invoke(', ...message, ')'].join('\n'), 5]] as const) {
      const { examples, diagnostics } = run(text);
      expect([examples.map((e) => [e.name, e.arguments, e.line, e.notation]), diagnostics]).toEqual([[['get_weather', { city: 'Oslo', days: 'two' }, line, 'sdk-repr']], []]);
      expect(findings(text)).toEqual([['example/invalid-arguments', line, '/days']]);
    }
  });

  test('a dict holding other code is still data, read whole', () => {
    expect(read('```python\nnode.invoke({"messages": [make_message("get_weather")], "name": "get_weather"})\n```\n')).toEqual([]);
  });
});
