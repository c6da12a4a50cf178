import { escapeSegment } from '../schema/pointer.js';
import { jsonPositions } from '../tools/json-positions.js';
import { InputError, errorMessage } from '../util/errors.js';
import { maxLineBytesFrom, readLines, type LineEvent } from './chunks.js';
import { itemsFromValue, notJson, parseJson, type Where } from './shapes.js';
import type { CorruptRecord, RecordedCall, RecordedItem } from './types.js';

export interface ReadRecordedOptions {
  /** The name findings use for this file; the path by default. */
  source?: string;
  /** Longest line read, in bytes; by default `PROMPT_CONTRACT_MAX_LINE_BYTES`, else 16 MiB. */
  maxLineBytes?: number;
}

/**
 * The calls on one JSONL line (several for a `tool_calls` wrapper), or one CorruptRecord
 * when the line is not JSON or holds no call. Calls of a multi-call line that carry no id
 * are named `line#index`.
 */
export function parseRecordedLine(text: string, where: Where): RecordedItem[] {
  const parsed = parseJson(text, where, 'The line');
  if ('corrupt' in parsed) return [parsed];
  const items = recordedItemsOf(parsed.value, where);
  return mayHoldUnsafeIntegers(text) ? markUnsafeIntegers(items, text) : items;
}

/** An integer in a call's arguments that a JavaScript number cannot hold exactly: where it is, and its digits as the line wrote them. */
export interface UnsafeInteger {
  instancePath: string;
  digits: string;
  /**
   * Written with an exponent (`9223372036854775808e0`, `1e16`): a float as often as an
   * integer, so it matters only where the schema asks an integer or bounds the value past
   * 2^53 (the checker decides, with the schema).
   */
  exponent?: true;
}

/** A recorded call, with the integers of its arguments that `JSON.parse` rounded, when there are any. */
export type RecordedCallRead = RecordedCall & { unsafeIntegers?: UnsafeInteger[] };

// No integer within ±(2^53 − 1) has more than 16 digits, nor an exponent: a line without either needs no closer look.
// An exponent counts where a JSON number can start (after `:`, `[`, `,` or a space), so the hex
// of ids and hashes (`"call_3e4f"`, a UUID's `-3e45-`) does not send nearly every log line to the slow path.
const LONG_DIGITS = /\d{16}|(?:^|[:[,\s])-?\d+(?:\.\d+)?[eE][+-]?\d/;
const NUMBER = /-?(\d+)(\.\d+)?([eE][+-]?\d+)?/y;
const MAX_SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER);

/** True when `text` may hold a number literal past 2^53: the cheap test before `markUnsafeIntegers`. */
export function mayHoldUnsafeIntegers(text: string): boolean {
  return LONG_DIGITS.test(text);
}

/** Digits of an integer part that `Number` cannot hold exactly (JSON allows no leading zeros). */
function unsafeDigits(digits: string): boolean {
  return digits.length > MAX_SAFE_DIGITS.length || (digits.length === MAX_SAFE_DIGITS.length && digits > MAX_SAFE_DIGITS);
}

/** The JSON string literal that opens at `start`, quotes included. */
function stringLiteralAt(text: string, start: number): string {
  let i = start + 1;
  while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
  return text.slice(start, i + 1);
}

/**
 * The number literals of valid JSON `text` whose integer part is past ±(2^53 − 1), as written,
 * and those with an exponent whose value is (see UnsafeInteger.exponent). Strings are skipped,
 * except a string that is itself JSON text (OpenAI's `arguments`), which is looked into once.
 * Found from the text because Node 20's `JSON.parse` gives a reviver no source text.
 */
export function unsafeIntegerLiterals(text: string, nested = false): string[] {
  if (!LONG_DIGITS.test(text)) return [];
  const out: string[] = [];
  for (const { start } of jsonPositions(text).values()) {
    const c = text.charCodeAt(start);
    if (c === 0x22) {
      if (nested) continue;
      const literal = stringLiteralAt(text, start);
      if (!LONG_DIGITS.test(literal)) continue;
      let inner: unknown;
      try {
        inner = JSON.parse(literal);
        JSON.parse(inner as string);
      } catch {
        continue;
      }
      out.push(...unsafeIntegerLiterals(inner as string, true));
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = start;
      const m = NUMBER.exec(text);
      if (m === null) continue;
      if (m[3] === undefined ? unsafeDigits(m[1]!) : Math.abs(Number(m[0])) > Number.MAX_SAFE_INTEGER) out.push(m[0]);
    }
  }
  return out;
}

/**
 * `items` with each call whose arguments hold a number that `JSON.parse` rounded (a literal of
 * `text` past 2^53) marked with its place and its digits as written: such a call cannot be
 * compared with a schema exactly (`9223372036854775808` reads as `maximum: 9223372036854775807`
 * allows). Numbers are matched to literals by value; the walk keeps its own stack, as a call may nest deep.
 */
