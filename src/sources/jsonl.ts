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
  return recordedItemsOf(parsed.value, where);
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
