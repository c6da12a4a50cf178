// A SQLite source is read without writing a byte beside it, refuses what is not a regular
// file instead of hanging on it, waits for a lock only as long as told, and tells a bad query
// from a database it cannot open.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPersistedCalls, type PersistedSource, type SqliteSource } from '../../src/sources/persisted.js';
import { openSqliteReadOnly } from '../../src/sources/sqlite.js';
import { InputError } from '../../src/util/errors.js';
import { demoCopy } from '../cli/helpers.js';
import { collect, spawnCli, summary } from '../sources/helpers.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pc-hostile-sqlite-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const call = (id: number) => JSON.stringify({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${id}`, name: 'lookup_order', input: { order_id: `A-${id}` } }] });
const source = (file: string, query = 'SELECT id, message FROM messages ORDER BY id', extra: Partial<PersistedSource> = {}): PersistedSource => ({ name: 'archive', sqlite: file, query, ...extra });
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e);

/** A database in its own folder, so the folder's listing shows anything created beside it. */
function database(name: string, journal: 'wal' | 'delete', ids: number[]): string {
  const folder = join(dir, name);
  mkdirSync(folder);
  const file = join(folder, 'conversations.db');
  const db = new Database(file);
  db.pragma(`journal_mode = ${journal}`);
  db.exec('CREATE TABLE messages (id INTEGER PRIMARY KEY, message TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO messages VALUES (?, ?)');
  for (const id of ids) insert.run(id, call(id));
  db.close();
  return file;
}

function fingerprint(file: string) {
  const folder = join(file, '..');
  const stat = statSync(file);
  return { files: readdirSync(folder).sort(), sha256: createHash('sha256').update(readFileSync(file)).digest('hex'), mtimeMs: stat.mtimeMs, size: stat.size };
}

describe('a WAL-mode database is read without leaving anything behind', () => {
  test('closed cleanly (no -wal, no -shm): no new file appears, and its bytes and mtime are unchanged', async () => {
    const file = database('wal-closed', 'wal', [1, 2, 3]);
    expect(readFileSync(file)[18]).toBe(2); // the header says WAL
    const before = fingerprint(file);
    expect(before.files).toEqual(['conversations.db']);
    expect(summary(await collect(readPersistedCalls(source(file))))).toEqual(['1:toolu_1:lookup_order', '2:toolu_2:lookup_order', '3:toolu_3:lookup_order']);
    // An early stop and a failing query leave nothing either.
    for await (const item of readPersistedCalls(source(file))) {
      expect(item).toBeDefined();
      break;
    }
    await failure(collect(readPersistedCalls(source(file, 'SELECT nonsense FROM'))));
    expect(fingerprint(file)).toEqual(before);
  });

  test('open in a writer, rows still in its -wal: they are read, and nothing new appears', async () => {
    const file = database('wal-live', 'wal', [1]);
    const writer = new Database(file);
    try {
      writer.pragma('wal_autocheckpoint = 0');
      writer.prepare('INSERT INTO messages VALUES (?, ?)').run(2, call(2));
      const before = readdirSync(join(file, '..')).sort();
      expect(before).toEqual(['conversations.db', 'conversations.db-shm', 'conversations.db-wal']);
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
      expect(summary(await collect(readPersistedCalls(source(file))))).toEqual(['1:toolu_1:lookup_order', '2:toolu_2:lookup_order']);
      expect(readdirSync(join(file, '..')).sort()).toEqual(before);
    } finally {
      writer.close();
    }
  });

  test('copied with its -wal but no -shm (a backup, a writer gone): the committed frames are read, the last unfinished transaction is not, and no -shm appears', async () => {
    const file = database('wal-copied', 'wal', [1]);
    const writer = new Database(file);
    const copy = join(dir, 'wal-copy');
    mkdirSync(copy);
    try {
      writer.pragma('wal_autocheckpoint = 0');
      writer.prepare('INSERT INTO messages VALUES (?, ?)').run(2, call(2));
      writer.prepare('INSERT INTO messages VALUES (?, ?)').run(3, call(3));
      // The files as a backup tool copies them, while the writer is open: the database and its -wal.
      for (const name of ['conversations.db', 'conversations.db-wal']) writeFileSync(join(copy, name), readFileSync(join(file, '..', name)));
    } finally {
      writer.close();
    }
    const copied = join(copy, 'conversations.db');
    const before = fingerprint(copied);
    expect(before.files).toEqual(['conversations.db', 'conversations.db-wal']);
    expect(summary(await collect(readPersistedCalls(source(copied))))).toEqual(['1:toolu_1:lookup_order', '2:toolu_2:lookup_order', '3:toolu_3:lookup_order']);
    expect(fingerprint(copied)).toEqual(before);
    // A -wal cut inside its last frame: that transaction never committed, the ones before it did.
    const wal = readFileSync(`${copied}-wal`);
    writeFileSync(`${copied}-wal`, wal.subarray(0, wal.length - 100));
    expect(summary(await collect(readPersistedCalls(source(copied))))).toEqual(['1:toolu_1:lookup_order', '2:toolu_2:lookup_order']);
    // An empty -wal beside it: the file alone.
    writeFileSync(`${copied}-wal`, '');
    expect(summary(await collect(readPersistedCalls(source(copied))))).toEqual(['1:toolu_1:lookup_order']);
    expect(readdirSync(copy).sort()).toEqual(['conversations.db', 'conversations.db-wal']);
  });

  test('a rollback-journal database: nothing new appears, bytes and mtime unchanged', async () => {
    const file = database('journal', 'delete', [1, 2]);
    const before = fingerprint(file);
    expect(await collect(readPersistedCalls(source(file)))).toHaveLength(2);
    expect(fingerprint(file)).toEqual(before);
  });
});

