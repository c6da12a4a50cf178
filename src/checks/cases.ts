/**
 * The per-case part of `check`: render a case, check its inputs and tool-call examples, and
 * compare it with its snapshot; and render and check each prompt's curated examples and stub
 * entries. The work comes in groups (a run of one prompt's cases, or one prompt's items), and
 * groups are independent, so a large project spreads them over worker threads. Threads take
 * the next group from a shared counter as they come free, so a thread that starts late or
 * runs slow takes fewer; each reads only the prompts of the groups it takes. Results and the
 * first error are put back in group order: any number of threads reports what one reports.
 */
import { relative, sep } from 'node:path';
import { inert } from '../report/inert.js';
import type { Diagnostic } from '../report/diagnostic.js';
import type { Project } from '../project.js';
import { renderAnyCase, renderCase, renderDataItems, type RenderedCase } from '../render/render.js';
import type { SchemaCompiler } from '../schema/validator.js';
import type { ToolSpec } from '../tools/types.js';
import { casesFilesOf } from '../render/module.js';
import { workersFromEnv } from '../util/workers.js';
import { InputError, errorMessage } from '../util/errors.js';
import { checkCaseInput } from './case-input.js';
import { caseRules } from './case-input.rules.js';
import { report } from '../report/rule.js';
import { checkRenderedExamples } from './rendered.js';
import { checkToolExamples } from './tool-examples.js';
import { reconcile, snapshotFile } from '../snapshot/state.js';
import { formatSnapshot } from '../snapshot/format.js';
import { snapshotFindings, notationsOf } from './findings.js';
import { countRenderedCase, type TokenCount, type TokenizerSetting } from '../tokens/index.js';
import { budgetFindings, caseTokenizer, type TokenBaseline } from '../tokens/budget.js';
import { readSnapshotTokens } from '../tokens/baseline.js';

export interface CaseRef {
  prompt: string;
  case: string;
}

/**
 * What the per-case checks read of a project; `rendered`: the cases of prompt modules, rendered
 * beforehand (their builders may answer later); `tokenBaseline`: the snapshots' token counts at
 * the `--against` revision, by snapshot file, which `budget/grew` compares with instead of the
 * working tree's snapshots.
 */
export type CaseContext = Pick<Project, 'config' | 'module' | 'registry'> & { rendered?: ReadonlyMap<string, RenderedCase | { failed: unknown }>; tokenBaseline?: TokenBaselineAt };

/** The snapshots' token counts at a git revision, by absolute snapshot file. */
export interface TokenBaselineAt {
  ref: string;
  counts: ReadonlyMap<string, TokenCount>;
}

/** What `budget/grew` compares a case with: its count at the `--against` revision, else its committed snapshot's as read before any write. */
export function tokenBaselineOf(context: Pick<CaseContext, 'config' | 'tokenBaseline'>, file: string): TokenBaseline | undefined {
  const at = context.tokenBaseline;
  if (at !== undefined) {
    const count = at.counts.get(file);
    return count === undefined ? undefined : { count, from: `${at.ref}:${relativeTo(context.config.root, file)}` };
  }
  const count = readSnapshotTokens(file);
  return count === undefined ? undefined : { count, from: file };
}

const relativeTo = (root: string, file: string): string => relative(root, file).split(sep).join('/');

/** The key of a case in `CaseContext.rendered`. */
export const caseKey = (prompt: string, name: string): string => `${prompt}\u0000${name}`;

/**
 * Renders the cases of the prompt modules among `groups` (a prompt built by code renders with
 * its builder, which may answer later), each kept with what it rendered or the error it met,
 * for `checkOneCase` to take in group order. Empty when no group is of a prompt module.
 */
export async function renderCodeCases(project: Pick<Project, 'config' | 'module' | 'registry' | 'importer'>, groups: readonly CaseGroup[]): Promise<Map<string, RenderedCase | { failed: unknown }>> {
  const out = new Map<string, RenderedCase | { failed: unknown }>();
  for (const group of groups) {
    if (project.module.prompts.get(group.prompt)?.code === undefined) continue;
    for (const name of group.cases) {
      try {
        out.set(caseKey(group.prompt, name), await renderAnyCase(project.module, group.prompt, name, project.registry, { ...renderOptions(project.config), ...(project.importer === undefined ? {} : { importer: project.importer }) }));
      } catch (failed) {
        out.set(caseKey(group.prompt, name), { failed });
      }
    }
  }
  return out;
}

