import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import pg from 'pg';
import { readFileSync } from 'node:fs';
import { checkPersisted } from '../../src/checks/persisted.js';
import { readPersistedCalls, type PostgresSource } from '../../src/sources/persisted.js';
import { singleStatement, withReadOnlyPostgres } from '../../src/sources/postgres.js';
import { InputError } from '../../src/util/errors.js';
import { collect, eventually, fixture, handlerSchemas, howToStart, seedReading, summary, tools, uniqueName, urlAs, withoutServer } from './helpers.js';

const url = process.env.PROMPT_CONTRACT_PG_URL;

if (withoutServer() === 'fail') {
  // Under CI the PostgreSQL tests must run: a missing server is a failure, never a skip.
  test('PostgreSQL is available under CI', () => {
    throw new Error(`CI is set but PROMPT_CONTRACT_PG_URL is not; ${howToStart}`);
  });
}

const describeWithServer = url ? describe : describe.skip;
if (withoutServer() === 'todo') {
  process.stderr.write(`PostgreSQL tests skipped: PROMPT_CONTRACT_PG_URL is not set; ${howToStart}\n`);
  test.todo(`persisted PostgreSQL sources: set PROMPT_CONTRACT_PG_URL to run them (${howToStart})`);
}

describeWithServer('persisted PostgreSQL sources', () => {
  // A schema of its own per run, so parallel runs and leftovers never meet.
  const schema = `pc_test_${process.pid}_${Date.now().toString(36)}`;
  // The reader logs in as the README's recommended role: SELECT on the tables, nothing more.
  const reader = uniqueName('pc_reader');
  const login = uniqueName('pc_login');
  // The owner of the tables, an ordinary role: it could write, were it not for the read-only transaction.
  const owner = uniqueName('pc_owner');
  let readerUrl: string;
  let ownerUrl: string;
  let admin: pg.Client;

  const source = (query: string, extra: Partial<PostgresSource> = {}): PostgresSource => ({ name: 'pg-conversations', postgres: readerUrl, query, ...extra });
  /** A source logging in as the tables' owner, for the tests that try to write. */
  const asOwner = (query: string, extra: Partial<PostgresSource> = {}): PostgresSource => source(query, { postgres: ownerUrl, ...extra });
  const count = async () => Number((await admin.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.messages`)).rows[0]!.n);
  /** Connections of this file's readers: its own roles, since other files' readers run alongside. */
  const ourConnections = async () =>
    Number((await admin.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'prompt-contract' AND usename IN ($1, $2)", [login, owner])).rows[0]!.n);
  /**
   * Whether they are all gone. The server drops a closed connection's entry a moment after the
   * client has closed it, so this polls, with room for a loaded machine; a leaked connection
   * stays forever.
   */
  const released = () => eventually(async () => (await ourConnections()) === 0, 20_000);

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(`SET search_path TO ${schema}`);
    await admin.query(readFileSync(fixture('conversations.sql'), 'utf8'));
    // The same messages in a JSONB column (minus the rows that are not JSON, which JSONB cannot hold).
    await admin.query('CREATE TABLE messages_jsonb AS SELECT id, message::jsonb AS message FROM messages WHERE id NOT IN (5, 8)');
    await admin.query(`CREATE ROLE ${owner} LOGIN`);
    await admin.query(`ALTER SCHEMA ${schema} OWNER TO ${owner}`);
    for (const table of ['messages', 'messages_jsonb']) await admin.query(`ALTER TABLE ${schema}.${table} OWNER TO ${owner}`);
    await admin.query(`CREATE ROLE ${reader} NOLOGIN`);
    await admin.query(`GRANT USAGE ON SCHEMA ${schema} TO ${reader}`);
    await admin.query(`GRANT SELECT ON ${schema}.messages, ${schema}.messages_jsonb TO ${reader}`);
    await admin.query(`CREATE ROLE ${login} LOGIN PASSWORD 'reader-secret' IN ROLE ${reader}`);
    readerUrl = urlAs(url!, login, 'reader-secret');
    ownerUrl = urlAs(url!, owner);
  });

  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    for (const role of [login, reader, owner]) await admin.query(`DROP ROLE IF EXISTS ${role}`);
    await admin.end();
  });

  test('reads a text column: Anthropic and OpenAI shapes, corrupt rows reported', async () => {
    const items = await collect(readPersistedCalls(source(`SELECT id, message FROM ${schema}.messages ORDER BY id`)));
    expect(summary(items)).toEqual(seedReading);
  });

  test('reads a JSONB column, fetched through the cursor in small batches', async () => {
    const items = await collect(readPersistedCalls(source(`SELECT id, message FROM ${schema}.messages_jsonb ORDER BY id;`, { batchSize: 2 })));
    expect(summary(items)).toEqual([
      '1:toolu_01:create_refund',
      '2:toolu_02:create_refund',
      '3#0:call_a:lookup_order',
      '3#1:call_b:create_refund',
      '6:toolu_06:create_refund',
      '7:toolu_07:escalate_to_humans',
    ]);
    expect(items[1]).toMatchObject({ arguments: { order_id: 'A-1000', amount_cents: 60000, reason: 'goodwill' } });
  });

  test('checkPersisted: invalid, handler-rejects, unknown-tool and corrupt findings', async () => {
    const diagnostics = await checkPersisted(tools, readPersistedCalls(source(`SELECT id, message FROM ${schema}.messages ORDER BY id`)), handlerSchemas);
    expect(diagnostics.map((d) => [d.ruleId, d.message])).toEqual([
      ['persisted/invalid', '2 of 4 persisted calls to `create_refund` in `pg-conversations` fail `maximum` at `/amount_cents` (must be <= 50000): 2 (60000), 3#1 (75000)'],
      ['persisted/handler-rejects', '1 of 4 persisted calls to `create_refund` in `pg-conversations` would be rejected by its handler: `required` at `/reason` (is required): 6'],
      ['persisted/unknown-tool', '1 of 6 persisted calls name `escalate_to_humans`, which is not a tool (did you mean `escalate_to_human`?): 7'],
      ['persisted/corrupt', expect.stringMatching(/^Row `5` of `pg-conversations`/)],
      ['persisted/corrupt', expect.stringMatching(/^Row `8` of `pg-conversations`/)],
    ]);
  });

  test('sampling runs in the database: ORDER BY random() LIMIT, TABLESAMPLE', async () => {
    expect(await collect(readPersistedCalls(source(`SELECT id, message FROM ${schema}.messages WHERE id IN (1, 2, 6) ORDER BY random() LIMIT 2`)))).toHaveLength(2);
    expect(await collect(readPersistedCalls(source(`SELECT id, message FROM ${schema}.messages_jsonb TABLESAMPLE BERNOULLI (100)`)))).toHaveLength(6);
  });

  test('`env:VARNAME` reads the connection string from the environment', async () => {
    process.env.PC_TEST_CONVERSATIONS_URL = readerUrl;
    try {
      const items = await collect(readPersistedCalls({ name: 'from-env', postgres: 'env:PC_TEST_CONVERSATIONS_URL', query: `SELECT id, message FROM ${schema}.messages WHERE id = 1` }));
      expect(summary(items)).toEqual(['1:toolu_01:create_refund']);
    } finally {
      delete process.env.PC_TEST_CONVERSATIONS_URL;
    }
    const error = await collect(readPersistedCalls({ name: 'from-env', postgres: 'env:PC_TEST_UNSET_URL', query: 'SELECT 1' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'persisted/unreachable', message: expect.stringContaining('environment variable `PC_TEST_UNSET_URL` is not set') });
  });

  test('the connection the reader uses is read-only: an INSERT through it fails, even for the owner', async () => {
    await withReadOnlyPostgres(asOwner(''), async (client) => {
      await expect(client.query(`INSERT INTO ${schema}.messages VALUES (99, 'x', '{}')`)).rejects.toThrow('cannot execute INSERT in a read-only transaction');
    });
    expect(await count()).toBe(8);
  });

  test('a write hidden in the query fails as a bad query and changes nothing', async () => {
    const error = await collect(readPersistedCalls(asOwner(`SELECT id, message FROM ${schema}.messages; DELETE FROM ${schema}.messages`))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/bad-query', message: expect.stringContaining('expected one SELECT') });
    expect(await count()).toBe(8);
  });

  // A smuggled COMMIT ends the read-only transaction; whatever follows must still write nothing.
  test.each([
    ['a COMMIT and a DELETE', (s: string) => `SELECT id, message FROM ${s}.messages; COMMIT; DELETE FROM ${s}.messages`],
    ['a COMMIT and a DROP TABLE', (s: string) => `SELECT id, message FROM ${s}.messages; COMMIT; DROP TABLE ${s}.messages`],
    ['a COMMIT, a read-write transaction and a DELETE', (s: string) => `SELECT 1; COMMIT; BEGIN READ WRITE; DELETE FROM ${s}.messages; COMMIT;`],
    ['a writable CTE', (s: string) => `WITH d AS (DELETE FROM ${s}.messages RETURNING *) SELECT id, message FROM d`],
    ['a writable CTE with a trailing `;` and comment', (s: string) => `WITH d AS (DELETE FROM ${s}.messages RETURNING *) SELECT id, message FROM d; -- just one`],
  ])('%s in the query: a bad query or a read-only violation, and every row is still there', async (_, query) => {
    const error = await collect(readPersistedCalls(asOwner(query(schema)))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/bad-query', message: expect.stringMatching(/^Persisted source `pg-conversations`: .*expected one SELECT/) });
    expect(await count()).toBe(8);
    expect(await released()).toBe(true);
  });

  test('every transaction on the connection is read-only, even one begun after a COMMIT', async () => {
    await withReadOnlyPostgres(asOwner(''), async (client) => {
      await client.query('COMMIT');
      await expect(client.query(`DELETE FROM ${schema}.messages`)).rejects.toThrow('cannot execute DELETE in a read-only transaction');
      await expect(client.query(`DROP TABLE ${schema}.messages`)).rejects.toThrow('cannot execute DROP TABLE in a read-only transaction');
    });
    expect(await count()).toBe(8);
  });

  test('read-only even when the connection string sets options of its own', async () => {
    const withOptions = `${ownerUrl}${ownerUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c statement_timeout=5000')}`;
    await withReadOnlyPostgres({ name: 'opts', postgres: withOptions, query: '' }, async (client) => {
      await client.query('COMMIT');
      expect((await client.query<{ v: string }>('SELECT current_setting($1) AS v', ['statement_timeout'])).rows[0]!.v).toBe('5s');
      await expect(client.query(`DELETE FROM ${schema}.messages`)).rejects.toThrow('read-only transaction');
    });
    expect(await count()).toBe(8);
  });

  test('semicolons inside literals, quoted names and comments are not statements; one trailing `;` is allowed', async () => {
    const query = [
      `SELECT id, message /* a; b /* nested; */ c; */ FROM ${schema}.messages AS "odd;name"`,
      String.raw`WHERE ';' <> E'\';' AND $$;$$ <> $tag$ ; $ $tag$ -- trailing; comment`,
      'AND id IN (1, 2) ORDER BY id; -- the end',
    ].join('\n');
    expect(summary(await collect(readPersistedCalls(source(query))))).toEqual(['1:toolu_01:create_refund', '2:toolu_02:create_refund']);
  });

  test('a bad query is an InputError naming the source', async () => {
    const error = await collect(readPersistedCalls(source(`SELECT id, message FROM ${schema}.no_such_table`))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/bad-query', message: expect.stringMatching(/^Persisted source `pg-conversations`: the query failed in PostgreSQL \(relation ".*no_such_table" does not exist\)/) });
  });

  test('a refused connection is an InputError naming the source, with the password masked', async () => {
    const error = await collect(readPersistedCalls({ name: 'replica', postgres: 'postgres://reader:s3cret@127.0.0.1:1/db', query: 'SELECT 1' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/unreachable', message: expect.stringContaining('Persisted source `replica`: cannot connect to PostgreSQL at `postgres://reader:***@127.0.0.1:1/db`') });
    expect((error as Error).message).not.toContain('s3cret');
  });

  test('a missing database is unreachable, not a bad query', async () => {
    const missing = readerUrl.replace(/\/[^/?]+(\?|$)/, '/prompt_contract_no_such_db$1');
    const error = await collect(readPersistedCalls({ name: 'nodb', postgres: missing, query: 'SELECT 1' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'persisted/unreachable' });
  });

  test('connections are released after a full read, an early stop and a failure', async () => {
    await collect(readPersistedCalls(source(`SELECT id, message FROM ${schema}.messages`)));
    for await (const item of readPersistedCalls(source(`SELECT id, message FROM ${schema}.messages`, { batchSize: 1 }))) {
      expect(item).toBeDefined();
      break;
    }
    await collect(readPersistedCalls(source('SELECT nonsense FROM'))).catch(() => undefined);
    expect(await released()).toBe(true);
  });
});

// The statement check runs before any connection: no server needed.
describe('a PostgreSQL query is exactly one statement', () => {
  const pgSource = (query: string): PostgresSource => ({ name: 'replica', postgres: 'postgres://localhost/db', query });

  test.each([
    ['SELECT 1', 'SELECT 1'],
    ['  SELECT 1;  ', 'SELECT 1'],
    ['SELECT 1; -- done\n/* really */ ', 'SELECT 1'],
    [`SELECT ';', ''';''', "a;""b" FROM t`, `SELECT ';', ''';''', "a;""b" FROM t`],
    [String.raw`SELECT E'\';', e'\\' FROM t;`, String.raw`SELECT E'\';', e'\\' FROM t`],
    ['SELECT $$;$$, $a$ $$; $a$, $1 FROM t', 'SELECT $$;$$, $a$ $$; $a$, $1 FROM t'],
    ['SELECT 1 /* ; /* ; */ ; */', 'SELECT 1 /* ; /* ; */ ; */'],
  ])('%j is accepted', (query, sent) => {
    expect(singleStatement(pgSource(query))).toBe(sent);
  });

  test.each([
    ['SELECT 1; COMMIT; DELETE FROM messages', 1, 9],
    ['SELECT 1;\nDROP TABLE messages', 1, 9],
    ['SELECT 1;;', 1, 9],
    [`SELECT 'a'';'; DELETE FROM t`, 1, 14],
    [String.raw`SELECT 'a\'; DELETE FROM t`, 1, 12],
    [String.raw`SELECT E'a\'';` + '\nDELETE FROM t', 1, 14],
    ['SELECT $$;$$; DELETE FROM t', 1, 13],
    ['SELECT 1 -- c\n; DELETE FROM t', 2, 1],
    ['SELECT 1 /* */; DELETE FROM t', 1, 15],
    ['SELECT a$$; DELETE FROM t', 1, 11],
  ])('%j is refused at its first `;`', (query, line, column) => {
    let error: unknown;
    try {
      singleStatement(pgSource(query));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({
      code: 'persisted/bad-query',
      message: `Persisted source \`replica\`: the query holds more than one statement (a \`;\` at line ${line}, column ${column}); expected one SELECT that returns a row id and a message JSON column`,
    });
  });
});
