import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readRegularFileSync } from '../util/files.js';
import { isAbsolute, relative } from 'node:path';
import type { Diagnostic } from '../report/diagnostic.js';
import { jsonError, readToolsFile, type Project } from '../project.js';
import { defaultPolicyFile } from '../config/index.js';
import { renderDataItems, listCases } from '../render/render.js';
import { runsOnce, type Shard, shardSlice } from '../util/shard.js';
import { checkRenderedExamples, dedupe } from './rendered.js';
import { type CaseRef, caseGroups, checkGroups, promptWithoutCase, renderOptions } from './cases.js';
import type { CheckCache } from './cache.js';
import { notationsOf, SNAPSHOT_FIX, snapshotFindings } from './findings.js';

export { notationsOf, snapshotFindings };
import { validateRecordedFiles } from './recorded-files.js';

export { validateRecordedFiles };
import { SchemaCompiler } from '../schema/validator.js';
import type { RecordedItem } from '../sources/types.js';
import type { HandlerRef, JsonSchemaObject, ToolSpec } from '../tools/types.js';
import { InputError } from '../util/errors.js';
import { report } from '../report/rule.js';
import { snapshotRules } from '../snapshot/rules.js';
import { onCi } from '../util/ci.js';
import { checkSnapshotsFolder, ownsText, reconcile, scanSnapshots, snapshotFile, toolsBaselineFile } from '../snapshot/state.js';
import { normalizeTools } from '../tools/normalize.js';
import { snapshotTokensAt } from '../tokens/baseline.js';
import { isProviderName, lintTools, providerNames } from './provider/index.js';


async function* observedCalls(project: Pick<Project, 'config'> | undefined, files: readonly string[]): AsyncGenerator<RecordedItem> {
  const { readRecordedCalls } = await import('../sources/jsonl.js');
  const maxLineBytes = project?.config.maxLineBytes;
  for (const file of files) yield* readRecordedCalls(file, maxLineBytes === undefined ? {} : { maxLineBytes });
  if (project) {
    const { readPersistedCalls } = await import('../sources/persisted.js');
    for (const source of project.config.persisted ?? []) yield* readPersistedCalls(source);
  }
}

/** The policy file a run reads, as compat findings' advice names it: the configured one, or the default beside the config. */
function policyShown(config: Project['config']): string {
  const { policy, root } = config;
  return policy === undefined ? `\`${defaultPolicyFile}\` beside the config` : `\`${relative(root, policy) || policy}\``;
}

/** Breaking changes between two tool sets, with the recorded calls each one would now reject. */
export async function diffWithWitnesses(oldTools: readonly ToolSpec[], newTools: readonly ToolSpec[], observed: readonly string[], project?: Pick<Project, 'config'>): Promise<Diagnostic[]> {
  const { diffTools, attachWitnesses } = await import('./compat/index.js');
  const diagnostics = diffTools(oldTools, newTools, project ? { policyFile: policyShown(project.config) } : {});
  const hasSources = observed.length > 0 || (project?.config.persisted?.length ?? 0) > 0;
  if (diagnostics.length === 0 || !hasSources) return diagnostics;
  return attachWitnesses(diagnostics, observedCalls(project, observed), oldTools, newTools);
}

/** Recorded-call findings, kept in the cache while no recorded file and no tool changed (recorded files are logs, read again on every run). */
export async function recordedFindings(cache: CheckCache | undefined, tools: readonly ToolSpec[], files: readonly string[], options: { compiler?: SchemaCompiler; maxLineBytes?: number; shard?: Shard }): Promise<Diagnostic[]> {
  const { compiler, ...keyed } = options;
  const cached = cache?.recorded(files, keyed);
  if (cached?.found) return cached.found;
  const found = await validateRecordedFiles(tools, files, options);
  if (cached) cache?.storeRecorded(cached.key, found);
  return found;
}

/** The provider lint, kept in the cache with the run's tools. */
export function lintCached(cache: CheckCache | undefined, tools: readonly ToolSpec[], providers: readonly string[]): Diagnostic[] {
  const cached = cache?.lint(providers);
  if (cached) return cached;
  const found = lintProviders(tools, providers);
  cache?.storeLint(providers, found);
  return found;
}

/** Lints tools for each named provider; an unknown provider name cannot run. */
export function lintProviders(tools: readonly ToolSpec[], providers: readonly string[]): Diagnostic[] {
  return providers.flatMap((p) => lintOne(tools, p));
}

