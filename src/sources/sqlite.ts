import type BetterSqlite3 from 'better-sqlite3';
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { InputError, errorMessage } from '../util/errors.js';
import { describeFileKind } from '../util/files.js';
import { importOptional } from '../util/optional.js';
import type { Row, SqliteSource } from './persisted.js';
import { duration, timeoutMsOf } from './timeouts.js';

/**
 * Codes that mean the file, not the query, is the problem: it cannot be opened, is not a
 * database, or cannot be read as one (a WAL database whose `-shm` cannot be set up).
 */
const unreachableCodes = /^SQLITE_(CANTOPEN|NOTADB|CORRUPT|IOERR|PERM|AUTH|READONLY_(RECOVERY|CANTLOCK|CANTINIT|DIRECTORY|ROLLBACK))/;
/** Another connection holds a lock, and the busy timeout ran out. */
const lockedCodes = /^SQLITE_(BUSY|LOCKED)/;

/** A WAL database larger than this, with no `-wal` beside it, is not copied into memory. */
const maxInMemoryBytes = 1024 ** 3;

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : '';
}

function unreachable(source: SqliteSource, why: string, error?: unknown): InputError {
  return new InputError(
    'persisted/unreachable',
    `Persisted source \`${source.name}\`: cannot open SQLite database \`${source.sqlite}\` (${why}); expected an existing SQLite file`,
    { file: source.sqlite },
    error === undefined ? undefined : { cause: error },
  );
}

function failed(source: SqliteSource, error: unknown): InputError {
  const code = codeOf(error);
  if (lockedCodes.test(code)) {
    const waited = duration(timeoutMsOf(source));
    return new InputError(
      'persisted/timeout',
      `Persisted source \`${source.name}\`: the SQLite database \`${source.sqlite}\` stayed locked by another connection for longer than ${waited} (${errorMessage(error)}); expected it free within the source's \`timeoutMs\`: raise \`timeoutMs\`, or read a copy`,
      { file: source.sqlite },
      { cause: error },
    );
  }
  // A writer that crashed mid-transaction left a hot journal: SQLite must roll it back before anyone reads, and a read-only handle cannot.
  if (/READONLY/.test(code) && exists(`${source.sqlite}-journal`) !== undefined) {
    return new InputError(
      'persisted/unreachable',
      `Persisted source \`${source.name}\`: the SQLite database \`${source.sqlite}\` has a hot journal (\`${source.sqlite}-journal\`) left by a writer that stopped mid-transaction; SQLite rolls it back before any read, which needs write access this read-only check never takes: open the database once with its application or \`sqlite3\`, or read a copy of both files`,
      { file: source.sqlite },
      { cause: error },
    );
  }
  if (unreachableCodes.test(code)) return unreachable(source, errorMessage(error), error);
  return new InputError(
    'persisted/bad-query',
    `Persisted source \`${source.name}\`: the query failed in SQLite (${errorMessage(error)}); expected one SELECT that returns a row id and a message JSON column`,
    { file: source.sqlite },
    { cause: error },
  );
}

