import { open, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { InputError, errorMessage } from '../util/errors.js';
import { itemsFromValue, notJson, parseJson, type Where } from './shapes.js';
import type { CorruptRecord, RecordedCall, RecordedItem } from './types.js';

export interface ReadRecordedOptions {
  /** The name findings use for this file; the path by default. */
  source?: string;
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

const blank = /^\s*$/;

function unreadable(file: string, error: unknown): InputError {
  const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : errorMessage(error);
  return new InputError('recorded/unreadable', `Cannot read recorded calls from \`${file}\` (${reason}); expected a JSONL file with one tool call a line`, { file }, { cause: error });
}

/**
 * Streams the recorded calls of a JSONL file, line by line in constant memory. A line that
 * is not a readable call yields a CorruptRecord with its 1-based line number and the
 * stream goes on; blank lines are skipped. A file that cannot be opened or read throws an
 * InputError.
 */
export async function* readRecordedCalls(file: string, options: ReadRecordedOptions = {}): AsyncGenerator<RecordedItem, void, undefined> {
  const source = options.source ?? file;
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw unreadable(file, error);
  }
  const stream = handle.createReadStream({ encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let line = 0;
  try {
    const iterator = lines[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<string>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw unreadable(file, error);
      }
      if (next.done) return;
      line++;
      let text = next.value;
      if (blank.test(text)) continue;
      if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      // for-of, not yield*: yield* over an array goes through an async wrapper per item, twice as slow.
      for (const item of parseRecordedLine(text, { source, line })) yield item;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}