/** The config's bound on one render, when it sets one. */
export const renderOptions = (config: { maxRenderedBytes?: number | undefined }): { maxRenderedBytes?: number } => (config.maxRenderedBytes === undefined ? {} : { maxRenderedBytes: config.maxRenderedBytes });

/**
 * The tool-level examples of the tools a prompt module sent of its own (an agent's, not the
 * config's), checked as the config's are: `check` and the suites check them with each case.
 */
export function moduleToolFindings(rendered: RenderedCase, registry: ReadonlyMap<string, ToolSpec>, options: Parameters<typeof checkToolExamples>[1]): Diagnostic[] {
  if (rendered.builtBy === undefined) return [];
  const own = rendered.tools.filter((tool) => registry.get(tool.name) !== tool);
  return own.length === 0 ? [] : checkToolExamples(own, options);
}

/** Every finding of one case, before the policy: the inputs, the examples written in its templates, its snapshot. */
export function checkOneCase(project: CaseContext, ref: CaseRef, compiler: SchemaCompiler): Diagnostic[] {
  const { config, module, registry } = project;
  const definition = module.prompts.get(ref.prompt)!;
  // A case whose inputs the prompt's input.schema rejects is reported there, not rendered.
  const inputProblems = checkCaseInput(definition, definition.cases.get(ref.case)!, compiler);
  if (inputProblems.some((d) => d.severity === 'error')) return inputProblems;
  const early = definition.code === undefined ? undefined : project.rendered?.get(caseKey(ref.prompt, ref.case));
  if (early !== undefined && 'failed' in early) throw early.failed;
  const rendered = early ?? renderCase(module, ref.prompt, ref.case, registry, renderOptions(config));
  const testCase = definition.cases.get(ref.case)!;
  const tokens = countRenderedCase(rendered, caseTokenizer(config, definition, testCase));
  const file = snapshotFile(config.snapshots, ref.prompt, ref.case);
  const snapshot = reconcile(file, formatSnapshot(rendered, tokens), 'none', process.cwd(), config.snapshots);
  // A matching snapshot states this very count: only a changed one is read for its baseline.
  const baseline = project.tokenBaseline !== undefined || snapshot.status !== 'matched' ? tokenBaselineOf(project, file) : undefined;
  return [
    ...inputProblems,
    ...moduleToolFindings(rendered, registry, { strict: config.strictExamples === true, compiler, ...notationsOf(config) }),
    ...checkRenderedExamples(rendered, { strict: config.strictExamples === true, compiler, snapshots: config.snapshots, ...notationsOf(config) }),
    ...snapshotFindings(snapshot, ref),
    ...budgetFindings(config, definition, testCase, tokens, baseline),
  ];
}

/** One unit of work: some cases of a prompt, or the prompt's curated examples and stub entries (`items`). */
export interface CaseGroup {
  prompt: string;
  /** Case names, in order. */
  cases: string[];
  items?: boolean;
}

export interface GroupResult {
  /** The findings of each case of the group, in its order. */
  cases: Diagnostic[][];
  items?: Diagnostic[];
}

/** Cases in one group: small enough that threads finish together, large enough that taking one costs nothing. */
export const GROUP_CASES = 50;

/**
 * `cases` (in check order) as groups of one prompt's consecutive cases, at most GROUP_CASES
 * each, then a group for the items of each prompt in `itemPrompts`. The order is the order
 * one thread checks them in, and so the order errors are ranked by.
 */
export function caseGroups(cases: readonly CaseRef[], itemPrompts: readonly string[] = []): CaseGroup[] {
  const groups: CaseGroup[] = [];
  let group: CaseGroup | undefined;
  for (const ref of cases) {
    if (group === undefined || group.prompt !== ref.prompt || group.cases.length >= GROUP_CASES) groups.push((group = { prompt: ref.prompt, cases: [] }));
    group.cases.push(ref.case);
  }
  for (const prompt of itemPrompts) groups.push({ prompt, cases: [], items: true });
  return groups;
}

/**
 * The warning for a prompt no case renders: nothing else about it would be checked, and the run
 * would say there are no problems. Reported rather than rendered with its `input.default`: such
 * a case would need a snapshot file no one asked for, and would check inputs no one chose.
 */
export function promptWithoutCase(project: Pick<CaseContext, 'module'>, name: string): Diagnostic | undefined {
  const prompt = project.module.prompts.get(name);
  if (prompt === undefined || prompt.cases.size > 0) return undefined;
  return report(caseRules['no-case'], {
    message: `Unexpected prompt \`${name}\` without a case: no cases file gives it one, so it is never rendered and nothing in it is checked; expected a cases file under the prompts folder's \`cases\` with \`prompt: ${name}\` and at least one case`,
    file: prompt.source.file,
    line: 1,
    column: 1,
  });
}