describe('row ids and message columns as applications store them', () => {
  test('an id above 2^53 keeps every digit, a BLOB id reads as x\'..\', a long id is cut; a JSONB message says how to select it', async () => {
    const folder = join(dir, 'ids');
    mkdirSync(folder);
    const file = join(folder, 'conversations.db');
    const db = new Database(file);
    db.exec('CREATE TABLE messages (id, message)');
    const insert = db.prepare('INSERT INTO messages VALUES (?, ?)');
    insert.safeIntegers(true).run(9007199254740993n, call(1));
    insert.run(Buffer.from([0x01, 0x23, 0xab]), call(2));
    insert.run('k'.repeat(500), call(3));
    db.prepare("INSERT INTO messages VALUES (4, jsonb(?))").run(call(4));
    db.close();
    const items = await collect(readPersistedCalls(source(file, 'SELECT id, message FROM messages ORDER BY rowid')));
    const rows = items.map((item) => item.where.row);
    expect(rows.slice(0, 2)).toEqual(['9007199254740993', "x'0123ab'"]);
    expect(rows[2]).toBe(`${'k'.repeat(120)}…`);
    expect(items[3]).toMatchObject({ corrupt: true, where: { row: '4' } });
    expect((items[3] as { message: string }).message).toContain("SQLite's binary JSON (JSONB), not JSON text; select it as text with `json(message)`");
    // Selected as text, the same row is read.
    const asText = await collect(readPersistedCalls(source(file, 'SELECT id, json(message) AS message FROM messages WHERE id = 4')));
    expect(summary(asText)).toEqual(['4:toolu_4:lookup_order']);
  });
});

