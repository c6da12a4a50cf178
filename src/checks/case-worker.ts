/**
 * Worker-thread entry for `checkCases`: loads the config and the prompts of its share of the
 * cases, as the main thread did, checks each case and posts back their findings.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadProject } from '../project.js';
import { SchemaCompiler } from '../schema/validator.js';
import { InputError, errorMessage } from '../util/errors.js';
import { checkOneCase, type CaseReply, type CaseWorkerData } from './cases.js';

const port = parentPort;
if (port !== null) {
  const data = workerData as CaseWorkerData;
  void (async () => {
    let reply: CaseReply;
    try {
      const project = await loadProject({ config: data.config, cwd: data.cwd, prompts: new Set(data.cases.map((c) => c.prompt)) });
      const compiler = new SchemaCompiler();
      reply = { results: data.cases.map((ref) => checkOneCase(project, ref, compiler)) };
    } catch (error) {
      const place = error instanceof InputError ? { code: error.code, ...(error.file === undefined ? {} : { file: error.file }), ...(error.line === undefined ? {} : { line: error.line }), ...(error.column === undefined ? {} : { column: error.column }) } : {};
      reply = { error: { message: errorMessage(error), ...place } };
    }
    port.postMessage(reply);
  })();
}
