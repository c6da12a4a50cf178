import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPersisted } from '../../src/checks/persisted.js';
import { persistedRules } from '../../src/checks/persisted.rules.js';
import { readPersistedCalls, type PersistedSource } from '../../src/sources/persisted.js';
import { openSqliteReadOnly } from '../../src/sources/sqlite.js';
import { InputError } from '../../src/util/errors.js';
import { collect, fixture, handlerSchemas, seedReading, summary, tools } from './helpers.js';


let dir: string;
let file: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pc-sqlite-'));
  file = join(dir, 'conversations.db');
  const db = new Database(file);
  db.exec(readFileSync(fixture('conversations.sql'), 'utf8'));
  db.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const source = (query = 'SELECT id, message FROM messages ORDER BY id', extra: Partial<PersistedSource> = {}): PersistedSource => ({
  name: 'conversations',
  sqlite: file,
  query,
  ...extra,
});

describe('readPersistedCalls (SQLite)', () => {
  test('reads Anthropic messages and content arrays, OpenAI tool_calls, and reports corrupt rows', async () => {
    const items = await collect(readPersistedCalls(source()));
    expect(summary(items)).toEqual(seedReading);
    expect(items[3]).toMatchObject({ arguments: { order_id: 'B-0001', amount_cents: 75000, reason: 'damaged' }, where: { source: 'conversations' } });
    expect(items[4]).toMatchObject({ message: expect.stringMatching(/^The message in column `message` is not valid JSON/) });
    expect(items[7]).toMatchObject({ message: expect.stringMatching(/arguments of `lookup_order` are a string that is not JSON/) });
  });

  test('sampling is the query: LIMIT and ORDER BY random() run in the database', async () => {
    expect(await collect(readPersistedCalls(source('SELECT id, message FROM messages WHERE id IN (1, 2, 6) ORDER BY random() LIMIT 2')))).toHaveLength(2);
  });

  test('column hints pick the id and message columns; a missing column is an InputError', async () => {
    const items = await collect(readPersistedCalls(source('SELECT conversation_id, id, message FROM messages WHERE id = 1', { idColumn: 'conversation_id', column: 'message' })));
    expect(summary(items)).toEqual(['conv-1:toolu_01:create_refund']);
    const error = await collect(readPersistedCalls(source('SELECT id, message FROM messages', { column: 'body' }))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/bad-query', message: expect.stringContaining('no column `body`') });
  });

  test('a NULL message is a corrupt row; a single-column query names rows by position', async () => {
    const items = await collect(readPersistedCalls(source("SELECT NULL AS id, message FROM messages WHERE id = 1 UNION ALL SELECT 9, NULL")));
    expect(summary(items)).toEqual(['#1:toolu_01:create_refund', 'corrupt@9']);
    expect(summary(await collect(readPersistedCalls(source('SELECT message FROM messages WHERE id IN (1, 2) ORDER BY id'))))).toEqual([
      '#1:toolu_01:create_refund',
      '#2:toolu_02:create_refund',
    ]);
  });
});

describe('checkPersisted (SQLite)', () => {
  test('finds stale stored calls, calls the handler would reject, renamed tools and corrupt rows', async () => {
    const diagnostics = await checkPersisted(tools, readPersistedCalls(source()), handlerSchemas);
    expect(diagnostics.map((d) => [d.ruleId, d.severity, d.message])).toEqual([
      [
        'persisted/invalid',
        'error',
        '2 of 4 persisted calls to `create_refund` in `conversations` fail `maximum` at `/amount_cents` (must be <= 50000): 2 (60000), 3#1 (75000)',
      ],
      [
        'persisted/handler-rejects',
        'error',
        '1 of 4 persisted calls to `create_refund` in `conversations` would be rejected by its handler: `required` at `/reason` (is required): 6',
      ],
      [
        'persisted/unknown-tool',
        'error',
        '1 of 6 persisted calls name `escalate_to_humans`, which is not a tool (did you mean `escalate_to_human`?): 7',
      ],
      ['persisted/corrupt', 'warning', expect.stringMatching(/^Row `5` of `conversations` is not a readable message: The message in column `message` is not valid JSON/)],
      ['persisted/corrupt', 'warning', expect.stringMatching(/^Row `8` of `conversations` is not a readable message: The arguments of `lookup_order`/)],
    ]);
    expect(diagnostics[0]).toMatchObject({
      tool: 'create_refund',
      instancePath: '/amount_cents',
      witnessCount: 2,
      total: 4,
      witnesses: [
        { id: '2', value: 60000, source: 'conversations' },
        { id: '3#1', value: 75000, source: 'conversations' },
      ],
      url: expect.stringMatching(/docs\/rules\/persisted\.md#invalid$/),
    });
    expect(diagnostics[0]).not.toHaveProperty('file');
  });

  test("without handler schemas there is no handler finding; a tool's json-schema handler is used when given", async () => {
    const plain = await checkPersisted(tools, readPersistedCalls(source()));
    expect(plain.map((d) => d.ruleId)).not.toContain('persisted/handler-rejects');
    const withHandler = tools.map((t) => (t.name === 'create_refund' ? { ...t, handler: { kind: 'json-schema' as const, schema: handlerSchemas.get('create_refund')! } } : t));
    const found = await checkPersisted(withHandler, readPersistedCalls(source()));
    expect(found.filter((d) => d.ruleId === 'persisted/handler-rejects')).toHaveLength(1);
  });

  test('every rule has a docs section', () => {
    const docs = readFileSync(fileURLToPath(new URL('../../docs/rules/persisted.md', import.meta.url)), 'utf8');
    for (const rule of Object.values(persistedRules)) expect(docs).toContain(`\n## ${rule.id.split('/')[1]}\n`);
  });
});

describe('SQLite sources are read-only and fail clearly', () => {
  test('the handle the reader opens refuses writes (SQLITE_READONLY)', async () => {
    const db = await openSqliteReadOnly({ name: 'conversations', sqlite: file, query: '' });
    try {
      expect(() => db.exec("INSERT INTO messages VALUES (99, 'x', '{}')")).toThrow(expect.objectContaining({ code: 'SQLITE_READONLY' }));
    } finally {
      db.close();
    }
  });

  test('a query that writes fails as a bad query and changes nothing', async () => {
    const error = await collect(readPersistedCalls(source('DELETE FROM messages RETURNING id, message'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/bad-query', message: expect.stringContaining('readonly') });
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 8 });
    db.close();
  });

  test.each([
    ['a DELETE', 'SELECT id, message FROM messages; DELETE FROM messages'],
    ['a COMMIT and a DELETE', 'SELECT id, message FROM messages; COMMIT; DELETE FROM messages'],
    ['a DROP TABLE', 'SELECT id, message FROM messages;\nDROP TABLE messages;'],
  ])('a second statement (%s) is refused as a bad query and changes nothing', async (_, query) => {
    const error = await collect(readPersistedCalls(source(query))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/bad-query' });
    expect((error as Error).message).toBe(
      'Persisted source `conversations`: the query failed in SQLite (The supplied SQL string contains more than one statement); expected one SELECT that returns a row id and a message JSON column',
    );
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 8 });
    db.close();
  });

  test("one trailing `;` and a semicolon inside a literal are one statement", async () => {
    const items = await collect(readPersistedCalls(source("SELECT id, message FROM messages WHERE message <> ';' AND id IN (1, 2) ORDER BY id; -- the end")));
    expect(summary(items)).toEqual(['1:toolu_01:create_refund', '2:toolu_02:create_refund']);
  });

  test('a bad query is an InputError naming the source', async () => {
    const error = await collect(readPersistedCalls(source('SELECT id, message FROM no_such_table'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/bad-query' });
    // Matched on its own so a failure prints the message received.
    expect((error as Error).message).toMatch(/^Persisted source `conversations`: the query failed in SQLite \(no such table: no_such_table\)/);
  });

  test('a statement that returns no rows is a bad query', async () => {
    const error = await collect(readPersistedCalls(source('CREATE TABLE t (x)'))).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'persisted/bad-query' });
  });

  test('a missing file is an InputError naming the source and the file', async () => {
    const missing = join(dir, 'missing.db');
    const error = await collect(readPersistedCalls({ name: 'archive', sqlite: missing, query: 'SELECT 1' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/unreachable', file: missing, message: expect.stringContaining('Persisted source `archive`: cannot open SQLite database') });
  });

  test('a file that is not a database is unreachable, not a bad query', async () => {
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'this is not a database, just some text that is long enough to have a header'.repeat(20));
    const error = await collect(readPersistedCalls({ name: 'junk', sqlite: junk, query: 'SELECT 1' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'persisted/unreachable', message: expect.stringContaining('`junk`') });
  });
});
