import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import type { Diagnostic } from '../report/diagnostic.js';
import { jsonError, readToolsFile, type Project } from '../project.js';
import { renderCase, renderDataItems, listCases } from '../render/render.js';
import { checkRenderedExamples, dedupe } from './rendered.js';
import { validateRecordedFiles } from './recorded-files.js';

export { validateRecordedFiles };
import { SchemaCompiler } from '../schema/validator.js';
import type { RecordedItem } from '../sources/types.js';
import type { JsonSchemaObject, ToolSpec } from '../tools/types.js';
import { InputError } from '../util/errors.js';
import { report } from '../report/rule.js';
import { snapshotRules } from '../snapshot/rules.js';
import { normalizeTools } from '../tools/normalize.js';
import { isProviderName, lintTools, providerNames } from './provider/index.js';


async function* observedCalls(project: Pick<Project, 'config'> | undefined, files: readonly string[]): AsyncGenerator<RecordedItem> {
  const { readRecordedCalls } = await import('../sources/jsonl.js');
  for (const file of files) yield* readRecordedCalls(file);
  if (project) {
    const { readPersistedCalls } = await import('../sources/persisted.js');
    for (const source of project.config.persisted ?? []) yield* readPersistedCalls(source);
  }
}

/** Breaking changes between two tool sets, with the recorded calls each one would now reject. */
export async function diffWithWitnesses(oldTools: readonly ToolSpec[], newTools: readonly ToolSpec[], observed: readonly string[], project?: Pick<Project, 'config'>): Promise<Diagnostic[]> {
  const { diffTools, attachWitnesses } = await import('./compat/index.js');
  const diagnostics = diffTools(oldTools, newTools);
  const hasSources = observed.length > 0 || (project?.config.persisted?.length ?? 0) > 0;
  if (diagnostics.length === 0 || !hasSources) return diagnostics;
  return attachWitnesses(diagnostics, observedCalls(project, observed), oldTools, newTools);
}

/** Lints tools for each named provider; an unknown provider name cannot run. */
export function lintProviders(tools: readonly ToolSpec[], providers: readonly string[]): Diagnostic[] {
  return providers.flatMap((p) => lintOne(tools, p));
}

function lintOne(tools: readonly ToolSpec[], provider: string): Diagnostic[] {
  if (!isProviderName(provider)) throw new InputError('usage', `Unknown provider \`${provider}\`, expected one of ${providerNames.map((p) => `\`${p}\``).join(', ')}`);
  return lintTools(tools, provider);
}

/**
 * The committed tools baseline (`snapshots/tools.json`): the working tree's, or as committed at
 * a git ref (`--against`). Undefined when the working tree has none yet.
 */
export function baselineTools(project: Project, ref?: string): ToolSpec[] | undefined {
  const file = join(project.config.snapshots, 'tools.json');
  const shown = project.display(file);
  if (ref === undefined) return existsSync(file) ? readToolsFile(file, shown) : undefined;
  // `REF:./path` is resolved by git relative to the working directory, so a project in a subfolder of its repository works.
  let text: string;
  try {
    text = execFileSync('git', ['show', `${ref}:./${relative(project.config.root, file)}`], { cwd: project.config.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new InputError('usage', `Cannot read the tools baseline at \`${ref}\`: ${String((error as { stderr?: string }).stderr ?? (error as Error).message).trim()}`, { file: shown });
  }
  try {
    return normalizeTools(JSON.parse(text), `${ref}:${shown}`);
  } catch (error) {
    if (error instanceof SyntaxError) throw jsonError(error, text, `${ref}:${shown}`, 'the tools baseline');
    throw new InputError('config/tool-shape', (error as Error).message, { file: `${ref}:${shown}` });
  }
}

export interface CheckOptions {
  /** Compare tools with the baseline at this git ref instead of the working tree's. */
  against?: string;
}

