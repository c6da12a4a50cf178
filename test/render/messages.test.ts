import { afterAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkRenderedExamples } from '../../src/checks/rendered.js';
import { loadPromptModule } from '../../src/render/module.js';
import { renderCase } from '../../src/render/render.js';
import { toWire } from '../../src/render/wire.js';
import { formatSnapshot } from '../../src/snapshot/format.js';
import { normalizeTools } from '../../src/tools/normalize.js';

// Prompts written as messages: roles, history, few-shot turns from YAML, each provider's shape.
const root = mkdtempSync(join(tmpdir(), 'pc-messages-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
function project(files: Record<string, string>) {
  const dir = mkdtempSync(join(root, 'p-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return loadPromptModule('prompts', dir);
}
const tools = new Map(normalizeTools([{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string', minLength: 2 } }, required: ['city'] } }]).map((t) => [t.name, t]));

const chat = `---
model: openai/gpt-4o
tools: [get_weather]
examples: { file: examples/chat.yaml, turns: true }
---
{{role "system"}}
You answer weather questions.
{{history}}
{{role "user"}}
{{question}}
`;
const turns = `examples:
  - user: Weather in Oslo?
    calls:
      - name: get_weather
        arguments:
          city: Oslo
        result: { temp: 3 }
    reply: It is 3 degrees.
`;
const cases = (extra = '') => `prompt: chat
cases:
  plain:
    input: { question: And Rome? }
  with_history:
    input: { question: And Rome? }
    history:
      - role: user
        content: hi
      - role: model
        content: Hello!
${extra}`;

describe('a prompt written as messages', () => {
  test('a prompt without roles stays one text, with no message list', () => {
    const m = project({ 'prompts/p.prompt': 'Hello {{name}}\n', 'prompts/cases/p.yaml': 'prompt: p\ncases:\n  a:\n    input: { name: Ada }\n' });
    const r = renderCase(m, 'p', 'a', tools);
    expect(r.text).toBe('Hello Ada\n');
    expect(r.messages).toBeUndefined();
    expect(formatSnapshot(r)).toContain('rendered prompt, verbatim');
  });

  test('roles, few-shot turns after the system message, history where {{history}} stands', () => {
    const m = project({ 'prompts/chat.prompt': chat, 'prompts/examples/chat.yaml': turns, 'prompts/cases/chat.yaml': cases() });
    const r = renderCase(m, 'chat', 'with_history', tools);
    expect(r.conversation?.shape).toBe('openai');
    expect(r.messages!.map((x) => [x.role, x.metadata?.purpose ?? null])).toEqual([
      ['system', null],
      ['user', 'example'],
      ['model', 'example'],
      ['tool', 'example'],
      ['model', 'example'],
      ['user', 'history'],
      ['model', 'history'],
      ['user', null],
    ]);
    expect(r.messages![2]!.content).toEqual([{ toolRequest: { name: 'get_weather', input: { city: 'Oslo' }, ref: 'ex1_call1' } }]);
    expect(r.messages![3]!.content).toEqual([{ toolResponse: { name: 'get_weather', output: { temp: 3 }, ref: 'ex1_call1' } }]);
  });

  test('each provider receives its own shape', () => {
    const m = project({ 'prompts/chat.prompt': chat, 'prompts/examples/chat.yaml': turns, 'prompts/cases/chat.yaml': cases() });
    const { messages } = renderCase(m, 'chat', 'plain', tools);
    const call = (shape: 'anthropic' | 'openai' | 'gemini') => toWire(messages!, shape).map((w) => [w.role, w.blocks.map((b) => ('json' in b ? b.json : b.text))]);
    expect(call('anthropic')[2]).toEqual(['assistant', [{ type: 'tool_use', id: 'ex1_call1', name: 'get_weather', input: { city: 'Oslo' } }]]);
    expect(call('anthropic')[3]).toEqual(['user', [{ type: 'tool_result', tool_use_id: 'ex1_call1', content: '{"temp":3}' }]]);
    expect(call('openai')[2]).toEqual(['assistant', [{ tool_calls: [{ id: 'ex1_call1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] }]]);
    expect(call('openai')[3]).toEqual(['tool (tool_call_id ex1_call1)', [{ content: '{"temp":3}' }]]);
    expect(call('gemini')[2]).toEqual(['model', [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }]]);
    expect(call('gemini')[3]).toEqual(['user', [{ functionResponse: { name: 'get_weather', response: { temp: 3 } } }]]);
  });

  test('a case overrides the shape; the snapshot shows the messages as that provider receives them', () => {
    const m = project({ 'prompts/chat.prompt': chat, 'prompts/examples/chat.yaml': turns, 'prompts/cases/chat.yaml': cases('  claude:\n    shape: anthropic\n    input: { question: x }\n') });
    const snapshot = formatSnapshot(renderCase(m, 'chat', 'claude', tools));
    expect(snapshot).toContain('messages sent (anthropic shape): 6');
    expect(snapshot).toContain('--- 3. assistant (few-shot example) ---\n{\n  "type": "tool_use",');
    expect(snapshot).not.toContain('rendered prompt, verbatim');
  });

  test('a stale structured call is found at its YAML line; a call without a result is example/missing-result', () => {
    const stale = turns.replace('city: Oslo', 'city: O').replace('        result: { temp: 3 }\n', '');
    const m = project({ 'prompts/chat.prompt': chat, 'prompts/examples/chat.yaml': stale, 'prompts/cases/chat.yaml': cases() });
    // What was read is an info of its own; the findings are the rest.
    const found = checkRenderedExamples(renderCase(m, 'chat', 'plain', tools)).filter((d) => d.ruleId !== 'example/coverage');
    const file = 'prompts/examples/chat.yaml';
    expect(found.map((d) => [d.ruleId, d.line, d.tool]).sort()).toEqual([
      ['example/invalid-arguments', 6, 'get_weather'],
      ['example/missing-result', 4, 'get_weather'],
    ]);
    expect(found.every((d) => d.file?.endsWith(file))).toBe(true);
  });

  test('an unknown shape is refused where it is written', () => {
    expect(() => project({ 'prompts/chat.prompt': chat.replace('model: openai/gpt-4o', 'shape: cohere'), 'prompts/examples/chat.yaml': turns, 'prompts/cases/chat.yaml': cases() })).toThrow(/Unexpected `shape` "cohere", expected one of `anthropic`, `openai`, `gemini`/);
  });
});
