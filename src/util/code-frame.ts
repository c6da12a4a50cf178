import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from './errors.js';

/** Files over this size are not read for a code frame. */
export const CODE_FRAME_MAX_BYTES = 4 * 1024 * 1024;

/** Lines wider than this are shown as a window around the column. */
const MAX_WIDTH = 160;

// Control characters (but tab), C1 controls and bidirectional overrides would move or recolour
// the terminal's text: each shows as one replacement character, so columns still line up.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export interface CodeFrameOptions {
  /** Lines shown before and after the marked line; 2 unless told. */
  context?: number;
}

/**
 * A few lines of `text` around a 1-based `line`, each with its number, the line marked with
 * `>` and, when `column` (1-based) is given, a caret under that column:
 *
 * ```
 *    3 | You talk to {{customer.name}}.
 * >  4 | Hello {{json name}}}
 *      |                    ^
 *    5 | Bye
 * ```
 *
 * Line ends `\n`, `\r\n` and `\r` all end a line (the same lines as the error's). Tabs stay
 * tabs, in the line and under it, so the caret lines up in any tab width. Lines wider than 160
 * characters show a window around the column. A line outside the text gives `''`.
 */
export function codeFrame(text: string, line: number, column?: number, options: CodeFrameOptions = {}): string {
  const lines = text.split(/\r\n|\r|\n/);
  if (!Number.isInteger(line) || line < 1 || line > lines.length) return '';
  const context = Math.max(0, Math.floor(options.context ?? 2));
  const first = Math.max(1, line - context);
  const last = Math.min(lines.length, line + context);
  const width = String(last).length;
  const col = column !== undefined && Number.isInteger(column) && column >= 1 ? column : undefined;
  // One window for all shown lines, so that they stay aligned with each other.
  const longest = Math.max(...lines.slice(first - 1, last).map((l) => l.length));
  const from = longest <= MAX_WIDTH ? 0 : Math.max(0, Math.min((col ?? 1) - 1 - Math.floor(MAX_WIDTH / 2), longest - MAX_WIDTH));
  const cut = (source: string): string => {
    if (longest <= MAX_WIDTH) return source;
    const part = source.slice(from, from + MAX_WIDTH);
    return `${from > 0 ? '…' : ''}${part}${from + MAX_WIDTH < source.length ? '…' : ''}`;
  };
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    const source = lines[n - 1]!;
    const shown = cut(source).replace(UNSAFE, '\uFFFD');
    const gutter = `${n === line ? '>' : ' '} ${String(n).padStart(width)} |`;
    out.push(shown === '' ? gutter : `${gutter} ${shown}`);
    if (n === line && col !== undefined) {
      // The characters before the column, as blanks (tabs kept), then the caret.
      const before = `${from > 0 ? ' ' : ''}${source.slice(from, Math.max(from, col - 1))}`.replace(/[^\t]/g, ' ');
      out.push(`  ${' '.repeat(width)} | ${before}^`);
    }
  }
  return out.join('\n');
}

/**
 * The code frame of an InputError's place: its file read from disk (relative to `cwd`, the
 * working folder unless told), framed at its line and column. `undefined` when the error
 * names no file or line, or the file is missing, not a regular file, over 4 MiB, or not
 * valid UTF-8 text. An error with no place of its own is framed at the place of its `cause`
 * when that is an InputError with one (as when an error is re-thrown with `format()` as its
 * message).
 */
export function codeFrameFor(error: InputError, options: CodeFrameOptions & { cwd?: string } = {}): string | undefined {
  let placed: InputError | undefined = error;
  for (let depth = 0; placed && (placed.file === undefined || placed.line === undefined) && depth < 8; depth++) {
    const cause: unknown = placed.cause;
    placed = cause instanceof InputError ? cause : undefined;
  }
  if (!placed || placed.file === undefined || placed.line === undefined) return undefined;
  const text = readSmallTextFile(resolve(options.cwd ?? process.cwd(), placed.file));
  if (text === undefined) return undefined;
  const frame = codeFrame(text, placed.line, placed.column, options.context === undefined ? {} : { context: options.context });
  return frame === '' ? undefined : frame;
}

/** The text of a regular file of at most `CODE_FRAME_MAX_BYTES`, or `undefined`. Never blocks on a FIFO. */
function readSmallTextFile(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > CODE_FRAME_MAX_BYTES) return undefined;
    const buffer = Buffer.alloc(stats.size);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return new TextDecoder('utf-8', { fatal: true }).decode(buffer.subarray(0, read));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
