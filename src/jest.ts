import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { expect as JestExpect, describe as JestDescribe, test as JestTest } from '@jest/globals';
import type { Diagnostic } from './report/diagnostic.js';
import { formatPretty, toJsonReport } from './report/format.js';
import { InputError } from './util/errors.js';
import type { RenderedCase, RenderedItem } from './render/render.js';
import { checkRenderedExamples, dedupe } from './checks/rendered.js';
import { formatSnapshot, formatToolsBaseline } from './snapshot/format.js';
import { foreignMessage, reconcile, removeLeftovers, removeObsolete, scanSnapshots, snapshotFile, toolsBaselineFile, type SnapshotResult, type UpdateMode } from './snapshot/state.js';

const plainColors = { RECEIVED_COLOR: (s: string) => s, EXPECTED_COLOR: (s: string) => s };

// Jest injects these globals into every test file; importing @jest/globals at run time would
// tie this module to one copy of Jest.
const g = globalThis as unknown as { expect: typeof JestExpect; describe: typeof JestDescribe; test: typeof JestTest };

interface SnapshotCounters {
  _updateSnapshot?: UpdateMode;
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

/** Jest's own update mode: `-u` is `all`, `--ci` is `none`, otherwise `new`. */
function updateMode(state: SnapshotCounters | undefined): UpdateMode {
  return state?._updateSnapshot ?? (process.env.CI ? 'none' : 'new');
}

function count(state: SnapshotCounters | undefined, result: SnapshotResult): void {
  if (!state) return;
  if (result.status === 'matched') state.matched++;
  else if (result.status === 'written') state.added++;
  else if (result.status === 'updated') state.updated++;
  else state.unmatched++;
}

function colorDiff(diff: string, utils: MatcherThis['utils']): string {
  return diff
    .split('\n')
    .map((line) => (line.startsWith('-') && !line.startsWith('---') ? utils.EXPECTED_COLOR(line) : line.startsWith('+') && !line.startsWith('+++') ? utils.RECEIVED_COLOR(line) : line))
    .join('\n');
}

function snapshotMessage(what: string, result: SnapshotResult, utils: MatcherThis['utils']): string {
  if (result.status === 'foreign') return `${what} cannot be compared: ${foreignMessage(result.file)}.`;
  if (result.status === 'missing') {
    return `${what} has no snapshot, and none was written: snapshots are never written with --ci (or CI=true).\nRun your Jest command with \`-u\` locally, review ${result.file} and commit it.`;
  }
  return `${what} differs from its snapshot ${result.file}.\n\n${colorDiff(result.diff ?? '', utils)}\n\nIf the change is intended, run your Jest command with \`-u\` and commit the updated snapshot.`;
}

function findingsMessage(title: string, diagnostics: readonly Diagnostic[]): string {
  return `${title}\n\n${formatPretty(diagnostics)}`;
}

/** Custom matchers; `contractSuite` registers them, or call `expect.extend(promptMatchers)`. */
export const promptMatchers = {
  /** The rendered text and its tools match the committed `snapshots/<prompt>/<case>.txt`, with Jest's update semantics. */
  toMatchPromptSnapshot(this: MatcherThis, received: RenderedCase, options: { dir?: string } = {}): MatcherResult {
    const file = snapshotFile(options.dir ?? join(process.cwd(), 'snapshots'), received.prompt, received.case);
    const result = reconcile(file, formatSnapshot(received), updateMode(this.snapshotState));
    count(this.snapshotState, result);
    const pass = result.status === 'matched' || result.status === 'written' || result.status === 'updated';
    return { pass, message: () => (pass ? `Expected \`${received.prompt}\` case \`${received.case}\` not to match its snapshot` : snapshotMessage(`Prompt \`${received.prompt}\` case \`${received.case}\``, result, this.utils)) };
  },

  /** Every tool-call example in the rendered text names a tool sent with it and fits its current schema. */
  toHaveValidToolExamples(this: MatcherThis, received: RenderedCase | RenderedItem, options: { strict?: boolean; snapshots?: string } = {}): MatcherResult {
    const problems = checkRenderedExamples(received, options).filter((d) => d.severity === 'error');
    const pass = problems.length === 0;
    const name = 'case' in received ? `\`${received.prompt}\` case \`${received.case}\`` : `\`${received.prompt}\` ${received.kind} at ${received.label}`;
    return {
      pass,
      message: () => (pass ? `Expected ${name} to have invalid tool-call examples` : findingsMessage(`Tool-call examples in ${name} do not match the current tool schemas. Edit the file and line named below:`, problems)),
    };
  },
};

declare module '@jest/expect' {
  interface Matchers<R> {
    toMatchPromptSnapshot(options?: { dir?: string }): R;
    toHaveValidToolExamples(options?: { strict?: boolean }): R;
  }
}

// The global `expect` of @types/jest reads its matchers from this namespace.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R> {
      toMatchPromptSnapshot(options?: { dir?: string }): R;
      toHaveValidToolExamples(options?: { strict?: boolean }): R;
    }
  }
}

