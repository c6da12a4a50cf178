import type { Diagnostic } from '../report/diagnostic.js';
import { SchemaCompiler } from '../schema/validator.js';
import { DEFAULT_MAX_LINE_BYTES, maxLineBytesFrom, type LineRange } from '../sources/chunks.js';
import { type Shard, shardSlice } from '../util/shard.js';
import type { RecordedItem } from '../sources/types.js';
import type { JsonSchemaObject, ToolSpec } from '../tools/types.js';
import { InputError, errorMessage } from '../util/errors.js';
import type { AccumulatorState, RecordedAccumulator, RecordedCheckOptions } from './recorded.js';
import { workersFromEnv } from '../util/workers.js';

export interface ValidateRecordedOptions extends RecordedCheckOptions {
  /**
   * Threads that validate: 1 validates in this thread; more splits the files into line-aligned
   * byte ranges and validates them in that many worker threads. By default the
   * `PROMPT_CONTRACT_WORKERS` environment variable, else one per core once the files
   * together exceed `parallelThreshold` bytes, else 1. Results are identical either way.
   */
  workers?: number;
  /** Total bytes beyond which validation spreads over worker threads by default; 128 MiB. */
  parallelThreshold?: number;
  /** Target size of one range handed to a worker; by default at least four ranges per worker, 1-8 MiB each. */
  chunkBytes?: number;
  /**
   * Longest line read, in bytes; a longer one is reported as `recorded/line-too-long` and the
   * rest of the file is read as usual. By default `PROMPT_CONTRACT_MAX_LINE_BYTES`, else 16 MiB.
   */
  maxLineBytes?: number;
  /** Validate only this shard's share of each file: its part of the file's lines, cut at line ends. */
  shard?: Shard;
}

/** One range of one file, as a worker receives it. */
export interface RecordedTask extends LineRange {
  index: number;
  file: string;
  source: string;
}

/** What the main thread gives each worker at start. */
export interface RecordedWorkerData {
  tools: Array<Pick<ToolSpec, 'name' | 'inputSchema' | 'origin'>>;
  maxLineBytes: number;
  maxWitnesses?: number;
  maxCorrupt?: number;
}

export type RecordedWorkerReply = { index: number; state: AccumulatorState } | { index: number; error: { message: string; code?: string } };

const MiB = 1 << 20;
// Starting a worker (modules, schemas, a cold JIT) costs about 150 ms. Timed in fresh
// processes on two cores, two workers against one thread: 0.8-1.0x at 39 MiB, about 1.1x
// at 123 MiB, 1.1-1.6x at 160 MiB and 1.45-1.85x at 1 GiB.
const DEFAULT_THRESHOLD = 128 * MiB;

function unreadable(file: string, error: unknown): InputError {
  const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : errorMessage(error);
  return new InputError('recorded/unreadable', `Cannot read recorded calls from \`${file}\` (${reason}); expected a regular JSONL file with one tool call a line`, { file }, { cause: error });
}

/**
 * Feeds every call of one file, or of one line-aligned range of it, to the accumulator:
 * the same lines, line numbers and records as `readRecordedCalls`, read 1 MB at a time.
 */
export async function accumulateFile(accumulator: RecordedAccumulator, file: string, range?: LineRange, source = file, maxLineBytes = DEFAULT_MAX_LINE_BYTES): Promise<void> {
  // jsonl.js first: it imports the other two, and importing a module together with its importer
  // trips Jest's ESM linker ("request for ... is not in cache"); after it they are loaded.
  const { unparseableLine, recordedItemsOf, lineTooLong, mayHoldUnsafeIntegers, markUnsafeIntegers } = await import('../sources/jsonl.js');
  const [{ forEachLine }, { plainCallName, plainArguments }] = await Promise.all([import('../sources/chunks.js'), import('../sources/shapes.js')]);
  const addAll = (items: RecordedItem[]) => {
    for (let i = 0; i < items.length; i++) accumulator.add(items[i]!);
  };
  try {
    await forEachLine(file, range, (text, line) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        accumulator.add(unparseableLine(error, { source, line }));
        return;
      }
      // A number past 2^53 was rounded by JSON.parse: such a line goes the general way, which marks the call.
      if (mayHoldUnsafeIntegers(text)) {
        addAll(markUnsafeIntegers(recordedItemsOf(value, { source, line }), text));
        return;
      }
      // A valid call in a common shape is counted without building a record for it; every
      // other line (other shapes, unknown tools, failures) goes the general way.
      const name = plainCallName(value);
      if (name !== undefined && accumulator.addValid(name, plainArguments(value as object))) return;
      addAll(recordedItemsOf(value, { source, line }));
    }, { maxLineBytes, onTooLong: (line, bytes) => accumulator.add(lineTooLong(bytes, maxLineBytes, { source, line })) });
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw unreadable(file, error);
  }
}

