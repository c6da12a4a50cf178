import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Importer } from './config/index.js';
import type { Diagnostic } from './report/diagnostic.js';
import { formatPretty, toJsonReport } from './report/format.js';
import { inert, inertLines } from './report/inert.js';
import { codeFrameFor } from './util/code-frame.js';
import { parseShard, runsOnce, shardSlice } from './util/shard.js';
import { debugging, InputError } from './util/errors.js';
import { replaceFile, writeFailure } from './util/files.js';
import { onCi } from './util/ci.js';
import type { RenderedCase, RenderedItem } from './render/render.js';
import type { PromptModule } from './render/module.js';
import type { CaseRef, TokenBaselineAt } from './checks/cases.js';
import { checkCaseInput } from './checks/case-input.js';
import { moduleToolFindings, promptWithoutCase, renderOptions, tokenBaselineOf } from './checks/cases.js';
import { splitCoverage } from './checks/findings.js';
import { exampleRules } from './extract/rules.js';
import { SchemaCompiler } from './schema/validator.js';
import { checkRenderedExamples, dedupe } from './checks/rendered.js';
import type { NotationDefinition } from './extract/notation.js';
import { formatSnapshot, formatToolsBaseline } from './snapshot/format.js';
import { countRenderedCase, parseSnapshotTokens, tokenizerNames, type TokenCount, type TokenizerName } from './tokens/index.js';
import { foreignMessage, reconcile, removeLeftovers, removeObsolete, scanSnapshots, snapshotFile, toolsBaselineFile, type SnapshotResult, type UpdateMode } from './snapshot/state.js';

const plainColors = { RECEIVED_COLOR: (s: string) => s, EXPECTED_COLOR: (s: string) => s };

/**
 * What the suite needs of a test runner: Jest's and Vitest's globals both fit. Passing them in
 * keeps this module free of either runner, and of a second copy of one.
 */
export interface SuiteRuntime {
  describe(name: string, fn: () => void): void;
  test(name: string, fn: () => Promise<void>, timeout?: number): void;
  afterAll(fn: () => void): void;
  expect: { extend(matchers: Record<string, unknown>): void; getState(): unknown };
  /** The runner's name, for messages: `Jest` or `Vitest`. */
  name: string;
  /**
   * How the config file (and the tool modules it imports) is loaded. Jest runs this package
   * inside its own module system, so a plain `import()` goes through Jest's transform; Vitest
   * runs packages in plain Node, so it loads TypeScript configs as the CLI does.
   */
  importer: Importer;
}

/**
 * The snapshot state both runners keep per test file. Jest's counters are numbers; Vitest's
 * are counter maps whose `valueOf` gives the total and whose setters take a number, so
 * `state.x = Number(state.x) + 1` counts in both. The update mode is `_updateSnapshot` in
 * Jest and `snapshotUpdateState` in Vitest.
 */
interface SnapshotCounters {
  _updateSnapshot?: UpdateMode;
  snapshotUpdateState?: UpdateMode;
  added: number;
  updated: number;
  matched: number;
  unmatched: number;
}

interface MatcherThis {
  isNot?: boolean;
  snapshotState?: SnapshotCounters;
  utils: { RECEIVED_COLOR: (s: string) => string; EXPECTED_COLOR: (s: string) => string; DIM_COLOR?: (s: string) => string };
}

type MatcherResult = { pass: boolean; message: () => string };

/** The runner's own update mode: `-u` is `all`, `--ci` (or CI=true) is `none`, otherwise `new`. */
function runnerMode(state: SnapshotCounters | undefined): UpdateMode {
  return state?.snapshotUpdateState ?? state?._updateSnapshot ?? (onCi() ? 'none' : 'new');
}

/**
 * The mode snapshots are reconciled in: the runner's, except `-u` on CI, which only compares.
 * Jest and Vitest let `-u` write there; a CI job that writes snapshots accepts a change nobody
 * reviewed, and the suite then says so (see CI_UPDATE_REFUSED). On CI the runners themselves
 * write no new snapshot unless told `--ci=false`, which stands.
 */
function updateMode(state: SnapshotCounters | undefined): UpdateMode {
  const mode = runnerMode(state);
  return mode === 'all' && onCi() ? 'none' : mode;
}

