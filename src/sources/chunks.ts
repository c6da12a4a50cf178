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
import { open } from 'node:fs/promises';

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
  const handle = await open(file, 'r');
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

/** UTF-8 bytes as a string; pure ASCII (most logs) is copied as Latin-1, twice as fast and the same text. */
function decode(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}
const lineEnd = /\r\n|\n|\r/g;

/**
 * Calls `onLine(text, line)` for every non-blank line of `file` (or of one range of it), in
 * order, with its 1-based line number in the whole file, exactly as `readRecordedCalls`
 * reads lines: `\n`, `\r\n` and a lone `\r` end a line, blank lines are skipped but counted,
 * a byte-order mark is dropped from line 1. Reads 1 MB at a time into one buffer and
 * decodes each whole run of lines at once; only a line cut by the end of a read is copied.
 * Memory stays constant whatever the size of the file (one line at most is held beyond
 * the buffer). Rejects when the file cannot be opened or read. `bufferBytes` changes the
 * read size (tests use tiny ones to cut lines, `\r\n` pairs and characters between reads).
 */
export async function forEachLine(
  file: string,
  range: LineRange | undefined,
  onLine: (text: string, line: number) => void,
  bufferBytes = SCAN_BUFFER,
): Promise<void> {
  let line = range?.firstLine ?? 1;
  let position = range?.start ?? 0;
  const end = range?.end ?? Infinity;
  if (position >= end) return;

  /** A line that is not plainly JSON: maybe blank (skipped), maybe led by a byte-order mark. */
  const other = (text: string, n: number) => {
    if (blank.test(text)) return;
    onLine(n === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, n);
  };
  /** Every line of a text that ends with a line end (or, at the end of input, is the last line). */
  const emitAll = (text: string, last: boolean) => {
    let from = 0;
    if (text.indexOf('\r') === -1) {
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
        // Almost every line starts with `{` or `[`: no blank test, no byte-order mark.
        const first = text.charCodeAt(from);
        if (first === 0x7b || first === 0x5b) onLine(text.slice(from, nl), line++);
        else other(text.slice(from, nl), line++);
        from = nl + 1;
      }
    } else {
      lineEnd.lastIndex = 0;
      for (let m = lineEnd.exec(text); m !== null; m = lineEnd.exec(text)) {
        other(text.slice(from, m.index), line++);
        from = m.index + m[0].length;
      }
    }
    if (last && from < text.length) other(text.slice(from), line++);
  };

  const handle = await open(file, 'r');
  try {
    const size = Math.max(1, Math.floor(bufferBytes));
    const buf = Buffer.allocUnsafe(size);
    // The start of a line that the last read cut, copied out of `buf`.
    let carry: Buffer | undefined;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, Math.min(size, end - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const bytes = buf.subarray(0, bytesRead);
      let from = 0;
      if (carry !== undefined) {
        const nl = bytes.indexOf(LF);
        if (nl === -1) {
          carry = Buffer.concat([carry, bytes]);
          continue;
        }
        emitAll(decode(Buffer.concat([carry, bytes.subarray(0, nl + 1)])), false);
        carry = undefined;
        from = nl + 1;
      }
      // Each text ends with `\n`, so a `\r` at its end is never cut from its `\n`.
      const nl = bytes.lastIndexOf(LF);
      // Decoded in pieces of about 64 KiB: a string that size is made in V8's young
      // generation and dies there, where a 1 MiB one would go to the old generation and
      // keep its collector busy.
      while (from <= nl) {
        const cut = from + PIECE > nl ? nl : bytes.indexOf(LF, from + PIECE);
        emitAll(decode(bytes.subarray(from, cut + 1)), false);
        from = cut + 1;
      }
      if (from < bytesRead) carry = Buffer.from(bytes.subarray(from));
      if (position >= end) break;
    }
    if (carry !== undefined) emitAll(decode(carry), true);
  } finally {
    await handle.close();
  }
}
