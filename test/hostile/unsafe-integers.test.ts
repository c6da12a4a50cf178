// `JSON.parse` reads an integer past 2^53 - 1 rounded: `9223372036854775808` and the bound
// `maximum: 9223372036854775807` both read as 2^63, so a logged call breaking the bound passed
// and messages showed other digits than the log's. Such calls are reported with their exact
// digits, file and line, and are not compared with the schema as rounded.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateRecordedFiles } from '../../src/checks/recorded-files.js';
import { checkRecorded } from '../../src/checks/recorded.js';
import { mayHoldUnsafeIntegers, parseRecordedLine, unsafeIntegerLiterals } from '../../src/sources/jsonl.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import { cli, cliInProcess } from '../cli/helpers.js';

const tools = normalizeTools([{ name: 'lookup', input_schema: { type: 'object', properties: { id: { type: 'integer', maximum: 9223372036854775807 }, tags: { type: 'array' } }, required: ['id'] } }]);
const line = (id: string, extra = '') => `{"name": "lookup", "arguments": {"id": ${id}${extra}}}`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pc-unsafe-int-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an integer past 2^53 in a recorded call', () => {
  test('is reported with the file, the line and the exact digits, as an error, and the call is not passed as valid', async () => {
    const file = join(dir, 'calls.jsonl');
    writeFileSync(file, [line('42'), line('9223372036854775808'), line('-9007199254740993'), line('9007199254740991')].join('\n'));
    const found = await validateRecordedFiles(tools, [file]);
    expect(found).toEqual([
      expect.objectContaining({ ruleId: 'recorded/unsafe-integer', severity: 'error', file, line: 2, instancePath: '/id', tool: 'lookup', actual: '9223372036854775808', witnessCount: 2 }),
    ]);
    const [d] = found;
    expect(d!.message).toContain('Unexpected integer 9223372036854775808 at `/id` in 2 of 4 recorded calls to `lookup`');
    expect(d!.witnesses).toEqual([expect.objectContaining({ id: `${file}:2`, value: '9223372036854775808' }), expect.objectContaining({ id: `${file}:3`, value: '-9007199254740993' })]);
  });

  test('the stream reader and the line parser mark the same calls as the file reader', async () => {
    const text = line('12345678901234567890');
    expect(parseRecordedLine(text, { source: 'x.jsonl', line: 1 })).toEqual([expect.objectContaining({ unsafeIntegers: [{ instancePath: '/id', digits: '12345678901234567890' }] })]);
    const found = await checkRecorded(tools, parseRecordedLine(text, { source: 'x.jsonl', line: 1 }));
    expect(found.map((d) => d.ruleId)).toEqual(['recorded/unsafe-integer']);
  });

  test('OpenAI `arguments` JSON text is looked into; strings, keys and fields outside the arguments are not', () => {
    const openai = JSON.stringify({ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: JSON.stringify({ id: 1 }).replace('1', '98765432109876543210') } });
    expect(parseRecordedLine(openai, { source: 'x.jsonl', line: 1 })).toEqual([expect.objectContaining({ unsafeIntegers: [{ instancePath: '/id', digits: '98765432109876543210' }] })]);
    const harmless = `{"ts": 17333333330000000000, "name": "lookup", "arguments": {"id": 1, "note": "98765432109876543210", "98765432109876543210": 2, "big": 1e300, "tags": [9007199254740991]}}`;
    // An exponent past 2^53 is marked for the checker to weigh against the schema (below); digits within it are not.
    expect(parseRecordedLine(harmless, { source: 'x.jsonl', line: 1 })).toEqual([expect.objectContaining({ unsafeIntegers: [{ instancePath: '/big', digits: '1e300', exponent: true }] })]);
    expect(unsafeIntegerLiterals('{"a": [1, -12345678901234567.5, 3e30, 1e15, 2.5e-3, "id 12345678901234567890"]}')).toEqual(['-12345678901234567.5', '3e30']);
  });

  test('inside a list, the place is written with `*`, and the line is found however deep it nests', () => {
    const deep = `{"name": "lookup", "arguments": {"id": 1, "tags": ${'['.repeat(5000)}9007199254740993${']'.repeat(5000)}}}`;
    const [item] = parseRecordedLine(deep, { source: 'x.jsonl', line: 1 });
    expect(item).toMatchObject({ unsafeIntegers: [{ instancePath: `/tags${'/*'.repeat(5000)}`, digits: '9007199254740993' }] });
  });

  test('`validate` exits 1 and prints the digits as logged', async () => {
    writeFileSync(join(dir, 'tools.json'), JSON.stringify([{ name: 'lookup', input_schema: { type: 'object', properties: { id: { type: 'integer' } } } }]).replace('"integer"}', '"integer", "maximum": 9223372036854775807}'));
    writeFileSync(join(dir, 'calls.jsonl'), `${line('9223372036854775808')}\n`);
    const result = await cliInProcess(['validate', 'tools.json', 'calls.jsonl'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('calls.jsonl');
    expect(result.stdout).toMatch(/^ {2}1:1 +error +\[lookup\] Unexpected integer 9223372036854775808 at `\/id`/m);
    expect(result.stdout).toContain('recorded/unsafe-integer');
  });

  test('worker threads report the same finding as one thread', () => {
    writeFileSync(join(dir, 'tools.json'), JSON.stringify(tools.map((t) => ({ name: t.name, input_schema: t.inputSchema }))));
    writeFileSync(join(dir, 'calls.jsonl'), Array.from({ length: 2000 }, (_, i) => line(i % 500 === 7 ? `9223372036854775${800 + i}` : String(i))).join('\n'));
    const one = cli(['validate', 'tools.json', 'calls.jsonl', '--format', 'json'], { cwd: dir, env: { PROMPT_CONTRACT_WORKERS: '1' } });
    const two = cli(['validate', 'tools.json', 'calls.jsonl', '--format', 'json'], { cwd: dir, env: { PROMPT_CONTRACT_WORKERS: '2' } });
    expect(one.code).toBe(1);
    expect(two.stdout).toBe(one.stdout);
    expect(JSON.parse(one.stdout)).toMatchObject({ diagnostics: [{ ruleId: 'recorded/unsafe-integer', line: 8, witnessCount: 4, actual: '9223372036854775807' }] });
  });
});

