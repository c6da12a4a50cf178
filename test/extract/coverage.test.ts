import { describe, expect, test } from '@jest/globals';
import { callMentions, unreadMentions } from '../../src/extract/coverage.js';

// The coverage scan's own judgement: which places of a known tool's name are call-like. What it
// does with them (findings, counts) is tested through extraction and `check`.

const names = ['lookup_order', 'cancel_order'];
const kinds = (text: string): Array<[string, string]> => callMentions(text, names).map((m) => [m.name, m.kind]);

describe('call-like places of a known tool', () => {
  test.each<[string, string, string]>([
    ['a code call with keyword arguments', 'result = lookup_order(order_id="A-1042")', 'code call'],
    ['a code call with an object', 'await tools.lookup_order({ orderId: "A-1042" })', 'code call'],
    ['a printed call', 'print(lookup_order("A-1042"))', 'code call'],
    ['a default_api call', 'default_api.lookup_order(order_id="A-1")', 'code call'],
    ['an element per tool', '<lookup_order>\n<order_id>A-1042</order_id>\n</lookup_order>', 'element'],
    ['an element with attributes', '<lookup_order order_id="A-1042" />', 'element'],
    ['an element with its value on its line', '<lookup_order>A-1042</lookup_order>', 'element'],
    ['an invoke attribute', '<invoke name="lookup_order">', 'attribute'],
    ['a Llama function tag', '<function=lookup_order>{"order_id": "A-1"}</function>', 'attribute'],
    ['a JSON name with arguments', '{"name": "lookup_order", "arguments": {"order_id": "A-1"}}', 'key'],
    ['arguments before the name', '{"arguments": "{\\"order_id\\": \\"A-1\\"}", "name": "lookup_order"}', 'key'],
    ['a tool key with tool_input', "{'tool': 'lookup_order', 'tool_input': {'order_id': 'A-1'}}", 'key'],
    ['SDK keyword arguments', "ToolCallPart(tool_name='lookup_order', args={'order_id': 'A-1'})", 'key'],
    ['an AutoGen repr', `FunctionCall(id='call_1', arguments='{"order_id": "A-1"}', name='lookup_order')`, 'key'],
    ['YAML with arguments below', '- name: lookup_order\n  arguments:\n    order_id: A-1', 'key'],
    ['a ReAct action with input', 'Thought: look it up\nAction: lookup_order\nAction Input: {"order_id": "A-1"}', 'action'],
    ['a ReAct action with JSON on its line', 'Action: lookup_order {"order_id": "A-1"}', 'action'],
    ['a ReAct action taken with no input, its observation next', 'Thought: caption it\nAction: lookup_order\nObservation: a cat', 'action'],
    ['a ReAct action ending its example', 'Thought: look it up\nAction: lookup_order\n\nInput: next question', 'action'],
    ["LangChain's XML agent", '<tool>lookup_order</tool><tool_input>A-1</tool_input>', 'call token'],
    ['a numbered ReAct step', 'Thought 2: look it up\nAction 2: lookup_order[A-1]\nObservation 2: found', 'action'],
    ['a Harmony recipient', '<|start|>assistant to=functions.lookup_order<|channel|>commentary', 'recipient'],
    ['a Kimi call token', '<|tool_call_begin|>functions.lookup_order:0<|tool_call_argument_begin|>{}', 'call token'],
    ['a quoted call after code, not a sentence', "x = f('a', lookup_order(order_id='A-1'))", 'code call'],
    ['a call after a few words and a colon', 'Then run it: lookup_order(order_id="A-1")', 'code call'],
  ])('%s', (_what, text, kind) => {
    expect(kinds(text)).toEqual([['lookup_order', kind]]);
  });

  test.each<[string, string]>([
    ['prose in backticks', 'Use `lookup_order` to find an order before you answer.'],
    ['prose naming two tools', 'You can lookup_order or cancel_order, never both.'],
    ['a signature', '### lookup_order(order_id: str) -> Order'],
    ['a reference with empty parentheses', 'Call lookup_order() first.'],
    ['a Python definition', 'def lookup_order(order_id="A-1"):'],
    ['a JS definition', 'function lookup_order({ orderId }) {}'],
    ['a JSON definition', '{"name": "lookup_order", "description": "Finds an order.", "parameters": {"type": "object", "properties": {}}}'],
    ['an OpenAI definition', '{"type": "function", "function": {"name": "lookup_order", "description": "Finds.", "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}}}}'],
    ['a tool choice', '"tool_choice": {"type": "function", "function": {"name": "lookup_order"}}'],
    ['a definition tag', '<tool name="lookup_order" description="Finds an order.">'],
    ['a closing element', '</lookup_order>'],
    ['an element named in a sentence', 'If anything is unclear, use <lookup_order>.'],
    ['an element named before more words', 'Write your answer within <lookup_order> tags.'],
    ['a recipient quoted in a sentence', 'The header would specify `to=functions.lookup_order` for the call.'],
    ['a member of something else', 'client.lookup_order(order_id="A-1")'],
    ['a longer name', 'lookup_order_v2(order_id="A-1")'],
    ['an action described, not taken', 'Action: the action to take, one of [lookup_order, cancel_order]'],
    ['a heading', '## lookup_order\nDescription: Finds an order.'],
    ['a YAML definition', '- name: lookup_order\n  description: Finds an order.\n  parameters:\n    order_id: string'],
    ['code quoted in a sentence', "3. DO NOT pass the arguments as a dict as in 'answer = lookup_order({'id': \"A-1\"})', but directly as in 'answer = lookup_order(id=\"A-1\")'."],
  ])('not %s', (_what, text) => {
    expect(kinds(text)).toEqual([]);
  });
});

describe('what is covered', () => {
  const text = 'a lookup_order(order_id="A-1") b lookup_order(order_id="A-2") c lookup_order(order_id="A-3")';
  const at = (n: number): number => text.split('lookup_order', n).join('lookup_order').length;
  test.each<[string, Array<{ start: number; end: number }>, number[]]>([
    ['nothing', [], [1, 2, 3]],
    ['the second call', [{ start: at(2) - 1, end: at(2) + 40 }], [1, 3]],
    ['a long span before a short one, reaching past the third', [{ start: 0, end: text.length }, { start: 5, end: 6 }], []],
    ['a span that ends inside the name', [{ start: at(1), end: at(1) + 4 }], [1, 2, 3]],
    ['nested spans', [{ start: at(2) - 2, end: text.length }, { start: at(2) - 1, end: at(2) + 1 }], [1]],
  ])('covered by %s', (_what, covered, left) => {
    expect(unreadMentions(text, ['lookup_order'], covered).map((m) => m.start)).toEqual(left.map(at));
  });
});