function exists(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * How to open the file so that reading it writes nothing beside it:
 * - `in-place`: SQLite opens the file itself, read-only. A rollback-journal database needs
 *   nothing else; a WAL database in use has its `-wal` and `-shm` already.
 * - `memory`: a WAL database that nothing has open (no `-shm` beside it). Opened in place,
 *   even read-only, SQLite would create `-wal` and `-shm` and, unable to checkpoint, leave them
 *   behind; better-sqlite3 12 offers no `immutable` open (it is built without URI filenames).
 *   So the file is read into memory, with the committed frames of a `-wal` left beside it
 *   applied (`withWalFrames`), and opened from there, its header marked rollback-journal.
 */
type OpenPlan = { kind: 'in-place' } | { kind: 'memory'; image: Buffer };

/** SQLite's WAL checksum over `data` (a multiple of 8 bytes), from `s0, s1`, in the WAL's byte order. */
function walChecksum(data: Buffer, s0: number, s1: number, bigEndian: boolean): [number, number] {
  for (let i = 0; i + 8 <= data.length; i += 8) {
    const x0 = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const x1 = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/** A `-wal` whose checksums hold but whose last commit claims a database the two files cannot make. */
export class ImpossibleWal extends Error {
  override readonly name = 'ImpossibleWal';
}

/**
 * The database as its last committed transaction left it: `image` with the frames of `wal`
 * applied, up to the last commit frame whose salts and checksums hold (SQLite's own recovery
 * rule; later frames are an unfinished transaction). A `-wal` that is not one is ignored.
 * Throws `ImpossibleWal` when that commit frame claims more pages than the file and the
 * committed frames hold: each page of the database comes from one or the other, so a larger
 * claim was not written by SQLite, and believing it would allocate up to 2^32 pages.
 */
export function withWalFrames(image: Buffer, wal: Buffer): Buffer {
  if (wal.length < 32) return image;
  const magic = wal.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return image;
  const bigEndian = (magic & 1) === 1;
  const pageSize = wal.readUInt32BE(8);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return image;
  let [s0, s1] = walChecksum(wal.subarray(0, 24), 0, 0, bigEndian);
  if (s0 !== wal.readUInt32BE(24) || s1 !== wal.readUInt32BE(28)) return image;
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  const frame = 24 + pageSize;
  // First the valid frames, to the last commit frame among them; then those frames, in order.
  let end = 32;
  let dbPages = 0;
  let committedFrames = 0;
  for (let at = 32, frames = 1; at + frame <= wal.length; at += frame, frames++) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2 || wal.readUInt32BE(at) === 0) break;
    [s0, s1] = walChecksum(wal.subarray(at, at + 8), s0, s1, bigEndian);
    [s0, s1] = walChecksum(wal.subarray(at + 24, at + frame), s0, s1, bigEndian);
    if (s0 !== wal.readUInt32BE(at + 16) || s1 !== wal.readUInt32BE(at + 20)) break;
    const commitSize = wal.readUInt32BE(at + 4);
    if (commitSize > 0) {
      end = at + frame;
      dbPages = commitSize;
      committedFrames = frames;
    }
  }
  if (dbPages === 0) return image;
  const filePages = Math.ceil(image.length / pageSize);
  if (dbPages > filePages + committedFrames) {
    throw new ImpossibleWal(
      `its last commit frame claims the database holds ${dbPages} pages of ${pageSize} bytes, while the database file holds ${filePages} and the \`-wal\` ${committedFrames} committed frames`,
    );
  }
  const out = Buffer.alloc(dbPages * pageSize);
  image.copy(out, 0, 0, Math.min(image.length, out.length));
  for (let at = 32; at < end; at += frame) {
    const page = wal.readUInt32BE(at);
    if (page <= dbPages) wal.copy(out, (page - 1) * pageSize, at + 24, at + frame);
  }
  return out;
}

/**
 * Looks at the path before SQLite does: only a regular file is opened (a FIFO would block
 * the open forever, a device would be read without end), and its header says whether it is
 * a WAL database.
 */
function planOpen(source: SqliteSource): OpenPlan {
  const path = source.sqlite;
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch (error) {
    throw unreachable(source, errorMessage(error), error);
  }
  if (!stat.isFile()) throw unreachable(source, `it is ${describeFileKind(stat)}, not a regular file`);
  // Non-blocking, so that a file swapped for a FIFO since the stat cannot hang the open.
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw unreachable(source, errorMessage(error), error);
  }
  const header = Buffer.alloc(100);
  let size: number;
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) throw unreachable(source, `it is ${describeFileKind(opened)}, not a regular file`);
    size = opened.size;
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  const isWal = size >= 100 && header.toString('latin1', 0, 16) === 'SQLite format 3\u0000' && (header[18] === 2 || header[19] === 2);
  if (!isWal) return { kind: 'in-place' };
  const wal = exists(`${path}-wal`);
  // In use (its `-shm` is there): read in place, where SQLite sees what the writer commits.
  if (wal !== undefined && exists(`${path}-shm`) !== undefined) return { kind: 'in-place' };
  // Frames and no `-shm` (a copy made with its `-wal`, or a writer's `-shm` removed): in place,
  // SQLite would create the `-shm`; the committed frames are applied to a copy in memory instead.
  const frames = wal !== undefined && wal.size > 0;
  if (size + (frames ? wal.size : 0) > maxInMemoryBytes) {
    throw unreachable(
      source,
      `it is a WAL database of ${Math.round(size / 1024 ** 2)} MiB that no connection has open: reading it in place would create \`-wal\` and \`-shm\` files beside it, and it is too large to read from memory (over ${maxInMemoryBytes / 1024 ** 3} GiB); open it once with any SQLite client so that they exist, or convert a copy with \`PRAGMA journal_mode=DELETE\``,
    );
  }
  let image: Buffer;
  let walImage: Buffer | undefined;
  try {
    image = readFileSync(path);
    if (frames) walImage = readFileSync(`${path}-wal`);
  } catch (error) {
    throw unreachable(source, errorMessage(error), error);
  }
  // A writer that opened it meanwhile may have checkpointed into the file as it was read: it is
  // in use now, with its `-shm`, so SQLite reads it in place, consistently.
  if (exists(`${path}-shm`) !== undefined) return { kind: 'in-place' };
  if (walImage !== undefined) {
    try {
      image = withWalFrames(image, walImage);
    } catch (error) {
      if (!(error instanceof ImpossibleWal)) throw error;
      throw new InputError(
        'persisted/unreachable',
        `Persisted source \`${source.name}\`: cannot read SQLite database \`${path}\`: its write-ahead log \`${path}-wal\` is not one SQLite wrote (${error.message}); expected a \`-wal\` that SQLite wrote beside this database: move it aside to read the database alone, or copy both files again from the same moment`,
        { file: path },
        { cause: error },
      );
    }
  }
  // Bytes 18 and 19: the file format's write and read versions, 2 for WAL, 1 for a rollback journal.
  image[18] = 1;
  image[19] = 1;
  return { kind: 'memory', image };
}