/** Why `-u` wrote nothing on CI, and what to do instead. */
const CI_UPDATE_REFUSED =
  'Snapshots are not written on CI (the `CI` environment variable is set): `-u` there would accept a prompt change nobody reviewed, so every snapshot was only compared. Run your test command with `-u` locally, review the diff and commit it; a CI step that must write snapshots sets `CI=false` for itself.';

/** Counts a snapshot in the runner's summary, as its own snapshots are counted. */
function count(state: SnapshotCounters | undefined, result: SnapshotResult): void {
  if (!state) return;
  const key = result.status === 'matched' ? 'matched' : result.status === 'written' ? 'added' : result.status === 'updated' ? 'updated' : 'unmatched';
  state[key] = Number(state[key]) + 1;
}

function colorDiff(diff: string, utils: MatcherThis['utils']): string {
  return diff
    .split('\n')
    .map((line) => (line.startsWith('-') && !line.startsWith('---') ? utils.EXPECTED_COLOR(line) : line.startsWith('+') && !line.startsWith('+++') ? utils.RECEIVED_COLOR(line) : line))
    .join('\n');
}

/** `next`: what to do about it, when `-u` is not the answer (a baseline held back by breaking changes). */
function snapshotMessage(what: string, result: SnapshotResult, utils: MatcherThis['utils'], next?: string): string {
  // Names and lines from checked files are shown inert: a line of ours never starts where theirs say (`::error`).
  if (result.status === 'foreign') return `${inert(what)} cannot be compared: ${inert(foreignMessage(result))}.`;
  if (result.status === 'missing') {
    return `${inert(what)} has no snapshot, and none was written: snapshots are never written with --ci (or CI=true).\nRun your test command with \`-u\` locally, review ${inert(result.file)} and commit it.`;
  }
  return `${inert(what)} differs from its snapshot ${inert(result.file)}.\n\n${colorDiff(inertLines(result.diff ?? ''), utils)}\n\n${next ?? 'If the change is intended, run your test command with `-u` and commit the updated snapshot.'}`;
}

function findingsMessage(title: string, diagnostics: readonly Diagnostic[]): string {
  return `${inert(title)}\n\n${formatPretty(diagnostics)}`;
}

/** Custom matchers; `contractSuite` registers them, or call `expect.extend(promptMatchers)` (Jest or Vitest). */
/**
 * Outside the suite the matcher knows no config, so not the case's tokenizer: it counts with the
 * one the committed snapshot names (a built-in one), else with the default. The count itself is
 * still made now, so a changed count is still a changed snapshot.
 */
function tokensAsCommitted(file: string, received: RenderedCase): TokenCount | undefined {
  let named: string | undefined;
  try {
    named = existsSync(file) ? parseSnapshotTokens(readFileSync(file, 'utf8'))?.tokenizer : undefined;
  } catch {
    named = undefined;
  }
  if (named === undefined || !(tokenizerNames as readonly string[]).includes(named)) return undefined;
  return countRenderedCase(received, { setting: named as TokenizerName, name: named, from: 'default' });
}

export const promptMatchers = {
  /** The rendered text and its tools match the committed `snapshots/<prompt>/<case>.txt`, with Jest's update semantics. */
  toMatchPromptSnapshot(this: MatcherThis, received: RenderedCase, options: { dir?: string; tokens?: TokenCount } = {}): MatcherResult {
    const dir = options.dir ?? join(process.cwd(), 'snapshots');
    const file = snapshotFile(dir, received.prompt, received.case);
    const result = reconcile(file, formatSnapshot(received, options.tokens ?? tokensAsCommitted(file, received)), updateMode(this.snapshotState), process.cwd(), dir);
    count(this.snapshotState, result);
    const pass = result.status === 'matched' || result.status === 'written' || result.status === 'updated';
    return { pass, message: () => (pass ? inert(`Expected \`${received.prompt}\` case \`${received.case}\` not to match its snapshot`) : snapshotMessage(`Prompt \`${received.prompt}\` case \`${received.case}\``, result, this.utils)) };
  },

  /** Every tool-call example in the rendered text names a tool sent with it and fits its current schema. */
  toHaveValidToolExamples(this: MatcherThis, received: RenderedCase | RenderedItem, options: { strict?: boolean; snapshots?: string; notations?: readonly NotationDefinition<any>[] } = {}): MatcherResult {
    const problems = checkRenderedExamples(received, options).filter((d) => d.severity === 'error');
    const pass = problems.length === 0;
    const name = 'case' in received ? `\`${received.prompt}\` case \`${received.case}\`` : `\`${received.prompt}\` ${received.kind} at ${received.label}`;
    return {
      pass,
      message: () => (pass ? inert(`Expected ${name} to have invalid tool-call examples`) : findingsMessage(`Tool-call examples in ${name} do not match the current tool schemas. Edit the file and line named below:`, problems)),
    };
  },
};

