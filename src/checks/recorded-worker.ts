/**
 * Worker-thread entry for `validateRecordedFiles`: compiles the tools once, then for each
 * range it is sent validates that range into a fresh accumulator and posts back its state.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SchemaCompiler } from '../schema/validator.js';
import type { ToolSpec } from '../tools/types.js';
import { errorMessage } from '../util/errors.js';
import { RecordedAccumulator } from './recorded.js';
import { accumulateFile, type RecordedTask, type RecordedWorkerData, type RecordedWorkerReply } from './recorded-files.js';

const port = parentPort;
if (port !== null) {
  const data = workerData as RecordedWorkerData;
  const tools = data.tools as ToolSpec[];
  // One compiler for every range: compiled validators are cached by schema identity.
  const compiler = new SchemaCompiler();
  const options = {
    compiler,
    kind: 'recorded' as const,
    ...(data.maxWitnesses === undefined ? {} : { maxWitnesses: data.maxWitnesses }),
    ...(data.maxCorrupt === undefined ? {} : { maxCorrupt: data.maxCorrupt }),
  };
  port.on('message', (task: RecordedTask) => {
    void (async () => {
      let reply: RecordedWorkerReply;
      try {
        const accumulator = new RecordedAccumulator(tools, options);
        await accumulateFile(accumulator, task.file, task, task.source, data.maxLineBytes);
        reply = { index: task.index, state: accumulator.state() };
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        reply = { index: task.index, error: { message: errorMessage(error), ...(typeof code === 'string' && code.includes('/') ? { code } : {}) } };
      }
      port.postMessage(reply);
    })();
  });
}