function lintOne(tools: readonly ToolSpec[], provider: string): Diagnostic[] {
  if (!isProviderName(provider)) throw new InputError('usage', `Unknown provider \`${provider}\`, expected one of ${providerNames.map((p) => `\`${p}\``).join(', ')}`);
  return lintTools(tools, provider);
}

/** Output of a git command run in the project root; a failure is an InputError that says what was asked. */
function git(project: Project, args: string[], what: string, shown: string): string {
  try {
    return execFileSync('git', args, { cwd: project.config.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const e = error as { code?: string; stderr?: string; message: string };
    const why = e.code === 'ENOENT' ? 'git is not installed or not on PATH' : String(e.stderr ?? '').trim() || e.message;
    throw new InputError('usage', `${what}${why === '' ? '' : `: ${why}`}`, { file: shown });
  }
}

/**
 * The commit a `--against` revision names. The revision reaches git only after
 * `--end-of-options`, and one that starts with `-` is refused first: it would otherwise be
 * read as an option (`--output=FILE` writes a file).
 */
export function resolveRevision(project: Project, ref: string, shown: string, from = '--against'): string {
  if (ref === '' || ref.startsWith('-') || /[\u0000-\u001f\u007f]/.test(ref)) {
    throw new InputError('usage', `Unexpected ${from} ${JSON.stringify(ref)}: expected a git revision such as \`main\`, \`v1.2.0\` or \`HEAD~1\`, which never starts with \`-\``);
  }
  // A pull request's base branch is often missing from a CI job's shallow clone.
  const hint = from === '--against' ? 'expected a branch, tag or commit of the repository' : 'expected the base branch to be fetched (with actions/checkout, `fetch-depth: 0`), or PROMPT_CONTRACT_AGAINST set to a revision that is';
  const out = git(project, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], `Cannot find the git revision \`${ref}\` (from ${from}); ${hint}`, shown).trim();
  if (!/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(out)) throw new InputError('usage', `Cannot find the git revision \`${ref}\` (from ${from}); git answered ${JSON.stringify(out)}`, { file: shown });
  return out;
}

/**
 * The committed tools baseline (`snapshots/tools.json`): the working tree's, or as committed at
 * a git ref (`--against`). Undefined when the working tree has none yet, or holds a
 * `tools.json` that prompt-contract did not write (`check` reports that; it is no baseline).
 */
export function baselineTools(project: Project, ref?: string, from?: string): ToolSpec[] | undefined {
  const file = toolsBaselineFile(project.config.snapshots);
  const shown = project.display(file);
  if (ref === undefined) {
    if (!existsSync(file)) return undefined;
    let text: string;
    try {
      // Not a plain read: a named pipe at the path would wait for a writer forever.
      text = readRegularFileSync(file, null).toString('utf8');
    } catch (error) {
      throw new InputError('config/unreadable', `Cannot read the tools baseline: ${(error as Error).message}; expected the file prompt-contract wrote there, or nothing`, { file: shown });
    }
    if (!ownsText(file, text)) return undefined;
    try {
      return readToolsFile(file, shown);
    } catch (error) {
      // A baseline of ours that no longer parses (cut short, a merge gone wrong): nothing to compare
      // with; the snapshot check reports it outdated, with the diff, and `-u` writes it again.
      if (error instanceof InputError && (error.code === 'config/json-syntax' || error.message.includes('it is not UTF-8 text'))) return undefined;
      throw error;
    }
  }
  const commit = resolveRevision(project, ref, shown, from);
  // `COMMIT:./path` is resolved by git relative to the working directory, so a project in a subfolder of its repository works.
  const text = git(project, ['show', '--end-of-options', `${commit}:./${relative(project.config.root, file)}`], `Cannot read the tools baseline at \`${ref}\``, shown);
  try {
    return normalizeTools(JSON.parse(text), `${ref}:${shown}`);
  } catch (error) {
    if (error instanceof SyntaxError) throw jsonError(error, text, `${ref}:${shown}`, 'the tools baseline');
    throw new InputError('config/tool-shape', (error as Error).message, { file: `${ref}:${shown}` });
  }
}

/** The snapshots folder, refused when `-u` could not manage it safely (the project root, or outside the project). */
export function checkProjectSnapshots(project: Project): void {
  checkSnapshotsFolder(project.config.root, project.config.snapshots, { configFile: project.config.file, display: project.display });
}

