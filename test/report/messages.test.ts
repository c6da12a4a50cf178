import { z } from 'zod';
import { diffTools } from '../../src/checks/compat/index.js';
import { checkExamples } from '../../src/checks/examples.js';
import { checkHandler } from '../../src/checks/handler.js';
import { checkRecorded } from '../../src/checks/recorded.js';
import { defineTool } from '../../src/tools/define.js';
import type { ToolSpec } from '../../src/tools/types.js';

// zod writes a `pattern` of several hundred characters beside `format` for these.
const event = defineTool({ name: 'schedule_call', input: z.object({ at: z.string().datetime(), email: z.email(), ref: z.string().regex(/^(?:[A-Z]{3}-\d{4}-[a-z]{2,8}|LEGACY-[0-9a-f]{32}|TMP-[A-Za-z0-9_]{10,40})$/) }) });
const example = (args: unknown) => ({ name: 'schedule_call', arguments: args, notation: 'json', line: 1, column: 1, range: { start: 0, end: 1 } }) as never;

describe('messages name formats in words and cut long patterns', () => {
  test('an example: one finding a field, naming the format, short; the full pattern stays in `expected`', () => {
    // The premise: zod's date-time pattern alone is longer than a message should be.
    expect(String((event.inputSchema.properties as Record<string, { pattern: string }>).at.pattern).length).toBeGreaterThan(150);
    const found = checkExamples([example({ at: 'tomorrow 3pm', email: 'nobody', ref: 'REF-1' })], [event]);
    expect(found.map((d) => [d.instancePath, d.message])).toEqual([
      ['/at', 'In the `schedule_call` example, `/at` must be a date-time (format `date-time`), got "tomorrow 3pm" (`format`)'],
      ['/email', 'In the `schedule_call` example, `/email` must be an email address (format `email`), got "nobody" (`format`)'],
      ['/ref', expect.stringMatching(/^In the `schedule_call` example, `\/ref` must match `\^\(\?:\[A-Z\]\{3\}.{40,60}…`, got "REF-1" \(`pattern`\)$/)],
    ]);
    for (const d of found) expect(d.message.length).toBeLessThan(160);
    const ref = found.find((d) => d.instancePath === '/ref')!;
    expect(ref.expected).toBe((event.inputSchema.properties as Record<string, { pattern: string }>).ref.pattern);
  });

  test('recorded calls: the condition names the format and cuts the pattern', async () => {
    const call = (id: string, args: unknown) => ({ id, name: 'schedule_call', arguments: args, where: { source: 'calls.jsonl', line: Number(id) } });
    const found = await checkRecorded([event], [call('1', { at: 'soon', email: 'a@b.co', ref: 'ABC-1234-xy' }), call('2', { at: '2025-01-01T10:00:00Z', email: 'a@b.co', ref: 'nope' })]);
    expect(found.map((d) => d.message)).toEqual([
      '1 of 2 recorded calls to `schedule_call` fail `format` at `/at` (must be a date-time (format `date-time`)): 1 ("soon")',
      expect.stringMatching(/^1 of 2 recorded calls to `schedule_call` fail `pattern` at `\/ref` \(must match `.{59}…`\): 2 \("nope"\)$/u),
    ]);
  });

  test('compat: a pattern added with a format is named by the format', () => {
    const before: ToolSpec = { name: 'schedule_call', inputSchema: { type: 'object', properties: { at: { type: 'string' } } }, origin: { shape: 'plain' } };
    const after = defineTool({ name: 'schedule_call', input: z.object({ at: z.string().datetime().optional() }) });
    const messages = diffTools([before], [after]).map((d) => d.message);
    expect(messages).toContain('`schedule_call` `/at`: `pattern` of format `date-time` added; strings that were valid and are not a date-time are now rejected');
    for (const m of messages) expect(m.length).toBeLessThan(200);
  });

  test('handler: a constraint only the handler type states is named by its format', () => {
    const tool: ToolSpec = { name: 'schedule_call', inputSchema: { type: 'object', properties: { at: { type: 'string' } }, required: ['at'] }, origin: { shape: 'plain' } };
    const handler = z.toJSONSchema(z.object({ at: z.string().datetime() }), { io: 'input' }) as Record<string, unknown>;
    const found = checkHandler(tool, handler);
    expect(found.map((d) => d.ruleId)).toEqual(['handler/constraint-not-in-schema', 'handler/constraint-not-in-schema']);
    for (const d of found) expect(d.message.length).toBeLessThan(300);
    expect(found.map((d) => d.message).join('\n')).toContain('the `pattern` of format `date-time`');
  });
});