describe('a stored conversation with one unreadable call', () => {
  test('that call is reported at its row#i, and the other calls of the row are still checked', async () => {
    const folder = join(dir, 'partial');
    mkdirSync(folder);
    const file = join(folder, 'conversations.db');
    const db = new Database(file);
    db.exec('CREATE TABLE messages (id INTEGER PRIMARY KEY, message TEXT)');
    const message = { role: 'assistant', tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id": "A-1"}' } }, { id: 'call_b', type: 'function', function: { name: 'cancel_order', arguments: '{"order_id": ' } }] };
    db.prepare('INSERT INTO messages VALUES (?, ?)').run(7, JSON.stringify(message));
    db.close();
    const items = await collect(readPersistedCalls(source(file)));
    expect(items.map((i) => ('corrupt' in i ? ['corrupt', i.where.row] : ['call', i.where.row, (i as { name: string }).name]))).toEqual([
      ['call', '7#0', 'lookup_order'],
      ['corrupt', '7#1'],
    ]);
  });
});

describe('a database a writer left mid-transaction', () => {
  test('its hot journal is named with what to do, not "attempt to write a readonly database"; nothing is changed', async () => {
    const file = database('hot', 'delete', [1, 2]);
    // A writer killed inside a transaction that spilled to the file: its journal stays, hot.
    const script = `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(file)}); db.pragma('cache_size = 1');
      db.exec('BEGIN'); const put = db.prepare('INSERT INTO messages VALUES (?, ?)');
      for (let i = 10; i < 3000; i++) put.run(i, 'x'.repeat(400));
      process.kill(process.pid, 'SIGKILL');`;
    try {
      execFileSync(process.execPath, ['-e', script], { cwd: process.cwd(), stdio: 'ignore' });
    } catch {
      // Killed, as intended.
    }
    const before = fingerprint(file);
    expect(before.files).toEqual(['conversations.db', 'conversations.db-journal']);
    const error = await failure(collect(readPersistedCalls(source(file))));
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toContain('has a hot journal');
    expect((error as InputError).message).toContain('open the database once with its application or `sqlite3`, or read a copy of both files');
    expect(fingerprint(file)).toEqual(before);
  });
});

describe('what is not a regular file is refused, not opened', () => {
  test('a FIFO: `check` exits 2 at once naming the source, instead of waiting for a writer forever', async () => {
    const fifo = join(dir, 'conversations.fifo');
    execFileSync('mkfifo', [fifo]);
    const demo = demoCopy();
    try {
      demo.edit('prompt-contract.config.ts', 'sqlite: demoConversationStore(),', `sqlite: ${JSON.stringify(fifo)},`);
      // Killed after 60 s: a wait for a writer shows as a signal (the run takes about a second).
      const result = await spawnCli(['check'], { cwd: demo.dir, timeoutMs: 60_000 }).done;
      expect(result.signal).toBeNull();
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/Persisted source `support-conversations`: cannot open SQLite database `.*conversations\.fifo` \(it is a named pipe \(FIFO\), not a regular file\); expected an existing SQLite file \(persisted\/unreachable\)/);
    } finally {
      demo.remove();
    }
  }, 90_000);

  test('a directory is refused the same way', async () => {
    const error = await failure(collect(readPersistedCalls(source(dir))));
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/unreachable', message: expect.stringContaining('(it is a directory, not a regular file)') });
  });
});

let badCount = 0;
describe('locks and bad queries', () => {
  // How long the reader waits is SQLite's busy timeout, read back from the connection, not a
  // clock: the elapsed time would say as much about the machine's load as about the setting.
  // (better-sqlite3 waits synchronously, so no test timeout could cut a longer wait short.)
  test('a database locked by a writer ends after `timeoutMs`: a timeout naming the source and the setting', async () => {
    const file = database('locked', 'delete', [1]);
    const busyTimeout = async (extra: Partial<PersistedSource>) => {
      const db = await openSqliteReadOnly(source(file, undefined, extra) as SqliteSource);
      try {
        return db.pragma('busy_timeout', { simple: true });
      } finally {
        db.close();
      }
    };
    expect(await busyTimeout({ timeoutMs: 300 })).toBe(300);
    expect(await busyTimeout({})).toBe(60_000);
    const writer = new Database(file);
    try {
      writer.exec('BEGIN EXCLUSIVE');
      writer.prepare('INSERT INTO messages VALUES (?, ?)').run(2, call(2));
      const error = await failure(collect(readPersistedCalls(source(file, undefined, { timeoutMs: 300 }))));
      expect(error).toBeInstanceOf(InputError);
      expect(error).toMatchObject({ code: 'persisted/timeout' });
      expect((error as Error).message).toMatch(/^Persisted source `archive`: the SQLite database `.*` stayed locked by another connection for longer than 300 ms .*; .*raise `timeoutMs`/);
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  });

  test.each([0, -1, 1.5, '60s'])('`timeoutMs: %j` is refused as a config error naming the source', async (timeoutMs) => {
    const file = database(`timeout-${++badCount}`, 'delete', [1]);
    const error = await failure(collect(readPersistedCalls(source(file, undefined, { timeoutMs: timeoutMs as number }))));
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'config/invalid', message: expect.stringMatching(/^Persisted source `archive`: `timeoutMs` is .*; expected a whole number of milliseconds/) });
  });

  test.each([
    ['a missing table', 'SELECT id, message FROM no_such_table', 'no such table: no_such_table'],
    ['a syntax error', 'SELEC id, message FROM messages', 'near "SELEC": syntax error'],
    ['a missing column', 'SELECT id, body FROM messages', 'no such column: body'],
  ])('%s is a bad query carrying the SQLite message, not a database that cannot be opened', async (_, query, sqliteMessage) => {
    const file = database(`bad-${++badCount}`, 'wal', [1]);
    const error = await failure(collect(readPersistedCalls(source(file, query))));
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({
      code: 'persisted/bad-query',
      message: `Persisted source \`archive\`: the query failed in SQLite (${sqliteMessage}); expected one SELECT that returns a row id and a message JSON column`,
    });
  });
});