export function markUnsafeIntegers(items: RecordedItem[], text: string): RecordedItem[] {
  const literals = unsafeIntegerLiterals(text);
  if (literals.length === 0) return items;
  const byValue = new Map<number, string>();
  for (const digits of literals) if (!byValue.has(Number(digits))) byValue.set(Number(digits), digits);
  return items.map((item) => {
    if ('corrupt' in item) return item;
    const found: UnsafeInteger[] = [];
    const stack: Array<[value: unknown, path: string]> = [[item.arguments, '']];
    while (stack.length > 0) {
      const [value, path] = stack.pop()!;
      if (typeof value === 'number') {
        const digits = Math.abs(value) > Number.MAX_SAFE_INTEGER ? byValue.get(value) : undefined;
        if (digits !== undefined) found.push(/[eE]/.test(digits) ? { instancePath: path, digits, exponent: true } : { instancePath: path, digits });
      } else if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}/*`]);
      } else if (typeof value === 'object' && value !== null) {
        const entries = Object.entries(value);
        for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], `${path}/${escapeSegment(entries[i]![0])}`]);
      }
    }
    return found.length === 0 ? item : ({ ...item, unsafeIntegers: found } satisfies RecordedCallRead);
  });
}

/** The record for a line that `JSON.parse` rejected with `error`, worded as `parseRecordedLine` words it. */
export function unparseableLine(error: unknown, where: Where): CorruptRecord {
  return notJson(error, where, 'The line');
}

/** The calls in the parsed value of one JSONL line, named as `parseRecordedLine` names them. */
export function recordedItemsOf(value: unknown, where: Where): RecordedItem[] {
  return itemsFromValue(value, where, (call, index, count): RecordedCall => {
    const id = call.id ?? (count > 1 ? `${where.line ?? '?'}#${index}` : undefined);
    return id === undefined ? { name: call.name, arguments: call.arguments, where } : { id, name: call.name, arguments: call.arguments, where };
  });
}

function unreadable(file: string, error: unknown): InputError {
  const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : errorMessage(error);
  return new InputError('recorded/unreadable', `Cannot read recorded calls from \`${file}\` (${reason}); expected a regular JSONL file with one tool call a line`, { file }, { cause: error });
}

const MiB = 1024 * 1024;

/** A byte count for a message: `16 MiB`, `20,000,000 bytes`. */
export function bytesText(bytes: number): string {
  return bytes >= MiB && bytes % MiB === 0 ? `${bytes / MiB} MiB` : bytes >= MiB ? `${(bytes / MiB).toFixed(1)} MiB` : `${bytes.toLocaleString('en-US')} bytes`;
}

/** The record for a line longer than the cap: reported, not read. */
export function lineTooLong(bytes: number, maxLineBytes: number, where: Where): CorruptRecord {
  return { corrupt: true, tooLong: bytes, message: `The line is ${bytesText(bytes)} long, over the limit of ${bytesText(maxLineBytes)}; expected a tool call of at most that size (the line was not read, the lines after it were)`, where };
}

/**
 * Streams the recorded calls of a JSONL file, line by line in bounded memory. A line that
 * is not a readable call yields a CorruptRecord with its 1-based line number, and so does a
 * line longer than `maxLineBytes` (`tooLong` set); the stream goes on. Blank lines are
 * skipped. A file that cannot be opened or read, or is not a regular file, throws an InputError.
 */
export async function* readRecordedCalls(file: string, options: ReadRecordedOptions = {}): AsyncGenerator<RecordedItem, void, undefined> {
  const source = options.source ?? file;
  let maxLineBytes: number;
  try {
    maxLineBytes = maxLineBytesFrom(options.maxLineBytes);
  } catch (error) {
    throw new InputError('config/invalid', errorMessage(error));
  }
  const lines = readLines(file, { maxLineBytes });
  try {
    yield* recordsOf(lines, file, source, maxLineBytes);
  } finally {
    await lines.return();
  }
}

async function* recordsOf(lines: AsyncGenerator<LineEvent, void, undefined>, file: string, source: string, maxLineBytes: number): AsyncGenerator<RecordedItem, void, undefined> {
  for (;;) {
    let next: IteratorResult<LineEvent>;
    try {
      next = await lines.next();
    } catch (error) {
      throw unreadable(file, error);
    }
    if (next.done) return;
    const event = next.value;
    if ('tooLong' in event) {
      yield lineTooLong(event.tooLong, maxLineBytes, { source, line: event.line });
      continue;
    }
    // for-of, not yield*: yield* over an array goes through an async wrapper per item, twice as slow.
    for (const item of parseRecordedLine(event.text, { source, line: event.line })) yield item;
  }
}
