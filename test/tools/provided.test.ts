// Tools the provider defines (Anthropic's bash and text editor, OpenAI custom tools) sit in the
// same tools list as function tools, and agents call them by name. Their calls, in examples,
// logs and stored conversations, are known and not checked; everything that reads a schema
// passes them over; snapshots and the baseline show them as they are sent.
import { describe, expect, test } from '@jest/globals';
import { checkExamples } from '../../src/checks/examples.js';
import { diffTools } from '../../src/checks/compat/index.js';
import { lintTools } from '../../src/checks/provider/lint.js';
import { checkRecorded } from '../../src/checks/recorded.js';
import { formatTool, formatTools, formatToolsBaseline } from '../../src/snapshot/format.js';
import type { RecordedItem } from '../../src/sources/types.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import type { ToolCallExample } from '../../src/extract/types.js';

const weather = { name: 'get_weather', description: 'Weather now.', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const tools = normalizeTools([{ type: 'bash_20250124', name: 'bash' }, { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 10000 }, weather], 'tools.json');
const example = (name: string, args: unknown): ToolCallExample => ({ name, arguments: args, notation: 'anthropic-xml', range: { start: 0, end: 1 }, line: 1, column: 1 });
const call = (id: string, name: string, args: unknown): RecordedItem => ({ id, name, arguments: args, where: { source: 'calls.jsonl' } });

describe('calls to a provider-defined tool', () => {
  test('in examples: known (no unknown-tool), not checked, in strict mode too; a function tool beside them still is', () => {
    const examples = [example('bash', { command: 'ls -la' }), example('str_replace_based_edit_tool', { command: 'view', path: '/a', anything: [1] }), example('get_weather', { city: 7 })];
    for (const strict of [false, true]) {
      expect(checkExamples(examples, tools, { strict }).map((d) => [d.ruleId, d.tool])).toEqual([['example/invalid-arguments', 'get_weather']]);
    }
  });

  test('in recorded and stored calls: valid, whatever their arguments; an unknown name is still unknown', async () => {
    const found = await checkRecorded(tools, [call('c1', 'bash', { command: 'ls' }), call('c2', 'str_replace_based_edit_tool', { command: 'view', path: '/a' }), call('c3', 'computer', { action: 'screenshot' })]);
    expect(found.map((d) => [d.ruleId, d.tool])).toEqual([['recorded/unknown-tool', 'computer']]);
  });
});

describe('what reads schemas passes them over', () => {
  test('provider lint has nothing to say of them, for any provider', () => {
    for (const provider of ['anthropic', 'openai', 'openai-strict', 'gemini'] as const) {
      expect([provider, lintTools(tools.slice(0, 2), provider)]).toEqual([provider, []]);
    }
  });

  test('diff: one removed is tool-removed, never another provided tool renamed', () => {
    const after = normalizeTools([{ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' }, { type: 'custom', name: 'run_sql', description: 'SQL, free text.' }, weather]);
    expect(diffTools(tools, after).map((d) => [d.ruleId, d.tool])).toEqual([['compat/tool-removed', 'bash']]);
  });
});

describe('as sent', () => {
  test('a snapshot shows the type and the definition; the baseline holds the definition, read back as the same provided tool', () => {
    expect(formatTool(tools[1]!)).toBe(['### str_replace_based_edit_tool', '', "provided by the model's provider: `text_editor_20250728` (its calls are known, not checked)", '', 'definition:', JSON.stringify({ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 10000 }, null, 2)].join('\n'));
    const again = normalizeTools(JSON.parse(formatToolsBaseline(tools)) as unknown);
    expect(again.map((t) => [t.name, t.provided?.type])).toEqual([['bash', 'bash_20250124'], ['str_replace_based_edit_tool', 'text_editor_20250728'], ['get_weather', undefined]]);
  });

  test('an AI SDK provider tool, named by its key, keeps its name in the baseline: removing it later is still a break', () => {
    const sdk = normalizeTools({ str_replace_based_edit_tool: { type: 'provider-defined', id: 'anthropic.text_editor_20250728', args: {} }, get_weather: weather });
    const baseline = normalizeTools(JSON.parse(formatToolsBaseline(sdk)) as unknown);
    expect(baseline.map((t) => [t.name, t.provided?.type])).toEqual([['str_replace_based_edit_tool', 'anthropic.text_editor_20250728'], ['get_weather', undefined]]);
    expect(diffTools(baseline, normalizeTools([weather])).map((d) => [d.ruleId, d.tool])).toEqual([['compat/tool-removed', 'str_replace_based_edit_tool']]);
  });

  test('render --tools prints a provided tool as it is written, in every shape', () => {
    const definition = { type: 'bash_20250124', name: 'bash' };
    for (const shape of ['anthropic', 'openai', 'gemini'] as const) {
      const body = (JSON.parse(formatTools(tools, shape)) as { tools: unknown[] }).tools;
      expect([shape, body]).toEqual([shape, expect.arrayContaining([definition])]);
    }
  });
});