/** The findings of a group. */
export function checkGroup(project: CaseContext, group: CaseGroup, compiler: SchemaCompiler): GroupResult {
  const cases = group.cases.map((name) => checkOneCase(project, { prompt: group.prompt, case: name }, compiler));
  if (!group.items) return { cases };
  const { config, module, registry } = project;
  const items = renderDataItems(module, group.prompt, registry, renderOptions(config)).flatMap((item) => checkRenderedExamples(item, { strict: config.strictExamples === true, compiler, ...notationsOf(config) }));
  const noCase = promptWithoutCase(project, group.prompt);
  return { cases, items: noCase ? [noCase, ...items] : items };
}

/**
 * Cases each extra thread needs to pay for itself: a thread imports the checks and reads its
 * prompts again with a cold compiler, a few hundred milliseconds of CPU where a case costs
 * about a millisecond (bench/ check-scale).
 */
export const CASES_PER_THREAD = 1000;

export interface CheckGroupsOptions {
  compiler: SchemaCompiler;
  /** Threads to use: 1 keeps everything in this thread; undefined picks them by cores and cases (see threadsFor). */
  workers?: number;
  /** The token counts `budget/grew` compares with, at the `--against` revision. */
  tokenBaseline?: TokenBaselineAt;
}

/** Slots of the Int32Array the threads share: the next group to take, the lowest group that failed, then one per worker. */
export const NEXT = 0;
export const FAILED = 1;
export const ACTIVE = 2;
/** A worker's slot: it took (or may take) groups, so its reply is awaited; or the main thread found it idle and retired it. */
export const TAKING = 1;
export const RETIRED = 2;

/** The project as a case worker gets it: inline when it can be copied to the thread, else the config to load again. */
export interface CaseWorkerData {
  cwd: string;
  /** The config file, loaded again when `inline` is absent (custom notations are functions, which cannot be sent). */
  config: string;
  inline?: { config: { file: string; root: string; prompts: string; snapshots: string; strictExamples?: boolean; maxRenderedBytes?: number; tokenizer?: TokenizerSetting; budget?: number; budgetGrowth?: number; providers?: string[] }; tools: ToolSpec[] };
  /** The token counts at the `--against` revision (CaseContext.tokenBaseline), as pairs. */
  tokenBaseline?: { ref: string; counts: Array<[string, TokenCount]> };
  groups: CaseGroup[];
  /** The cases files of each prompt in `groups`, as the main thread read them (see casesFilesOf): pairs, as a prompt may be named `__proto__`. */
  casesFiles: Array<[string, string[]]>;
  shared: SharedArrayBuffer;
  /** This worker's slot in `shared`, after ACTIVE. */
  slot: number;
}

/**
 * An error as a thread sends it: what the CLI prints from it (its kind, message, code and
 * place), its stack for PROMPT_CONTRACT_DEBUG, and its cause, which may hold the place.
 */
export interface SentError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
  file?: string;
  line?: number;
  column?: number;
  cause?: SentError;
}

/** Where and why a group failed, as a worker sends it. */
export interface GroupError extends SentError {
  group: number;
}

/** `error` as it can cross to another thread (a thrown value that is not an Error keeps its message). */
export function toSent(error: unknown, depth = 0): SentError {
  const e = error as Partial<InputError> & { name?: unknown; stack?: unknown; cause?: unknown };
  const sent: SentError = { name: typeof e?.name === 'string' ? e.name : 'Error', message: errorMessage(error) };
  if (typeof e?.stack === 'string') sent.stack = e.stack;
  if (e instanceof InputError) {
    sent.code = e.code;
    if (e.file !== undefined) sent.file = e.file;
    if (e.line !== undefined) sent.line = e.line;
    if (e.column !== undefined) sent.column = e.column;
  }
  if (e?.cause !== undefined && depth < 4) sent.cause = toSent(e.cause, depth + 1);
  return sent;
}

/** A sent error as the error it was: an InputError with its code and place, a RangeError (a stack overflow), or an Error. */
export function fromSent(sent: SentError): Error {
  const options = sent.cause === undefined ? undefined : { cause: fromSent(sent.cause) };
  let error: Error;
  if (sent.code !== undefined) error = new InputError(sent.code, sent.message, { file: sent.file, line: sent.line, column: sent.column }, options);
  else if (sent.name === 'RangeError') error = new RangeError(sent.message, options);
  else {
    error = new Error(sent.message, options);
    if (sent.name !== 'Error') error.name = sent.name;
  }
  if (sent.stack !== undefined) error.stack = sent.stack;
  return error;
}

