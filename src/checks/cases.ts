/**
 * The per-case part of `check`: render a case, check its inputs and tool-call examples, and
 * compare it with its snapshot. Cases are independent, so a large project spreads them over
 * worker threads: each takes a contiguous share of the cases, whole prompts at a time, loads
 * the config and just those prompts itself, and the results come back in case order.
 */
import type { Diagnostic } from '../report/diagnostic.js';
import type { Project } from '../project.js';
import { renderCase } from '../render/render.js';
import type { SchemaCompiler } from '../schema/validator.js';
import { InputError } from '../util/errors.js';
import { checkCaseInput } from './case-input.js';
import { checkRenderedExamples } from './rendered.js';
import { reconcile, snapshotFile } from '../snapshot/state.js';
import { formatSnapshot } from '../snapshot/format.js';
import { snapshotFindings, notationsOf } from './findings.js';

export interface CaseRef {
  prompt: string;
  case: string;
}

/** Every finding of one case, before the policy: the inputs, the examples written in its templates, its snapshot. */
export function checkOneCase(project: Pick<Project, 'config' | 'module' | 'registry'>, ref: CaseRef, compiler: SchemaCompiler): Diagnostic[] {
  const { config, module, registry } = project;
  const definition = module.prompts.get(ref.prompt)!;
  // A case whose inputs the prompt's input.schema rejects is reported there, not rendered.
  const inputProblems = checkCaseInput(definition, definition.cases.get(ref.case)!, compiler);
  if (inputProblems.some((d) => d.severity === 'error')) return inputProblems;
  const rendered = renderCase(module, ref.prompt, ref.case, registry);
  return [
    ...inputProblems,
    ...checkRenderedExamples(rendered, { strict: config.strictExamples === true, compiler, snapshots: config.snapshots, ...notationsOf(config) }),
    ...snapshotFindings(reconcile(snapshotFile(config.snapshots, ref.prompt, ref.case), formatSnapshot(rendered), 'none'), ref),
  ];
}

/**
 * Cases each extra thread needs to pay for itself: a thread loads the project again (its
 * prompts, config and tools) with a cold compiler, about 1.5 s of CPU on a 2-core machine
 * where a case costs under a millisecond (bench/ check-scale).
 */
export const CASES_PER_THREAD = 2000;

export interface CheckCasesOptions {
  compiler: SchemaCompiler;
  /** Threads to use: 1 keeps everything in this thread; undefined picks them by cores and cases (see threadsFor). */
  workers?: number;
}

/** What a case worker is sent: how to load the project as the main thread did, and its share of the cases. */
export interface CaseWorkerData {
  config: string;
  cwd: string;
  cases: CaseRef[];
}
export type CaseReply = { results: Diagnostic[][] } | { error: { message: string; code?: string; file?: string; line?: number; column?: number } };

/**
 * `cases` cut into at most `parts` contiguous shares of nearly equal size, each prompt's cases
 * in one share: a worker then loads only its own prompts.
 */
export function sharesByPrompt(cases: readonly CaseRef[], parts: number): CaseRef[][] {
  const shares: CaseRef[][] = [];
  let share: CaseRef[] = [];
  for (let i = 0; i < cases.length; i++) {
    const ref = cases[i]!;
    // Close the share at a prompt boundary once it has its part of the cases.
    const target = Math.round(((shares.length + 1) * cases.length) / parts);
    if (share.length > 0 && i >= target && ref.prompt !== cases[i - 1]!.prompt && shares.length < parts - 1) {
      shares.push(share);
      share = [];
    }
    share.push(ref);
  }
  if (share.length > 0) shares.push(share);
  return shares;
}

/** The findings of each case, in the order given. */
export async function checkCases(project: Project, cases: readonly CaseRef[], options: CheckCasesOptions): Promise<Diagnostic[][]> {
  const threads = await threadsFor(cases.length, options.workers);
  if (threads <= 1) return cases.map((ref) => checkOneCase(project, ref, options.compiler));
  const [own, ...others] = sharesByPrompt(cases, threads);
  const { Worker } = await import('node:worker_threads');
  const script = new URL('./case-worker.js', import.meta.url);
  const workers: InstanceType<typeof Worker>[] = [];
  const remote = (share: CaseRef[]): Promise<Diagnostic[][]> =>
    new Promise<Diagnostic[][]>((resolve, reject) => {
      const worker = new Worker(script, { workerData: { config: project.config.file, cwd: project.cwd ?? process.cwd(), cases: share } satisfies CaseWorkerData });
      workers.push(worker);
      worker.once('message', (reply: CaseReply) => {
        if ('results' in reply) return resolve(reply.results);
        const { message, code, ...place } = reply.error;
        reject(code === undefined ? new Error(message) : new InputError(code, message, place));
      });
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`A case worker stopped before it replied (exit code ${code})`)));
    });
  try {
    // The workers start first; this thread, which has the project loaded, does the first share meanwhile.
    const pending = others.map(remote);
    pending.forEach((p) => p.catch(() => undefined));
    const mine = (own ?? []).map((ref) => checkOneCase(project, ref, options.compiler));
    return [mine, ...(await Promise.all(pending))].flat();
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** How many threads (this one included) to spread `count` cases over. */
async function threadsFor(count: number, requested: number | undefined): Promise<number> {
  if (requested !== undefined && (!Number.isInteger(requested) || requested < 1)) {
    throw new InputError('usage', `Invalid workers count ${String(requested)}; expected a whole number of at least 1`);
  }
  if (requested === 1 || count === 0) return 1;
  // Run from the sources (ts-jest) there is no compiled worker script: stay in this thread.
  const { existsSync } = await import('node:fs');
  if (!existsSync(new URL('./case-worker.js', import.meta.url))) return 1;
  if (requested !== undefined) return Math.min(requested, count);
  // On two cores the second one is busy already with V8's garbage collector and compiler
  // threads: a worker there made 5,000 cases slower, not faster (bench/ check-scale). From
  // three cores, one thread per core but one, each with enough cases to pay for its start.
  const { availableParallelism } = await import('node:os');
  const cores = availableParallelism();
  if (cores <= 2) return 1;
  return Math.max(1, Math.min(cores - 1, Math.floor(count / CASES_PER_THREAD) + 1));
}