/** Findings for what else lies in the snapshots folder: obsolete snapshots, foreign files, interrupted writes. */
export function snapshotFolderFindings(project: Project, expected: ReadonlySet<string>, scan = scanSnapshots(project.config.snapshots, expected)): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const file of scan.obsolete) {
    out.push(report(snapshotRules.obsolete, { message: 'Obsolete snapshot: no prompt and case renders it; your test command with `-u` removes it', file: project.display(file), fix: SNAPSHOT_FIX.obsolete }));
  }
  // A shared folder may hold thousands of other files: name the first ones and count the rest.
  const shownForeign = scan.foreign.slice(0, MAX_FOREIGN_REPORTED);
  for (const file of shownForeign) {
    out.push(report(snapshotRules['foreign-file'], { message: 'Unexpected file in the snapshots folder: prompt-contract did not write it, so it never overwrites or removes it; keep snapshots in a folder of their own', file: project.display(file), fix: SNAPSHOT_FIX.foreign }));
  }
  if (scan.foreign.length > shownForeign.length) {
    out.push(report(snapshotRules['foreign-file'], { message: `Unexpected files in the snapshots folder: ${scan.foreign.length - shownForeign.length} more not named here; keep snapshots in a folder of their own`, file: project.display(project.config.snapshots), fix: SNAPSHOT_FIX.foreign }));
  }
  for (const file of scan.leftovers) {
    out.push(report(snapshotRules['interrupted-write'], { message: 'Leftover temporary file of an interrupted snapshot write; your test command with `-u` removes it', file: project.display(file), fix: SNAPSHOT_FIX.interrupted }));
  }
  return out;
}

const MAX_FOREIGN_REPORTED = 50;

/**
 * The git revision whose tools baseline a CI run of a pull request compares with, when the CI
 * environment names a base branch (`PROMPT_CONTRACT_AGAINST`, or GitHub's `GITHUB_BASE_REF`):
 * a `snapshots/tools.json` rewritten in the same pull request then cannot hide a break.
 */
export function defaultAgainst(env: NodeJS.ProcessEnv = process.env): Revision | undefined {
  if (env.PROMPT_CONTRACT_AGAINST) return { ref: env.PROMPT_CONTRACT_AGAINST, from: 'PROMPT_CONTRACT_AGAINST' };
  if (env.GITHUB_BASE_REF) return { ref: `origin/${env.GITHUB_BASE_REF}`, from: 'GITHUB_BASE_REF' };
  return undefined;
}

/** A git revision to compare with, and what named it (an option or an environment variable), for messages. */
export interface Revision {
  ref: string;
  from: string;
}

export interface CheckOptions {
  /** Compare tools with the baseline at this git ref instead of the working tree's. */
  against?: string;
  /**
   * Do part `index` of `total`: a contiguous share of the cases, of the curated examples and
   * of each recorded file's lines. What happens once (obsolete snapshots, the breaking-change
   * check, handlers, stored calls, provider lint) runs in the first shard only.
   */
  shard?: Shard;
  /**
   * Threads to spread the cases over: 1 keeps them in this thread; by default, from three
   * cores, one per core but one once there are enough cases to pay for starting them (each
   * imports the checks and reads the prompts it takes again). See checks/cases.ts.
   */
  workers?: number;
  /** Reuse the findings of unchanged cases from the last run, and keep this run's (default true). */
  cache?: boolean;
}