export type CaseReply = { done: Array<[number, GroupResult]>; error?: GroupError } | { setup: string };

/**
 * Takes groups from the shared counter until none is left or one before the next has failed,
 * and checks each (in a worker, `check` first reads the group's prompt). Stops at its first
 * error, which it returns with the group it happened in.
 */
export function takeGroups(
  shared: Int32Array,
  groups: readonly CaseGroup[],
  check: (group: CaseGroup) => GroupResult,
): { done: Array<[number, GroupResult]>; error?: { group: number; cause: unknown } } {
  const done: Array<[number, GroupResult]> = [];
  for (;;) {
    const i = Atomics.add(shared, NEXT, 1);
    if (i >= groups.length || i > Atomics.load(shared, FAILED)) return { done };
    try {
      done.push([i, check(groups[i]!)]);
    } catch (cause) {
      // Lower the failed mark to this group unless a thread failed at an earlier one.
      for (let seen = Atomics.load(shared, FAILED); i < seen; seen = Atomics.load(shared, FAILED)) {
        if (Atomics.compareExchange(shared, FAILED, seen, i) === seen) break;
      }
      return { done, error: { group: i, cause } };
    }
  }
}

/** Of the errors the threads met, the one a single thread would have met: the earliest group's (undefined for none). */
export function firstFailure<E extends { group: number }>(errors: readonly E[]): E | undefined {
  return errors.length === 0 ? undefined : errors.reduce((a, b) => (b.group < a.group ? b : a));
}

/**
 * What can be sent to a worker so that it need not load the config again: the settings the
 * checks read, and the tools as plain data. Undefined when custom notations (functions) are
 * configured or a tool does not copy.
 */
function inlineProject(project: CaseContext): CaseWorkerData['inline'] {
  const { config } = project;
  if (notationsOf(config).notations !== undefined) return undefined;
  const tools = [...project.registry.values()].map(({ handler: _handler, ...tool }) => tool);
  const budget = { ...(config.tokenizer === undefined ? {} : { tokenizer: config.tokenizer }), ...(config.budget === undefined ? {} : { budget: config.budget }), ...(config.budgetGrowth === undefined ? {} : { budgetGrowth: config.budgetGrowth }), ...(config.providers === undefined ? {} : { providers: config.providers }) };
  const inline = { config: { file: config.file, root: config.root, prompts: config.prompts, snapshots: config.snapshots, ...(config.strictExamples === undefined ? {} : { strictExamples: config.strictExamples }), ...(config.maxRenderedBytes === undefined ? {} : { maxRenderedBytes: config.maxRenderedBytes }), ...budget }, tools };
  try {
    structuredClone(inline);
  } catch {
    return undefined;
  }
  return inline;
}

