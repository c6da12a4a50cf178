import { describe, expect, test } from '@jest/globals';
import { attachWitnesses, diffTools } from '../../src/checks/compat/index.js';
import { recordedRules } from '../../src/checks/recorded.rules.js';
import type { RecordedItem } from '../../src/sources/types.js';
import type { JsonSchemaObject } from '../../src/tools/types.js';
import { tool } from './helpers.js';

const refund = (max: number, extra: JsonSchemaObject = {}): JsonSchemaObject => ({
  type: 'object',
  properties: {
    order_id: { type: 'string' },
    amount_cents: { type: 'integer', minimum: 1, maximum: max },
    reason: { type: 'string' },
  },
  required: ['order_id', 'amount_cents'],
  ...extra,
});

const call = (id: string, args: unknown, name = 'create_refund'): RecordedItem => ({ id, name, arguments: args, where: { source: 'calls.jsonl' } });

const calls: RecordedItem[] = [
  call('call_1', { order_id: 'A-1', amount_cents: 4200 }),
  call('call_17', { order_id: 'A-2', amount_cents: 60000 }),
  call('call_18', { order_id: 'A-3', amount_cents: 75000 }),
  call('call_19', { order_id: 'A-4', amount_cents: 50000 }), // at the new bound: still valid
  call('call_20', { order_id: 'A-5', amount_cents: 200000 }), // invalid before the change too: no witness
  call('call_21', { order_id: 'A-6', amount_cents: 99000 }),
  call('call_22', { order_id: 'A-7', amount_cents: 50001 }),
  call('call_23', { order_id: 'A-8', amount_cents: 100000 }),
  call('call_24', { order_id: 'A-9', amount_cents: 80000 }),
  call('call_9', { amount_cents: 90000 }, 'escalate'), // another tool
  { corrupt: true, message: 'not JSON', where: { source: 'calls.jsonl', line: 12 } },
];

