import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import type { Diagnostic } from '../diagnostic.js';
import type { Project } from '../../project.js';
import { listCases, renderAnyCase, type RenderedCase } from '../../render/render.js';
import { renderOptions } from '../../checks/cases.js';
import { baselineTools, defaultAgainst, resolveRevision } from '../../checks/run.js';
import { formatSnapshot, SNAPSHOT_TEXT_LINE } from '../../snapshot/format.js';
import { ownsText, snapshotFile, toolsBaselineFile } from '../../snapshot/state.js';
import type { ToolSpec } from '../../tools/types.js';
import { readRegularFileSync } from '../../util/files.js';
import { errorMessage, InputError } from '../../util/errors.js';
import { isRecord } from '../../util/values.js';
import { countRenderedCase, parseSnapshotTokens } from '../../tokens/index.js';
import { caseTokenizer } from '../../tokens/budget.js';
import { lineChanges } from './diff.js';
import type { Baseline, CaseReview, DescriptionChange, PlacedFinding, Review, TokenCount, ToolChange } from './types.js';

export interface ReviewOptions {
  /** The git revision whose snapshots are the "before" (`check --against`); else as `check` picks one (the CI base branch), else the files on disk. */
  against?: string;
  /** A snapshot text's token count; by default the one its header states (`parseSnapshotTokens`), unknown for a snapshot without one. */
  tokens?: (snapshotText: string) => TokenCount | undefined;
}

/**
 * What a reviewer of a pull request wants on one screen: every case rendered as `check` renders
 * it, beside its baseline snapshot (at a git revision, or on disk), the tools' description
 * changes, and the run's findings placed at the case and line they were made at.
 */
export async function collectReview(project: Project, diagnostics: readonly Diagnostic[], options: ReviewOptions = {}): Promise<Review> {
  const { config } = project;
  const against = options.against !== undefined ? { ref: options.against, from: '--against' } : defaultAgainst();
  const folder = project.display(config.snapshots);
  const baseline: Baseline = against === undefined ? { kind: 'disk', folder } : { kind: 'git', ref: against.ref, folder };
  const refs = listCases(project.module);
  const files = refs.map((ref) => snapshotFile(config.snapshots, ref.prompt, ref.case));
  const before = against === undefined ? files.map(readOnDisk) : readAtRevision(project, resolveRevision(project, against.ref, project.display(toolsBaselineFile(config.snapshots)), against.from), files);
  const count = options.tokens ?? parseSnapshotTokens;
  const shownFiles = new Set(files.map((f) => project.display(f)));
  const cases: CaseReview[] = [];
  for (const [i, ref] of refs.entries()) {
    const file = project.display(files[i]!);
    const old = before[i];
    let rendered: RenderedCase;
    try {
      rendered = await renderAnyCase(project.module, ref.prompt, ref.case, project.registry, { ...renderOptions(config), ...(project.importer === undefined ? {} : { importer: project.importer }) });
    } catch (error) {
      const findings = diagnostics.filter((d) => d.file === file).map((diagnostic) => ({ diagnostic }));
      cases.push({ prompt: ref.prompt, case: ref.case, file, status: 'failed', ...(old === undefined ? {} : { before: old }), tokens: tokensOf(count, old, undefined), findings, error: errorMessage(error) });
      continue;
    }
    // Counted as `check` counts it, with the case's tokenizer: the header then matches the snapshot `-u` writes.
    const definition = project.module.prompts.get(ref.prompt)!;
    const after = formatSnapshot(rendered, countRenderedCase(rendered, caseTokenizer(config, definition, definition.cases.get(ref.case))));
    const findings = placeFindings(project, rendered, file, diagnostics, shownFiles, old, after);
    const status = old === undefined ? 'added' : old === after ? 'unchanged' : 'changed';
    cases.push({ prompt: ref.prompt, case: ref.case, file, status, ...(old === undefined ? {} : { before: old }), after, tokens: tokensOf(count, old, after), findings });
  }
  const oldTools = baselineTools(project, against?.ref, against?.from);
  return {
    baseline,
    cases,
    tools: oldTools === undefined ? [] : toolChanges(oldTools, project.tools),
    toolsBaseline: oldTools !== undefined,
    findings: [...diagnostics],
  };
}