describe('a -wal whose commit frame claims more pages than the files hold', () => {
  /** SQLite's WAL checksum, as the WAL header's magic orders it. */
  const checksum = (data: Buffer, s: [number, number], bigEndian: boolean): [number, number] => {
    let [s0, s1] = s;
    for (let i = 0; i < data.length; i += 8) {
      s0 = (s0 + (bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i)) + s1) >>> 0;
      s1 = (s1 + (bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4)) + s0) >>> 0;
    }
    return [s0, s1];
  };

  /** A copy of a WAL database with its -wal and no -shm, the last commit frame's page count replaced (checksums made good again). */
  function forged(name: string, claim: (written: number) => number): { file: string; wal: string } {
    const file = database(name, 'wal', [1]);
    const writer = new Database(file);
    const copy = join(dir, `${name}-copy`);
    mkdirSync(copy);
    try {
      writer.pragma('wal_autocheckpoint = 0');
      writer.prepare('INSERT INTO messages VALUES (?, ?)').run(2, call(2));
      for (const n of ['conversations.db', 'conversations.db-wal']) writeFileSync(join(copy, n), readFileSync(join(file, '..', n)));
    } finally {
      writer.close();
    }
    const wal = readFileSync(join(copy, 'conversations.db-wal'));
    const bigEndian = (wal.readUInt32BE(0) & 1) === 1;
    const frame = 24 + wal.readUInt32BE(8);
    const frames = Math.floor((wal.length - 32) / frame);
    let last = -1;
    for (let i = 0; i < frames; i++) if (wal.readUInt32BE(32 + i * frame + 4) > 0) last = i;
    expect(last).toBeGreaterThanOrEqual(0);
    wal.writeUInt32BE(claim(wal.readUInt32BE(32 + last * frame + 4)), 32 + last * frame + 4);
    let s = checksum(wal.subarray(0, 24), [0, 0], bigEndian);
    for (let i = 0; i < frames; i++) {
      const at = 32 + i * frame;
      s = checksum(wal.subarray(at + 24, at + frame), checksum(wal.subarray(at, at + 8), s, bigEndian), bigEndian);
      wal.writeUInt32BE(s[0], at + 16);
      wal.writeUInt32BE(s[1], at + 20);
    }
    writeFileSync(join(copy, 'conversations.db-wal'), wal);
    return { file: join(copy, 'conversations.db'), wal: join(copy, 'conversations.db-wal') };
  }

  test.each([
    ['2^32 - 1 pages (once an internal error: the size is out of range)', 0xffffffff],
    ['200,000 pages (once 800 MB allocated for a database of a few KB)', 200_000],
  ])('%s: refused as unreachable, naming the -wal and what it claims', async (_, pages) => {
    const { file, wal } = forged(`wal-claims-${pages}`, () => pages);
    const before = fingerprint(file);
    const error = await failure(collect(readPersistedCalls(source(file))));
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/unreachable', file });
    const message = (error as Error).message;
    expect(message).toContain(`Persisted source \`archive\`: cannot read SQLite database \`${file}\``);
    expect(message).toContain(`\`${wal}\``);
    expect(message).toContain(`claims the database holds ${pages} pages`);
    expect(message).toMatch(/expected a `-wal` that SQLite wrote beside this database: move it aside to read the database alone/);
    expect(fingerprint(file)).toEqual(before);
  });

  test('the count SQLite wrote, checksums recomputed the same way, is read as before', async () => {
    const { file } = forged('wal-claims-true', (written) => written);
    expect(summary(await collect(readPersistedCalls(source(file))))).toEqual(['1:toolu_1:lookup_order', '2:toolu_2:lookup_order']);
  });
});