export interface ContractSuiteOptions {
  /** Config file; found in `cwd` by default. */
  config?: string;
  /**
   * The project folder: paths in findings are relative to it, and the config is found in it.
   * By default the nearest folder holding a config, from the test file's folder upwards (a
   * package of a monorepo, tested from the root), else the working directory.
   */
  cwd?: string;
  /**
   * Compare the tools with the baseline committed at this git revision rather than the working
   * tree's. Default: `PROMPT_CONTRACT_AGAINST`, or `origin/$GITHUB_BASE_REF` in a pull-request
   * job, so that a `snapshots/tools.json` rewritten in the same change cannot hide a break.
   */
  against?: string;
  /**
   * Write every finding the suite reported (errors, warnings and infos) to this file when the
   * suite ends, as `check --format json` prints them: for CI annotations, or to compare runs.
   */
  report?: string;
  /**
   * Run part `index` of `total` (`'2/3'`), as a CI matrix job: a contiguous share of the cases,
   * curated examples and recorded lines; what runs once (breaking changes, obsolete snapshots,
   * handlers, stored calls, provider lint) runs in shard 1. Default: `PROMPT_CONTRACT_SHARD`.
   * Jest's own `--shard` splits by test file, and the contract suite is one file.
   */
  shard?: string;
  /**
   * Reuse what the last run found for unchanged cases, from the cache `check` keeps in
   * `node_modules/.cache/prompt-contract` (default true): a case found clean, whose prompt,
   * data, tools and snapshot have not changed since, passes without being rendered again.
   */
  cache?: boolean;
  /**
   * Milliseconds each test of the suite may take (default 120 s). Vitest's own default of 5 s
   * is too short for a database query or a first schema compile on a busy CI runner.
   */
  timeout?: number;
}