function tokensOf(count: (text: string) => TokenCount | undefined, before: string | undefined, after: string | undefined): CaseReview['tokens'] {
  const out: CaseReview['tokens'] = {};
  const b = before === undefined ? undefined : count(before);
  const a = after === undefined ? undefined : count(after);
  if (b !== undefined) out.before = b;
  if (a !== undefined) out.after = a;
  return out;
}

/** A baseline snapshot on disk: undefined when there is none, or the file is not one prompt-contract wrote. */
function readOnDisk(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const text = readRegularFileSync(file);
    return ownsText(file, text) ? text : undefined;
  } catch {
    // `check` reports an unreadable snapshot; the review shows the case as having no baseline.
    return undefined;
  }
}

/**
 * The snapshot files as committed at `commit`, read by one `git cat-file --batch` (a project
 * with thousands of cases starts one process, not thousands). Undefined for a file the
 * revision does not hold.
 */
function readAtRevision(project: Project, commit: string, files: readonly string[]): Array<string | undefined> {
  if (files.length === 0) return [];
  const root = project.config.root;
  const run = (args: string[], input?: string): Buffer => {
    try {
      return execFileSync('git', args, { cwd: root, ...(input === undefined ? {} : { input }), stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1024 * 1024 * 1024 });
    } catch (error) {
      const e = error as { code?: string; stderr?: Buffer; message: string };
      const why = e.code === 'ENOENT' ? 'git is not installed or not on PATH' : String(e.stderr ?? '').trim() || e.message;
      throw new InputError('usage', `Cannot read the snapshots at \`${commit}\`: ${why}`, { file: project.display(project.config.snapshots) });
    }
  };
  // `cat-file` takes paths from the repository's top, not from where it runs.
  const prefix = run(['rev-parse', '--show-prefix']).toString('utf8').trim();
  const names = files.map((f) => `${prefix}${relative(root, f).split('\\').join('/')}`);
  const out = run(['cat-file', '--batch'], names.map((n) => `${commit}:${n}\n`).join(''));
  const texts: Array<string | undefined> = [];
  let at = 0;
  for (const name of names) {
    const end = out.indexOf(10, at);
    if (end === -1) {
      texts.push(undefined);
      continue;
    }
    const header = out.subarray(at, end).toString('utf8');
    at = end + 1;
    const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!m) {
      // `<object> missing`: the file was added since.
      texts.push(undefined);
      continue;
    }
    const size = Number(m[2]);
    const body = out.subarray(at, at + size).toString('utf8');
    at += size + 1;
    texts.push(m[1] === 'blob' && ownsText(name, body) ? body : undefined);
  }
  return texts;
}

/** Lines of the shown diff the source map is asked about at most, per case: each question walks the map. */
const MAX_MAPPED_LINES = 2000;

/**
 * The findings a case shows: those about its snapshot file, and those made at a line of a file
 * (a template, a YAML example, a stub) that the case's changed text, or its context, was
 * rendered from, placed at that snapshot line. A finding elsewhere in the case is left to the
 * run's list: finding it would walk the source map for every line of every case.
 */