describe('witnesses from recorded calls', () => {
  const before = [tool('create_refund', refund(100000))];
  const after = [tool('create_refund', refund(50000))];

  test('a tightened maximum lists the calls it would reject', () => {
    const [d] = diffTools(before, after, { witnesses: calls });
    expect(d!.ruleId).toBe('compat/maximum-decreased');
    expect(d!.witnessCount).toBe(6);
    expect(d!.total).toBe(9);
    expect(d!.witnesses).toEqual([
      { id: 'call_17', value: 60000, source: 'calls.jsonl' },
      { id: 'call_18', value: 75000, source: 'calls.jsonl' },
      { id: 'call_21', value: 99000, source: 'calls.jsonl' },
      { id: 'call_22', value: 50001, source: 'calls.jsonl' },
      { id: 'call_23', value: 100000, source: 'calls.jsonl' },
    ]);
    expect(d!.message).toBe(
      '`create_refund` `/amount_cents`: `maximum` decreased from 100000 to 50000; calls above 50000 that were valid are now rejected; ' +
        '6 of 9 observed calls to `create_refund` are no longer expressible: call_17 (60000), call_18 (75000), call_21 (99000), call_22 (50001), call_23 (100000), and 1 more',
    );
  });

  test('the same through an async stream, with a smaller witness list', async () => {
    async function* stream(): AsyncIterable<RecordedItem> {
      for (const c of calls) yield c;
    }
    const [d] = await attachWitnesses(diffTools(before, after), stream(), before, after, { maxWitnesses: 2 });
    expect(d!.witnessCount).toBe(6);
    expect(d!.witnesses!.map((w) => w.id)).toEqual(['call_17', 'call_18']);
  });

  test('unreadable observed lines are not silently dropped: one warning counts them and names the first', async () => {
    const corrupt = (line: number): RecordedItem => ({ corrupt: true, message: 'not JSON', where: { source: 'logs/calls.jsonl', line } });
    const found = await attachWitnesses(diffTools(before, after), [corrupt(7), ...calls, corrupt(40)], before, after);
    expect(found.map((d) => d.ruleId)).toEqual(['compat/maximum-decreased', 'recorded/corrupt']);
    expect(found[0]!.witnessCount).toBe(6);
    expect(found[1]).toEqual({
      ruleId: 'recorded/corrupt',
      severity: 'warning',
      url: recordedRules.corrupt.url,
      fix: recordedRules.corrupt.fix,
      message: '3 unreadable lines in the observed calls were not used as witnesses (the first at logs/calls.jsonl:7); the witness counts may be incomplete',
      file: 'logs/calls.jsonl',
      line: 7,
      witnessCount: 3,
    });
  });

  test('an unreadable persisted row is named by source and row; readable calls add no warning', async () => {
    const row: RecordedItem = { corrupt: true, message: 'not JSON', where: { source: 'pg-conversations', row: '5' } };
    const [, warning] = await attachWitnesses(diffTools(before, after), [row], before, after);
    expect(warning).toMatchObject({ ruleId: 'recorded/corrupt', message: '1 unreadable row in the observed calls was not used as a witness (the first at row `5` of `pg-conversations`); the witness counts may be incomplete' });
    expect(warning).not.toHaveProperty('file');
    const readable = calls.filter((c) => !('corrupt' in c));
    expect((await attachWitnesses(diffTools(before, after), readable, before, after)).map((d) => d.ruleId)).toEqual(['compat/maximum-decreased']);
  });

  test('a finding no recorded call shows says so', () => {
    const looser = [tool('create_refund', refund(100000, { properties: { ...refund(100000).properties as object, order_id: { type: 'string', maxLength: 10 } } }))];
    const [d] = diffTools(before, looser, { witnesses: calls });
    expect(d!.ruleId).toBe('compat/max-length-added');
    expect(d!.witnessCount).toBe(0);
    expect(d!.witnesses).toEqual([]);
    expect(d!.message).toMatch(/; none of the 9 observed calls to `create_refund` is affected$/);
  });

  test('required-added: every old call that leaves the field out, with no value', () => {
    const required = [tool('create_refund', refund(100000, { required: ['order_id', 'amount_cents', 'reason'] }))];
    const [d] = diffTools(before, required, { witnesses: calls });
    expect(d!.ruleId).toBe('compat/required-added');
    expect(d!.witnessCount).toBe(8);
    expect(d!.witnesses![0]).toEqual({ id: 'call_1', source: 'calls.jsonl' });
  });

  test('enum narrowed and pattern added, each matched to its own keyword and place', () => {
    const v1 = tool('t', { type: 'object', properties: { order_id: { type: 'string' }, reason: { enum: ['duplicate', 'goodwill', 'fraud'] } } });
    const v2 = tool('t', { type: 'object', properties: { order_id: { type: 'string', pattern: '^A-' }, reason: { enum: ['duplicate'] } } });
    const recorded = [
      call('c1', { order_id: 'A-1', reason: 'goodwill' }, 't'),
      call('c2', { order_id: 'B-7', reason: 'duplicate' }, 't'),
      call('c3', { order_id: 'B-8', reason: 'fraud' }, 't'),
    ];
    const found = diffTools([v1], [v2], { witnesses: recorded });
    const byRule = Object.fromEntries(found.map((d) => [d.ruleId, d]));
    expect(byRule['compat/pattern-added']!.witnesses).toEqual([
      { id: 'c2', value: 'B-7', source: 'calls.jsonl' },
      { id: 'c3', value: 'B-8', source: 'calls.jsonl' },
    ]);
    expect(byRule['compat/enum-narrowed']!.witnesses).toEqual([
      { id: 'c1', value: 'goodwill', source: 'calls.jsonl' },
      { id: 'c3', value: 'fraud', source: 'calls.jsonl' },
    ]);
  });

  test('nested: a witness inside array items is found through the `*` segment', () => {
    const v1 = tool('push', { type: 'object', properties: { files: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' } } } } } });
    const v2 = tool('push', { type: 'object', properties: { files: { type: 'array', items: { type: 'object', properties: { path: { type: 'string', maxLength: 5 } } } } } });
    const [d] = diffTools([v1], [v2], { witnesses: [call('p1', { files: [{ path: 'a' }, { path: 'src/long.ts' }] }, 'push')] });
    expect(d!.instancePath).toBe('/files/*/path');
    expect(d!.witnesses).toEqual([{ id: 'p1', value: 'src/long.ts', source: 'calls.jsonl' }]);
  });

  test('a removed tool: every recorded call to it is a witness; calls without an id are named by place', () => {
    const recorded: RecordedItem[] = [{ name: 'create_refund', arguments: { order_id: 'A', amount_cents: 5 }, where: { source: 'log.jsonl', line: 3 } }];
    const [d] = diffTools(before, [], { witnesses: recorded });
    expect(d!.ruleId).toBe('compat/tool-removed');
    expect(d!.witnesses).toEqual([{ id: 'log.jsonl:3', source: 'log.jsonl' }]);
    expect(d!.message).toContain('1 of 1 observed calls to `create_refund` are no longer expressible: log.jsonl:3');
  });

  test('property-ignored lists the calls that still send the value', () => {
    const v1 = tool('t', { type: 'object', properties: { a: { type: 'string' }, legacy: { type: 'string' } } });
    const v2 = tool('t', { type: 'object', properties: { a: { type: 'string' } } });
    const [d] = diffTools([v1], [v2], { witnesses: [call('c1', { a: 'x', legacy: 'y' }, 't'), call('c2', { a: 'x' }, 't')] });
    expect(d!.ruleId).toBe('compat/property-ignored');
    expect(d!.witnesses).toEqual([{ id: 'c1', value: 'y', source: 'calls.jsonl' }]);
    expect(d!.message).toContain('1 of 2 observed calls to `t` still send it: c1 ("y")');
  });

  test('with no recorded calls to the tool the finding is left as it was', () => {
    const [d] = diffTools(before, after, { witnesses: [call('x', {}, 'other')] });
    expect(d!.witnesses).toBeUndefined();
    expect(d!.message).not.toContain('recorded');
  });
});
