import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkConversation } from '../../src/checks/conversation.js';
import { checkRenderedExamples } from '../../src/checks/rendered.js';
import type { RenderedCase } from '../../src/render/render.js';
import { checkExamples, exampleRules, suggestTool } from '../../src/checks/examples.js';
import { defineNotation, extractToolCalls } from '../../src/extract/index.js';
import type { ToolSpec } from '../../src/tools/types.js';
import { repoRoot } from './helpers.js';

const weather: ToolSpec = {
  name: 'get_weather',
  origin: { shape: 'anthropic' },
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] }, days: { type: 'integer', maximum: 14 } },
    required: ['city'],
  },
};
const tools = [weather];

function run(text: string, options: { strict?: boolean; tools?: ToolSpec[] } = {}) {
  const { examples, diagnostics } = extractToolCalls(text, { tools: options.tools ?? tools });
  const strict = options.strict === undefined ? {} : { strict: options.strict };
  return [...diagnostics, ...checkExamples(examples, options.tools ?? tools, strict)];
}

const call = (args: unknown, name = 'get_weather') => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>\n`;

const calls = (...refs: Array<[string, string]>) => ({ role: 'model' as const, content: refs.map(([name, ref]) => ({ toolRequest: { name, input: {}, ref } })) });
const results = (...refs: Array<[string, string]>) => ({ role: 'tool' as const, content: refs.map(([name, ref]) => ({ toolResponse: { name, output: {}, ref } })) });

// One drift per rule; the registry test below keeps this table and the rule table in step.
const drift: Record<keyof typeof exampleRules, () => ReturnType<typeof run>> = {
  'orphan-result': () => checkConversation([results(['get_weather', 'c1'])]),
  'unknown-call-id': () => checkConversation([calls(['get_weather', 'c1']), results(['get_weather', 'c9'])]),
  'result-name-mismatch': () => checkConversation([calls(['get_weather', 'c1']), results(['weather', 'c1'])]),
  'missing-result': () => checkConversation([calls(['get_weather', 'c1']), { role: 'user', content: [{ text: 'Hi' }] }]),
  'duplicate-call-id': () => checkConversation([calls(['get_weather', 'c1'], ['get_time', 'c1'])]),
  'invalid-arguments': () => run(call({ city: 'Oslo', unit: 'kelvin' })),
  'unknown-tool': () => run(call({ city: 'Oslo' }, 'get_wether')),
  unparseable: () => run('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}\n</tool_call>\n'),
  'notation-failed': () => extractToolCalls('CALL get_weather\n', { notations: [defineNotation({ name: 'house-call', find: (text: string) => [{ start: 0, end: text.length }], parse: () => 'get_weather' as never })] }).diagnostics,
  'unread-call': () => run('To see the forecast, write <get_weather>Oslo</get_weather>.\n'),
  coverage: () => checkRenderedExamples({ prompt: 'p', case: 'c', text: call({ city: 'Oslo' }), tools, sourceMap: { locate: () => undefined } } as unknown as RenderedCase),
  'not-json': () => run("<tool_call>\n{'name': 'get_weather', 'arguments': {'city': 'Oslo'}}\n</tool_call>\n"),
  placeholder: () => run('<tool_call>\n{"name": "$FUNCTION_NAME", "arguments": {}}\n</tool_call>\n'),
  unchecked: () => run(call({ city: 'Oslo' }), { tools: [{ ...weather, inputSchema: { type: 'dict', properties: {} } }] }),
  'unsupported-pattern': () => run(call({ city: 'Oslo' }), { tools: [{ ...weather, inputSchema: { type: 'object', properties: { city: { type: 'string', pattern: '^(?!X)' } } } }] }),
};

describe('example rules', () => {
  test('the registry: every rule has a docs section, a drift test and its docs anchor', () => {
    const docs = readFileSync(join(repoRoot, 'docs/rules/example.md'), 'utf8');
    expect(Object.keys(drift).sort()).toEqual(Object.keys(exampleRules).sort());
    for (const [key, rule] of Object.entries(exampleRules)) {
      expect(rule.id).toBe(`example/${key}`);
      expect(rule.docs).toBe(`docs/rules/example.md#${key}`);
      expect(docs).toMatch(new RegExp(`^## ${key}$`, 'm'));
    }
  });

  for (const key of Object.keys(drift) as Array<keyof typeof drift>) {
    test(`${key}: the drift is found`, () => {
      const found = drift[key]();
      expect(found.map((d) => d.ruleId)).toContain(exampleRules[key].id);
      for (const d of found) expect(d.url).toBe(exampleRules[d.ruleId.split('/')[1] as keyof typeof exampleRules].url);
    });
  }

  test('not-json: a Python literal where JSON is promised is read, checked, and pointed at where JSON stops', () => {
    // A trailing comma in a `json` fence, single quotes in a `<tool_call>` tag: the calls are still examples.
    const text = '```json\n{"name": "get_weather", "arguments": {"city": "Oslo", "days": 30,}}\n```\n\n<tool_call>\n{\'name\': \'get_weather\', \'arguments\': {\'city\': None}}\n</tool_call>\n';
    const found = run(text);
    const notJson = found.filter((d) => d.ruleId === 'example/not-json');
    expect(notJson.map((d) => [d.severity, d.tool, d.line, d.column])).toEqual([
      ['warning', 'get_weather', 1, 1],
      ['warning', 'get_weather', 5, 1],
    ]);
    expect(notJson[0]!.message).toBe(
      'Unexpected `}` in the `json` fence at line 2, column 66, expected a property name in double quotes; it reads as a Python literal and is checked as one, but the model copies an example as it is written',
    );
    expect(notJson[1]!.message).toContain('Unexpected `\'` in `<tool_call>` block at line 6, column 2');
    // Both are checked as examples all the same.
    expect(found.filter((d) => d.ruleId === 'example/invalid-arguments').map((d) => d.instancePath)).toEqual(['/days', '/city']);
    // A `python` fence promises Python: the same literal there is no finding.
    expect(run("```python\n{'name': 'get_weather', 'arguments': {'city': 'Oslo'}}\n```\n")).toEqual([]);
  });

  test('a clean prompt produces nothing', () => {
    const text = `${call({ city: 'Oslo', unit: 'c', days: 3 })}\n\`\`\`json\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n\`\`\`\n\n[get_weather(city="Lima")]\n`;
    expect(extractToolCalls(text).examples).toHaveLength(3);
    expect(run(text)).toEqual([]);
  });

  test('invalid-arguments carries both coordinates, expected and actual, and the block offset', () => {
    const text = `Intro.\n\n${call({ city: 'Oslo', days: 30 })}`;
    const [d, ...rest] = run(text);
    expect(rest).toEqual([]);
    expect(d).toMatchObject({
      ruleId: 'example/invalid-arguments',
      severity: 'error',
      tool: 'get_weather',
      instancePath: '/days',
      schemaPath: '#/properties/days/maximum',
      expected: 14,
      actual: 30,
      offset: 8,
      line: 3,
      column: 1,
    });
    expect(d!.message).toBe('In the `get_weather` example, `/days` must be <= 14, got 30 (`maximum`)');
  });

  test('unknown-tool suggests by case, spelling and edit distance', () => {
    const named = (name: string) => ({ name, origin: { shape: 'plain' as const }, inputSchema: {} });
    const set = [named('get_weather'), named('send_email'), named('multiply')];
    expect(suggestTool('Multiply', set)).toEqual({ name: 'multiply', close: true });
    expect(suggestTool('getWeather', set)).toEqual({ name: 'get_weather', close: true });
    expect(suggestTool('functions.send_email', set)).toEqual({ name: 'send_email', close: true });
    expect(suggestTool('send_emial', set)).toEqual({ name: 'send_email', close: false });
    expect(suggestTool('launch_rocket', set)).toBeUndefined();
    const [d] = run(call({ city: 'Oslo' }, 'get_wether'));
    expect(d).toMatchObject({ ruleId: 'example/unknown-tool', tool: 'get_wether', expected: 'get_weather', fix: 'Rename the call to `get_weather`' });
  });

  test('strict mode reports an optional property left out', () => {
    const text = call({ city: 'Oslo' });
    expect(run(text)).toEqual([]);
    const strict = run(text, { strict: true });
    expect(strict.map((d) => [d.ruleId, d.instancePath])).toEqual([
      ['example/invalid-arguments', '/unit'],
      ['example/invalid-arguments', '/days'],
    ]);
    expect(strict[0]!.message).toContain('strict mode');
  });

  test('unparseable names the block and what was expected', () => {
    const [d] = run('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}\n</tool_call>\n');
    expect(d).toMatchObject({ ruleId: 'example/unparseable', offset: 0, line: 1, column: 1 });
    expect(d!.message).toBe('Unexpected end of JSON in `<tool_call>` block, expected `,` or `}`');
  });

  test('placeholders: a format description is a warning, an unrendered variable an error', () => {
    expect(run('<tool_call>{"name": "<tool_name>", "arguments": {}}</tool_call>').map((d) => [d.ruleId, d.severity])).toEqual([['example/placeholder', 'warning']]);
    expect(run('<tool_call>{"name": "get_weather", "arguments": {"city": "{{city}}"}}</tool_call>').map((d) => [d.ruleId, d.severity])).toEqual([['example/placeholder', 'error']]);
  });

  test('Anthropic XML values are typed by the schema, and stay strings without one', () => {
    const xml = '<function_calls>\n<invoke name="get_weather">\n<parameter name="city">Oslo</parameter>\n<parameter name="days">3</parameter>\n</invoke>\n</function_calls>\n';
    expect(extractToolCalls(xml, { tools }).examples[0]!.arguments).toEqual({ city: 'Oslo', days: 3 });
    expect(extractToolCalls(xml).examples[0]!.arguments).toEqual({ city: 'Oslo', days: '3' });
    expect(run(xml)).toEqual([]);
    const wrong = xml.replace('>3<', '>three<');
    expect(run(wrong).map((d) => [d.ruleId, d.instancePath, d.actual])).toEqual([['example/invalid-arguments', '/days', 'three']]);
  });

  test('Anthropic XML: an invoke whose close comes after the next invoke opens is unclosed; two closed ones are two calls', () => {
    const two = '<function_calls>\n<invoke name="get_weather">\n<parameter name="city">Oslo</parameter>\n</invoke>\n<invoke name="get_weather">\n<parameter name="city">Bergen</parameter>\n</invoke>\n</function_calls>\n';
    expect(extractToolCalls(two, { tools }).examples.map((e) => e.arguments)).toEqual([{ city: 'Oslo' }, { city: 'Bergen' }]);
    const unclosed = two.replace('</invoke>\n<invoke', '\n<invoke');
    const { examples, diagnostics } = extractToolCalls(unclosed, { tools });
    expect(examples).toEqual([]);
    expect(diagnostics.map((d) => [d.ruleId, d.message])).toEqual([['example/unparseable', expect.stringContaining('Unclosed `<invoke name="get_weather">`')]]);
  });

  test('checks never throw on odd arguments', () => {
    const odd = [null, 'text', 42, [1], { city: { deep: [null] } }];
    for (const args of odd) {
      expect(() => checkExamples([{ name: 'get_weather', arguments: args, notation: 'hermes', range: { start: 0, end: 1 }, line: 1, column: 1 }], tools)).not.toThrow();
    }
  });
});

