import { describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRecordedLine, readRecordedCalls } from '../../src/sources/jsonl.js';
import { itemsFromValue, plainArguments, plainCallName } from '../../src/sources/shapes.js';
import type { RecordedItem } from '../../src/sources/types.js';
import { InputError } from '../../src/util/errors.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

async function collect(items: AsyncIterable<RecordedItem>): Promise<RecordedItem[]> {
  const out: RecordedItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const where = { source: 'test.jsonl', line: 7 };

describe('parseRecordedLine', () => {
  test.each([
    ['{name, arguments}', { name: 'f', arguments: { a: 1 } }],
    ['{tool, arguments}', { tool: 'f', arguments: { a: 1 } }],
    ['{name, input}', { name: 'f', input: { a: 1 } }],
    ['{name, args}', { name: 'f', args: { a: 1 } }],
    ['{name, arguments: "<json>"}', { name: 'f', arguments: '{"a":1}' }],
    ['OpenAI function call', { type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
    ['Anthropic tool_use', { type: 'tool_use', name: 'f', input: { a: 1 } }],
    ['OpenAI Responses function_call', { type: 'function_call', name: 'f', arguments: '{"a":1}' }],
    ['legacy function_call message', { role: 'assistant', function_call: { name: 'f', arguments: '{"a":1}' } }],
  ])('reads %s', (_shape, value) => {
    expect(parseRecordedLine(JSON.stringify(value), where)).toEqual([{ name: 'f', arguments: { a: 1 }, where }]);
  });

  test('an `id` names the call; Responses calls use `call_id`', () => {
    expect(parseRecordedLine('{"id":"call_9","name":"f","arguments":{}}', where)).toEqual([{ id: 'call_9', name: 'f', arguments: {}, where }]);
    expect(parseRecordedLine('{"id":7,"name":"f","args":{}}', where)[0]).toMatchObject({ id: '7' });
    expect(parseRecordedLine('{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":"{}"}', where)[0]).toMatchObject({ id: 'call_1' });
  });

  test('a `tool_calls` wrapper yields every call, naming those without an id `line#index`', () => {
    const line = JSON.stringify({
      tool_calls: [
        { type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
        { id: 'call_2', type: 'function', function: { name: 'g', arguments: '{}' } },
        { type: 'function', function: { name: 'h', arguments: '{}' } },
      ],
    });
    expect(parseRecordedLine(line, where).map((c) => ('corrupt' in c ? c : [c.id, c.name]))).toEqual([
      ['7#0', 'f'],
      ['call_2', 'g'],
      ['7#2', 'h'],
    ]);
  });

  test('messages: Anthropic content blocks and OpenAI tool_calls; text blocks and call-less messages give nothing', () => {
    const anthropic = { role: 'assistant', content: [{ type: 'text', text: 'hi' }, { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } }] };
    expect(parseRecordedLine(JSON.stringify(anthropic), where)).toEqual([{ id: 'toolu_1', name: 'f', arguments: { a: 1 }, where }]);
    expect(parseRecordedLine(JSON.stringify(anthropic.content), where)).toHaveLength(1);
    expect(parseRecordedLine(JSON.stringify({ type: 'assistant', message: anthropic }), where)).toHaveLength(1);
    expect(parseRecordedLine('{"role":"user","name":"bob","content":"hello"}', where)).toEqual([]);
    expect(parseRecordedLine('{"role":"assistant","content":[{"type":"text","text":"no call"}]}', where)).toEqual([]);
  });

  test.each([
    ['not JSON', '{"name": "f", ', /not valid JSON/],
    ['no call shape', '{"hello":"world"}', /No tool call found/],
    ['a scalar', '42', /No tool call found/],
    ['arguments string that does not parse', '{"type":"function","function":{"name":"f","arguments":"{\\"a\\": "}}', /arguments of `f` are a string that is not JSON/],
    ['a call without arguments', '{"name":"f"}', /has no `arguments`/],
    ['a tool_use without a name', '{"type":"tool_use","input":{}}', /no `name`/],
    ['a bad item in tool_calls', '{"tool_calls":[{"oops":1}]}', /Item 0 of `tool_calls`/],
  ])('%s is a CorruptRecord at its line', (_what, text, message) => {
    const [item, ...rest] = parseRecordedLine(text, where);
    expect(rest).toEqual([]);
    expect(item).toEqual({ corrupt: true, message: expect.stringMatching(message), where });
  });
});

describe('plainCallName', () => {
  // The fast path may only name values that the general reader reads as exactly that one
  // call; everything else it leaves to the general reader.
  const named: unknown[] = [
    { name: 'f', arguments: { a: 1 } },
    { id: 'c1', name: 'f', arguments: {} },
    { id: 3, name: 'f', arguments: [] },
    { name: 'f', arguments: null },
    { name: 'f', arguments: 5 },
    { type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } },
    { type: 'tool_use', name: 'f', input: null },
  ];
  const left: unknown[] = [
    { type: 'tool_use', name: 'f' },
    { type: 'tool_use', name: '', input: {} },
    { type: 'tool_use', name: 7, input: {} },
    { name: 'f', arguments: '{"a":1}' },
    { name: 'f', input: { a: 1 } },
    { name: 'f', args: { a: 1 } },
    { tool: 'f', arguments: {} },
    { name: '', arguments: {} },
    { name: null, tool: 'g', arguments: {} },
    { name: 'f' },
    { name: 'f', arguments: {}, role: 'assistant', content: [] },
    { name: 'f', arguments: {}, tool_calls: [{ name: 'g', arguments: {} }] },
    { name: 'f', arguments: {}, tool_calls: 'x' },
    { name: 'f', arguments: {}, type: 'text' },
    { name: 'f', arguments: {}, function: { name: 'g', arguments: '{}' } },
    { name: 'f', arguments: {}, function: 'g' },
    { name: 'f', arguments: {}, function_call: { name: 'g', arguments: '{}' } },
    { type: 'function_call', name: 'f', arguments: '{}' },
    { type: 'function', function: { name: 'f', arguments: '{}' } },
    [{ name: 'f', arguments: {} }],
    'f',
    null,
    42,
  ];
  const general = (value: unknown) => itemsFromValue(value, where, (call) => ({ name: call.name, arguments: call.arguments, where }));

  test.each(named.map((value) => [JSON.stringify(value), value]))('names %s as the general reader reads it', (_text, value) => {
    expect(plainCallName(value)).toBe('f');
    expect(general(value)).toEqual([{ name: 'f', arguments: plainArguments(value as object), where }]);
  });

  test.each(left.map((value) => [JSON.stringify(value), value]))('leaves %s to the general reader', (_text, value) => {
    expect(plainCallName(value)).toBeUndefined();
  });
});

describe('readRecordedCalls', () => {
  test('streams every shape, reports corrupt lines with their 1-based line number and goes on', async () => {
    const file = fixture('calls.jsonl');
    const items = await collect(readRecordedCalls(file));
    const summary = items.map((item) => ('corrupt' in item ? `corrupt@${item.where.line}` : `${item.id ?? '-'}:${item.name}@${item.where.line}`));
    expect(summary).toEqual([
      'call_1:create_refund@1',
      '-:create_refund@2',
      '-:create_refund@4',
      'lc-1:lookup_order@5',
      'call_openai:lookup_order@6',
      'toolu_x:create_refund@7',
      '8#0:lookup_order@8',
      'call_named:create_refund@8',
      '-:create_refund@9',
      'corrupt@10',
      'corrupt@11',
      'corrupt@12',
      '-:create_refund@13',
    ]);
    expect(items.every((item) => item.where.source === file)).toBe(true);
    expect(items[8]).toMatchObject({ arguments: { order_id: 'A-0008', amount_cents: 800 } });
  });

  test('names the source as asked, strips a byte order mark and reads CRLF files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-jsonl-'));
    try {
      const file = join(dir, 'crlf.jsonl');
      writeFileSync(file, '\uFEFF{"name":"f","arguments":{}}\r\n\r\n{"name":"g","arguments":{"x":1}}\r\n');
      const items = await collect(readRecordedCalls(file, { source: 'logs' }));
      expect(items).toEqual([
        { name: 'f', arguments: {}, where: { source: 'logs', line: 1 } },
        { name: 'g', arguments: { x: 1 }, where: { source: 'logs', line: 3 } },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a missing file is an InputError naming it', async () => {
    const missing = join(tmpdir(), 'prompt-contract-no-such-file.jsonl');
    const error = await collect(readRecordedCalls(missing)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'recorded/unreadable', file: missing, message: expect.stringContaining('no such file') });
  });

  test('a directory is an InputError, not a crash', async () => {
    const error = await collect(readRecordedCalls(tmpdir())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
  });
});