/** The nearest folder holding a config file, from the test file's folder upwards; none when the test runner gives no path. */
function projectOf(testPath: unknown, configNames: readonly string[]): string | undefined {
  if (typeof testPath !== 'string' || testPath === '') return undefined;
  for (let dir = dirname(testPath); ; dir = dirname(dir)) {
    if (configNames.some((name) => existsSync(join(dir, name)))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Runs `fn`; a could-not-run error comes out with its place in the message, as the CLI prints
 * it (`file:line:column: message (code)`), and a frame of the lines around it: a test runner
 * shows an error's message, not its fields.
 */
async function placed<T>(cwd: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const frame = codeFrameFor(error, { cwd });
    const message = frame === undefined ? error.format() : `${error.format()}\n\n${frame}`;
    // The message says everything a user needs: no stack of this package's code, and no chain of causes under it (PROMPT_CONTRACT_DEBUG=1 keeps both).
    if (debugging()) throw new InputError(error.code, message, {}, { cause: error });
    const plain = new InputError(error.code, message);
    plain.stack = `${plain.name}: ${message}`;
    throw plain;
  }
}

/**
 * Runs `fn` (the config's load) with `process.exit` and `process.reallyExit` refused. Jest lets
 * the code of a test file end its worker, and a config that calls `process.exit(0)` (or Node's
 * `process.reallyExit(0)`, which skips every `exit` listener) made `jest` exit 0 with no test
 * run; the call now throws, and the load fails saying so (the CLI exits 2 for the same config).
 */
async function withoutExit<T>(fn: () => Promise<T>): Promise<T> {
  const host = process as unknown as { exit: typeof process.exit; reallyExit?: (code?: number) => never };
  const real = { exit: host.exit, reallyExit: host.reallyExit };
  const refuse = (call: string) => (code?: number | string | null) => {
    throw new Error(`the config ended the process (\`${call}(${code ?? ''})\`) while it was loaded; expected it to only export its settings`);
  };
  host.exit = refuse('process.exit') as typeof process.exit;
  if (real.reallyExit !== undefined) host.reallyExit = refuse('process.reallyExit') as (code?: number) => never;
  try {
    return await fn();
  } finally {
    host.exit = real.exit;
    if (real.reallyExit !== undefined) host.reallyExit = real.reallyExit;
  }
}

/** Every finding of one test: errors fail it, warnings and infos are printed and kept for the report. */
function settle(title: string, diagnostics: readonly Diagnostic[], seen: Diagnostic[]): void {
  seen.push(...diagnostics);
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const others = diagnostics.filter((d) => d.severity !== 'error');
  if (others.length > 0) process.stderr.write(`prompt-contract: ${findingsMessage(title, others)}\n`);
  if (errors.length > 0) throw new Error(findingsMessage(title, errors));
}

/** The identity `check` dedupes findings by: the same stale example seen from two cases is one finding. */
function findingKey(d: Diagnostic): string {
  return [d.ruleId, d.file, d.line, d.column, d.tool, d.instancePath, d.message].join('\u0000');
}

/**
 * Defines the contract tests for a project: the config and tools load cleanly; per prompt and
 * case, the snapshot and the tool-call examples written in its templates; every curated example
 * and stub entry, once, at its YAML line; the tools baseline (breaking changes); handler types;
 * recorded and persisted calls; provider profiles; the snapshots folder. It reports what
 * `prompt-contract check` reports: an error fails a test, a warning is printed. Call it at the
 * top level of a test file: `await contractSuite()`.
 */
export async function defineContractSuite(g: SuiteRuntime, options: ContractSuiteOptions = {}): Promise<void> {
  const { loadProject } = await import('./project.js');
  const { listCases, renderAnyCase, renderDataItems } = await import('./render/render.js');
  const run = await import('./checks/run.js');

  const { budgetFindings, caseTokenizer } = await import('./tokens/budget.js');
  // The extractor's Markdown fallback cannot be required inside Jest's module system: load it now.
  await (await import('./extract/markdown.js')).preloadMarkdown();
  const cwd = options.cwd ?? (options.config === undefined ? projectOf((g.expect.getState() as { testPath?: unknown }).testPath, (await import('./config/index.js')).configFileNames) : undefined) ?? process.cwd();
  const project = await placed(cwd, async () => {
    const loaded = await withoutExit(() => loadProject({ ...(options.config === undefined ? {} : { config: options.config }), cwd, importer: g.importer, lazyModule: true }));
    // Before any test can write: `-u` manages only a folder of its own inside the project.
    run.checkProjectSnapshots(loaded);
    return loaded;
  });
  const { config, registry, tools } = project;
  // The project's snapshot folder is bound into the matchers this suite registers.
  g.expect.extend({
    toMatchPromptSnapshot(this: MatcherThis, received: RenderedCase, o: { dir?: string; tokens?: TokenCount } = {}) {
      // Counted with the case's own tokenizer, as `check` counts it.
      const prompt = project.module.prompts.get(received.prompt);
      const testCase = prompt?.cases.get(received.case);
      const tokens = prompt && testCase ? { tokens: countRenderedCase(received, caseTokenizer(config, prompt, testCase)) } : {};
      return promptMatchers.toMatchPromptSnapshot.call(this, received, { dir: config.snapshots, ...tokens, ...o });
    },
    toHaveValidToolExamples: promptMatchers.toHaveValidToolExamples,
  } as never);
  /** Every finding before the policy, for the unused-ignore check at the end; and every reported one, for `report`. */
  const raw: Diagnostic[] = [];
  const reported: Diagnostic[] = [];
  const policy = async (d: Diagnostic[]): Promise<Diagnostic[]> => {
    raw.push(...d);
    return run.relativePaths(project, await run.applyProjectPolicy(project, d, { partial: true }));
  };
  const snapshotState = (): SnapshotCounters | undefined => (g.expect.getState() as { snapshotState?: SnapshotCounters }).snapshotState;
  const strict = config.strictExamples === true;
  const shard = parseShard(options.shard ?? process.env.PROMPT_CONTRACT_SHARD, options.shard === undefined ? 'PROMPT_CONTRACT_SHARD' : 'the `shard` option');
  const once = runsOnce(shard);
  // One compiler for every case: its cache compiles each tool's schema and each prompt's input schema once.
  const compiler = new SchemaCompiler();
  const baselineFile = toolsBaselineFile(config.snapshots);
  const expected = new Set<string>([baselineFile]);
  const against = options.against !== undefined ? { ref: options.against, from: 'the `against` option' } : run.defaultAgainst();
  const at = against === undefined ? '' : ` at \`${against.ref}\``;

  // The cache `check` keeps (src/checks/cache.ts): when no prompt file changed since the last
  // run, the prompts are not parsed, and a case found clean then (its snapshot unchanged too)
  // passes without being rendered again.
  // Budget growth is measured against the `against` revision when there is one: its commit keys the cache (a revision that cannot be read leaves the cache out; the tests that read it say why).
  const againstCommit = against === undefined ? undefined : (() => {
    try {
      return run.resolveRevision(project, against.ref, project.display(baselineFile), against.from);
    } catch {
      return undefined;
    }
  })();
  const cache = options.cache === false || (against !== undefined && againstCommit === undefined) ? undefined : (await import('./checks/cache.js')).CheckCache.open(project, { strict, ...(againstCommit === undefined ? {} : { against: againstCommit }) });
  // The snapshots' token counts at the revision, read once for this shard's cases when the first case needs them.
  let tokensAt: TokenBaselineAt | undefined;
  const tokenBaselineAt = async (): Promise<TokenBaselineAt | undefined> => {
    if (against === undefined) return undefined;
    if (tokensAt) return tokensAt;
    const commit = run.resolveRevision(project, against.ref, project.display(baselineFile), against.from);
    const { snapshotTokensAt } = await import('./tokens/baseline.js');
    const files = shardSlice(cases, shard).map((c) => snapshotFile(config.snapshots, c.prompt, c.case));
    return (tokensAt = { ref: against.ref, counts: snapshotTokensAt(config.root, commit, files, project.display(config.snapshots)) });
  };
  const unchanged = shard === undefined ? cache?.unchangedEntries() : undefined;
  const moduleOf = (): PromptModule => project.module;
  const cases: CaseRef[] = unchanged ? unchanged.order : await placed(cwd, () => listCases(moduleOf()));
  const notations = config.notations?.length ? { notations: config.notations } : {};

  // Curated examples and stub entries are checked once, on their own; a case that renders a
  // stale one names it there instead of failing a second time. Cases note which they showed.
  let dataFindings: Diagnostic[] | undefined;
  const curated = (): Diagnostic[] => {
    if (dataFindings) return dataFindings;
    if (unchanged) return (dataFindings = dedupe(unchanged.prompts.flatMap((p) => unchanged.items.get(p)!)));
    const module = moduleOf();
    // A prompt no case renders is said with the curated items, as `check` says it (by the first shard only).
    const noCase = (prompt: string): Diagnostic[] => [promptWithoutCase({ module }, prompt)].filter((d) => d !== undefined);
    if (shard) return (dataFindings = dedupe([...shardSlice([...module.prompts.keys()].flatMap((p) => renderDataItems(module, p, registry, renderOptions(config))), shard).flatMap((item) => checkRenderedExamples(item, { strict, compiler, ...notations })), ...(once ? [...module.prompts.keys()].flatMap(noCase) : [])]));
    const all: Diagnostic[] = [];
    for (const prompt of module.prompts.keys()) {
      const found = [...noCase(prompt), ...renderDataItems(module, prompt, registry, renderOptions(config)).flatMap((item) => checkRenderedExamples(item, { strict, compiler, ...notations }))];
      cache?.storeItems(prompt, found);
      all.push(...found);
    }
    return (dataFindings = dedupe(all));
  };
  const curatedPlaced = (): Promise<Diagnostic[]> => placed(cwd, curated);
  const shownIn = new Map<string, string[]>();

  // Tests run in order; the policy check at the end needs every other test to have run (not `-t`).
  let defined = 0;
  let ran = 0;
  const test = (name: string, fn: () => Promise<void>): void => {
    defined++;
    g.test(
      inert(name),
      async () => {
        ran++;
        await fn();
      },
      options.timeout ?? 120_000,
    );
  };

  /** What each case's extraction read (`example/coverage`), summed into one line at the end. */
  const coverageSeen: Diagnostic[] = [];

  /** Cases whose findings the cache holds as of this run: reused, or checked and stored. */
  const settledCases = new Set<string>();
  let reusedCases = 0;

  g.describe(`prompt-contract (${inert(project.display(config.file))})`, () => {
    if (cache) {
      // Only a run that settled every case may let the next one skip reading the prompts.
      g.afterAll(() => {
        cache.save(cases, shard === undefined && settledCases.size === cases.length);
        cache.write();
        if (process.env.PROMPT_CONTRACT_CACHE_STATS) process.stderr.write(`prompt-contract cache: ${reusedCases} of ${shardSlice(cases, shard).length} cases reused\n`);
      });
    }
    // What was read and what was not, in one line, as `check` prints it.
    g.afterAll(() => {
      const { summary } = splitCoverage([...coverageSeen, ...reported.filter((d) => d.ruleId === exampleRules['unread-call'].id)]);
      if (summary !== undefined) process.stderr.write(`prompt-contract: ${summary}\n`);
    });
    if (options.report !== undefined) {
      const file = options.report;
      g.afterAll(() => {
        try {
          replaceFile(file, `${JSON.stringify(toJsonReport(dedupe(reported)), null, 2)}\n`);
        } catch (error) {
          throw new InputError('config/unwritable', `Cannot write the report (${writeFailure(error)}); expected a file this user can write, as \`report\` names it`, { file });
        }
      });
    }

    test('the config, tools and tool descriptions load cleanly', async () => {
      // `-u` on CI: one clear failure here, and every snapshot compared as without it.
      if (onCi() && runnerMode(snapshotState()) === 'all') throw new Error(CI_UPDATE_REFUSED);
      settle('The project setup has problems:', await policy([...project.diagnostics]), reported);
    });

    // Every case's snapshot is expected, whichever shard renders it.
    for (const { prompt, case: caseName } of cases) expected.add(snapshotFile(config.snapshots, prompt, caseName));
    for (const { prompt, case: caseName } of shardSlice(cases, shard)) {
      const file = snapshotFile(config.snapshots, prompt, caseName);
      test(`${prompt} / ${caseName}: snapshot and tool-call examples`, async () => {
        const ref = { prompt, case: caseName };
        // Without the fast path (a prompt file changed), each case is looked up by its own key.
        const cached = unchanged ? (await import('./checks/cache.js')).CheckCache.caseOf(unchanged, ref) : cache && (await placed(cwd, () => cache.case(ref)));
        // What the case's extraction read is summed at the end, not reported as a finding.
        const known = cached?.filter((d) => d.ruleId !== exampleRules.coverage.id);
        if (cached && known && known.length === 0) {
          coverageSeen.push(...cached);
          // Clean when last checked, and nothing it reads has changed: its snapshot matches.
          count(snapshotState(), { status: 'matched', file } as SnapshotResult);
          settledCases.add(file);
          reusedCases++;
          return;
        }
        const module = await placed(cwd, moduleOf);
        // A case whose inputs the prompt's input.schema rejects is reported there, not rendered.
        const definition = module.prompts.get(prompt)!;
        const rawInput = checkCaseInput(definition, definition.cases.get(caseName)!, compiler);
        const inputProblems = await policy(rawInput);
        if (inputProblems.some((d) => d.severity === 'error')) {
          settle(`The inputs of \`${prompt}\` case \`${caseName}\` do not fit the prompt's input.schema. Edit the case named below:`, inputProblems, reported);
        }
        const rendered = await placed(cwd, () => renderAnyCase(module, prompt, caseName, registry, { ...renderOptions(config), importer: g.importer }));
        const state = snapshotState();
        // Before the snapshot is read: one replaced during the check is then stored as unseen.
        const stampBefore = cache?.snapshotStamp(ref);
        const testCase = definition.cases.get(caseName)!;
        const tokens = await placed(cwd, () => countRenderedCase(rendered, caseTokenizer(config, definition, testCase)));
        // Read before `-u` may rewrite the snapshot: updating it must not hide the growth in the same run.
        const tokenBaseline = tokenBaselineOf({ config, ...(against === undefined ? {} : { tokenBaseline: (await tokenBaselineAt())! }) }, file);
        // Run both checks and report both: a stale example must not hide behind a snapshot diff.
        const result = await placed(cwd, () => reconcile(file, formatSnapshot(rendered, tokens), updateMode(state), process.cwd(), config.snapshots));
        count(state, result);
        const failures: string[] = [];
        const snapshotProblem = run.snapshotFindings(result, { prompt, case: caseName });
        if (snapshotProblem.length > 0) {
          reported.push(...run.relativePaths(project, snapshotProblem));
          failures.push(snapshotMessage(`Prompt \`${prompt}\` case \`${caseName}\``, result, plainColors));
        }
        const fromData = new Set((await curatedPlaced()).map(findingKey));
        const own: Diagnostic[] = [];
        // A prompt module may send tools of its own (an agent's): their tool-level examples are checked with the case, as `check` does.
        const examples = [...moduleToolFindings(rendered, registry, { compiler, strict, ...notations }), ...checkRenderedExamples(rendered, { strict, compiler, snapshots: config.snapshots, ...notations })];
        // What `check` keeps for this case: a written or updated snapshot is the file as now written.
        // An input error `check` stops the case at, even where the policy lowered it, is all `check` reports for it.
        const written = result.status === 'written' || result.status === 'updated';
        const budget = budgetFindings(config, definition, testCase, tokens, tokenBaseline);
        // Once written, the snapshot states this count: `check` then sees no growth against it (unless against a revision).
        const budgetKept = written && against === undefined ? budget.filter((d) => d.ruleId !== 'budget/grew') : budget;
        cache?.storeCase(ref, rawInput.some((d) => d.severity === 'error') ? rawInput : [...rawInput, ...examples, ...run.snapshotFindings(written ? { ...result, status: 'matched' } : result, ref), ...budgetKept], written ? cache.snapshotStamp(ref) : stampBefore!);
        settledCases.add(file);
        for (const d of examples) {
          if (d.ruleId === exampleRules.coverage.id) {
            coverageSeen.push(d);
            continue;
          }
          const key = findingKey(d);
          if (fromData.has(key)) shownIn.set(key, [...(shownIn.get(key) ?? []), `${prompt}/${caseName}`]);
          else own.push(d);
        }
        own.push(...inputProblems);
        try {
          settle(`Tool-call examples in \`${prompt}\` case \`${caseName}\` do not match the current tool schemas. Edit the file and line named below:`, await policy(dedupe(own)), reported);
        } catch (error) {
          failures.push((error as Error).message);
        }
        try {
          settle(`The token count of \`${prompt}\` case \`${caseName}\` is past its budget or grew:`, await policy(budget), reported);
        } catch (error) {
          failures.push((error as Error).message);
        }
        if (failures.length > 0) throw new Error(failures.join('\n\n'));
      });
    }

    test('every curated example and retrieval-stub entry fits the current schemas', async () => {
      const data = await curatedPlaced();
      const found = await policy(data);
      const keys = data.map(findingKey);
      // Shown with the cases that render it; reported (and in the JSON report) as `check` reports it.
      reported.push(...found);
      const labelled = found.map((d, i) => {
        const cases = shownIn.get(keys[i] ?? '') ?? [];
        return cases.length === 0 ? d : { ...d, message: `${d.message} (rendered in ${cases.map((c) => `\`${c}\``).join(', ')})` };
      });
      settle('Curated examples or retrieval stubs do not match the current tool schemas:', labelled, []);
    });

    if (once) test(`tool definitions keep backward compatibility with the baseline ${project.display(baselineFile)}${at}`, async () => {
      const state = snapshotState();
      const mode = updateMode(state);
      // Under -u too: accepting a wording change must not accept a breaking change with it.
      // A break is accepted only by a policy `ignore` entry that says why; until then the
      // baseline is not rewritten, so the next run still sees the break.
      const old = run.baselineTools(project, against?.ref, against?.from);
      const breaks = old ? await policy(await run.diffWithWitnesses(old, tools, config.recorded ?? [], project)) : [];
      const blocked = breaks.some((d) => d.severity === 'error');
      const result = await placed(cwd, () => reconcile(baselineFile, formatToolsBaseline(tools), blocked && mode === 'all' ? 'none' : mode, process.cwd(), config.snapshots));
      // Held back by breaking changes, the baseline is no snapshot `-u` updates: not counted, so the runner does not say to run `-u`.
      if (!(blocked && result.status === 'mismatch')) count(state, result);
      const failures: string[] = [];
      try {
        settle(`Breaking changes against ${project.display(baselineFile)}${at}: keep the old behaviour, or accept each one with a policy \`ignore\` entry that says why (\`-u\` alone does not accept them):`, breaks, reported);
      } catch (error) {
        failures.push((error as Error).message);
      }
      const problem = run.snapshotFindings(result);
      if (problem.length > 0) {
        reported.push(...run.relativePaths(project, problem));
        const held = blocked ? 'It is not rewritten while the breaking changes above stand, under `-u` too: keep the old behaviour, or accept each one with a policy `ignore` entry that says why, then run your test command with `-u`.' : undefined;
        failures.push(snapshotMessage('The tools baseline', result, plainColors, held));
      }
      if (failures.length > 0) throw new Error(failures.join('\n\n'));
    });

    if (once) {
      test('tool-level examples fit their schemas', async () => {
        const { checkToolExamples } = await import('./checks/tool-examples.js');
        settle('Examples written on the tool definitions that their schemas reject:', await policy(checkToolExamples(tools, { compiler, strict, ...notations })), reported);
      });
      test('tool descriptions carry no hidden instructions', async () => {
        const { checkToolPoisoning } = await import('./checks/tool-poisoning.js');
        settle('Tool descriptions that speak to the model behind the user\'s back (tool poisoning):', await policy(checkToolPoisoning(tools)), reported);
      });
    }
    if (once && tools.some((t) => t.handler !== undefined && !t.generated)) {
      test('handler argument types agree with the tool schemas', async () => {
        const { checkHandlers } = await import('./checks/handler.js');
        const resolve = await run.handlerResolver(options.cache !== false);
        settle('The schema and the handler type disagree:', await policy(checkHandlers(tools, (ref) => resolve(ref))), reported);
      });
    }
    if (config.recorded && config.recorded.length > 0) {
      test('recorded tool calls fit the current schemas', async () => {
        // Kept in the cache `check` keeps, while no recorded file and no tool changed.
        const found = await run.recordedFindings(cache, tools, config.recorded!, { compiler, ...(config.maxLineBytes === undefined ? {} : { maxLineBytes: config.maxLineBytes }), ...(shard ? { shard } : {}) });
        settle('Recorded calls that the current schemas reject:', await policy(found), reported);
      });
    }
    for (const source of once ? (config.persisted ?? []) : []) {
      test(`persisted tool_use blocks in \`${source.name}\` fit the schemas and handlers`, async () => {
        const { readPersistedCalls } = await import('./sources/persisted.js');
        const { checkPersisted } = await import('./checks/persisted.js');
        const found = await checkPersisted(tools, readPersistedCalls(source), await run.handlerSchemasOf(tools, options.cache !== false));
        settle(`Stored tool calls in \`${source.name}\` that would fail on resume:`, await policy(found), reported);
      });
    }
    for (const provider of once ? (config.providers ?? []) : []) {
      test(`tool schemas fit the \`${provider}\` profile`, async () => {
        const found = run.lintCached(cache, tools, [provider]);
        settle(`Tool schemas outside what \`${provider}\` accepts:`, await policy(found), reported);
      });
    }

    if (once) test('the snapshots folder holds only current snapshots', async () => {
      const mode = updateMode(snapshotState());
      const scan = scanSnapshots(config.snapshots, expected);
      const found = await policy(run.snapshotFolderFindings(project, expected, scan));
      // Files prompt-contract did not write are named, never touched, in every mode.
      if (mode === 'all') {
        removeLeftovers(config.snapshots, scan.leftovers);
        const removed = removeObsolete(config.snapshots, scan.obsolete);
        // The runner's summary counts the snapshots it keeps itself; the files removed here are named here.
        if (removed.length > 0) process.stderr.write(`prompt-contract: removed ${removed.length === 1 ? '1 obsolete snapshot' : `${removed.length} obsolete snapshots`}: ${removed.map((f) => inert(project.display(f))).join(', ')}\n`);
        settle('The snapshots folder:', found.filter((d) => d.ruleId === 'snapshot/foreign-file'), reported);
        return;
      }
      // Jest's semantics: an obsolete snapshot fails a --ci run, and is a warning otherwise.
      const obsolete = found.filter((d) => d.ruleId === 'snapshot/obsolete');
      settle('The snapshots folder:', mode === 'none' ? found.map((d) => (d.ruleId === 'snapshot/obsolete' ? { ...d, severity: 'error' as const } : d)) : found, reported);
      if (obsolete.length > 0) process.stderr.write('prompt-contract: run your test command with `-u` to remove obsolete snapshots.\n');
    });

    // A shard sees only some findings: an entry may match one another shard saw.
    if (config.policy !== undefined && !shard) {
      test('every policy ignore entry still matches a finding', async () => {
        // Run with a filter (`-t`), the suite saw only some findings: an entry may match one it skipped.
        if (ran < defined) return;
        const all = await run.applyProjectPolicy(project, dedupe(raw));
        settle('The policy file:', run.relativePaths(project, all.filter((d) => d.ruleId === 'compat/unused-ignore')), reported);
      });
    }
  });
}
