/**
 * JSONL files as byte ranges that start and end at line boundaries, and a fast line reader
 * over one range. Together they let several threads read one file: the splitter counts the
 * lines before each range so that every reader numbers its lines as a single pass would.
 *
 * Lines end the way `node:readline` ends them (`\n`, `\r\n`, or a lone `\r`), so the line
 * numbers agree with `readRecordedCalls`. Ranges are cut only right after a `\n` byte,
 * which never falls inside a UTF-8 sequence or between the two bytes of `\r\n`.
 */
import { isAscii } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';
import { openRegularFile, wideEncoding, wideEncodingReason } from '../util/files.js';

/**
 * Opens a JSONL file, refusing UTF-16 (PowerShell's `>` writes it) and UTF-32: read as UTF-8 every line
 * would be NULs and mojibake, one `recorded/corrupt` warning a line and no call checked. The
 * file's first bytes decide, whatever range of it is read, so every reader of a split file agrees.
 */
async function openTextFile(file: string): Promise<FileHandle> {
  const handle = await openRegularFile(file);
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const wide = wideEncoding(head.subarray(0, bytesRead));
    if (wide !== undefined) throw new Error(wideEncodingReason(wide));
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Bytes `[start, end)` of a file, whose first line is line `firstLine` (1-based) of the file. */
export interface LineRange {
  start: number;
  end: number;
  firstLine: number;
}

const LF = 0x0a;
const CR = 0x0d;
const SCAN_BUFFER = 1 << 20;
const PIECE = 64 * 1024;

/**
 * Counts line ends in `buf[from, to)`. `pendingCR` says the byte before `from` was a `\r`
 * whose meaning depends on the next byte; the result says the same of the byte before `to`.
 */
function countLineEnds(buf: Buffer, from: number, to: number, pendingCR: boolean): { count: number; pendingCR: boolean } {
  let count = 0;
  if (from >= to) return { count, pendingCR };
  if (pendingCR) {
    // `\r\n` is one line end, counted at its `\n`; a `\r` before anything else ends a line itself.
    if (buf[from] !== LF) count++;
    pendingCR = false;
  }
  const cr = buf.indexOf(CR, from);
  if (cr === -1 || cr >= to) {
    for (let i = buf.indexOf(LF, from); i !== -1 && i < to; i = buf.indexOf(LF, i + 1)) count++;
    return { count, pendingCR: false };
  }
  for (let i = from; i < to; i++) {
    const byte = buf[i];
    if (byte === LF) count++;
    else if (byte === CR) {
      if (i + 1 === to) pendingCR = true;
      else if (buf[i + 1] !== LF) count++;
    }
  }
  return { count, pendingCR };
}

/**
 * Splits a file into ranges of about `targetBytes` each, cut right after a `\n`, and gives
 * each the number of its first line. One sequential pass with a 1 MB buffer; ranges are
 * yielded as soon as they are known, so readers can start before the pass ends. An empty
 * file gives no range.
 */
export async function* splitAtLines(file: string, targetBytes: number): AsyncGenerator<LineRange, void, undefined> {
  const target = Math.max(1, Math.floor(targetBytes));
  const handle = await openTextFile(file);
  try {
    const buf = Buffer.allocUnsafe(SCAN_BUFFER);
    let offset = 0; // file offset of buf[0]
    let start = 0; // start of the current range
    let firstLine = 1;
    let lines = 0; // line ends counted in [start, offset)
    let pendingCR = false;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, SCAN_BUFFER, offset);
      if (bytesRead === 0) break;
      let from = 0;
      // Cut every range that reaches its target inside this buffer.
      for (;;) {
        const want = start + target - 1 - offset; // the cut goes after the first `\n` at or beyond this index
        if (want >= bytesRead) break;
        const nl = buf.indexOf(LF, Math.max(from, want));
        if (nl === -1 || nl >= bytesRead) break;
        const counted = countLineEnds(buf, from, nl + 1, pendingCR);
        lines += counted.count;
        pendingCR = counted.pendingCR;
        const end = offset + nl + 1;
        yield { start, end, firstLine };
        start = end;
        firstLine += lines;
        lines = 0;
        from = nl + 1;
      }
      const counted = countLineEnds(buf, from, bytesRead, pendingCR);
      lines += counted.count;
      pendingCR = counted.pendingCR;
      offset += bytesRead;
    }
    if (offset > start) yield { start, end: offset, firstLine };
  } finally {
    await handle.close();
  }
}

