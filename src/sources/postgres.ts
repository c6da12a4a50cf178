import type { Client } from 'pg';
import { InputError } from '../util/errors.js';
import type { PostgresSource, Row } from './persisted.js';

function messageOf(error: unknown): string {
  const e = error as { message?: unknown; code?: unknown; errors?: unknown };
  // Node reports a refused dual-stack connection as an AggregateError with an empty message.
  if (Array.isArray(e.errors) && e.errors.length > 0) return e.errors.map(messageOf).join('; ');
  const text = typeof e.message === 'string' && e.message !== '' ? e.message : typeof e.code === 'string' ? e.code : String(error);
  return text;
}

/** The connection string, with `env:VARNAME` read from the environment. */
function connectionString(source: PostgresSource): string {
  if (!source.postgres.startsWith('env:')) return source.postgres;
  const name = source.postgres.slice(4);
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new InputError('persisted/unreachable', `Persisted source \`${source.name}\`: environment variable \`${name}\` is not set; expected a PostgreSQL connection string in it`);
  }
  return value;
}

/** Where the source points, for messages, with any password masked. */
function target(source: PostgresSource): string {
  return source.postgres.startsWith('env:') ? `\`${source.postgres}\`` : `\`${source.postgres.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@')}\``;
}

function unreachable(source: PostgresSource, error: unknown): InputError {
  return new InputError(
    'persisted/unreachable',
    `Persisted source \`${source.name}\`: cannot connect to PostgreSQL at ${target(source)} (${messageOf(error)}); expected a reachable server and database`,
    {},
    { cause: error },
  );
}

// SQLSTATE classes that mean the connection or the server went away, not that the SQL was wrong.
const lostConnection = /^(08|57P|53)/;

function failed(source: PostgresSource, error: unknown): InputError {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || lostConnection.test(code) || !/^[0-9A-Z]{5}$/.test(code)) return unreachable(source, error);
  return new InputError(
    'persisted/bad-query',
    `Persisted source \`${source.name}\`: the query failed in PostgreSQL (${messageOf(error)}); expected one SELECT that returns a row id and a message JSON column`,
    {},
    { cause: error },
  );
}

/** An open connection inside a read-only transaction; `close()` rolls back and releases it. */
interface ReadOnlySession {
  client: Client;
  close(): Promise<void>;
}

async function openReadOnly(source: PostgresSource): Promise<ReadOnlySession> {
  const url = connectionString(source);
  // Loaded on demand: only a configured PostgreSQL source needs the driver.
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, application_name: 'prompt-contract' });
  // A dropped connection is emitted as an event; without a listener it would crash the process. The next query reports it.
  client.on('error', () => undefined);
  const end = () => client.end().catch(() => undefined);
  try {
    await client.connect();
  } catch (error) {
    await end();
    throw unreachable(source, error);
  }
  try {
    await client.query('BEGIN TRANSACTION READ ONLY');
  } catch (error) {
    await end();
    throw failed(source, error);
  }
  return {
    client,
    async close() {
      await client.query('ROLLBACK').catch(() => undefined);
      await end();
    },
  };
}

/**
 * Runs `fn` with a connection to the source inside a `READ ONLY` transaction, then rolls
 * back and releases the connection whatever happens. The reader reads through this, so
 * any statement, even one hidden in the user's query, that tries to write fails.
 */
export async function withReadOnlyPostgres<T>(source: PostgresSource, fn: (client: Client) => Promise<T>): Promise<T> {
  const session = await openReadOnly(source);
  try {
    return await fn(session.client);
  } finally {
    await session.close();
  }
}

/** Streams the rows of a PostgreSQL source's query through a server-side cursor, a batch per round trip. */
export async function* postgresRows(source: PostgresSource): AsyncGenerator<Row, void, undefined> {
  const batch = Math.max(1, Math.floor(source.batchSize ?? 1000));
  const session = await openReadOnly(source);
  try {
    const sql = source.query.trim().replace(/;+\s*$/, '');
    try {
      await session.client.query(`DECLARE prompt_contract_rows NO SCROLL CURSOR FOR ${sql}`);
    } catch (error) {
      throw failed(source, error);
    }
    const fetch = `FETCH FORWARD ${batch} FROM prompt_contract_rows`;
    for (;;) {
      let rows: Row[];
      try {
        rows = (await session.client.query<Row>(fetch)).rows;
      } catch (error) {
        throw failed(source, error);
      }
      for (const row of rows) yield row;
      if (rows.length < batch) break;
    }
  } finally {
    await session.close();
  }
}
