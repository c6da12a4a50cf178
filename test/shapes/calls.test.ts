import { describe, expect, test } from '@jest/globals';
import { extractToolCalls } from '../../src/extract/index.js';
import { callsFromValue } from '../../src/shapes/calls.js';
import { parseRecordedLine } from '../../src/sources/jsonl.js';
import { plainArguments, plainCallName } from '../../src/sources/shapes.js';
import type { RecordedItem } from '../../src/sources/types.js';
import { normalizeTools } from '../../src/tools/normalize.js';

// The extractor (a ```json fence in a prompt) and the recorded-calls reader (a JSONL line)
// read call shapes through one module, src/shapes/calls.ts. Every row goes through both;
// a shape one of them reads and the other does not fails here.

interface Call {
  name: string;
  arguments: unknown;
}

/** What a value holds: these calls, nothing (data, a call-less message), or a broken call. */
type Expected = Call[] | 'none' | 'error';

const where = { source: 'calls.jsonl', line: 1 };

function viaExtractor(value: unknown, tools: Parameters<typeof extractToolCalls>[1] = {}): Expected {
  const prompt = `Call the tools like this:\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`\n`;
  const { examples, diagnostics } = extractToolCalls(prompt, tools);
  if (diagnostics.some((d) => d.severity === 'error')) return 'error';
  return examples.length === 0 ? 'none' : examples.map((e) => ({ name: e.name, arguments: e.arguments }));
}

function viaRecorded(value: unknown): Expected {
  const items: RecordedItem[] = parseRecordedLine(JSON.stringify(value), where);
  const corrupt = items.filter((i) => 'corrupt' in i);
  if (corrupt.length > 0) {
    expect(items).toHaveLength(1);
    // A line is a call or unreadable: "not a call" is an unreadable line that says so.
    return /^No tool call found/.test(corrupt[0]!.message) ? 'none' : 'error';
  }
  return items.length === 0 ? 'none' : items.map((i) => ({ name: (i as Call).name, arguments: (i as Call).arguments }));
}

const a1 = { a: 1 };
const use = (name: string, input: unknown = a1, id = 'toolu_1') => ({ type: 'tool_use', id, name, input });
const openai = (name: string, args = '{"a":1}', id = 'call_1') => ({ id, type: 'function', function: { name, arguments: args } });
const f = [{ name: 'f', arguments: a1 }];
const fg = [
  { name: 'f', arguments: a1 },
  { name: 'g', arguments: { b: 2 } },
];

const calls: Array<[string, unknown, Expected]> = [
  // One call, in each provider's shape.
  ['Anthropic tool_use', use('f'), f],
  ['Anthropic tool_use, input as a JSON string', use('f', '{"a":1}'), f],
  ['OpenAI tool_calls item, JSON-string arguments', openai('f'), f],
  ['OpenAI (Mistral) function with object arguments', { type: 'function', function: { name: 'f', arguments: a1 } }, f],
  ['OpenAI legacy function_call alone', { function_call: { name: 'f', arguments: '{"a":1}' } }, f],
  ['OpenAI Responses function_call item', { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{"a":1}' }, f],
  ['Gemini functionCall', { functionCall: { name: 'f', args: a1 } }, f],
  ['Gemini functionCall with arguments', { functionCall: { name: 'f', arguments: a1 } }, f],
  ['{name, arguments}', { name: 'f', arguments: a1 }, f],
  ['{name, arguments: "<json>"}', { name: 'f', arguments: '{"a":1}' }, f],
  ['{name, arguments: " <json> "}', { name: 'f', arguments: ' {"a":1} ' }, f],
  ['{name, args}', { name: 'f', args: a1 }, f],
  ['{name, input}', { name: 'f', input: a1 }, f],
  ['{name, parameters} with values', { name: 'f', parameters: a1 }, f],
  ['{name, tool_input}', { name: 'f', tool_input: a1 }, f],
  ['{tool, arguments}', { tool: 'f', arguments: a1 }, f],
  ['{tool_name, arguments}', { tool_name: 'f', arguments: a1 }, f],
  ['{function: "name", arguments}', { function: 'f', arguments: a1 }, f],
  ['smolagents {action, action_input}', { action: 'f', action_input: a1 }, f],
  ['smolagents action_input as a string', { action: 'f', action_input: 'party ideas' }, [{ name: 'f', arguments: 'party ideas' }]],
  ['LangChain {name, args, id, type: tool_call}', { name: 'f', args: a1, id: 'c1', type: 'tool_call' }, f],
  ['{tool_call: {...}} wrapper', { tool_call: { name: 'f', arguments: a1 } }, f],
  ['{id, function_call} with an id outside', { id: 'c1', function_call: { name: 'f', arguments: '{"a":1}' } }, f],
  ['arguments that are not an object', { name: 'f', arguments: [1, 2] }, [{ name: 'f', arguments: [1, 2] }]],
  ['null arguments', { name: 'f', arguments: null }, [{ name: 'f', arguments: null }]],
  ['a __proto__ argument stays an own key', { name: 'f', arguments: JSON.parse('{"__proto__": {"x": 1}}') }, [{ name: 'f', arguments: JSON.parse('{"__proto__": {"x": 1}}') }]],

  // Containers.
  ['parallel calls in an array', [{ name: 'f', arguments: a1 }, { name: 'g', arguments: { b: 2 } }], fg],
  ['an array of arrays of calls', [[{ name: 'f', arguments: a1 }], [{ name: 'g', arguments: { b: 2 } }]], fg],
  ['a tool_calls list', { tool_calls: [openai('f'), openai('g', '{"b":2}', 'call_2')] }, fg],
  ['a tool_calls list of {name, arguments}', { tool_calls: [{ name: 'f', arguments: a1 }] }, f],
  ['an OpenAI message with tool_calls', { role: 'assistant', content: null, tool_calls: [openai('f'), openai('g', '{"b":2}', 'call_2')] }, fg],
  ['an OpenAI message with a legacy function_call', { role: 'assistant', content: null, function_call: { name: 'f', arguments: '{"a":1}' } }, f],
  ['an Anthropic message: text and tool_use blocks', { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }, use('f')] }, f],
  ['a message whose content is one block', { role: 'assistant', content: use('f') }, f],
  ['a message with tool_calls and tool_use blocks', { role: 'assistant', tool_calls: [openai('f')], content: [use('g', { b: 2 }, 'toolu_2')] }, fg],
  ['message content: OpenAI and LangChain items', { role: 'assistant', content: [openai('f'), { type: 'tool_call', name: 'g', args: { b: 2 } }] }, fg],
  ['message content: server tools and thinking are not calls', { role: 'assistant', content: [{ type: 'thinking', thinking: '...' }, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } }, use('f')] }, f],
  ['a content-block array', [{ type: 'text', text: 'Looking.' }, use('f')], f],
  ['a content-block array with a Responses item', [{ type: 'reasoning', summary: [] }, { type: 'function_call', call_id: 'c', name: 'f', arguments: '{"a":1}' }], f],
  ['a {content} without a role', { content: [{ type: 'text', text: 'x' }, use('f')] }, f],
  ['a Claude Code transcript line {type, message}', { type: 'assistant', message: { role: 'assistant', content: [use('f')] } }, f],
  ['a {message} wrapper around tool_calls', { message: { role: 'assistant', tool_calls: [openai('f')] } }, f],
  ['a transcript', [{ role: 'user', content: 'hi' }, { role: 'assistant', tool_calls: [openai('f')] }, { role: 'tool', tool_call_id: 'call_1', content: '{}' }, { role: 'assistant', content: [use('g', { b: 2 })] }], fg],
  ['a request body', { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [use('f')] }] }, f],
  ['an MCP sampling/createMessage request', { jsonrpc: '2.0', id: 1, method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }, { role: 'assistant', content: use('f') }], maxTokens: 10 } }, f],
  ['an MCP sampling/createMessage result', { jsonrpc: '2.0', id: 1, result: { role: 'assistant', model: 'm', content: use('f'), stopReason: 'toolUse' } }, f],

  // What applications store: AI SDK messages, Gemini and ADK contents, LangChain and LangGraph, LlamaIndex, Pydantic AI, whole responses.
  ['AI SDK 5 UI message parts `tool-<name>`', { id: 'm1', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: 'ok' }, { type: 'tool-f', toolCallId: 'c1', state: 'output-available', input: a1, output: {} }] }, f],
  ['AI SDK 5 dynamic-tool part', { role: 'assistant', parts: [{ type: 'dynamic-tool', toolName: 'f', toolCallId: 'c1', state: 'input-available', input: a1 }] }, f],
  ['AI SDK 4 tool-invocation parts and toolInvocations (read once)', { role: 'assistant', content: '', parts: [{ type: 'tool-invocation', toolInvocation: { state: 'result', toolCallId: 'c1', toolName: 'f', args: a1, result: {} } }], toolInvocations: [{ state: 'result', toolCallId: 'c1', toolName: 'f', args: a1 }] }, f],
  ['AI SDK 4 toolInvocations alone', { role: 'assistant', content: '', toolInvocations: [{ toolCallId: 'c1', toolName: 'f', args: a1 }] }, f],
  ['AI SDK model message tool-call content', { role: 'assistant', content: [{ type: 'text', text: 'x' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'f', input: a1 }, { type: 'tool-call', toolCallId: 'c2', toolName: 'g', args: { b: 2 } }] }, fg],
  ['a bare UI parts array', [{ type: 'text', text: 'x' }, { type: 'tool-f', toolCallId: 'c1', input: a1 }, { type: 'tool-result', toolCallId: 'c1', output: {} }], f],
  ['Gemini content {role: model, parts: [{functionCall}]}', { role: 'model', parts: [{ text: 'x' }, { functionCall: { name: 'f', args: a1 } }] }, f],
  ['Google ADK {function_call: {name, args}}', { role: 'model', parts: [{ function_call: { id: 'adk-1', name: 'f', args: a1 } }] }, f],
  ['a Gemini response {candidates: [{content}]}', { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'f', args: a1 } }] } }] }, f],
  ['an OpenAI chat.completion {choices: [{message}]}', { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [openai('f')] } }] }, f],
  ['LangChain message_store {type: ai, data}', { type: 'ai', data: { content: '', tool_calls: [{ name: 'f', args: a1, id: 'c1', type: 'tool_call' }], additional_kwargs: { tool_calls: [openai('f')] } } }, f],
  ['LangGraph JSON {lc, type: constructor, kwargs}', [{ lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', 'AIMessage'], kwargs: { content: '', tool_calls: [{ name: 'f', args: a1, id: 'c1', type: 'tool_call' }] } }], f],
  ['LlamaIndex additional_kwargs.tool_calls', { role: 'assistant', content: null, additional_kwargs: { tool_calls: [openai('f')] } }, f],
  ['Pydantic AI {kind: response, parts: [{part_kind: tool-call}]}', [{ kind: 'response', parts: [{ part_kind: 'tool-call', tool_name: 'f', args: a1, tool_call_id: 'c1' }] }], f],
];

const noCalls: Array<[string, unknown]> = [
  ['OpenAI tool definition', { type: 'function', function: { name: 'f', description: 'Does f', parameters: { type: 'object', properties: { a: { type: 'integer' } } } } }],
  ['Anthropic tool definition', { name: 'f', description: 'Does f', input_schema: { type: 'object', properties: {} } }],
  ['a definition with a parameters schema', { name: 'f', parameters: { type: 'object', properties: { a: { type: 'integer' } } } }],
  ['a definition with a description and parameters', { name: 'f', description: 'Does f', parameters: { a: { type: 'integer' } } }],
  ['a definition in a home-made dialect', { name: 'f', parameters: { genre: { param_type: 'str', description: 'the genre' } } }],
  ['a list of definitions', [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }]],
  ['data', { hello: 'world' }],
  ['a scalar', 42],
  ['a list of numbers', [1, 2, 3]],
  ['a message without calls', { role: 'user', name: 'bob', content: 'hello' }],
  ['an assistant message with text only', { role: 'assistant', content: [{ type: 'text', text: 'no call' }] }],
  ['a text-block array', [{ type: 'text', text: 'no call' }]],
  ['an empty array', []],
  ['an empty tool_calls list', { tool_calls: [] }],
  ['a LangChain human message', { type: 'human', data: { content: 'hi' } }],
  ['AI SDK UI parts without a call', { role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
  ['an AI SDK tool result', [{ type: 'tool-result', toolCallId: 'c1', toolName: 'f', output: { value: 1 } }]],
];

const broken: Array<[string, unknown]> = [
  ['arguments string that does not parse', { type: 'function', function: { name: 'f', arguments: '{"a": ' } }],
  ['{name, arguments} string that does not parse', { name: 'f', arguments: '{"a": ' }],
  ['arguments string with text after the JSON', { name: 'f', arguments: '{"a": 1} and more' }],
  ['tool_use input string that does not parse', use('f', '{"a": ')],
  ['a tool_use without a name', { type: 'tool_use', input: a1 }],
  ['a functionCall without a name', { functionCall: { args: a1 } }],
  ['a function without a name', { function: { arguments: '{}' } }],
  ['arguments without a name', { arguments: a1 }],
  ['args without a name', { args: a1 }],
  ['a bad item in tool_calls', { tool_calls: [{ oops: 1 }] }],
  ['a bad item beside a call in tool_calls', { role: 'assistant', tool_calls: [openai('f'), { oops: 1 }] }],
  ['a non-call beside calls in an array', [{ name: 'f', arguments: a1 }, { oops: 1 }]],
  ['a broken call in message content', { role: 'assistant', content: [{ type: 'tool_use', input: {} }] }],
  ['a broken call in a request', { messages: [{ role: 'assistant', tool_calls: [openai('f', '{oops')] }] }],
];

describe('one reading of call shapes for prompts and recorded calls', () => {
  test.each(calls)('%s: both read the same calls', (_shape, value, expected) => {
    expect(viaExtractor(value)).toEqual(expected);
    expect(viaRecorded(value)).toEqual(expected);
  });

  test.each(noCalls)('%s: neither reads a call', (_shape, value) => {
    expect(viaExtractor(value)).toBe('none');
    expect(viaRecorded(value)).toBe('none');
  });

  test.each(broken)('%s: both report it', (_shape, value) => {
    expect(viaExtractor(value)).toBe('error');
    expect(viaRecorded(value)).toBe('error');
  });

  test('the recorded reader keeps ids: `id`, a Responses item `call_id`, an id outside `function_call`', () => {
    const ids = (value: unknown) => parseRecordedLine(JSON.stringify(value), where).map((i) => ('id' in i ? i.id : undefined));
    expect(ids(use('f'))).toEqual(['toolu_1']);
    expect(ids(openai('f'))).toEqual(['call_1']);
    expect(ids({ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{}' })).toEqual(['call_1']);
    expect(ids({ id: 'c1', function_call: { name: 'f', arguments: '{}' } })).toEqual(['c1']);
    expect(ids({ functionCall: { id: 'g1', name: 'f', args: {} } })).toEqual(['g1']);
    expect(ids({ name: 'f', args: {}, id: 7 })).toEqual(['7']);
  });

  test('the extractor uses its own wording in errors; the reader of logs keeps its established one where the two meant the same', () => {
    const diagnostic = (value: unknown) => extractToolCalls(`\`\`\`json\n${JSON.stringify(value)}\n\`\`\`\n`).diagnostics[0]?.message;
    const record = (value: unknown) => (parseRecordedLine(JSON.stringify(value), where)[0] as { message?: string }).message;
    expect(diagnostic({ name: 'f', arguments: '{"a": ' })).toMatch(/^The `arguments` of `f` is a string that is not JSON: /);
    expect(record({ name: 'f', arguments: '{"a": ' })).toMatch(/^The arguments of `f` are a string that is not JSON \(/);
    expect(diagnostic({ type: 'tool_use', input: {} })).toMatch(/^Unexpected `tool_use` block without a `name` string/);
    expect(record({ type: 'tool_use', input: {} })).toMatch(/^A `tool_use` block has no `name` string/);
    // Everything else reads the same.
    for (const value of [{ tool_calls: [{ oops: 1 }] }, [{ name: 'f', arguments: a1 }, { oops: 1 }], { arguments: a1 }, { functionCall: { args: {} } }]) {
      const shape = callsFromValue(value);
      expect(shape.kind).toBe('error');
      expect(record(value)).toBe((shape as { message: string }).message);
    }
  });
});