/** The main job: render every case, then every check the config enables. Writes nothing but its cache (see cache.ts). */
export async function runCheck(project: Project, options: CheckOptions = {}): Promise<Diagnostic[]> {
  const { config, tools } = project;
  const compiler = new SchemaCompiler();
  const strict = config.strictExamples === true;
  const out: Diagnostic[] = [...project.diagnostics];

  checkProjectSnapshots(project);
  // A revision that cannot be used stops the run before any work is done.
  const against = options.against !== undefined ? { ref: options.against, from: '--against' } : defaultAgainst();
  const againstCommit = against === undefined ? undefined : resolveRevision(project, against.ref, project.display(toolsBaselineFile(config.snapshots)), against.from);
  const { formatToolsBaseline } = await import('../snapshot/format.js');
  const expected = new Set<string>();
  const baselineFile = toolsBaselineFile(config.snapshots);
  expected.add(baselineFile);
  const shard = options.shard;
  // Budget growth is measured against the revision too: its commit is part of each case's key.
  const cache = options.cache === false ? undefined : (await import('./cache.js')).CheckCache.open(project, { strict, ...(againstCommit === undefined ? {} : { against: againstCommit }) });
  const { findings, cases } = await promptFindings(project, { ...options, compiler, strict, ...(against === undefined ? {} : { tokensAgainst: { ref: against.ref, commit: againstCommit! } }) }, cache);
  out.push(...findings);
  // Every case's snapshot is expected, whichever shard renders it: obsolete means obsolete for all.
  for (const { prompt, case: caseName } of cases) expected.add(snapshotFile(config.snapshots, prompt, caseName));
  const once = runsOnce(shard);
  if (once) {
    // As the test suite under `--ci`: on CI an obsolete snapshot fails the run (it is a warning locally, where `-u` would remove it).
    const ci = onCi();
    out.push(...snapshotFolderFindings(project, expected).map((d) => (ci && d.ruleId === snapshotRules.obsolete.id ? { ...d, severity: 'error' as const } : d)));
    out.push(...snapshotFindings(reconcile(baselineFile, formatToolsBaseline(tools), 'none')));
  }

  if (once) {
    const { checkToolExamples } = await import('./tool-examples.js');
    out.push(...checkToolExamples(tools, { compiler, strict, ...notationsOf(config) }));
    // Every description the model is sent, from any source: MCP servers' above all.
    const { checkToolPoisoning } = await import('./tool-poisoning.js');
    out.push(...checkToolPoisoning(tools));
  }
  if (once && tools.some((t) => t.handler !== undefined && !t.generated)) {
    const { checkHandlers } = await import('./handler.js');
    const resolve = await handlerResolver(options.cache !== false);
    out.push(...checkHandlers(tools, (ref) => resolve(ref)));
  }
  if (config.recorded && config.recorded.length > 0) {
    out.push(...(await recordedFindings(cache, tools, config.recorded, { compiler, ...(config.maxLineBytes === undefined ? {} : { maxLineBytes: config.maxLineBytes }), ...(shard ? { shard } : {}) })));
  }
  if (once && config.persisted && config.persisted.length > 0) {
    const { readPersistedCalls } = await import('../sources/persisted.js');
    const { checkPersisted } = await import('./persisted.js');
    const handlerSchemas = await handlerSchemasOf(tools, options.cache !== false);
    for (const source of config.persisted) out.push(...(await checkPersisted(tools, readPersistedCalls(source), handlerSchemas, { compiler })));
  }
  const old = once ? baselineTools(project, against?.ref, against?.from) : undefined;
  if (old) out.push(...(await diffWithWitnesses(old, tools, config.recorded ?? [], project)));
  if (once && config.providers && config.providers.length > 0) out.push(...lintCached(cache, tools, config.providers));
  cache?.write();

  return relativePaths(project, await applyProjectPolicy(project, dedupe(out)));
}

/**
 * The findings of the cases (this shard's) and of the curated examples and stub entries, and
 * every case of the project. Unchanged cases keep their findings from the cache; when nothing
 * under the prompts folder changed, the prompts are not even read. The rest are checked, over
 * worker threads when there are many.
 */
