import { describe, expect, test } from '@jest/globals';
import { defineNotation, extractToolCalls } from '../../src/extract/index.js';
import { builtInNotations } from '../../src/extract/notations/index.js';
import type { ToolSpec } from '../../src/tools/types.js';
import { cli, lineOf, report, withDemo } from '../cli/helpers.js';

// A house format: `CALL get_weather WITH {"city": "Paris"}` on a line of its own.
const house = defineNotation<{ start: number; end: number; name: string; json: string }>({
  name: 'house-call',
  *find(text) {
    const re = /^CALL (\S+) WITH (.*)$/gm;
    for (let m = re.exec(text); m; m = re.exec(text)) yield { start: m.index, end: m.index + m[0].length, name: m[1]!, json: m[2]! };
  },
  parse(match) {
    let args: unknown;
    try {
      args = JSON.parse(match.json);
    } catch {
      return { error: `Unexpected arguments after WITH in \`${match.name}\`, expected a JSON object` };
    }
    return [{ name: match.name, arguments: args }];
  },
});

const weather: ToolSpec = { name: 'get_weather', origin: { shape: 'anthropic' }, inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('custom notations', () => {
  test('a house notation is read beside the built-in ones, at its line', () => {
    const text = 'Intro.\n\nCALL get_weather WITH {"city": "Oslo"}\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>\n';
    const without = extractToolCalls(text, { tools: [weather] });
    expect(without.examples.map((e) => e.arguments)).toEqual([{ city: 'Rome' }]);
    const { examples, diagnostics } = extractToolCalls(text, { tools: [weather], notations: [house] });
    expect(diagnostics).toEqual([]);
    expect(examples.map((e) => [e.name, e.arguments, e.notation, e.line])).toEqual([
      ['get_weather', { city: 'Oslo' }, 'house-call', 3],
      ['get_weather', { city: 'Rome' }, 'hermes', 5],
    ]);
  });

  test('a parse failure is example/unparseable at the place; a placeholder is example/placeholder', () => {
    const bad = extractToolCalls('a\nCALL get_weather WITH {city: Oslo}\n', { notations: [house] });
    expect(bad.examples).toEqual([]);
    expect(bad.diagnostics.map((d) => [d.ruleId, d.line, d.message])).toEqual([['example/unparseable', 2, 'Unexpected arguments after WITH in `get_weather`, expected a JSON object']]);
    const template = extractToolCalls('CALL $TOOL_NAME WITH {}\n', { notations: [house] });
    expect(template.diagnostics.map((d) => d.ruleId)).toEqual(['example/placeholder']);
  });

  test('a notation that throws is a finding, not a crash', () => {
    const broken = defineNotation({
      name: 'broken',
      find() {
        throw new Error('boom');
      },
      parse: () => undefined,
    });
    const throwsInParse = defineNotation({ name: 'throws-in-parse', find: (text: string) => [{ start: 0, end: text.length }], parse: () => { throw new Error('bad'); } });
    const r1 = extractToolCalls('text', { notations: [broken] });
    expect(r1.diagnostics.map((d) => [d.ruleId, d.message])).toEqual([['example/unparseable', expect.stringContaining('`broken` notation')]]);
    const r2 = extractToolCalls('text', { notations: [throwsInParse] });
    expect(r2.diagnostics[0]?.message).toContain('bad');
  });

  test('defineNotation checks the definition where it is written', () => {
    expect(() => defineNotation({ name: '', find: () => [], parse: () => undefined })).toThrow(/notation name/);
    expect(() => defineNotation({ name: 'x', parse: () => undefined } as never)).toThrow(/find/);
    expect(() => defineNotation({ name: 'x', find: () => [] } as never)).toThrow(/parse/);
  });

  test('every built-in notation is defined through the same interface', () => {
    expect(builtInNotations.length).toBeGreaterThanOrEqual(6);
    for (const n of builtInNotations) {
      expect(Object.isFrozen(n)).toBe(true);
      expect(() => defineNotation(n)).not.toThrow();
    }
    expect(new Set(builtInNotations.map((n) => n.name)).size).toBe(builtInNotations.length);
  });
});

test('`notations` in the config: a stale example in a house notation fails check at the template line', () =>
  withDemo((demo) => {
    demo.edit('prompt-contract.config.ts', "import { defineConfig } from 'prompt-contract';", "import { defineConfig, defineNotation } from 'prompt-contract';\nconst house = defineNotation({ name: 'house-call', *find(text: string) { const re = /^CALL ([\\w.-]+) WITH (.*)$/gm; for (let m = re.exec(text); m; m = re.exec(text)) yield { start: m.index, end: m.index + m[0].length, name: m[1]!, json: m[2]! }; }, parse: (m: { name: string; json: string }) => [{ name: m.name, arguments: JSON.parse(m.json) }] });");
    demo.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  notations: [house],");
    const file = 'prompts/order_triage.prompt';
    demo.edit(file, 'Orders that have shipped', 'House example:\nCALL escalate_to_human WITH {"reason": "not-a-reason"}\n\nOrders that have shipped');
    const result = cli(['check', '--format', 'json'], { cwd: demo.dir });
    expect(result.code).toBe(1);
    const hit = report(result).diagnostics.find((d) => d.ruleId === 'example/invalid-arguments' && d.file === file);
    expect(hit).toMatchObject({ file, line: lineOf(demo.read(file), 'CALL escalate_to_human'), tool: 'escalate_to_human' });
    // `extract --config` reads any text with the config's notations and tools; without it, the house notation is unknown.
    demo.write('reply.txt', 'Then:\nCALL lookup_order WITH {"order_id": "A-2051"}\n');
    const withConfig = cli(['extract', 'reply.txt', '--config', 'prompt-contract.config.ts', '--format', 'json'], { cwd: demo.dir });
    expect(withConfig.code).toBe(0);
    expect((JSON.parse(withConfig.stdout) as { examples: unknown[] }).examples).toEqual([{ name: 'lookup_order', arguments: { order_id: 'A-2051' }, notation: 'house-call', line: 2, column: 1, offset: 6 }]);
    expect((JSON.parse(cli(['extract', 'reply.txt', '--format', 'json'], { cwd: demo.dir }).stdout) as { examples: unknown[] }).examples).toEqual([]);
  }));