const blank = /^\s*$/;

/** Longest line read by default, in bytes without its line end: 16 MiB, far beyond any real tool call. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * The line cap asked for by an option or `PROMPT_CONTRACT_MAX_LINE_BYTES`; the default when
 * neither says. Throws a TypeError naming what is wrong with a value that is not a whole
 * number of at least 1.
 */
export function maxLineBytesFrom(option?: number): number {
  if (option !== undefined) {
    if (!Number.isInteger(option) || option < 1) throw new TypeError(`Invalid \`maxLineBytes\` ${String(option)}; expected a whole number of bytes, at least 1`);
    return option;
  }
  const env = process.env.PROMPT_CONTRACT_MAX_LINE_BYTES?.trim();
  if (env === undefined || env === '') return DEFAULT_MAX_LINE_BYTES;
  const n = Number(env);
  if (!Number.isInteger(n) || n < 1) throw new TypeError(`Invalid PROMPT_CONTRACT_MAX_LINE_BYTES=${JSON.stringify(env)}; expected a whole number of bytes, at least 1`);
  return n;
}

export interface LineReadOptions {
  /** Bytes read at a time (tests use tiny ones to cut lines, `\r\n` pairs and characters between reads). */
  bufferBytes?: number;
  /** Longest line read, in bytes without its line end; `DEFAULT_MAX_LINE_BYTES` by default. */
  maxLineBytes?: number;
  /** Called instead of `onLine` for a longer line, with its number and length; the lines after it are read as usual. */
  onTooLong?: (line: number, bytes: number) => void;
}

/** Index of the first `\n` or `\r` in `bytes` from `from`, or `bytes.length`. */
function lineEndAt(bytes: Buffer, from: number): number {
  const lf = bytes.indexOf(LF, from);
  const cr = bytes.indexOf(CR, from);
  if (lf === -1) return cr === -1 ? bytes.length : cr;
  return cr === -1 || lf < cr ? lf : cr;
}

/** UTF-8 bytes as a string; pure ASCII (most logs) is copied as Latin-1, twice as fast and the same text. */
function decode(bytes: Buffer, ascii: boolean): string {
  return ascii ? bytes.toString('latin1') : bytes.toString('utf8');
}
const lineEnd = /\r\n|\n|\r/g;

/**
 * Turns bytes into numbered lines, as `forEachLine` documents them. `push` takes the next
 * bytes (a view it does not keep), `end` flushes the last line.
 *
 * A line cut by the end of a read is kept as a list of copied pieces and joined once, when
 * its end arrives: joining at every read made a 50 MB line take 25 s. A line that grows past
 * `maxLineBytes` is dropped as it is read (memory stays bounded whatever the file holds)
 * and reported through `onTooLong` with its full length once its end is found.
 */