/** The result of each group, in the order given. Throws the error of the first group (in that order) that failed. */
export async function checkGroups(project: Project, groups: readonly CaseGroup[], options: CheckGroupsOptions): Promise<GroupResult[]> {
  const cases = groups.reduce((n, g) => n + g.cases.length, 0);
  // A prompt module's cases are rendered here first, and checked on this thread: what they rendered cannot be sent to a worker.
  const rendered = await renderCodeCases(project, groups);
  if (rendered.size > 0) project = Object.assign(Object.create(project) as Project, { rendered });
  if (options.tokenBaseline !== undefined) project = Object.assign(Object.create(project) as Project, { tokenBaseline: options.tokenBaseline });
  const threads = rendered.size > 0 ? 1 : Math.min(await threadsFor(cases, options.workers), groups.length);
  const shared = new Int32Array(new SharedArrayBuffer(4 * (ACTIVE + Math.max(0, threads - 1))));
  Atomics.store(shared, FAILED, groups.length);
  const results: Array<GroupResult | undefined> = new Array(groups.length);
  const errors: Array<{ group: number; error: unknown }> = [];
  const collect = (done: Array<[number, GroupResult]>): void => {
    for (const [i, result] of done) results[i] = result;
  };
  if (threads <= 1) {
    const mine = takeGroups(shared, groups, (group) => checkGroup(project, group, options.compiler));
    collect(mine.done);
    if (mine.error) throw mine.error.cause;
    return results as GroupResult[];
  }

  const { Worker } = await import('node:worker_threads');
  const script = new URL('./case-worker.js', import.meta.url);
  const cwd = project.cwd ?? process.cwd();
  const names = new Set(groups.map((g) => g.prompt));
  const casesFiles = [...casesFilesOf(project.module, cwd)].filter(([name]) => names.has(name));
  const tokenBaseline = options.tokenBaseline === undefined ? {} : { tokenBaseline: { ref: options.tokenBaseline.ref, counts: [...options.tokenBaseline.counts] } };
  const base = { cwd, config: project.config.file, groups: [...groups], casesFiles, shared: shared.buffer as SharedArrayBuffer, ...tokenBaseline };
  const inline = inlineProject(project);
  const workers = Array.from({ length: threads - 1 }, (_unused, slot) => {
    // The main thread's stack (V8's default, just under 1 MiB), not a worker's 4 MiB: input nested too deeply for one is for the other.
    const worker = new Worker(script, { workerData: { ...base, ...(inline ? { inline } : {}), slot } satisfies CaseWorkerData, resourceLimits: { stackSizeMb: 1 } });
    const reply = new Promise<CaseReply>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`A case worker stopped before it replied (exit code ${code})`)));
    });
    reply.catch(() => undefined);
    return { worker, reply };
  });
  // For tests: leave every group to the workers, which a small project would otherwise never reach.
  const workersOnly = process.env.PROMPT_CONTRACT_TEST_WORKERS_ONLY === '1';
  const taken: number[] = [];
  const crashes: unknown[] = [];
  try {
    if (!workersOnly) {
      // This thread, which has every prompt read, takes groups while the workers start.
      const mine = takeGroups(shared, groups, (group) => checkGroup(project, group, options.compiler));
      collect(mine.done);
      taken.push(mine.done.length);
      if (mine.error) errors.push({ group: mine.error.group, error: mine.error.cause });
    } else taken.push(0);
    for (const [slot, { reply }] of workers.entries()) {
      // A worker that has not started taking groups by now would find none: retire it rather than wait for it to start.
      if (!workersOnly && Atomics.compareExchange(shared, ACTIVE + slot, 0, RETIRED) === 0) {
        taken.push(0);
        continue;
      }
      let answer: CaseReply;
      try {
        answer = await reply;
      } catch (crash) {
        // A thread that died: its groups are missing, which is an error unless an earlier group failed anyway.
        crashes.push(crash);
        continue;
      }
      if ('setup' in answer) {
        process.stderr.write(`prompt-contract: a case worker could not start (${inert(answer.setup)}); the other threads checked its share\n`);
        taken.push(0);
        continue;
      }
      collect(answer.done);
      taken.push(answer.done.length);
      if (answer.error) errors.push({ group: answer.error.group, error: fromSent(answer.error) });
    }
  } finally {
    await Promise.all(workers.map(({ worker }) => worker.terminate()));
  }
  if (process.env.PROMPT_CONTRACT_THREAD_STATS) process.stderr.write(`prompt-contract threads: ${taken.join(' + ')} of ${groups.length} groups\n`);
  const first = firstFailure(errors);
  // A thread that died before an earlier group was done: which error one thread would have met is unknown.
  if (crashes.length > 0 && results.slice(0, first?.group ?? groups.length).some((r) => r === undefined)) throw crashes[0];
  if (first) throw first.error;
  const missing = results.findIndex((r) => r === undefined);
  if (missing >= 0) throw new Error(`No thread checked the cases of \`${groups[missing]!.prompt}\` (group ${missing} of ${groups.length})`);
  return results as GroupResult[];
}

/** How many threads (this one included) to spread `count` cases over: as asked (`--workers`, else PROMPT_CONTRACT_WORKERS), else by cores. */
async function threadsFor(count: number, requested: number | undefined): Promise<number> {
  if (requested !== undefined && (!Number.isInteger(requested) || requested < 1)) {
    throw new InputError('usage', `Invalid workers count ${String(requested)}; expected a whole number of at least 1`);
  }
  requested ??= workersFromEnv();
  if (requested === 1 || count === 0) return 1;
  // Run from the sources (ts-jest) there is no compiled worker script: stay in this thread.
  const { existsSync } = await import('node:fs');
  if (!existsSync(new URL('./case-worker.js', import.meta.url))) return 1;
  if (requested !== undefined) return requested;
  // A run in one thread already keeps about a third of a second core busy with V8's optimizing
  // compiler and collector threads, and every thread brings its own. On two cores a second
  // thread gave the same wall time for a third more CPU (bench/ check-scale). From three
  // cores: one thread per core but one, each with enough cases to pay for its start.
  const { availableParallelism } = await import('node:os');
  const cores = availableParallelism();
  if (cores <= 2) return 1;
  return Math.max(1, Math.min(cores - 1, Math.floor(count / CASES_PER_THREAD) + 1));
}
