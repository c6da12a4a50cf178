// The contract suite where the test runner can only `require` (Jest without Node's VM modules).
//
// Jest collects a CommonJS test file's tests synchronously, while the suite needs the config,
// which may be TypeScript or an ES module, loaded to know which tests there are (one per case).
// So the test names are found first, synchronously, by running the suite's definition in a
// worker thread (plain Node, where the config loads as the CLI loads it) with a runtime that
// only records names, and waiting for its answer. The tests are then defined under those names;
// the first to run loads the project in this thread and defines the same suite again into a
// table, from which each test takes its body. Both passes are the one definition in suite.ts,
// so the names and the bodies cannot drift apart.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { Importer } from './config/index.js';
import type { ContractSuiteOptions, SuiteRuntime } from './suite.js';

/** What the worker answers: the suite's title and tests, or the error its definition threw. */
export type SuitePlan =
  | { ok: true; title: string; tests: { name: string; timeout?: number }[] }
  | { ok: false; error: { name: string; message: string; code?: string } };

/** The request the worker reads from its `workerData`. */
export interface PlanRequest {
  options: ContractSuiteOptions;
  testPath: string | undefined;
  cwd: string;
  port: MessagePort;
  signal: SharedArrayBuffer;
}

/** Longest wait for the worker's answer: a config that never finishes loading is an error, not a hang. */
const PLAN_TIMEOUT_MS = 120_000;

type Recorded = { title: string | undefined; tests: Map<string, { fn: () => Promise<void>; timeout?: number }>; hooks: (() => void)[] };

/**
 * A runtime that runs `describe` bodies at once and keeps tests and hooks in `into` instead of
 * giving them to a runner. `expect` is the real one: matchers are registered on it, and a test
 * body reads the snapshot state from it when it runs.
 */
export function recordingRuntime(base: Pick<SuiteRuntime, 'name' | 'expect' | 'importer'>, into: Recorded): SuiteRuntime {
  return {
    name: base.name,
    expect: base.expect,
    importer: base.importer,
    describe(name, fn) {
      into.title ??= name;
      fn();
    },
    test(name, fn, timeout) {
      if (into.tests.has(name)) throw new Error(`prompt-contract: two tests of the suite are named ${JSON.stringify(name)}`);
      into.tests.set(name, { fn, ...(timeout === undefined ? {} : { timeout }) });
    },
    afterAll(fn) {
      into.hooks.push(fn);
    },
  };
}

export function emptyRecord(): Recorded {
  return { title: undefined, tests: new Map(), hooks: [] };
}

/** The suite's test names, from a worker thread, waited for synchronously. */
function planInWorker(options: ContractSuiteOptions, testPath: string | undefined): SuitePlan {
  const signal = new SharedArrayBuffer(4);
  const flag = new Int32Array(signal);
  const { port1, port2 } = new MessageChannel();
  const request: PlanRequest = { options, testPath, cwd: process.cwd(), port: port2, signal };
  const worker = new Worker(new URL('./suite-plan-worker.js', import.meta.url), {
    workerData: request,
    transferList: [port2],
    // The worker's own output (a config that logs) reaches this process's, as the CLI's would.
    stdout: false,
    stderr: false,
  });
  try {
    if (Atomics.wait(flag, 0, 0, PLAN_TIMEOUT_MS) === 'timed-out') {
      return { ok: false, error: { name: 'Error', message: `prompt-contract: the config did not finish loading in ${PLAN_TIMEOUT_MS / 1000} s` } };
    }
    const received = receiveMessageOnPort(port1);
    if (received === undefined) return { ok: false, error: { name: 'Error', message: 'prompt-contract: the worker that reads the config ended without an answer' } };
    return received.message as SuitePlan;
  } finally {
    port1.close();
    void worker.terminate();
  }
}

/**
 * Defines the suite synchronously. `define` is the suite's one definition (defineContractSuite);
 * `importer` loads the config in this thread when the first test runs.
 */
export function defineContractSuiteSync(
  g: SuiteRuntime,
  options: ContractSuiteOptions,
  define: (g: SuiteRuntime, options: ContractSuiteOptions) => Promise<void>,
): void {
  const testPath = (g.expect.getState() as { testPath?: unknown }).testPath;
  const plan = planInWorker(options, typeof testPath === 'string' ? testPath : undefined);
  if (!plan.ok) {
    // Thrown while the test file loads, as an ES module suite's load error is.
    const error = new Error(plan.error.message);
    error.name = plan.error.name;
    error.stack = `${error.name}: ${error.message}`;
    if (plan.error.code !== undefined) (error as Error & { code?: string }).code = plan.error.code;
    throw error;
  }
  const record = emptyRecord();
  let loading: Promise<void> | undefined;
  const load = (): Promise<void> => (loading ??= define(recordingRuntime(g, record), options));
  g.describe(plan.title, () => {
    g.afterAll(() => {
      for (const hook of record.hooks) hook();
    });
    for (const { name, timeout } of plan.tests) {
      g.test(
        name,
        async () => {
          await load();
          const own = record.tests.get(name);
          if (own === undefined) {
            throw new Error(`prompt-contract: this test was planned from the config, and loading the project again did not define it (did a prompt, case or config change while the tests ran?); run the tests again`);
          }
          await own.fn();
        },
        timeout,
      );
    }
  });
}

export type { Importer };