async function promptFindings(project: Project, options: CheckOptions & { compiler: SchemaCompiler; strict: boolean; tokensAgainst?: { ref: string; commit: string } }, cache: CheckCache | undefined): Promise<{ findings: Diagnostic[]; cases: CaseRef[] }> {
  const { config, registry } = project;
  const { compiler, strict, shard } = options;
  const stats = (count: number): void => {
    if (cache && process.env.PROMPT_CONTRACT_CACHE_STATS) process.stderr.write(`prompt-contract cache: ${cache.reused} of ${count} cases reused\n`);
  };
  const unchanged = shard === undefined ? cache?.unchanged() : undefined;
  if (unchanged) {
    stats(unchanged.cases.length);
    return unchanged;
  }
  const module = project.module;
  const cases = listCases(module);
  const mine = shardSlice(cases, shard);
  const findings: Diagnostic[] = [];
  const results: Array<Diagnostic[] | undefined> = mine.map((ref) => cache?.case(ref));
  const todo = results.flatMap((found, i) => (found === undefined ? [i] : []));
  const prompts = [...module.prompts.keys()];
  const items = new Map<string, Diagnostic[] | undefined>(shard === undefined ? prompts.map((prompt) => [prompt, cache?.items(prompt)]) : []);
  const itemsTodo = [...items].flatMap(([prompt, found]) => (found === undefined ? [prompt] : []));
  const groups = caseGroups(todo.map((i) => mine[i]!), itemsTodo);
  // Before any case reads its snapshot: a snapshot replaced during the run is then stored as unseen.
  const snapshotStamps = cache ? todo.map((i) => cache.snapshotStamp(mine[i]!)) : [];
  // The token counts at the `--against` revision, for the cases checked now, in one git call.
  const against = options.tokensAgainst;
  const tokenBaseline = against === undefined ? undefined : { ref: against.ref, counts: snapshotTokensAt(config.root, against.commit, todo.map((i) => snapshotFile(config.snapshots, mine[i]!.prompt, mine[i]!.case)), project.display(config.snapshots)) };
  const done = await checkGroups(project, groups, { compiler, ...(options.workers === undefined ? {} : { workers: options.workers }), ...(tokenBaseline === undefined ? {} : { tokenBaseline }) });
  const fresh = done.flatMap((result) => result.cases);
  todo.forEach((i, k) => {
    results[i] = fresh[k]!;
    cache?.storeCase(mine[i]!, fresh[k]!, snapshotStamps[k]!);
  });
  for (const found of results) findings.push(...found!);
  groups.forEach((group, g) => {
    if (!group.items) return;
    items.set(group.prompt, done[g]!.items!);
    cache?.storeItems(group.prompt, done[g]!.items!);
  });
  if (shard === undefined) {
    for (const found of items.values()) findings.push(...found!);
  } else {
    const rendered = prompts.flatMap((prompt) => renderDataItems(module, prompt, registry, renderOptions(config)));
    for (const item of shardSlice(rendered, shard)) findings.push(...checkRenderedExamples(item, { strict, compiler, ...notationsOf(config) }));
    // A prompt no case renders is said once, by the first shard, as an unsharded run says it with its items.
    if (runsOnce(shard)) for (const prompt of prompts) findings.push(...[promptWithoutCase(project, prompt)].filter((d) => d !== undefined));
  }
  cache?.save(cases, shard === undefined);
  stats(mine.length);
  return { findings, cases };
}

/** Paths as the user would type them: relative to where the command runs. */
export function relativePaths(project: Pick<Project, 'display'>, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const rel = (file: string): string => (isAbsolute(file) ? project.display(file) : file);
  return diagnostics.map((d) => {
    const out: Diagnostic = d.file === undefined ? { ...d } : { ...d, file: rel(d.file) };
    if (d.related) out.related = d.related.map((r) => ({ ...r, file: rel(r.file) }));
    if (d.witnesses) out.witnesses = d.witnesses.map((w) => (w.source === undefined ? w : { ...w, source: rel(w.source) }));
    return out;
  });
}

/** Handler argument types as JSON Schema by tool name, for persisted calls replayed into handlers. */
export async function handlerSchemasOf(tools: readonly ToolSpec[], cache = true): Promise<Map<string, JsonSchemaObject>> {
  const map = new Map<string, JsonSchemaObject>();
  const withHandler = tools.filter((t) => t.handler !== undefined);
  if (withHandler.length === 0) return map;
  const resolve = await handlerResolver(cache);
  for (const tool of withHandler) map.set(tool.name, resolve(tool.handler!));
  return map;
}

/** What reads a handler's argument type: through the handler cache, or (a run without cache) reading and writing none. */
export async function handlerResolver(cache: boolean): Promise<(ref: HandlerRef) => JsonSchemaObject> {
  const { resolveHandlerSchema } = await import('../handlers/resolve.js');
  return cache ? (ref) => resolveHandlerSchema(ref) : (ref) => resolveHandlerSchema(ref, { cacheDir: false });
}

/**
 * Severity overrides and reasoned ignore entries from the policy file, with the config's
 * inline `rules` on top. `partial` is for a run that sees only some findings (one Jest test):
 * an ignore entry that matched nothing there may match elsewhere, so it is not reported.
 */
export async function applyProjectPolicy(project: Project, diagnostics: Diagnostic[], options: { partial?: boolean } = {}): Promise<Diagnostic[]> {
  const { loadPolicy, applyPolicy } = await import('./compat/policy.js');
  const { config } = project;
  const fromFile = config.policy === undefined ? { severity: {}, ignore: [] } : loadPolicy(config.policy, project.display(config.policy));
  const policy = { ...fromFile, severity: { ...fromFile.severity, ...(config.rules ?? {}) } };
  return applyPolicy(diagnostics, policy, { reportUnused: options.partial !== true });
}