/** The worker count asked for by the option or `PROMPT_CONTRACT_WORKERS`; undefined for "decide by size". */
function requestedWorkers(option: number | undefined): number | undefined {
  if (option !== undefined) {
    if (!Number.isInteger(option) || option < 1) throw new InputError('config/invalid', `Invalid \`workers\` option ${String(option)}; expected a whole number of at least 1`);
    return option;
  }
  return workersFromEnv();
}

/**
 * Reads every recorded-calls file and validates it against `tools`. Large inputs (or a
 * forced `workers` count) are split into line-aligned byte ranges validated in worker
 * threads; their counts merge in file and range order, so findings, witnesses and line
 * numbers are the same as in one thread. Memory stays constant: files are streamed and
 * each finding keeps a few witnesses. The third argument may be a SchemaCompiler to share.
 */
export async function validateRecordedFiles(
  tools: readonly ToolSpec[],
  files: readonly string[],
  options: SchemaCompiler | ValidateRecordedOptions = {},
): Promise<Diagnostic[]> {
  const opts: ValidateRecordedOptions = options instanceof SchemaCompiler ? { compiler: options } : options;
  const { RecordedAccumulator } = await import('./recorded.js');
  const accumulatorOptions = {
    kind: 'recorded' as const,
    ...(opts.maxWitnesses === undefined ? {} : { maxWitnesses: opts.maxWitnesses }),
    ...(opts.maxCorrupt === undefined ? {} : { maxCorrupt: opts.maxCorrupt }),
  };

  let maxLineBytes: number;
  try {
    maxLineBytes = maxLineBytesFrom(opts.maxLineBytes);
  } catch (error) {
    throw new InputError('config/invalid', errorMessage(error));
  }
  if (opts.shard && opts.shard.total > 1) {
    // Each file in `total` line-aligned parts of about equal size; this shard reads its own.
    const { index, total } = opts.shard;
    const accumulator = new RecordedAccumulator(tools, { ...accumulatorOptions, compiler: opts.compiler ?? new SchemaCompiler() });
    const [{ splitAtLines }, { statSync }] = await Promise.all([import('../sources/chunks.js'), import('node:fs')]);
    for (const file of files) {
      let size: number;
      try {
        size = statSync(file).size;
      } catch {
        // Unreadable or missing: the first shard reports it, as a run without shards would.
        if (index === 1) await accumulateFile(accumulator, file, undefined, file, maxLineBytes);
        continue;
      }
      const ranges: LineRange[] = [];
      try {
        for await (const range of splitAtLines(file, Math.max(1, Math.ceil(size / total)))) ranges.push(range);
      } catch (error) {
        // Every shard refuses a file it cannot read (UTF-16, a directory): none may pass it as checked.
        throw unreadable(file, error);
      }
      for (const range of shardSlice(ranges, opts.shard)) await accumulateFile(accumulator, file, range, file, maxLineBytes);
    }
    return accumulator.toDiagnostics();
  }
  const plan = await planWorkers(files, opts);
  if (plan === undefined) {
    const accumulator = new RecordedAccumulator(tools, { ...accumulatorOptions, compiler: opts.compiler ?? new SchemaCompiler() });
    for (const file of files) await accumulateFile(accumulator, file, undefined, file, maxLineBytes);
    return accumulator.toDiagnostics();
  }
  // This thread only merges counts: it needs the tool names, not compiled validators, so it
  // does not compile schemas a second time while the workers compile theirs (a shared
  // compiler that has them cached is used as is). Calls to a tool whose schema does not
  // compile come back from the workers as unchecked groups, merged like the rest.
  const accumulator = new RecordedAccumulator(tools, { ...accumulatorOptions, compiler: opts.compiler ?? mergeOnlyCompiler() });
  const data: RecordedWorkerData = {
    // Plain data only: a handler may hold a zod schema, which cannot cross threads (and recorded calls do not use it).
    tools: tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema as JsonSchemaObject, origin: t.origin })),
    maxLineBytes,
    ...(opts.maxWitnesses === undefined ? {} : { maxWitnesses: opts.maxWitnesses }),
    ...(opts.maxCorrupt === undefined ? {} : { maxCorrupt: opts.maxCorrupt }),
  };
  const states = await runWorkers(plan, files, data);
  for (const state of states) accumulator.merge(state);
  return accumulator.toDiagnostics();
}

/** A compiler whose validators are never called: for the accumulator that only merges worker states. */
function mergeOnlyCompiler(): SchemaCompiler {
  const unused = Object.assign(() => true, { errors: () => [], places: () => [], skippedPatterns: [] });
  return { compile: () => unused } as unknown as SchemaCompiler;
}