describe('a log line or a stored row holding several calls, one of them unreadable', () => {
  test('the unreadable one is reported at its own place, and the others are still read', () => {
    const value = { role: 'assistant', tool_calls: [openai('f'), openai('g', '{"b": ', 'call_2'), { id: 'call_3', type: 'function', function: { name: 'h' } }, openai('k', '{"c":3}', 'call_4')] };
    const items = parseRecordedLine(JSON.stringify(value), where);
    expect(items.map((i) => ('corrupt' in i ? ['corrupt', i.where.line, (i as { message: string }).message.slice(0, 40)] : ['call', (i as Call).name, (i as Call).arguments]))).toEqual([
      ['call', 'f', a1],
      // A log names a line; the message names the call's tool (a stored row names `row#i`, see test/hostile/sqlite-files.test.ts).
      ['corrupt', 1, 'The arguments of `g` are a string that i'],
      ['corrupt', 1, 'The call to `h` has no `arguments`, `arg'],
      ['call', 'k', { c: 3 }],
    ]);
    // With nothing readable, the value as a whole is unreadable, as before.
    expect(callsFromValue({ tool_calls: [openai('g', '{"b": ')] }, 'recorded')).toMatchObject({ kind: 'error', name: 'g' });
  });
});

describe('where a prompt and a log differ on purpose', () => {
  const tools = normalizeTools([{ name: 'describe_image', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }]);

  test('a bare string under `arguments`: a prompt gives it to the one parameter; in a log it must be JSON text, as the handler parses it', () => {
    const value = { name: 'describe_image', arguments: 'image.png' };
    expect(viaExtractor(value, { tools })).toEqual([{ name: 'describe_image', arguments: { path: 'image.png' } }]);
    expect(viaExtractor(value)).toEqual([{ name: 'describe_image', arguments: 'image.png' }]);
    expect(viaRecorded(value)).toBe('error');
    expect(viaRecorded({ name: 'f', arguments: '42' })).toEqual([{ name: 'f', arguments: 42 }]);
    expect(viaExtractor({ name: 'f', arguments: '42' })).toEqual([{ name: 'f', arguments: '42' }]);
  });

  test('a call without arguments: `{}` in a prompt, unreadable in a log (it does not say what the handler got)', () => {
    for (const value of [{ type: 'tool_use', name: 'f' }, { function: { name: 'f' } }, { functionCall: { name: 'f' } }, { tool_calls: [{ name: 'f' }] }]) {
      expect(viaExtractor(value)).toEqual([{ name: 'f', arguments: {} }]);
      expect(viaRecorded(value)).toBe('error');
    }
    // `{"name": "f"}` alone is a call only where the block promises one.
    expect(viaExtractor({ name: 'f' })).toBe('none');
    expect(extractToolCalls('```tool_call\n{"name": "f"}\n```\n').examples.map((e) => [e.name, e.arguments])).toEqual([['f', {}]]);
    expect(viaRecorded({ name: 'f' })).toBe('error');
    expect(parseRecordedLine('{"name":"f"}', where)[0]).toMatchObject({ message: 'The call to `f` has no `arguments`, `args` or `input`' });
  });
});