export interface ContractSuiteOptions {
  /** Config file; found in `cwd` by default. */
  config?: string;
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
export async function contractSuite(options: ContractSuiteOptions = {}): Promise<void> {
  const { loadProject } = await import('./project.js');
  const { listCases, renderCase, renderDataItems } = await import('./render/render.js');
  const run = await import('./checks/run.js');
  // Inside Jest, the config and the tools it imports load through Jest's own transform.
  const project = await loadProject({ ...(options.config === undefined ? {} : { config: options.config }), ...(options.cwd === undefined ? {} : { cwd: options.cwd }), importer: (file) => import(pathToFileURL(file).href) });
  // Before any test can write: `-u` manages only a folder of its own inside the project.
  try {
    run.checkProjectSnapshots(project);
  } catch (error) {
    // Jest shows the message only: put the config file and the code in it, as the CLI prints them.
    if (error instanceof InputError) throw new InputError(error.code, error.format(), {}, { cause: error });
    throw error;
  }
  const { config, module, registry, tools } = project;
  // The project's snapshot folder is bound into the matchers this suite registers.
  g.expect.extend({
    toMatchPromptSnapshot(this: MatcherThis, received: RenderedCase, o: { dir?: string } = {}) {
      return promptMatchers.toMatchPromptSnapshot.call(this, received, { dir: config.snapshots, ...o });
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
  const baselineFile = toolsBaselineFile(config.snapshots);
  const expected = new Set<string>([baselineFile]);
  const against = options.against ?? run.defaultAgainst();

  // Curated examples and stub entries are checked once, on their own; a case that renders a
  // stale one names it there instead of failing a second time. Cases note which they showed.
  let dataFindings: Diagnostic[] | undefined;
  const curated = (): Diagnostic[] =>
    (dataFindings ??= dedupe([...module.prompts.keys()].flatMap((p) => renderDataItems(module, p, registry)).flatMap((item) => checkRenderedExamples(item, { strict }))));
  const shownIn = new Map<string, string[]>();

  // Tests run in order; the policy check at the end needs every other test to have run (not `-t`).
  let defined = 0;
  let ran = 0;
  const test = (name: string, fn: () => Promise<void>): void => {
    defined++;
    g.test(name, async () => {
      ran++;
      await fn();
    });
  };

  g.describe(`prompt-contract (${project.display(config.file)})`, () => {
    if (options.report !== undefined) {
      const file = options.report;
      const { afterAll } = globalThis as unknown as { afterAll: (fn: () => void) => void };
      afterAll(() => {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, `${JSON.stringify(toJsonReport(dedupe(reported)), null, 2)}\n`);
      });
    }

    test('the config, tools and tool descriptions load cleanly', async () => {
      settle('The project setup has problems:', await policy([...project.diagnostics]), reported);
    });

    for (const { prompt, case: caseName } of listCases(module)) {
      const file = snapshotFile(config.snapshots, prompt, caseName);
      expected.add(file);
      test(`${prompt} / ${caseName}: snapshot and tool-call examples`, async () => {
        const rendered = renderCase(module, prompt, caseName, registry);
        const state = snapshotState();
        // Run both checks and report both: a stale example must not hide behind a snapshot diff.
        const result = reconcile(file, formatSnapshot(rendered), updateMode(state));
        count(state, result);
        const failures: string[] = [];
        const snapshotProblem = run.snapshotFindings(result, { prompt, case: caseName });
        if (snapshotProblem.length > 0) {
          reported.push(...run.relativePaths(project, snapshotProblem));
          failures.push(snapshotMessage(`Prompt \`${prompt}\` case \`${caseName}\``, result, plainColors));
        }
        const fromData = new Set(curated().map(findingKey));
        const own: Diagnostic[] = [];
        for (const d of checkRenderedExamples(rendered, { strict, snapshots: config.snapshots })) {
          const key = findingKey(d);
          if (fromData.has(key)) shownIn.set(key, [...(shownIn.get(key) ?? []), `${prompt}/${caseName}`]);
          else own.push(d);
        }
        try {
          settle(`Tool-call examples in \`${prompt}\` case \`${caseName}\` do not match the current tool schemas. Edit the file and line named below:`, await policy(dedupe(own)), reported);
        } catch (error) {
          failures.push((error as Error).message);
        }
        if (failures.length > 0) throw new Error(failures.join('\n\n'));
      });
    }

    test('every curated example and retrieval-stub entry fits the current schemas', async () => {
      const found = await policy(curated());
      const keys = curated().map(findingKey);
      // Shown with the cases that render it; reported (and in the JSON report) as `check` reports it.
      reported.push(...found);
      const labelled = found.map((d, i) => {
        const cases = shownIn.get(keys[i] ?? '') ?? [];
        return cases.length === 0 ? d : { ...d, message: `${d.message} (rendered in ${cases.map((c) => `\`${c}\``).join(', ')})` };
      });
      settle('Curated examples or retrieval stubs do not match the current tool schemas:', labelled, []);
    });

    test(`tool definitions keep backward compatibility with the baseline ${project.display(baselineFile)}${against === undefined ? '' : ` at \`${against}\``}`, async () => {
      const state = snapshotState();
      const mode = updateMode(state);
      // Under -u too: accepting a wording change must not accept a breaking change with it.
      // A break is accepted only by a policy `ignore` entry that says why; until then the
      // baseline is not rewritten, so the next run still sees the break.
      const old = run.baselineTools(project, against);
      const breaks = old ? await policy(await run.diffWithWitnesses(old, tools, config.recorded ?? [], project)) : [];
      const blocked = breaks.some((d) => d.severity === 'error');
      const result = reconcile(baselineFile, formatToolsBaseline(tools), blocked && mode === 'all' ? 'none' : mode);
      count(state, result);
      const failures: string[] = [];
      try {
        settle(`Breaking changes against ${project.display(baselineFile)}${against === undefined ? '' : ` at \`${against}\``}: keep the old behaviour, or accept each one with a policy \`ignore\` entry that says why (\`-u\` alone does not accept them):`, breaks, reported);
      } catch (error) {
        failures.push((error as Error).message);
      }
      const problem = run.snapshotFindings(result);
      if (problem.length > 0) {
        reported.push(...run.relativePaths(project, problem));
        failures.push(`${snapshotMessage('The tools baseline', result, plainColors)}${blocked && mode === 'all' ? '\nIt was not rewritten: the breaking changes above must be accepted first.' : ''}`);
      }
      if (failures.length > 0) throw new Error(failures.join('\n\n'));
    });

    if (tools.some((t) => t.handler !== undefined && !t.generated)) {
      test('handler argument types agree with the tool schemas', async () => {
        const { checkHandlers } = await import('./checks/handler.js');
        settle('The schema and the handler type disagree:', await policy(checkHandlers(tools)), reported);
      });
    }
    if (config.recorded && config.recorded.length > 0) {
      test('recorded tool calls fit the current schemas', async () => {
        settle('Recorded calls that the current schemas reject:', await policy(await run.validateRecordedFiles(tools, config.recorded!, config.maxLineBytes === undefined ? {} : { maxLineBytes: config.maxLineBytes })), reported);
      });
    }
    for (const source of config.persisted ?? []) {
      test(`persisted tool_use blocks in \`${source.name}\` fit the schemas and handlers`, async () => {
        const { readPersistedCalls } = await import('./sources/persisted.js');
        const { checkPersisted } = await import('./checks/persisted.js');
        const found = await checkPersisted(tools, readPersistedCalls(source), await run.handlerSchemasOf(tools));
        settle(`Stored tool calls in \`${source.name}\` that would fail on resume:`, await policy(found), reported);
      });
    }
    for (const provider of config.providers ?? []) {
      test(`tool schemas fit the \`${provider}\` profile`, async () => {
        settle(`Tool schemas outside what \`${provider}\` accepts:`, await policy(run.lintProviders(tools, [provider])), reported);
      });
    }

    test('the snapshots folder holds only current snapshots', async () => {
      const mode = updateMode(snapshotState());
      const found = await policy(run.snapshotFolderFindings(project, expected));
      const scan = scanSnapshots(config.snapshots, expected);
      // Files prompt-contract did not write are named, never touched, in every mode.
      if (mode === 'all') {
        removeLeftovers(config.snapshots, scan.leftovers);
        removeObsolete(config.snapshots, scan.obsolete);
        settle('The snapshots folder:', found.filter((d) => d.ruleId === 'snapshot/foreign-file'), reported);
        return;
      }
      // Jest's semantics: an obsolete snapshot fails a --ci run, and is a warning otherwise.
      const obsolete = found.filter((d) => d.ruleId === 'snapshot/obsolete');
      settle('The snapshots folder:', mode === 'none' ? found.map((d) => (d.ruleId === 'snapshot/obsolete' ? { ...d, severity: 'error' as const } : d)) : found, reported);
      if (obsolete.length > 0) process.stderr.write('prompt-contract: run your Jest command with `-u` to remove obsolete snapshots.\n');
    });

    if (config.policy !== undefined) {
      test('every policy ignore entry still matches a finding', async () => {
        // Run with a filter (`-t`), the suite saw only some findings: an entry may match one it skipped.
        if (ran < defined) return;
        const all = await run.applyProjectPolicy(project, dedupe(raw));
        settle('The policy file:', run.relativePaths(project, all.filter((d) => d.ruleId === 'compat/unused-ignore')), reported);
      });
    }
  });
}