/**
 * Opens a source's SQLite file read-only: the handle itself refuses writes (SQLITE_READONLY),
 * so a query cannot change the database whatever it says, and nothing is created beside the
 * file (see `planOpen`). Waits `timeoutMs` for another connection's lock. The caller closes
 * the handle.
 */
export async function openSqliteReadOnly(source: SqliteSource): Promise<BetterSqlite3.Database> {
  const timeout = timeoutMsOf(source);
  const plan = planOpen(source);
  // Loaded on demand: the native module, an optional peer dependency, is only needed when a SQLite source is configured.
  const { default: Database } = await importOptional<{ default: typeof import('better-sqlite3') }>('better-sqlite3', `Persisted source \`${source.name}\``);
  try {
    return plan.kind === 'memory' ? new Database(plan.image, { readonly: true, timeout }) : new Database(source.sqlite, { readonly: true, fileMustExist: true, timeout });
  } catch (error) {
    throw lockedCodes.test(codeOf(error)) ? failed(source, error) : unreachable(source, errorMessage(error), error);
  }
}

/** The row with each BigInt that a number holds exactly turned back into one; larger ones stay BigInt (an id shows all its digits). */
function withSafeNumbers(row: Row): Row {
  for (const key of Object.keys(row)) {
    const value = row[key];
    if (typeof value === 'bigint' && value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)) row[key] = Number(value);
  }
  return row;
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
      // Integers as BigInt: a row id above 2^53 (a snowflake id) names its own row, not a rounded neighbour's.
      statement.safeIntegers(true);
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
      yield withSafeNumbers(next.value as Row);
    }
  } finally {
    // An unfinished iterator keeps the connection busy, and close() would refuse.
    rows?.return?.();
    db.close();
  }
}