// Issue #25 (hostile re-test): written with an exponent, an integer past 2^53 was read rounded
// and compared as such: `9223372036854775808e0` passed `maximum: 9223372036854775807`. Only
// the schema tells an integer from a float written so (`3e30` is a fine `number`).
describe('a number past 2^53 written with an exponent', () => {
  const schemaTools = normalizeTools([
    {
      name: 'lookup',
      input_schema: {
        type: 'object',
        properties: { id: { type: 'integer', maximum: 9223372036854775807 }, mass: { type: 'number' }, cap: { type: 'number', maximum: 9223372036854775807 }, any: { anyOf: [{ type: 'integer' }, { type: 'string' }] }, list: { type: 'array', items: { type: 'integer' } } },
      },
    },
  ]);
  const call = (args: string) => `{"name": "lookup", "arguments": ${args}}`;
  const found = (args: string) => checkRecorded(schemaTools, parseRecordedLine(call(args), { source: 'x.jsonl', line: 1 }));

  test.each([
    ['an integer bounded past 2^53', '{"id": 9223372036854775808e0}', '/id'],
    ['an integer, 1e16', '{"id": 1e16}', '/id'],
    ['an integer, with a fraction and a negative sign', '{"id": -9.007199254740993E15}', '/id'],
    ['a number bounded past 2^53', '{"cap": 9.3e18}', '/cap'],
    ['a place the walk cannot tell (anyOf)', '{"any": 1e20}', '/any'],
    ['an integer item of a list', '{"list": [1, 2e17]}', '/list/*'],
  ])('is reported where the schema makes it matter: %s', async (_what, args, path) => {
    const d = await found(args);
    expect(d.map((x) => [x.ruleId, x.instancePath])).toEqual([['recorded/unsafe-integer', path]]);
  });

  test.each([
    ['a plain number', '{"mass": 3e30}'],
    ['a property no schema constrains', '{"other": 1e300}'],
    ['a small exponent', '{"id": 1e15}'],
  ])('is compared as read where it does not: %s', async (_what, args) => {
    expect(await found(args)).toEqual([]);
  });

  test('only a number can send a line to the closer look: the hex of ids and hashes does not', () => {
    for (const line of ['{"a": 1e16}', '{"a":[2e17]}', '{"a":-9.0e15}', '9e20']) expect(mayHoldUnsafeIntegers(line)).toBe(true);
    for (const line of ['{"id": "9b2e3e45-1c2d-4e5f"}', '{"id": "call_3e4f"}', '{"sha": "a1e2b3"}']) expect(mayHoldUnsafeIntegers(line)).toBe(false);
  });

  test('the CLI exits 1 for the call that broke the bound', async () => {
    writeFileSync(join(dir, 'tools.json'), JSON.stringify([{ name: 'lookup', input_schema: { type: 'object', properties: { id: { type: 'integer' } } } }]).replace('"integer"}', '"integer", "maximum": 9223372036854775807}'));
    writeFileSync(join(dir, 'calls.jsonl'), `${call('{"id": 9223372036854775808e0}')}\n`);
    const r = cli(['validate', 'tools.json', 'calls.jsonl'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Unexpected integer 9223372036854775808e0 at `/id`');
  });
});