describe('the recorded fast path agrees with the general reader', () => {
  const values = [...calls.map(([, v]) => v), ...noCalls.map(([, v]) => v), ...broken.map(([, v]) => v), { name: 'f', arguments: {}, messages: [{ role: 'assistant', content: [use('g')] }] }, { name: 'f', arguments: {}, functionCall: { name: 'g', args: {} } }];
  test.each(values.map((v) => [JSON.stringify(v), v]))('%s', (_text, value) => {
    const name = plainCallName(value);
    if (name === undefined) return;
    const items = parseRecordedLine(JSON.stringify(value), where);
    expect(items).toHaveLength(1);
    expect([(items[0] as Call).name, (items[0] as Call).arguments]).toEqual([name, plainArguments(value as object)]);
  });
});

test('a value nested deeper than the stack is an error, not a crash', () => {
  let value: unknown = { name: 'f', arguments: {} };
  for (let i = 0; i < 200_000; i++) value = { message: value };
  expect(callsFromValue(value, 'recorded').kind).toBe('error');
});

describe('`args` or `arguments` without a name', () => {
  test('in a prompt: a broken call when nothing else stands beside it, data when other keys do', () => {
    // A job queue's message (Celery) in prose and in a json fence: data, not a call that lost its name.
    const celery = '{"task": "tasks.add", "id": "1", "args": [4, 4], "kwargs": {}}';
    expect(extractToolCalls(`A message: ${celery}\n\n\`\`\`json\n${celery}\n\`\`\`\n`)).toEqual({ examples: [], diagnostics: [] });
    for (const broken of ['{"arguments": {"city": "Oslo"}}', '{"id": "c1", "type": "function", "args": {"x": 1}}']) {
      const { diagnostics } = extractToolCalls(`Call: ${broken}\n`);
      expect(diagnostics.map((d) => [d.ruleId, d.message])).toEqual([['example/unparseable', expect.stringContaining('without a tool `name` string beside it')]]);
    }
  });

  test('in a log: a line with `args` and no name is a broken call whatever stands beside it', () => {
    expect(callsFromValue({ task: 'tasks.add', args: [4, 4], kwargs: {} }, 'recorded')).toMatchObject({ kind: 'error', message: expect.stringContaining('without a tool `name`') });
  });
});

test("LangChain's `Final Answer` action is the agent's reply, not a call; other actions are calls", () => {
  const text = '```json\n{\n  "action": "Final Answer",\n  "action_input": "Final response to human"\n}\n```\n\n{"action": "search", "action_input": {"q": "x"}}\n';
  const { examples, diagnostics } = extractToolCalls(text);
  expect(examples.map((e) => [e.name, e.arguments])).toEqual([['search', { q: 'x' }]]);
  expect(diagnostics).toEqual([]);
});
