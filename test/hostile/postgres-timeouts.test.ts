// A query that sleeps, waits on a lock or leaves its transaction idle must end, and end on
// the server too; an interrupted `check` must take its query with it.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import pg from 'pg';
import { readPersistedCalls, type PostgresSource } from '../../src/sources/persisted.js';
import { InputError } from '../../src/util/errors.js';
import { demoCopy } from '../cli/helpers.js';
import { collect, describeWithPostgres, eventually, scratchDatabase, spawnCli, type ScratchDatabase } from '../sources/helpers.js';

// No test here times anything. What ends a query is PostgreSQL's own timeout, named in the
// error (`statement_timeout`, `lock_timeout`, ...), with the settings read back from the
// session; a reader that set none would sleep out its 30 s and return a row, or wait on the
// lock until the test's timeout. Polls of the server get room for a loaded machine: they
// return as soon as the server agrees.
const SETTLE = 20_000;

describeWithPostgres('PostgreSQL sources end on their timeouts and on signals', () => {
  let db: ScratchDatabase;
  let reader: string;

  const source = (query: string, extra: Partial<PostgresSource> = {}): PostgresSource => ({ name: 'slow-replica', postgres: reader, query, ...extra });
  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e);
  // The reader logs in as application_name `prompt-contract`; this database is this file's alone.
  const count = async (where: string) =>
    Number((await db.admin.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'prompt-contract' AND datname = current_database() AND ${where}`)).rows[0]!.n);
  /** Statements of ours running on the server. */
  const running = () => count("state = 'active'");
  /** Connections of ours, running or not. */
  const connections = () => count('true');

  beforeAll(async () => {
    db = await scratchDatabase('pc_hostile_timeout');
    await db.admin.query('CREATE TABLE messages (id int PRIMARY KEY, message jsonb NOT NULL)');
    await db.admin.query(`INSERT INTO messages SELECT g, '{"role":"user","content":"hi"}' FROM generate_series(1, 5) AS g`);
    reader = (await db.reader(['messages'])).url;
  });

  afterAll(async () => {
    await db?.drop();
  });

  test('a 1 s timeout ends `pg_sleep(30)` by `statement_timeout`: a timeout naming the source and `timeoutMs`', async () => {
    const error = await failure(collect(readPersistedCalls(source("SELECT 1 AS id, '{}'::jsonb AS message FROM pg_sleep(30)", { timeoutMs: 1000 }))));
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/timeout' });
    expect((error as Error).message).toMatch(/^Persisted source `slow-replica`: the query ran longer than .*`statement_timeout`.*; .*raise `timeoutMs`/);
    expect(await eventually(async () => (await running()) === 0 && (await connections()) === 0, SETTLE)).toBe(true);
  }, 60_000);

  test('the default timeout is 60 s (30 s for a lock wait); `timeoutMs` changes it', async () => {
    const { withReadOnlyPostgres } = await import('../../src/sources/postgres.js');
    const settings = (extra: Partial<PostgresSource>) =>
      withReadOnlyPostgres(source('', extra), async (client) => {
        const shown = await client.query<{ s: string }>("SELECT concat_ws(' ', current_setting('statement_timeout'), current_setting('lock_timeout'), current_setting('idle_in_transaction_session_timeout')) AS s");
        return shown.rows[0]!.s;
      });
    expect(await settings({})).toBe('1min 30s 1min');
    expect(await settings({ timeoutMs: 4000 })).toBe('4s 2s 4s');
  });

  test('a lock held by another session ends by `lock_timeout`', async () => {
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE messages IN ACCESS EXCLUSIVE MODE');
      // Without `lock_timeout` the wait would outlast the test: the holder lets go only after it.
      const error = await failure(collect(readPersistedCalls(source('SELECT id, message FROM messages', { timeoutMs: 1000 }))));
      expect(error).toBeInstanceOf(InputError);
      expect(error).toMatchObject({ code: 'persisted/timeout' });
      expect((error as Error).message).toMatch(/^Persisted source `slow-replica`: the query waited longer than .* for a lock .*`lock_timeout`.*raise `timeoutMs`/);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
    expect(await eventually(async () => (await connections()) === 0, SETTLE)).toBe(true);
  }, 60_000);

  test('a reader that stops fetching is ended by `idle_in_transaction_session_timeout`', async () => {
    const error = await failure(
      (async () => {
        for await (const item of readPersistedCalls(source("SELECT id, json_build_object('role', 'assistant', 'content', json_build_array(json_build_object('type', 'tool_use', 'id', 't' || id, 'name', 'x', 'input', '{}'::json))) AS message FROM messages ORDER BY id", { timeoutMs: 1000, batchSize: 1 }))) {
          expect(item).toBeDefined();
          // Longer than the 1 s the server allows; should its timer run late, a later fetch fails instead.
          await new Promise((resolve) => setTimeout(resolve, 1500));
        }
      })(),
    );
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/timeout' });
    expect((error as Error).message).toMatch(/^Persisted source `slow-replica`: .*`idle_in_transaction_session_timeout`.*raise `timeoutMs`/);
    expect(await eventually(async () => (await connections()) === 0, SETTLE)).toBe(true);
  }, 60_000);

  test('signal handlers are installed only while a query runs', async () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    await collect(readPersistedCalls(source('SELECT id, message FROM messages')));
    await failure(collect(readPersistedCalls(source('SELECT nonsense FROM'))));
    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(before);
  });

  test('in a program that handles SIGINT itself, the signal cancels the query on the server and the read fails as interrupted', async () => {
    // The host program's own listener: the process is the program's to end, not the reader's.
    const host = () => undefined;
    process.on('SIGINT', host);
    try {
      // A signal that did not cancel the query would leave it to `statement_timeout` (20 s):
      // `persisted/timeout`, not `persisted/interrupted`.
      const reading = failure(collect(readPersistedCalls(source("SELECT 1 AS id, '{}'::jsonb AS message FROM pg_sleep(30)", { timeoutMs: 20_000 }))));
      expect(await eventually(async () => (await count("wait_event = 'PgSleep'")) > 0, SETTLE)).toBe(true);
      process.emit('SIGINT', 'SIGINT');
      const error = await reading;
      expect(error).toBeInstanceOf(InputError);
      expect(error).toMatchObject({ code: 'persisted/interrupted', message: expect.stringMatching(/^Persisted source `slow-replica`: interrupted by SIGINT/) });
      expect(await eventually(async () => (await running()) === 0 && (await connections()) === 0, SETTLE)).toBe(true);
      expect(process.listeners('SIGINT')).toEqual([host]);
    } finally {
      process.off('SIGINT', host);
    }
  }, 90_000);

  test.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('`check` sent %s while its query sleeps: it exits on the signal and the query is gone from the server', async (signal, code) => {
    const demo = demoCopy();
    try {
      // Ten minutes: a query the signal left behind would still be sleeping when the polls below give up.
      const query = "SELECT 1 AS id, '{}'::jsonb AS message FROM pg_sleep(600)";
      demo.edit('prompt-contract.config.ts', 'persisted: [', `persisted: [\n    { name: 'pg-sleeper', postgres: 'env:PC_HOSTILE_PG_URL', query: ${JSON.stringify(query)} },`);
      // A `check` that ignored the signal is killed (SIGKILL) after 60 s, which fails the exit check.
      const run = spawnCli(['check'], { cwd: demo.dir, env: { PC_HOSTILE_PG_URL: reader } });
      // Wait until the query is running on the server, then interrupt.
      expect(await eventually(async () => (await count("wait_event = 'PgSleep'")) > 0, SETTLE)).toBe(true);
      run.child.kill(signal);
      const result = await run.done;
      expect(result.signal === signal || result.code === code || result.code === 2).toBe(true);
      expect(await eventually(async () => (await running()) === 0, SETTLE)).toBe(true);
      expect(await eventually(async () => (await connections()) === 0, SETTLE)).toBe(true);
    } finally {
      demo.remove();
    }
  }, 120_000);
});