function lineSplitter(firstLine: number, onLine: (text: string, line: number) => void, options: LineReadOptions): { push(bytes: Buffer): void; end(): void } {
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const onTooLong = options.onTooLong ?? (() => undefined);
  let line = firstLine;
  /** The start of the current line, cut by the end of a read: copied pieces, no line end inside but perhaps a final `\r`. */
  let carry: Buffer[] = [];
  let carryBytes = 0;
  /** Reading past the end of the cap: the bytes of the over-long line so far. */
  let skipping = false;
  let skipped = 0;
  /** The over-long line ended with a `\r` at the end of a read: a `\n` first in the next read belongs to it. */
  let dropLF = false;

  const tooLong = (bytes: number) => {
    onTooLong(line, bytes);
    line++;
  };
  /** A line that is not plainly JSON: maybe blank (skipped), maybe led by a byte-order mark. */
  const other = (text: string, n: number) => {
    if (blank.test(text)) return;
    onLine(n === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, n);
  };
  /** A line of `len` characters is longer than the cap (in UTF-8 bytes). */
  const overLong = (text: string, from: number, to: number, ascii: boolean): boolean => {
    const len = to - from;
    if (ascii || len > max) return len > max;
    return Buffer.byteLength(text.slice(from, to)) > max;
  };
  // Below this many characters a line cannot be over the cap, whatever its characters.
  const safeChars = (ascii: boolean) => (ascii ? max : Math.floor(max / 3));
  /** Every line of a text that ends with a line end (or, at the end of input, is the last line). */
  const emitAll = (text: string, last: boolean, ascii: boolean) => {
    const safe = safeChars(ascii);
    let from = 0;
    if (text.indexOf('\r') === -1) {
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
        if (nl - from > safe && overLong(text, from, nl, ascii)) tooLong(ascii ? nl - from : Buffer.byteLength(text.slice(from, nl)));
        else {
          // Almost every line starts with `{` or `[`: no blank test, no byte-order mark.
          const first = text.charCodeAt(from);
          if (first === 0x7b || first === 0x5b) onLine(text.slice(from, nl), line++);
          else other(text.slice(from, nl), line++);
        }
        from = nl + 1;
      }
    } else {
      lineEnd.lastIndex = 0;
      for (let m = lineEnd.exec(text); m !== null; m = lineEnd.exec(text)) {
        if (m.index - from > safe && overLong(text, from, m.index, ascii)) tooLong(Buffer.byteLength(text.slice(from, m.index)));
        else other(text.slice(from, m.index), line++);
        from = m.index + m[0].length;
      }
    }
    if (last && from < text.length) {
      if (text.length - from > safe && overLong(text, from, text.length, ascii)) tooLong(Buffer.byteLength(text.slice(from)));
      else other(text.slice(from), line++);
    }
  };
  const emitBytes = (bytes: Buffer, last: boolean) => {
    const ascii = isAscii(bytes);
    emitAll(decode(bytes, ascii), last, ascii);
  };
  const takeCarry = (): Buffer => {
    const joined = carry.length === 1 ? carry[0]! : Buffer.concat(carry, carryBytes);
    carry = [];
    carryBytes = 0;
    return joined;
  };
  const carriesCR = () => carryBytes > 0 && carry[carry.length - 1]![carry[carry.length - 1]!.length - 1] === CR;

  /** Keeps `bytes[from, to)`, which hold no `\n`, as the start of a line: complete lines ended by a lone `\r` are emitted first. */
  const keep = (bytes: Buffer, from: number, to: number) => {
    if (from >= to) return;
    // A `\r` before the last byte is a line end (no `\n` follows it here): emit through it.
    const cr = to - from >= 2 ? bytes.lastIndexOf(CR, to - 2) : -1;
    if (cr >= from) {
      emitBytes(carryBytes > 0 ? Buffer.concat([takeCarry(), bytes.subarray(from, cr + 1)]) : bytes.subarray(from, cr + 1), false);
      from = cr + 1;
    } else if (carriesCR()) emitBytes(takeCarry(), false); // the carried `\r` is followed by something other than `\n`
    if (carryBytes + (to - from) > max + 1 || (carryBytes + (to - from) > max && bytes[to - 1] !== CR)) {
      // Over the cap before its end: drop what is held, and count the rest as it goes by.
      skipping = true;
      skipped = carryBytes + (to - from);
      carry = [];
      carryBytes = 0;
      if (bytes[to - 1] === CR) {
        // The `\r` may end it (alone or before a `\n`): it is not part of the line.
        skipped--;
        finishSkip();
        dropLF = true;
      }
      return;
    }
    carry.push(Buffer.from(bytes.subarray(from, to)));
    carryBytes += to - from;
  };
  const finishSkip = () => {
    skipping = false;
    tooLong(skipped);
    skipped = 0;
  };

  return {
    push(bytes: Buffer): void {
      const size = bytes.length;
      let from = 0;
      if (dropLF) {
        dropLF = false;
        if (bytes[0] === LF) from = 1;
      }
      if (skipping) {
        const stop = lineEndAt(bytes, from);
        if (stop === size) {
          skipped += size - from;
          return;
        }
        skipped += stop - from;
        finishSkip();
        if (bytes[stop] === CR && stop + 1 === size) {
          dropLF = true;
          return;
        }
        from = bytes[stop] === CR && bytes[stop + 1] === LF ? stop + 2 : stop + 1;
      }
      const nl = bytes.lastIndexOf(LF);
      if (nl < from) {
        keep(bytes, from, size);
        return;
      }
      if (carryBytes > 0) {
        // The carried line ends in this read: at its own final `\r` (with a `\n` first here or
        // alone), or at the first line end here.
        const endsWithCR = carriesCR();
        const end = endsWithCR ? from : lineEndAt(bytes, from);
        const length = endsWithCR ? carryBytes - 1 : carryBytes + (end - from);
        if (length > max) {
          carry = [];
          carryBytes = 0;
          tooLong(length);
          if (endsWithCR) from = bytes[from] === LF ? from + 1 : from;
          else from = bytes[end] === CR && bytes[end + 1] === LF ? end + 2 : end + 1;
          if (from > nl) {
            keep(bytes, from, size);
            return;
          }
        } else {
          const first = bytes.indexOf(LF, from);
          emitBytes(Buffer.concat([takeCarry(), bytes.subarray(from, first + 1)]), false);
          from = first + 1;
        }
      }
      // Decoded in pieces of about 64 KiB: a string that size is made in V8's young
      // generation and dies there, where a 1 MiB one would go to the old generation and
      // keep its collector busy. Each piece ends with `\n`, so a `\r` at its end is never cut from its `\n`.
      while (from <= nl) {
        const cut = from + PIECE > nl ? nl : bytes.indexOf(LF, from + PIECE);
        emitBytes(bytes.subarray(from, cut + 1), false);
        from = cut + 1;
      }
      keep(bytes, from, size);
    },
    end(): void {
      if (skipping) finishSkip();
      else if (carryBytes > 0) emitBytes(takeCarry(), true);
    },
  };
}

