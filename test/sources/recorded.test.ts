import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkRecorded, didYouMean, RecordedAccumulator } from '../../src/checks/recorded.js';
import { recordedRules } from '../../src/checks/recorded.rules.js';
import { readRecordedCalls } from '../../src/sources/jsonl.js';
import type { RecordedCall, RecordedItem } from '../../src/sources/types.js';
import { normalizeTools } from '../../src/tools/normalize.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const tools = normalizeTools(JSON.parse(readFileSync(fixture('tools.json'), 'utf8')));

function call(id: string, name: string, args: unknown, line = 1): RecordedCall {
  return { id, name, arguments: args, where: { source: 'calls.jsonl', line } };
}

/** 10,000 refunds, 17 of them above the maximum of 50000. */
function refunds(): RecordedCall[] {
  return Array.from({ length: 10_000 }, (_, i) =>
    call(`call_${i}`, 'create_refund', { order_id: 'A-0001', amount_cents: i % 500 === 3 && i < 8503 ? 60_000 + i : 100 + (i % 400) }, i + 1),
  );
}

describe('checkRecorded', () => {
  test('groups failures by tool, keyword and place, with the first witnesses and the counts', async () => {
    const [finding, ...rest] = await checkRecorded(tools, refunds());
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      ruleId: 'recorded/invalid',
      severity: 'error',
      tool: 'create_refund',
      instancePath: '/amount_cents',
      schemaPath: '#/properties/amount_cents/maximum',
      expected: 50000,
      witnessCount: 17,
      total: 10_000,
      file: 'calls.jsonl',
      line: 4,
      url: expect.stringMatching(/docs\/rules\/recorded\.md#invalid$/),
    });
    expect(finding!.witnesses).toEqual([
      { id: 'call_3', value: 60003, source: 'calls.jsonl' },
      { id: 'call_503', value: 60503, source: 'calls.jsonl' },
      { id: 'call_1003', value: 61003, source: 'calls.jsonl' },
      { id: 'call_1503', value: 61503, source: 'calls.jsonl' },
      { id: 'call_2003', value: 62003, source: 'calls.jsonl' },
    ]);
    expect(finding!.message).toBe(
      '17 of 10,000 recorded calls to `create_refund` fail `maximum` at `/amount_cents` (must be <= 50000): call_3 (60003), call_503 (60503), call_1003 (61003), call_1503 (61503), call_2003 (62003), and 12 more',
    );
  });

  test('one call failing several ways lands in each group once; array items share a group', async () => {
    const listTool = normalizeTools({
      name: 'ship',
      input_schema: {
        type: 'object',
        properties: { items: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer', minimum: 1 } } } } },
      },
    });
    const diagnostics = await checkRecorded(listTool, [
      call('a', 'ship', { items: [{ qty: 0 }, { qty: -1 }] }),
      call('b', 'ship', { items: [{ qty: 2 }, { qty: 0 }] }),
      call('c', 'ship', { items: [] }),
    ]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ instancePath: '/items/*/qty', witnessCount: 2, total: 3 });
    expect(diagnostics[0]!.witnesses).toEqual([
      { id: 'a', value: 0, source: 'calls.jsonl' },
      { id: 'b', value: 0, source: 'calls.jsonl' },
    ]);
  });

  test('missing, extra and mistyped properties each get their own group', async () => {
    const diagnostics = await checkRecorded(tools, [
      call('c1', 'create_refund', { amount_cents: 1 }),
      call('c2', 'create_refund', { order_id: 'A-0001', amount_cents: 1, note: 'x' }),
      call('c3', 'create_refund', { order_id: 'C-1', amount_cents: '12' }),
      call('c4', 'create_refund', 'not an object'),
    ]);
    expect(diagnostics.map((d) => [d.instancePath, d.message.replace(/^.*? fail /, '')])).toEqual([
      ['', '`type` at the top level (must be object): c4 ("not an object")'],
      ['/amount_cents', '`type` at `/amount_cents` (must be integer): c3 ("12")'],
      ['/note', '`additionalProperties` at `/note` (is not allowed): c2 ("x")'],
      ['/order_id', '`pattern` at `/order_id` (must match `^[AB]-\\d{4}$`): c3 ("C-1")'],
      ['/order_id', '`required` at `/order_id` (is required): c1'],
    ]);
  });

  test('calls to a tool that no longer exists are grouped by name, with a did-you-mean', async () => {
    const diagnostics = await checkRecorded(tools, [
      call('1', 'Create_Refund', { order_id: 'A-0001', amount_cents: 1 }),
      call('2', 'lookup_order', { order_id: 'A-0001' }),
      call('3', 'Create_Refund', {}),
      call('4', 'launch_rocket', {}),
    ]);
    expect(diagnostics.map((d) => [d.ruleId, d.message])).toEqual([
      ['recorded/unknown-tool', '2 of 4 recorded calls name `Create_Refund`, which is not a tool (did you mean `create_refund`?): 1, 3'],
      ['recorded/unknown-tool', '1 of 4 recorded calls name `launch_rocket`, which is not a tool: 4'],
    ]);
    expect(diagnostics[0]).toMatchObject({ tool: 'Create_Refund', expected: 'create_refund', witnessCount: 2, total: 4 });
  });

  test('didYouMean finds case changes, separators and small typos, and nothing far away', () => {
    const names = ['multiply', 'add', 'get_current_weather'];
    expect(didYouMean('Multiply', names)).toBe('multiply');
    expect(didYouMean('getCurrentWeather', names)).toBe('get_current_weather');
    expect(didYouMean('get_curent_weather', names)).toBe('get_current_weather');
    expect(didYouMean('subtract', names)).toBeUndefined();
  });

  test('corrupt lines are warnings with file and line, the valid calls around them still count', async () => {
    const file = fixture('calls.jsonl');
    const diagnostics = await checkRecorded(tools, readRecordedCalls(file));
    const corrupt = diagnostics.filter((d) => d.ruleId === 'recorded/corrupt');
    expect(corrupt.map((d) => [d.severity, d.file, d.line])).toEqual([
      ['warning', file, 10],
      ['warning', file, 11],
      ['warning', file, 12],
    ]);
    expect(corrupt[0]!.message).toMatch(/^Line 10 is not a readable tool call: The line is not valid JSON/);
    expect(diagnostics.filter((d) => d.ruleId !== 'recorded/corrupt')).toEqual([]);
  });

  test('corrupt records beyond the cap are counted in one finding', async () => {
    const items: RecordedItem[] = Array.from({ length: 30 }, (_, i) => ({ corrupt: true, message: 'bad', where: { source: 'x.jsonl', line: i + 1 } }));
    const diagnostics = await checkRecorded(tools, items, { maxCorrupt: 3 });
    expect(diagnostics).toHaveLength(4);
    expect(diagnostics[3]).toMatchObject({ ruleId: 'recorded/corrupt', message: '27 more lines are not readable (only the first 3 are listed)', witnessCount: 30 });
  });

  test('async and sync inputs give the same findings', async () => {
    async function* stream() {
      yield* refunds();
    }
    expect(await checkRecorded(tools, stream())).toEqual(await checkRecorded(tools, refunds()));
  });

  test('an accumulator per chunk, merged in order, equals one accumulator over everything', () => {
    const all = [...refunds(), call('u', 'Create_Refund', {}), { corrupt: true as const, message: 'bad', where: { source: 'calls.jsonl', line: 9 } }];
    const whole = new RecordedAccumulator(tools);
    for (const item of all) whole.add(item);
    const merged = new RecordedAccumulator(tools);
    for (let start = 0; start < all.length; start += 997) {
      const chunk = new RecordedAccumulator(tools);
      for (const item of all.slice(start, start + 997)) chunk.add(item);
      // Through structured cloning, as a worker thread would post it.
      merged.merge(structuredClone(chunk.state()));
    }
    expect(merged.toDiagnostics()).toEqual(whole.toDiagnostics());
    expect(merged.state()).toEqual(whole.state());
  });

  test('a schema that does not compile is unchecked, not a reason to stop: recorded/ and persisted/unchecked-schema', () => {
    const broken = normalizeTools([
      { name: 'broken', description: 'x', input_schema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } } },
      { name: 'fine', description: 'y', input_schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
    ]);
    const expected = { recorded: ['recorded/unchecked-schema', 'recorded/invalid'], persisted: ['persisted/unchecked-schema', 'persisted/invalid'] } as const;
    for (const kind of ['recorded', 'persisted'] as const) {
      const acc = new RecordedAccumulator(broken, { kind });
      acc.add({ id: 'r1', name: 'broken', arguments: { a: 1 }, where: { source: 'calls.jsonl', line: 1 } });
      acc.add({ id: 'r2', name: 'fine', arguments: {}, where: { source: 'calls.jsonl', line: 2 } });
      const ids = acc.toDiagnostics().map((d) => [d.ruleId, d.tool]);
      expect(ids).toEqual(expect.arrayContaining([[expected[kind][0], 'broken'], [expected[kind][1], 'fine']]));
    }
  });

  test('every rule has a docs section', () => {
    const docs = readFileSync(fileURLToPath(new URL('../../docs/rules/recorded.md', import.meta.url)), 'utf8');
    for (const rule of Object.values(recordedRules)) {
      expect(rule.docs).toBe(`docs/rules/recorded.md#${rule.id.split('/')[1]}`);
      expect(docs).toContain(`\n## ${rule.id.split('/')[1]}\n`);
    }
  });
});
