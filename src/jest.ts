import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { expect as JestExpect, describe as JestDescribe, test as JestTest } from '@jest/globals';
import type { Diagnostic } from './report/diagnostic.js';
import { formatPretty } from './report/format.js';
import type { RenderedCase, RenderedItem } from './render/render.js';
import { checkRenderedExamples, dedupe } from './checks/rendered.js';
import { formatSnapshot, formatToolsBaseline } from './snapshot/format.js';
import { findObsolete, reconcile, removeObsolete, snapshotFile, type SnapshotResult, type UpdateMode } from './snapshot/state.js';

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

export interface ContractSuiteOptions {
  /** Config file; found in `cwd` by default. */
  config?: string;
  cwd?: string;
}

/** Throws one failure that lists every error finding, so a test shows them all at once. */
function assertClean(title: string, diagnostics: readonly Diagnostic[]): void {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(findingsMessage(title, errors));
}

/**
 * Defines the contract tests for a project: per prompt and case, the snapshot and the
 * tool-call examples; every curated example and stub entry; the tools baseline (breaking
 * changes); handler types; recorded and persisted calls; provider profiles; obsolete
 * snapshots. Call it at the top level of a test file: `await contractSuite()`.
 */
export async function contractSuite(options: ContractSuiteOptions = {}): Promise<void> {
  const { loadProject } = await import('./project.js');
  const { listCases, renderCase, renderDataItems } = await import('./render/render.js');
  const run = await import('./checks/run.js');
  // Inside Jest, the config and the tools it imports load through Jest's own transform.
  const project = await loadProject({ ...options, importer: (file) => import(pathToFileURL(file).href) });
  const { config, module, registry, tools } = project;
  // The project's snapshot folder is bound into the matchers this suite registers.
  g.expect.extend({
    toMatchPromptSnapshot(this: MatcherThis, received: RenderedCase, o: { dir?: string } = {}) {
      return promptMatchers.toMatchPromptSnapshot.call(this, received, { dir: config.snapshots, ...o });
    },
    toHaveValidToolExamples: promptMatchers.toHaveValidToolExamples,
  } as never);
  const policy = async (d: Diagnostic[]): Promise<Diagnostic[]> => run.relativePaths(project, await run.applyProjectPolicy(project, d, { partial: true }));
  const expectAny = g.expect as unknown as (value: unknown) => { toMatchPromptSnapshot(o?: object): void; toHaveValidToolExamples(o?: object): void };
  const strict = config.strictExamples === true;
  const expected = new Set<string>();

  g.describe(`prompt-contract (${project.display(config.file)})`, () => {
    for (const { prompt, case: caseName } of listCases(module)) {
      expected.add(snapshotFile(config.snapshots, prompt, caseName));
      g.test(`${prompt} / ${caseName}: snapshot and tool-call examples`, () => {
        const rendered = renderCase(module, prompt, caseName, registry);
        // Run both expectations and report both: a stale example must not hide behind a snapshot diff.
        const failures: string[] = [];
        for (const check of [() => expectAny(rendered).toMatchPromptSnapshot({ dir: config.snapshots }), () => expectAny(rendered).toHaveValidToolExamples({ strict, snapshots: config.snapshots })]) {
          try {
            check();
          } catch (error) {
            failures.push((error as Error).message);
          }
        }
        if (failures.length > 0) throw new Error(failures.join('\n\n'));
      });
    }

    g.test('every curated example and retrieval-stub entry fits the current schemas', async () => {
      const items = [...module.prompts.keys()].flatMap((p) => renderDataItems(module, p, registry));
      const found = items.flatMap((item) => checkRenderedExamples(item, { strict }));
      assertClean('Curated examples or retrieval stubs do not match the current tool schemas:', await policy(dedupe(found)));
    });

    g.test('tool definitions keep backward compatibility with the baseline snapshots/tools.json', async () => {
      const file = join(config.snapshots, 'tools.json');
      const state = (g.expect.getState() as { snapshotState?: SnapshotCounters }).snapshotState;
      const mode = updateMode(state);
      const old = mode === 'all' ? undefined : run.baselineTools(project);
      if (old) {
        const found = await policy(await run.diffWithWitnesses(old, tools, config.recorded ?? [], project));
        assertClean(`Breaking changes against ${project.display(file)} (accept them with your Jest command and \`-u\`, after review):`, found);
      }
      const result = reconcile(file, formatToolsBaseline(tools), mode);
      count(state, result);
      if (result.status === 'missing' || result.status === 'mismatch') {
        throw new Error(snapshotMessage('The tools baseline', result, { RECEIVED_COLOR: (s) => s, EXPECTED_COLOR: (s) => s }));
      }
    });

    if (tools.some((t) => t.handler !== undefined && !t.generated)) {
      g.test('handler argument types agree with the tool schemas', async () => {
        const { checkHandlers } = await import('./checks/handler.js');
        assertClean('The schema and the handler type disagree:', await policy(checkHandlers(tools)));
      });
    }
    if (config.recorded && config.recorded.length > 0) {
      g.test('recorded tool calls fit the current schemas', async () => {
        assertClean('Recorded calls that the current schemas reject:', await policy(await run.validateRecordedFiles(tools, config.recorded!)));
      });
    }
    for (const source of config.persisted ?? []) {
      g.test(`persisted tool_use blocks in \`${source.name}\` fit the schemas and handlers`, async () => {
        const { readPersistedCalls } = await import('./sources/persisted.js');
        const { checkPersisted } = await import('./checks/persisted.js');
        const found = await checkPersisted(tools, readPersistedCalls(source), await run.handlerSchemasOf(tools));
        assertClean(`Stored tool calls in \`${source.name}\` that would fail on resume:`, await policy(found));
      });
    }
    for (const provider of config.providers ?? []) {
      g.test(`tool schemas fit the \`${provider}\` profile`, async () => {
        assertClean(`Tool schemas outside what \`${provider}\` accepts:`, await policy(run.lintProviders(tools, [provider])));
      });
    }

    g.test('no obsolete snapshot files', () => {
      const obsolete = findObsolete(config.snapshots, expected);
      if (obsolete.length === 0) return;
      const mode = updateMode((g.expect.getState() as { snapshotState?: SnapshotCounters }).snapshotState);
      if (mode === 'all') removeObsolete(config.snapshots, obsolete);
      else if (mode === 'none') throw new Error(`Obsolete snapshot files (no prompt and case renders them):\n${obsolete.map((f) => `  ${project.display(f)}`).join('\n')}\nRun your Jest command with \`-u\` to remove them.`);
      else process.stderr.write(`prompt-contract: ${obsolete.length} obsolete snapshot file(s); \`-u\` removes them:\n${obsolete.map((f) => `  ${project.display(f)}`).join('\n')}\n`);
    });
  });
}