interface WorkerPlan {
  workers: number;
  chunkBytes: number;
  script: URL;
}

/** How many threads to use and how big a range each takes, or undefined to stay in this thread. */
async function planWorkers(files: readonly string[], opts: ValidateRecordedOptions): Promise<WorkerPlan | undefined> {
  const requested = requestedWorkers(opts.workers);
  if (requested === 1 || files.length === 0) return undefined;
  const { stat } = await import('node:fs/promises');
  let total = 0;
  for (const file of files) {
    try {
      total += (await stat(file)).size;
    } catch (error) {
      throw unreadable(file, error);
    }
  }
  const { availableParallelism } = await import('node:os');
  const cores = availableParallelism();
  if (requested === undefined && (total <= (opts.parallelThreshold ?? DEFAULT_THRESHOLD) || cores < 2)) return undefined;
  let workers = requested ?? cores;
  // Run from the sources (ts-jest, ts-node) there is no compiled worker script: stay in this thread.
  const script = new URL('./recorded-worker.js', import.meta.url);
  const { existsSync } = await import('node:fs');
  if (!existsSync(script)) return undefined;
  // At least four ranges per worker, of at most 8 MiB: whichever thread finishes first takes
  // the next, so they end within a small range of each other; a round trip costs far less.
  const perWorker = Math.max(4, Math.ceil(total / (workers * 8 * MiB)));
  const chunkBytes = opts.chunkBytes ?? Math.max(MiB, Math.ceil(total / (workers * perWorker)));
  // No more threads than ranges.
  workers = Math.max(1, Math.min(workers, Math.ceil(total / chunkBytes)));
  return { workers, chunkBytes, script };
}

/** Validates every range in a pool of worker threads; the states come back in file and range order. */
async function runWorkers(plan: WorkerPlan, files: readonly string[], data: RecordedWorkerData): Promise<AccumulatorState[]> {
  const [{ Worker }, { splitAtLines }] = await Promise.all([import('node:worker_threads'), import('../sources/chunks.js')]);

  async function* tasks(): AsyncGenerator<RecordedTask, void, undefined> {
    let index = 0;
    for (const file of files) {
      let ranges;
      try {
        ranges = splitAtLines(file, plan.chunkBytes);
        for await (const range of ranges) yield { ...range, index: index++, file, source: file };
      } catch (error) {
        throw unreadable(file, error);
      }
    }
  }
  const iterator = tasks();
  // One pull at a time: the ranges of a file are found in one sequential pass.
  let pulling: Promise<unknown> = Promise.resolve();
  const nextTask = (): Promise<IteratorResult<RecordedTask, void>> => {
    const next = pulling.then(() => iterator.next());
    pulling = next.catch(() => undefined);
    return next;
  };

  const states: AccumulatorState[] = [];
  const threads: InstanceType<typeof Worker>[] = [];
  let failed = false;

  const drive = async (): Promise<void> => {
    // A worker holds one 1 MB buffer, the line being parsed and capped counts: a small heap
    // keeps the process's peak memory constant (V8's defaults would let each thread grow to
    // hundreds of MB before collecting). Old space stays generous for very long lines.
    const worker = new Worker(plan.script, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 } });
    threads.push(worker);
    let settle: { resolve: (reply: RecordedWorkerReply) => void; reject: (error: unknown) => void } | undefined;
    let broken: unknown;
    const stop = (error: unknown) => {
      broken ??= error;
      settle?.reject(error);
    };
    worker.on('message', (reply: RecordedWorkerReply) => settle?.resolve(reply));
    worker.on('error', stop);
    worker.on('exit', (code) => stop(new Error(`A validation worker stopped (exit code ${code})`)));
    let next = await nextTask();
    while (!next.done && !failed) {
      const task = next.value;
      const replied = new Promise<RecordedWorkerReply>((resolve, reject) => {
        if (broken !== undefined) return reject(broken);
        settle = { resolve, reject };
        worker.postMessage(task);
      });
      // Find the next range while this one is validated, so the worker never waits for the scan.
      const following = nextTask();
      following.catch(() => undefined);
      const reply = await replied;
      settle = undefined;
      if ('error' in reply) {
        const { message, code } = reply.error;
        if (code === undefined) throw unreadable(task.file, new Error(message));
        throw new InputError(code, message, code.startsWith('tools/') ? {} : { file: task.file });
      }
      states[reply.index] = reply.state;
      next = await following;
    }
  };

  try {
    await Promise.all(
      Array.from({ length: plan.workers }, () =>
        drive().catch((error: unknown) => {
          failed = true;
          throw error;
        }),
      ),
    );
  } finally {
    await Promise.all(threads.map((t) => t.terminate()));
    await iterator.return();
  }
  return states;
}