/**
 * Calls `onLine(text, line)` for every non-blank line of `file` (or of one range of it), in
 * order, with its 1-based line number in the whole file: `\n`, `\r\n` and a lone `\r` end a
 * line, blank lines are skipped but counted, a byte-order mark is dropped from line 1.
 * Reads 1 MB at a time into one buffer and decodes each whole run of lines at once; only a
 * line cut by the end of a read is copied. Memory stays bounded whatever the file holds: a
 * line longer than `maxLineBytes` goes to `onTooLong` and is never held whole. Rejects when
 * the file cannot be opened or read, or is not a regular file (a FIFO, a device, a
 * directory). A number as the last argument is `bufferBytes`.
 */
export async function forEachLine(
  file: string,
  range: LineRange | undefined,
  onLine: (text: string, line: number) => void,
  options: number | LineReadOptions = {},
): Promise<void> {
  const opts: LineReadOptions = typeof options === 'number' ? { bufferBytes: options } : options;
  let position = range?.start ?? 0;
  const end = range?.end ?? Infinity;
  if (position >= end) return;
  const splitter = lineSplitter(range?.firstLine ?? 1, onLine, opts);
  const handle = await openTextFile(file);
  try {
    const size = Math.max(1, Math.floor(opts.bufferBytes ?? SCAN_BUFFER));
    const buf = Buffer.allocUnsafe(size);
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, Math.min(size, end - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      splitter.push(buf.subarray(0, bytesRead));
      if (position >= end) break;
    }
    splitter.end();
  } finally {
    await handle.close();
  }
}

/** One line as `readLines` yields it: its text, or the length of a line over the cap. */
export type LineEvent = { line: number; text: string } | { line: number; tooLong: number };

/**
 * The lines `forEachLine` reads, as an async generator (one read of the file at a time is
 * held). For callers that pull, such as `readRecordedCalls`.
 */
export async function* readLines(file: string, options: Omit<LineReadOptions, 'onTooLong'> = {}): AsyncGenerator<LineEvent, void, undefined> {
  const pending: LineEvent[] = [];
  const splitter = lineSplitter(1, (text, line) => pending.push({ line, text }), { ...options, onTooLong: (line, tooLong) => pending.push({ line, tooLong }) });
  const handle = await openTextFile(file);
  try {
    const size = Math.max(1, Math.floor(options.bufferBytes ?? SCAN_BUFFER));
    const buf = Buffer.allocUnsafe(size);
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, size, null);
      if (bytesRead === 0) break;
      splitter.push(buf.subarray(0, bytesRead));
      // Yielding may suspend for long: nothing here refers to `buf` any more.
      for (const event of pending.splice(0)) yield event;
    }
    splitter.end();
    for (const event of pending.splice(0)) yield event;
  } finally {
    await handle.close();
  }
}
