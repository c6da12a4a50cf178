import { InputError } from '../util/errors.js';
import { corrupt, itemsFromValue, parseJson } from './shapes.js';
import type { RecordedCall, RecordedItem } from './types.js';

/** Which columns of the query's rows to read; the defaults fit `SELECT id, message FROM ...`. */
export interface RowHints {
  /** The column that holds the message JSON. Default: the first column that is not the id column. */
  column?: string;
  /** The column that names a row in findings. Default: `id` when the query returns one, else the first column. */
  idColumn?: string;
}

/** What every source may set about how long it waits. */
export interface SourceLimits {
  /**
   * How long, in milliseconds, the database may make the reader wait; 60000 (60 s) by default.
   * PostgreSQL: each statement (`statement_timeout`; the query runs one batch per statement),
   * a wait for a lock (`lock_timeout`, half of it) and the transaction sitting idle between
   * two batches (`idle_in_transaction_session_timeout`). SQLite: a wait for another
   * connection's lock (the busy timeout). Running out is a could-not-run error naming the
   * source and this setting.
   */
  timeoutMs?: number;
}

/**
 * A database of persisted conversations. `query` is the user's own SQL and decides what is
 * read: sampling belongs in it (`LIMIT`, `TABLESAMPLE`, `ORDER BY random()`), so the
 * database does the heavy lifting. It runs read-only.
 */
export type PersistedSource =
  | ({ name: string; sqlite: string; query: string } & RowHints & SourceLimits)
  | ({
      name: string;
      /** A connection string (a `postgres://` URL), or `env:VARNAME` to read it from the environment. */
      postgres: string;
      query: string;
      /** Rows fetched per round trip; 1000 by default. */
      batchSize?: number;
      /**
       * DANGEROUS. Reads even when the role the connection logs in as is privileged: a
       * superuser, a role with REPLICATION or CREATEROLE, a member of `pg_write_server_files`,
       * `pg_execute_server_program`, `pg_read_server_files` or `pg_signal_backend` (or of a role
       * that is one of those), one that may execute a server-administration function such as
       * `pg_stat_reset()` or `lo_export()`, or dblink, or one that may execute a SECURITY
       * DEFINER function whose owner is any of these. Such a role can write outside the
       * read-only transaction the query runs in: through dblink, `lo_export` (files on the
       * server), replication slots, statistics resets, signals to other sessions. Without this
       * flag such a source is refused before its query runs, with the REVOKE that takes a
       * function out of reach. Only `true` counts. Meant for a throwaway database; for anything
       * else, log in as a role that can only read (see the recipe in docs/safety.md).
       */
      dangerouslyAllowPrivilegedRole?: boolean;
    } & RowHints &
      SourceLimits);

export type SqliteSource = Extract<PersistedSource, { sqlite: string }>;
export type PostgresSource = Extract<PersistedSource, { postgres: string }>;

/** A database row as the drivers return it: column name -> value. */
export type Row = Record<string, unknown>;

/**
 * Runs a persisted source's query read-only and streams the tool calls found in its rows.
 * A row whose message is not readable JSON, or holds something other than a message or a
 * call, yields a CorruptRecord and the run goes on. An unreachable database or a query that
 * fails throws an InputError naming the source: `persisted/unreachable`, `persisted/bad-query`,
 * `persisted/timeout` (the source's `timeoutMs` ran out), `persisted/privileged-role` (a
 * PostgreSQL role that can write outside the read-only transaction), `persisted/interrupted`
 * (SIGINT or SIGTERM arrived while the query ran; it was cancelled on the server).
 */
export async function* readPersistedCalls(source: PersistedSource): AsyncGenerator<RecordedItem, void, undefined> {
  const rows = 'sqlite' in source ? (await import('./sqlite.js')).sqliteRows(source) : (await import('./postgres.js')).postgresRows(source);
  let index = 0;
  for await (const row of rows) for (const item of itemsFromRow(row, ++index, source)) yield item;
}

function columnsOf(row: Row): string[] {
  return Object.keys(row);
}

/** Longer row ids are cut: an id is a name for a row in a report, not its content. */
const MAX_ID_LENGTH = 120;

function display(value: unknown): string {
  const text =
    typeof value === 'string' ? value
    : typeof value === 'number' || typeof value === 'bigint' ? String(value)
    : value instanceof Date ? value.toISOString()
    // A BLOB or bytea id, as SQL writes one: x'0123ab'.
    : value instanceof Uint8Array ? `x'${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}'`
    : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_ID_LENGTH ? `${text.slice(0, MAX_ID_LENGTH)}…` : text;
}

function missingColumn(source: PersistedSource, column: string, row: Row): InputError {
  return new InputError(
    'persisted/bad-query',
    `Persisted source \`${source.name}\`: the query returned no column \`${column}\`; it returned ${columnsOf(row).map((c) => `\`${c}\``).join(', ')}`,
  );
}

/** Row -> the calls in its message column, named by its id column (`row#i` when it holds several). */
export function itemsFromRow(row: Row, index: number, source: PersistedSource): RecordedItem[] {
  const columns = columnsOf(row);
  if (source.idColumn !== undefined && !(source.idColumn in row)) throw missingColumn(source, source.idColumn, row);
  if (source.column !== undefined && !(source.column in row)) throw missingColumn(source, source.column, row);
  const idColumn = source.idColumn ?? ('id' in row ? 'id' : columns.length > 1 ? columns[0] : undefined);
  const column = source.column ?? columns.find((c) => c !== idColumn);
  const rowId = idColumn === undefined || row[idColumn] === null || row[idColumn] === undefined ? `#${index}` : display(row[idColumn]);
  const where = { source: source.name, row: rowId };
  if (column === undefined) return [corrupt('The row has no message column', where)];
  let value = row[column];
  const blob = Buffer.isBuffer(value) ? value : undefined;
  if (blob) value = blob.toString('utf8');
  if (value === null || value === undefined) return [corrupt(`The message column \`${column}\` is NULL`, where)];
  if (typeof value === 'bigint') value = String(value);
  if (typeof value === 'string') {
    const parsed = parseJson(value, where, `The message in column \`${column}\``);
    if ('corrupt' in parsed) {
      // SQLite's binary JSON (`jsonb()`): its first byte's low half says object (12) or array (11).
      const jsonb = blob !== undefined && blob.length > 0 && ((blob[0]! & 0x0f) === 12 || (blob[0]! & 0x0f) === 11);
      return [jsonb ? corrupt(`The message in column \`${column}\` is SQLite's binary JSON (JSONB), not JSON text; select it as text with \`json(${column})\` in the query`, where) : parsed];
    }
    value = parsed.value;
  }
  return itemsFromValue(value, where, (call, i, count): RecordedCall => {
    const placed = count > 1 ? { source: source.name, row: `${rowId}#${i}` } : where;
    return call.id === undefined ? { name: call.name, arguments: call.arguments, where: placed } : { id: call.id, name: call.name, arguments: call.arguments, where: placed };
  });
}
