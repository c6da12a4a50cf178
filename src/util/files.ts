/**
 * Input files are regular files. A named pipe blocks the reader until something writes to
 * it, `/dev/zero` never ends, and a directory reads as an error deep inside a stream: each
 * is refused up front with a message that says what the path is and what was expected.
 *
 * Files are opened with `O_NONBLOCK`, so opening a FIFO returns at once instead of waiting
 * for a writer, and the check is made on the open descriptor (no window between a `stat`
 * and the `open` for the path to change). `O_NONBLOCK` changes nothing for regular files.
 */
import { chmodSync, closeSync, constants, fstatSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type BigIntStats, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { open, type FileHandle } from 'node:fs/promises';

/** Read-only, and an open of a named pipe returns at once instead of waiting for a writer. */
export const READ_NONBLOCK = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What a path that is not a regular file is, in words: "a directory", "a named pipe (FIFO)". */
export function describeFileKind(stats: Pick<Stats, 'isDirectory' | 'isFIFO' | 'isCharacterDevice' | 'isBlockDevice' | 'isSocket' | 'isSymbolicLink'>): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Thrown for a path that exists but is not a regular file; `message` is "it is a directory, not a regular file". */
export class NotRegularFileError extends Error {
  override name = 'NotRegularFileError';
  readonly kind: string;
  constructor(readonly file: string, kind: string) {
    super(`it is ${kind}, not a regular file`);
    this.kind = kind;
  }
}

/**
 * `text` without a leading byte order mark (U+FEFF), which editors on Windows write at the start
 * of a UTF-8 file: it is no part of the prompt, and it would hide the frontmatter's first `---`.
 */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** What is at `path`, following links, and without opening it: `file` (a regular one), `none`, or what else it is in words ("a directory", "a named pipe (FIFO)"). */
export function pathKind(path: string): string {
  try {
    const stats = statSync(path);
    return stats.isFile() ? 'file' : describeFileKind(stats);
  } catch {
    return 'none';
  }
}

/** Opens a regular file for reading; rejects with NotRegularFileError for anything else, or the open error. */
export async function openRegularFile(file: string): Promise<FileHandle> {
  const handle = await open(file, READ_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotRegularFileError(file, describeFileKind(stats));
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The whole text of a regular file (UTF-8); throws NotRegularFileError for anything else, or the read error. */
export function readRegularFileSync(file: string): string;
/** The bytes of a regular file; throws NotRegularFileError for anything else, or the read error. */
export function readRegularFileSync(file: string, encoding: null): Buffer;
export function readRegularFileSync(file: string, encoding: 'utf8' | null = 'utf8'): string | Buffer {
  const fd = openSync(file, READ_NONBLOCK);
  try {
    const stats = fstatSync(fd, { bigint: true });
    if (!stats.isFile()) throw new NotRegularFileError(file, describeFileKind(stats));
    // Taken from the open file before a byte is read: an edit made during the read moves it, so a cache keyed by it sees the edit.
    readStamps.set(resolve(file), stampOf(stats));
    if (encoding === null) return readFileSync(fd);
    const bytes = readFileSync(fd);
    // PowerShell's `>` and some Windows editors write UTF-16 (and a few tools UTF-32): read as UTF-8 it is NULs and mojibake.
    const wide = wideEncoding(bytes);
    if (wide !== undefined) throw new Error(wideEncodingReason(wide));
    return utf8Text(bytes);
  } finally {
    closeSync(fd);
  }
}

/**
 * The stamp of a file: size, modification time, inode and change time (an in-place write that
 * restores the modification time, as `cp -p` and `touch -r` do, still moves the change time).
 */
export function stampOf(stats: BigIntStats): string {
  return stats.isFile() ? `${stats.size}:${stats.mtimeNs}:${stats.ino}:${stats.ctimeNs}` : `not a file:${stats.mode}`;
}

/** The stamp of the file at `path` now, following links, or `absent`. */
export function stampNow(path: string): string {
  try {
    return stampOf(statSync(path, { bigint: true }));
  } catch {
    return 'absent';
  }
}

/** Each file this thread read through `readRegularFileSync`, by absolute path: its stamp as it was opened, before the read. */
const readStamps = new Map<string, string>();

/**
 * The stamp `path` had when this thread last read it, before reading it; undefined when it
 * did not read it. A cache keys what was read by this stamp, never by one taken after the
 * read: a file replaced in between would otherwise be stored as checked in its new form.
 */
export function stampAtRead(path: string): string | undefined {
  return readStamps.get(resolve(path));
}

/**
 * Why text in a wide encoding is refused, and how to save it as UTF-8: the same words for
 * every reader of text. Read as UTF-8, UTF-16 and UTF-32 are NULs and mojibake, and every
 * parser's complaint would mislead; half of the file would look read.
 */
export function wideEncodingReason(encoding: WideEncoding): string {
  return encoding === 'UTF-16'
    ? 'it is UTF-16 text, not UTF-8: save it as UTF-8, as `Out-File -Encoding utf8` does in Windows PowerShell, where `>` writes UTF-16'
    : 'it is UTF-32 text, not UTF-8: save it as UTF-8 (`iconv -f UTF-32 -t UTF-8` converts it)';
}

export type WideEncoding = 'UTF-16' | 'UTF-32';

/**
 * The text of bytes that must be UTF-8. Decoding anything else replaces each bad sequence with
 * U+FFFD, which a snapshot would then keep and a diff show as `���`: a Latin-1 file or a stray
 * binary is refused instead, at the line and column (in characters) of the first bad byte.
 */
export function utf8Text(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  // The first line that is not UTF-8 (each line checked whole, natively), then its first bad sequence.
  let line = 1;
  let lineStart = 0;
  for (;;) {
    const end = bytes.indexOf(0x0a, lineStart);
    if (end === -1 || !isUtf8(bytes.subarray(lineStart, end))) break;
    line++;
    lineStart = end + 1;
  }
  let bad = lineStart;
  for (;;) {
    const b = bytes[bad]!;
    const need = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (need === 0 || bad + need > bytes.length || !isUtf8(bytes.subarray(bad, bad + need))) break;
    bad += need;
  }
  const column = bytes.subarray(lineStart, bad).toString('utf8').length + 1;
  throw new Error(`it is not UTF-8 text: line ${line}, column ${column} holds the byte 0x${bytes[bad]!.toString(16).padStart(2, '0')}, which UTF-8 does not allow there; save the file as UTF-8 (\`iconv -f LATIN1 -t UTF-8\` converts Latin-1)`);
}

/**
 * UTF-32 or UTF-16 by its byte order mark, or by ASCII written in it (every character's other
 * bytes NUL); the first 8 bytes decide. UTF-32 is asked first: its little-endian mark starts
 * with UTF-16's.
 */
export function wideEncoding(bytes: Uint8Array): WideEncoding | undefined {
  const at = (i: number): number | undefined => bytes[i];
  if ((at(0) === 0xff && at(1) === 0xfe && at(2) === 0 && at(3) === 0) || (at(0) === 0 && at(1) === 0 && at(2) === 0xfe && at(3) === 0xff)) return 'UTF-32';
  if ((at(0) === 0xff && at(1) === 0xfe) || (at(0) === 0xfe && at(1) === 0xff)) return 'UTF-16';
  if (bytes.length < 8) return undefined;
  const nulAt = (...places: number[]): boolean => [0, 1, 2, 3, 4, 5, 6, 7].every((i) => (bytes[i] === 0) === places.includes(i));
  if (nulAt(1, 2, 3, 5, 6, 7) || nulAt(0, 1, 2, 4, 5, 6)) return 'UTF-32';
  if (nulAt(1, 3, 5, 7) || nulAt(0, 2, 4, 6)) return 'UTF-16';
  return undefined;
}

/**
 * Replaces a file whole: the text goes to a temporary file beside it, then a rename puts it in
 * place, so a full disk, a file size limit or a killed process leaves the old file as it was
 * (and no temporary one). The temporary file is `<file>.<pid>.<random>.tmp`, created
 * exclusively and never through a symbolic link: a link planted at a name we would write
 * (to overwrite a file elsewhere with our text) makes the create fail instead. `mode`: the
 * permissions to give it; `exclusive`: create `file` itself, failing (EEXIST) where anything
 * is. Throws the write's error, for the caller to say what the file is.
 */
export function replaceFile(file: string, text: string, options: { mode?: number; exclusive?: boolean } = {}): void {
  const tmp = temporaryName(file);
  let created = false;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeNewFile(tmp, text);
    created = true;
    if (options.mode !== undefined) chmodSync(tmp, options.mode);
    if (options.exclusive) {
      // A new file, never one that appeared meanwhile: a link fails where anything exists (EEXIST), a rename would replace it.
      linkSync(tmp, file);
      rmSync(tmp, { force: true });
    } else renameSync(tmp, file);
  } catch (error) {
    // Only what this call created is removed: a link someone else placed at the name stays as it was found.
    if (created) {
      try {
        rmSync(tmp, { force: true });
      } catch {
        // Nothing more to undo.
      }
    }
    throw error;
  }
}

/** `<file>.<pid>.<12 hex digits>.tmp`: the process id lets a later run tell a write in progress from a leftover; the random part makes the name unpredictable. */
export function temporaryName(file: string): string {
  return `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

/** Creates `path` exclusively (`O_EXCL`, and `O_NOFOLLOW` where the system has it) and writes `text` to it whole. */
export function writeNewFile(path: string, text: string): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o666);
  try {
    writeFileSync(fd, text);
  } catch (error) {
    closeSync(fd);
    // This call created it (exclusively): a write cut short (a full disk, a size limit) leaves nothing behind.
    rmSync(path, { force: true });
    throw error;
  }
  closeSync(fd);
}

/** Why a write failed, in words: a read-only folder and a full disk are the usual causes. */
export function writeFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only file system';
  if (code === 'ENOSPC') return 'no space left on the device';
  if (code === 'EFBIG') return 'file too large for the file size limit';
  return error instanceof Error ? error.message : String(error);
}