function placeFindings(project: Project, rendered: RenderedCase, file: string, diagnostics: readonly Diagnostic[], snapshotFiles: ReadonlySet<string>, before: string | undefined, after: string): PlacedFinding[] {
  const out: PlacedFinding[] = diagnostics.filter((d) => d.file === file).map((d) => (d.line === undefined ? { diagnostic: d } : { diagnostic: d, line: d.line }));
  const others = diagnostics.filter((d) => d.file !== undefined && d.line !== undefined && !snapshotFiles.has(d.file));
  // A prompt of messages is laid out by role in its snapshot: its text's lines are not the snapshot's.
  if (others.length === 0 || rendered.messages !== undefined || before === after) return out;
  const shown = lineChanges(before, after).hunks.flatMap((h) => {
    let line = h.newStart;
    return h.lines.flatMap((l) => (l.startsWith('-') ? [] : [line++]));
  });
  const text = rendered.text;
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const lines = new Map<string, number>();
  for (const snapshotLine of shown.slice(0, MAX_MAPPED_LINES)) {
    const i = snapshotLine - SNAPSHOT_TEXT_LINE;
    if (i < 0 || i >= starts.length) continue;
    const start = starts[i]!;
    const end = i + 1 < starts.length ? starts[i + 1]! - 1 : text.length;
    const at = rendered.sourceMap.locate(start, end) ?? rendered.sourceMap.lookup(start);
    if (!at) continue;
    const key = `${project.display(at.file)}:${at.line}`;
    if (!lines.has(key)) lines.set(key, snapshotLine);
  }
  for (const d of others) {
    const line = lines.get(`${d.file}:${d.line}`);
    if (line !== undefined) out.push({ diagnostic: d, line });
  }
  return out;
}

/** Tools added, removed, and those whose descriptions (the tool's or a parameter's) the model now reads differently. */
export function toolChanges(before: readonly ToolSpec[], after: readonly ToolSpec[]): ToolChange[] {
  const old = new Map(before.map((t) => [t.name, t]));
  const now = new Map(after.map((t) => [t.name, t]));
  const out: ToolChange[] = [];
  for (const tool of after) {
    const was = old.get(tool.name);
    if (was === undefined) {
      out.push({ name: tool.name, kind: 'added', descriptions: [], schemaChanged: false });
      continue;
    }
    const a = descriptionsOf(was);
    const b = descriptionsOf(tool);
    const descriptions: DescriptionChange[] = [];
    for (const path of new Set([...a.keys(), ...b.keys()])) {
      const x = a.get(path);
      const y = b.get(path);
      if (x === y) continue;
      descriptions.push({ path, ...(x === undefined ? {} : { before: x }), ...(y === undefined ? {} : { after: y }) });
    }
    const schemaChanged = canonical(was.inputSchema) !== canonical(tool.inputSchema);
    if (descriptions.length > 0 || schemaChanged) out.push({ name: tool.name, kind: 'changed', descriptions, schemaChanged });
  }
  for (const tool of before) if (!now.has(tool.name)) out.push({ name: tool.name, kind: 'removed', descriptions: [], schemaChanged: false });
  return out;
}

/** The tool's description (path ``) and every parameter's, nested ones by dotted path (`items[].sku`). */
function descriptionsOf(tool: ToolSpec): Map<string, string> {
  const out = new Map<string, string>();
  if (tool.description !== undefined) out.set('', tool.description);
  const walk = (schema: unknown, path: string, depth: number): void => {
    // Schemas from users can nest without end; descriptions deeper than this are not a reviewer's first concern.
    if (!isRecord(schema) || depth > 32) return;
    if (path !== '' && typeof schema.description === 'string') out.set(path, schema.description);
    if (isRecord(schema.properties)) for (const [name, value] of Object.entries(schema.properties)) walk(value, path === '' ? name : `${path}.${name}`, depth + 1);
    if (isRecord(schema.items)) walk(schema.items, `${path}[]`, depth + 1);
  };
  walk(tool.inputSchema, '', 0);
  return out;
}

/** A schema without its descriptions, keys sorted: equal when only wording changed. */
function canonical(schema: unknown): string {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (!isRecord(v)) return v;
    return Object.fromEntries(Object.keys(v).filter((k) => k !== 'description' || typeof v[k] !== 'string').sort().map((k) => [k, strip(v[k])]));
  };
  return JSON.stringify(strip(schema));
}
