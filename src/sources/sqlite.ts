import type BetterSqlite3 from 'better-sqlite3';
import { InputError, errorMessage } from '../util/errors.js';
import type { Row, SqliteSource } from './persisted.js';

const unreachableCodes = /^SQLITE_(CANTOPEN|NOTADB|CORRUPT|IOERR|PERM|AUTH|BUSY|LOCKED)/;

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : '';
}

function unreachable(source: SqliteSource, error: unknown): InputError {
  return new InputError(
    'persisted/unreachable',
    `Persisted source \`${source.name}\`: cannot open SQLite database \`${source.sqlite}\` (${errorMessage(error)}); expected an existing SQLite file`,
    { file: source.sqlite },
    { cause: error },
  );
}

function failed(source: SqliteSource, error: unknown): InputError {
  if (unreachableCodes.test(codeOf(error))) return unreachable(source, error);
  return new InputError(
    'persisted/bad-query',
    `Persisted source \`${source.name}\`: the query failed in SQLite (${errorMessage(error)}); expected one SELECT that returns a row id and a message JSON column`,
    { file: source.sqlite },
    { cause: error },
  );
}

/**
 * Opens a source's SQLite file read-only: the handle itself refuses writes (SQLITE_READONLY),
 * so a query cannot change the database whatever it says. The caller closes the handle.
 */
export async function openSqliteReadOnly(source: SqliteSource): Promise<BetterSqlite3.Database> {
  // Loaded on demand: the native module is only needed when a SQLite source is configured.
  const { default: Database } = await import('better-sqlite3');
  try {
    return new Database(source.sqlite, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw unreachable(source, error);
  }
}

/** Streams the rows of a SQLite source's query, one at a time (`Statement.iterate`). */
export async function* sqliteRows(source: SqliteSource): AsyncGenerator<Row, void, undefined> {
  const db = await openSqliteReadOnly(source);
  let rows: IterableIterator<unknown> | undefined;
  try {
    let statement: BetterSqlite3.Statement;
    try {
      statement = db.prepare(source.query);
    } catch (error) {
      throw failed(source, error);
    }
    if (!statement.reader) {
      throw new InputError('persisted/bad-query', `Persisted source \`${source.name}\`: the query returns no rows; expected a SELECT`, { file: source.sqlite });
    }
    try {
      rows = statement.iterate();
    } catch (error) {
      throw failed(source, error);
    }
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = rows.next();
      } catch (error) {
        throw failed(source, error);
      }
      if (next.done) break;
      yield next.value as Row;
    }
  } finally {
    // An unfinished iterator keeps the connection busy, and close() would refuse.
    rows?.return?.();
    db.close();
  }
}