/** The main job: render every case, then every check the config enables. Never writes. */
export async function runCheck(project: Project, options: CheckOptions = {}): Promise<Diagnostic[]> {
  const { config, module, registry, tools } = project;
  const compiler = new SchemaCompiler();
  const strict = config.strictExamples === true;
  const out: Diagnostic[] = [...project.diagnostics];

  const { formatSnapshot, formatToolsBaseline } = await import('../snapshot/format.js');
  const { reconcile, snapshotFile, findObsolete } = await import('../snapshot/state.js');
  const expected = new Set<string>();
  for (const { prompt, case: caseName } of listCases(module)) {
    const rendered = renderCase(module, prompt, caseName, registry);
    out.push(...checkRenderedExamples(rendered, { strict, compiler, snapshots: config.snapshots }));
    const file = snapshotFile(config.snapshots, prompt, caseName);
    expected.add(file);
    const result = reconcile(file, formatSnapshot(rendered), 'none');
    if (result.status === 'missing') {
      out.push(report(snapshotRules.missing, { message: `No snapshot for \`${prompt}\` case \`${caseName}\`; run your Jest command with \`-u\` to write it, then review and commit it`, file: result.file }));
    } else if (result.status === 'mismatch') {
      out.push(report(snapshotRules.outdated, { message: `The rendered prompt \`${prompt}\` case \`${caseName}\` differs from its snapshot; review the diff, then run your Jest command with \`-u\` to accept it`, file: result.file, ...(result.diff === undefined ? {} : { detail: result.diff }) }));
    }
  }
  for (const prompt of module.prompts.keys()) {
    for (const item of renderDataItems(module, prompt, registry)) out.push(...(checkRenderedExamples(item, { strict, compiler })));
  }
  for (const file of findObsolete(config.snapshots, expected)) {
    out.push(report(snapshotRules.obsolete, { message: 'Obsolete snapshot: no prompt and case renders it; Jest with `-u` removes it', file: project.display(file) }));
  }
  const baselineFile = `${config.snapshots}/tools.json`;
  const baseline = reconcile(baselineFile, formatToolsBaseline(tools), 'none');
  if (baseline.status === 'missing') out.push(report(snapshotRules.missing, { message: 'No tools baseline; run your Jest command with `-u` to write it, then commit it', file: baseline.file }));
  else if (baseline.status === 'mismatch') {
    out.push(report(snapshotRules.outdated, { message: 'The tool definitions differ from the baseline; review the diff, then run your Jest command with `-u` to accept it', file: baseline.file, ...(baseline.diff === undefined ? {} : { detail: baseline.diff }) }));
  }

  if (tools.some((t) => t.handler !== undefined && !t.generated)) {
    const { checkHandlers } = await import('./handler.js');
    out.push(...checkHandlers(tools));
  }
  if (config.recorded && config.recorded.length > 0) out.push(...(await validateRecordedFiles(tools, config.recorded, compiler)));
  if (config.persisted && config.persisted.length > 0) {
    const { readPersistedCalls } = await import('../sources/persisted.js');
    const { checkPersisted } = await import('./persisted.js');
    const handlerSchemas = await handlerSchemasOf(tools);
    for (const source of config.persisted) out.push(...(await checkPersisted(tools, readPersistedCalls(source), handlerSchemas, { compiler })));
  }
  const old = baselineTools(project, options.against);
  if (old) out.push(...(await diffWithWitnesses(old, tools, config.recorded ?? [], project)));
  if (config.providers && config.providers.length > 0) out.push(...lintProviders(tools, config.providers));

  return relativePaths(project, await applyProjectPolicy(project, dedupe(out)));
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
export async function handlerSchemasOf(tools: readonly ToolSpec[]): Promise<Map<string, JsonSchemaObject>> {
  const map = new Map<string, JsonSchemaObject>();
  const withHandler = tools.filter((t) => t.handler !== undefined);
  if (withHandler.length === 0) return map;
  const { resolveHandlerSchema } = await import('../handlers/resolve.js');
  for (const tool of withHandler) map.set(tool.name, resolveHandlerSchema(tool.handler!));
  return map;
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

