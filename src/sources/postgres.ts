import type { Client, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { InputError } from '../util/errors.js';
import type { PostgresSource, Row } from './persisted.js';

function messageOf(error: unknown): string {
  const e = error as { message?: unknown; code?: unknown; errors?: unknown };
  // Node reports a refused dual-stack connection as an AggregateError with an empty message.
  if (Array.isArray(e.errors) && e.errors.length > 0) return e.errors.map(messageOf).join('; ');
  const text = typeof e.message === 'string' && e.message !== '' ? e.message : typeof e.code === 'string' ? e.code : String(error);
  return text;
}

/** What every bad-query message ends with. */
const expectedQuery = 'expected one SELECT that returns a row id and a message JSON column';

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
    `Persisted source \`${source.name}\`: the query failed in PostgreSQL (${messageOf(error)}); ${expectedQuery}`,
    {},
    { cause: error },
  );
}

/** A character that continues an identifier: it makes `E'`, `$tag$` part of a name instead. */
const identifierChar = /[A-Za-z0-9_$\u0080-\uffff]/;
/** The opening delimiter of a dollar-quoted string: `$$` or `$tag$` (a tag never starts with a digit). */
const dollarQuote = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;

/** Where `sql[index]` is, as `line L, column C` (1-based). */
function position(sql: string, index: number): string {
  const before = sql.slice(0, index).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/**
 * The source's query as the one statement to send: trimmed, without its one optional trailing
 * `;`. A `;` anywhere else outside string literals, quoted identifiers and comments would
 * start a second statement (`SELECT ...; COMMIT; DELETE ...`), so it is refused here, before
 * any connection. Lexes as PostgreSQL does with `standard_conforming_strings` on, which the
 * reader's connection sets: `'...'` and `"..."` with doubled quotes, `E'...'` with backslash
 * escapes, `$tag$...$tag$`, `--` and nested block comments.
 */
export function singleStatement(source: PostgresSource): string {
  const sql = source.query;
  let semicolon = -1;
  const refuse = (at: number) =>
    new InputError('persisted/bad-query', `Persisted source \`${source.name}\`: the query holds more than one statement (a \`;\` at ${position(sql, at)}); ${expectedQuery}`);
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const start = i;
    if (c === '-' && sql[i + 1] === '-') {
      const newline = sql.indexOf('\n', i);
      i = newline < 0 ? sql.length : newline + 1;
      continue; // a comment may follow the trailing `;`
    }
    if (c === '/' && sql[i + 1] === '*') {
      let depth = 1;
      i += 2;
      while (i < sql.length && depth > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') (depth++, (i += 2));
        else if (sql[i] === '*' && sql[i + 1] === '/') (depth--, (i += 2));
        else i++;
      }
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    // Anything else after a `;` is a second statement, and so is a second `;`.
    if (semicolon >= 0) throw refuse(semicolon);
    if (c === ';') {
      semicolon = i++;
      continue;
    }
    if (c === "'" || c === '"') {
      const escapes = c === "'" && /[eE]/.test(sql[i - 1] ?? '') && !identifierChar.test(sql[i - 2] ?? '');
      i++;
      while (i < sql.length) {
        if (escapes && sql[i] === '\\') i += 2;
        else if (sql[i] === c && sql[i + 1] === c) i += 2;
        else if (sql[i] === c) break;
        else i++;
      }
      i++;
      continue;
    }
    if (c === '$' && !identifierChar.test(sql[i - 1] ?? '')) {
      dollarQuote.lastIndex = i;
      const open = dollarQuote.exec(sql);
      if (open) {
        const close = sql.indexOf(open[0], i + open[0].length);
        i = close < 0 ? sql.length : close + open[0].length;
        continue;
      }
    }
    i = start + 1;
  }
  return (semicolon < 0 ? sql : sql.slice(0, semicolon)).trim();
}

/**
 * Sends one statement with the extended query protocol, which runs exactly one statement:
 * the server refuses a string that holds several. (The simple protocol, pg's default for a
 * query without parameters, would run them all.)
 */
function query<R extends QueryResultRow = Row>(client: Client, text: string): Promise<QueryResult<R>> {
  // `queryMode` is not in @types/pg yet; pg reads it (lib/query.js, requiresPreparation).
  const config: QueryConfig & { queryMode: 'extended' } = { text, values: [], queryMode: 'extended' };
  return client.query<R>(config);
}

/**
 * The driver's connection settings: every transaction on the connection is read-only by
 * default, so one begun after a COMMIT that slipped through still cannot write. Options the
 * connection string sets itself are kept, before ours: pg lets the string's `options`
 * replace the config's, and for the server the last `-c` of a setting wins.
 */
function connectionConfig(url: string): { connectionString: string; options: string } {
  const ours = '-c default_transaction_read_only=on -c standard_conforming_strings=on';
  if (!/^postgres(ql)?:\/\//i.test(url)) return { connectionString: url, options: ours };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { connectionString: url, options: ours };
  }
  const theirs = parsed.searchParams.get('options');
  if (theirs === null) return { connectionString: url, options: ours };
  parsed.searchParams.delete('options');
  return { connectionString: parsed.toString(), options: `${theirs} ${ours}` };
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
  const client = new pg.Client({ ...connectionConfig(url), connectionTimeoutMillis: 10_000, application_name: 'prompt-contract' });
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
    await query(client, 'BEGIN TRANSACTION READ ONLY');
  } catch (error) {
    await end();
    throw failed(source, error);
  }
  return {
    client,
    async close() {
      await query(client, 'ROLLBACK').catch(() => undefined);
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
  const sql = singleStatement(source);
  const session = await openReadOnly(source);
  try {
    try {
      await query(session.client, `DECLARE prompt_contract_rows NO SCROLL CURSOR FOR ${sql}`);
    } catch (error) {
      throw failed(source, error);
    }
    const fetch = `FETCH FORWARD ${batch} FROM prompt_contract_rows`;
    for (;;) {
      let rows: Row[];
      try {
        rows = (await query(session.client, fetch)).rows;
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