describe('`tool_code` fences (Gemma)', () => {
  test('one call a line, print() and default_api. allowed, each call at its own line; among other code a known tool call is read', () => {
    const text = [
      '```tool_code',
      'get_weather(city="Oslo")',
      'print(default_api.get_weather(city="Rome", days=3))',
      '```',
      '',
      '```tool_code',
      '[get_weather(city="Lima"), get_weather(city="Quito")]',
      '```',
      '',
      '```tool_code',
      'import math',
      'get_weather(city="Oslo")',
      '```',
      '',
      '```tool_code',
      'print(math.sqrt(2))',
      '```',
      '',
    ].join('\n');
    const { examples, diagnostics } = extractToolCalls(text, { tools });
    expect(examples.map((e) => [e.name, e.arguments, e.line, e.notation])).toEqual([
      ['get_weather', { city: 'Oslo' }, 2, 'pythonic'],
      ['get_weather', { city: 'Rome', days: 3 }, 3, 'pythonic'],
      ['get_weather', { city: 'Lima' }, 7, 'pythonic'],
      ['get_weather', { city: 'Quito' }, 7, 'pythonic'],
      // Among other code, a call of a known tool is still a call (and `math.sqrt` is not one).
      ['get_weather', { city: 'Oslo' }, 12, 'code-call'],
    ]);
    expect(diagnostics.map((d) => [d.ruleId, d.line])).toEqual([]);
    // Checked like any example: a stale one fails.
    expect(run('```tool_code\nget_weather(city="Oslo", days=30)\n```\n').map((d) => [d.ruleId, d.instancePath])).toEqual([['example/invalid-arguments', '/days']]);
  });
});
