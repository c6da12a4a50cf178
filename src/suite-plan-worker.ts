// Worker thread of suite-sync.ts: runs the suite's definition with a recording runtime and
// answers with the title and test names, or with the error the definition threw.
import { workerData } from 'node:worker_threads';
import { defaultImporter } from './config/index.js';
import { defineContractSuite } from './suite.js';
import { emptyRecord, recordingRuntime, type PlanRequest, type SuitePlan } from './suite-sync.js';

const request = workerData as PlanRequest;
const flag = new Int32Array(request.signal);

function answer(plan: SuitePlan): void {
  request.port.postMessage(plan);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

// The worker shares the process's working directory (workers cannot change it): request.cwd is what it was.
const record = emptyRecord();
// What the definition reads of `expect`: where the test file is, and matchers to register (none needed here).
const expect = { extend(): void {}, getState: () => ({ testPath: request.testPath }) };
try {
  await defineContractSuite(recordingRuntime({ name: 'Jest', expect, importer: defaultImporter }, record), request.options);
  answer({ ok: true, title: record.title ?? 'prompt-contract', tests: [...record.tests].map(([name, t]) => ({ name, ...(t.timeout === undefined ? {} : { timeout: t.timeout }) })) });
} catch (error) {
  const e = error as { name?: unknown; message?: unknown; code?: unknown };
  answer({ ok: false, error: { name: typeof e.name === 'string' ? e.name : 'Error', message: typeof e.message === 'string' ? e.message : String(error), ...(typeof e.code === 'string' ? { code: e.code } : {}) } });
}
