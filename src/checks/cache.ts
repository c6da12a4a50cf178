/**
 * The incremental cache of `check`, as ESLint's `--cache` and tsc's `--incremental` keep one:
 * the findings of each case, and of each prompt's curated examples and stub entries, stored
 * under a key that hashes everything they were computed from. A second run with nothing
 * changed renders nothing; after an edit, only what reads the edited file is redone.
 *
 * What a key covers, so that a cached result never hides a finding:
 * - every run: this package's code (its version and every built file's size and time), the
 *   versions of the libraries that render and validate, the config file, the tool
 *   definitions as sent (descriptions merged, handler references), the options that change
 *   findings, and where the command runs (findings name paths relative to it);
 * - a prompt: its whole `.prompt` file, every partial, its examples, few-shot turns and stub files;
 * - a case: its cases file, and its snapshot file's size, times and inode as they were before
 *   the check read it.
 * When no file under the prompts folder (nor a data file it names outside it) has a new size,
 * time or inode, the files are not even parsed: the last run's findings stand whole. Every
 * stamp is taken before the file is read (the folder's when the cache opens, a data file's as
 * `readRegularFileSync` opens it, a snapshot's before its case is checked), never after: a
 * file replaced during a run is then seen changed by the next, which checks it again.
 * A config with custom notations is not cached: their code may live in any file it imports.
 * Nor are the cases of a prompt module (`<name>.prompt.ts`): its builder is code, too.
 * Policy (severity overrides, ignore entries) is applied after the cache, on every run.
 *
 * The cache is one JSON file per config, written whole to a temporary file and renamed: an
 * interrupted run leaves the previous cache or none. A cache file that does not parse, has
 * another shape than this version writes, or whose list of cases does not match the stamps it
 * was stored with, is read as empty and replaced: a cache only ever saves time.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { walkFolder } from '../util/walk.js';
import { cacheRoot } from '../util/cache-folder.js';
import { CODE_PROMPT_FILE } from '../render/code.js';
import { z } from 'zod';
import { readRegularFileSync, replaceFile, stampAtRead, stampNow } from '../util/files.js';
import { exactKey } from '../util/values.js';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '../report/diagnostic.js';
import type { Project } from '../project.js';
import { snapshotFile } from '../snapshot/state.js';
import type { CaseRef } from './cases.js';

const FORMAT = 6;
export { CACHE_DIR_ENV } from '../util/cache-folder.js';

// The shape this version writes. A findings list is checked to the fields every report reads;
// the rest of a finding passes as stored (it was written by this same version: `run` says so).
const diagnosticShape = z.looseObject({ ruleId: z.string(), severity: z.enum(['error', 'warning', 'info']), message: z.string() });
const entryShape = z.object({ key: z.string(), diagnostics: z.array(diagnosticShape) });
const cacheShape = z.object({
  format: z.literal(FORMAT),
  run: z.string(),
  /** When the run that wrote it began (ms since the epoch), before it read any stamp. */
  at: z.number().finite(),
  cases: z.record(z.string(), entryShape.extend({ /** The snapshot's stamp before the case was checked. */ snapshot: z.string() })),
  items: z.record(z.string(), entryShape),
  /** Stamp of every file the prompt module was read from, as of the last run that read it whole. */
  files: z.record(z.string(), z.string()).optional(),
  /** The cases of that run, in order, and its prompts. */
  order: z.array(z.object({ prompt: z.string(), case: z.string() })).optional(),
  prompts: z.array(z.string()).optional(),
  /** A hash of `run`, `files`, `order` and `prompts` together: a list of cases can only be reused with the stamps it was stored with. */
  module: z.string().optional(),
  /** The findings of the recorded-call files, under a key of their stamps and the options. */
  recorded: entryShape.optional(),
  /** The provider lint's findings by the providers linted (the tools are in the run's key). */
  lint: z.record(z.string(), z.array(diagnosticShape)).optional(),
});
type CacheFile = Omit<z.infer<typeof cacheShape>, 'cases' | 'items' | 'recorded' | 'lint'> & {
  cases: Record<string, { key: string; snapshot: string; diagnostics: Diagnostic[] }>;
  items: Record<string, { key: string; diagnostics: Diagnostic[] }>;
  recorded?: { key: string; diagnostics: Diagnostic[] };
  lint?: Record<string, Diagnostic[]>;
};

/** The cache file's content when it has this version's shape; undefined for anything else (torn, foreign, hand-edited). */
export function parseCacheFile(text: string): CacheFile | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = cacheShape.safeParse(json);
  return parsed.success ? (parsed.data as CacheFile) : undefined;
}

/** What binds a list of cases to the stamps of the files it was read from. */
function moduleSeal(run: string, files: Record<string, string>, order: readonly CaseRef[], prompts: readonly string[]): string {
  return sha(run, JSON.stringify(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), JSON.stringify(order.map((r) => [r.prompt, r.case])), JSON.stringify(prompts));
}

/**
 * Every file below `dir` that the prompt module reads or could read, with its stamp: the same
 * walk the module is read with (dot files and node_modules skipped, links inside the project
 * followed), so a file reached through a linked folder is stamped like any other. A walk the
 * module would refuse (a link out of the project) stamps nothing to trust: the module is read.
 */
function stampsBelow(dir: string, root: string, into: Record<string, string>): void {
  try {
    for (const entry of walkFolder(dir, { within: [root], skip: (name) => name.startsWith('.') || name === 'node_modules' })) into[entry.path] = stamp(entry.path);
  } catch {
    into[dir] = `refused folder:${Date.now()}`;
  }
}

function sameStamps(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => a[k] === b[k]);
}

const sha = (...parts: readonly string[]): string => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\u0000');
  return h.digest('base64url');
};

/** Size, times and inode of a file, or `absent`: what a snapshot's key holds (reading 5,000 snapshots would cost more than their checks save). */
const stamp = stampNow;

/**
 * Whether a stamp is too close to the run that took it to be trusted, as Git treats a racily
 * clean index entry: on a file system that keeps times in whole seconds (or two), a file
 * written again within the same second, to the same size, keeps its stamp. Such a file is
 * read as changed; an absent file has nothing to race.
 */
function racy(stampText: string | undefined, at: number): boolean {
  const ns = stampText?.split(':')[1];
  return ns !== undefined && /^\d+$/.test(ns) && Number(BigInt(ns) / 1_000_000n) >= at - RACY_MS;
}
const RACY_MS = 2000;

let codeKey: string | undefined;

/**
 * Whether a file of this package is code that runs, whose stamp keys the cache: compiled
 * modules and the prebuilt meta-schema validator, or the sources under ts-jest; not type
 * declarations or source maps, which a run never reads (half of `dist/`, stamped for nothing).
 */
export function isCodeFile(name: string): boolean {
  return /\.(?:js|cjs|mjs)$/.test(name) || (/\.[cm]?ts$/.test(name) && !/\.d\.[cm]?ts$/.test(name));
}

/** This package's code and the libraries whose behaviour shapes findings: a rebuild or an upgrade starts a new cache. */
function code(): string {
  if (codeKey !== undefined) return codeKey;
  const here = dirname(fileURLToPath(import.meta.url));
  const root = join(here, '..');
  const parts: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (isCodeFile(e.name)) parts.push(`${path.slice(root.length)}:${stamp(path)}`);
    }
  };
  walk(root);
  const load = createRequire(import.meta.url);
  for (const name of ['ajv', 'ajv-formats', 'handlebars', 'js-yaml', 'mdast-util-from-markdown', 'micromark', 'remark-parse', 'unified', 're2js', 'diff', 'zod']) {
    try {
      parts.push(`${name}@${(load(`${name}/package.json`) as { version: string }).version}`);
    } catch {
      parts.push(`${name}@?`);
    }
  }
  return (codeKey = sha(...parts));
}

/** The folder the cache lives in (see cacheRoot): `node_modules/.cache/prompt-contract` of the nearest `node_modules` above the config, or undefined when there is none. */
export function cacheFolder(project: Pick<Project, 'config'>, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return cacheRoot(project.config.root, env);
}

/** The findings `check` can reuse from its last run, and the new ones to keep for the next. */
export class CheckCache {
  readonly #file: string;
  readonly #old: CacheFile | undefined;
  readonly #next: CacheFile;
  readonly #project: Project;
  readonly #fileHashes = new Map<string, string>();
  readonly #promptKeys = new Map<string, string>();
  /** Stamps of the files below the prompts folder, read before the module is. */
  readonly #below: Record<string, string> = {};
  #partials: string | undefined;
  #schemas: string | undefined;
  #changed = false;
  /** The prompt files' stamps are those of the last run (see unchangedEntries). */
  #moduleUnchanged = false;
  reused = 0;

  private constructor(project: Project, file: string, run: string, old: CacheFile | undefined, exists: boolean) {
    this.#project = project;
    this.#file = file;
    this.#old = old?.run === run ? old : undefined;
    // What this run does not settle anew (another shard's cases, a fast run's prompt entries) stays as it was.
    this.#next = { ...(this.#old ?? {}), format: FORMAT, run, at: Date.now(), cases: { ...(this.#old?.cases ?? {}) }, items: { ...(this.#old?.items ?? {}) } };
    if (exists && !this.#old) this.#changed = true;
    stampsBelow(resolve(project.cwd ?? process.cwd(), project.config.prompts), project.config.root, this.#below);
  }

  /**
   * The last run's entries, when no file the prompt module was read from has changed since:
   * its cases in order, its prompts, and the findings of each prompt's curated items and of
   * each case whose snapshot is unchanged too (a case whose snapshot changed is left out).
   * Undefined when the module must be read again.
   */
  unchangedEntries(): { order: CaseRef[]; prompts: string[]; cases: Map<string, Diagnostic[]>; items: Map<string, Diagnostic[]> } | undefined {
    if (this.#hasCode) return undefined;
    const old = this.#old;
    if (!old?.files || !old.order || !old.prompts) return undefined;
    // A list of cases stored apart from the stamps it was read with (a hand-edited or foreign file) is never trusted: it could leave cases out.
    if (old.module !== moduleSeal(old.run, old.files, old.order, old.prompts)) return undefined;
    const now: Record<string, string> = { ...this.#below };
    for (const file of Object.keys(old.files)) if (!(file in now)) now[file] = stamp(file);
    if (!sameStamps(now, old.files) || Object.values(old.files).some((s) => racy(s, old.at))) return undefined;
    const cases = new Map<string, Diagnostic[]>();
    for (const ref of old.order) {
      const id = CheckCache.#id(ref);
      const entry = old.cases[id];
      if (entry && !racy(entry.snapshot, old.at) && entry.snapshot === this.snapshotStamp(ref)) cases.set(id, entry.diagnostics);
    }
    const items = new Map<string, Diagnostic[]>();
    for (const prompt of old.prompts) {
      const entry = old.items[prompt];
      if (!entry) return undefined;
      items.set(prompt, entry.diagnostics);
    }
    this.#moduleUnchanged = true;
    return { order: old.order, prompts: old.prompts, cases, items };
  }

  /** The findings of a case in `unchangedEntries`, when it has them. */
  static caseOf(entries: { cases: Map<string, Diagnostic[]> }, ref: CaseRef): Diagnostic[] | undefined {
    return entries.cases.get(CheckCache.#id(ref));
  }

  /**
   * Every finding of the last run's cases and curated items, in its order, when no file the
   * prompt module was read from and no snapshot has changed since; undefined otherwise.
   */
  unchanged(): { findings: Diagnostic[]; cases: CaseRef[] } | undefined {
    const entries = this.unchangedEntries();
    if (!entries || entries.cases.size !== entries.order.length) return undefined;
    const findings: Diagnostic[] = [];
    for (const ref of entries.order) findings.push(...CheckCache.caseOf(entries, ref)!);
    for (const prompt of entries.prompts) findings.push(...entries.items.get(prompt)!);
    this.reused = entries.order.length;
    return { findings, cases: entries.order };
  }

  /** The cache of `project`, or undefined when it cannot be kept (no folder for it, custom notations). */
  static open(project: Project, options: { strict: boolean; env?: NodeJS.ProcessEnv; against?: string }): CheckCache | undefined {
    const { config } = project;
    if (config.notations && config.notations.length > 0) return undefined;
    const folder = cacheFolder(project, options.env);
    if (folder === undefined) return undefined;
    const file = join(folder, `check-${sha(config.file).slice(0, 16)}.json`);
    let configText = '';
    try {
      configText = readRegularFileSync(config.file);
    } catch {
      return undefined;
    }
    const run = sha(
      `format ${FORMAT}`,
      code(),
      config.file,
      configText,
      project.cwd ?? process.cwd(),
      // Every value a tool can carry, told apart: JSON.stringify writes Infinity, NaN and an `undefined` in a list all as `null`.
      exactKey(project.tools),
      // `against`: the commit whose snapshots `budget/grew` compares with.
      JSON.stringify({ strict: options.strict, snapshots: config.snapshots, prompts: config.prompts, ...(options.against === undefined ? {} : { against: options.against }) }),
    );
    let old: CacheFile | undefined;
    try {
      // Not a plain read: whatever sits at the path (a named pipe) must not keep the run waiting.
      old = parseCacheFile(readRegularFileSync(file));
    } catch {
      old = undefined;
    }
    return new CheckCache(project, file, run, old, existsSync(file));
  }

  /**
   * A prompt module runs code that may read any file, of the project or of a package: no stamp
   * could cover what it read. Its cases are rendered and checked afresh every run, and a project
   * with one never reuses a whole run; its templates' cases are reused as before.
   */
  get #hasCode(): boolean {
    return (this.#codeFound ??= Object.keys(this.#below).some((path) => CODE_PROMPT_FILE.test(path)));
  }

  #codeFound: boolean | undefined;

  #isCode(prompt: string): boolean {
    return this.#hasCode && this.#project.module.prompts.get(prompt)?.code !== undefined;
  }

  /** The hash of a data file's text as parsed, once per file. */
  #hashOf(file: string, text: string): string {
    let h = this.#fileHashes.get(file);
    if (h === undefined) this.#fileHashes.set(file, (h = sha(file, text)));
    return h;
  }

  /** A prompt's key: its file and the data files it reads. */
  #promptKey(name: string): string {
    let key = this.#promptKeys.get(name);
    if (key !== undefined) return key;
    const prompt = this.#project.module.prompts.get(name)!;
    // The whole file, frontmatter included: a line moved there moves where findings point.
    // The text as the module parsed it: a read of the file now could see an edit made since.
    // How many cases it has: a prompt with none is reported (`render/no-case`) with its items, and one that gains a case no longer is.
    const parts = [name, prompt.source.file, sha(prompt.sourceText ?? JSON.stringify([prompt.meta, prompt.source])), this.#partialsKey(), this.#schemasKey(), String(prompt.cases.size)];
    for (const doc of [prompt.examples?.doc, prompt.turns?.doc, prompt.retrieval?.doc]) parts.push(doc ? this.#hashOf(`yaml:${doc.file}`, doc.text) : '-');
    this.#promptKeys.set(name, (key = sha(...parts)));
    return key;
  }

  /** Every named schema (`prompts/schemas/`): a prompt's input and output schemas may name any of them. */
  #schemasKey(): string {
    return (this.#schemas ??= exactKey([...(this.#project.module.schemas ?? new Map()).entries()].sort(([a], [b]) => a.localeCompare(b))));
  }

  /** Every partial: a template may name any of them, by a name it computes. */
  #partialsKey(): string {
    return (this.#partials ??= sha(...[...this.#project.module.partials.entries()].sort(([a], [b]) => a.localeCompare(b)).flatMap(([name, source]) => [name, source.file, String(source.bodyLine), source.body])));
  }

  #caseKey(ref: CaseRef, snapshot: string): string {
    const definition = this.#project.module.prompts.get(ref.prompt)!.cases.get(ref.case)!;
    const casesFile = definition.doc ? this.#hashOf(`yaml:${definition.doc.file}`, definition.doc.text) : sha(JSON.stringify(definition));
    return sha(this.#promptKey(ref.prompt), ref.case, casesFile, snapshot);
  }

  /**
   * The stamp of a case's snapshot now. Take it before the case's check reads the snapshot and
   * store the case under it: a snapshot replaced during the check then differs from it on the
   * next run. After a write of our own (`-u`), take it after the write: the file is as written.
   */
  snapshotStamp(ref: CaseRef): string {
    return stamp(snapshotFile(this.#project.config.snapshots, ref.prompt, ref.case));
  }

  static #id(ref: CaseRef): string {
    return `${ref.prompt}\u0000${ref.case}`;
  }

  /** The findings of a case from the last run, when nothing they depend on changed. */
  case(ref: CaseRef): Diagnostic[] | undefined {
    if (this.#isCode(ref.prompt)) return undefined;
    const entry = this.#old?.cases[CheckCache.#id(ref)];
    if (entry && !racy(entry.snapshot, this.#old!.at) && entry.key === this.#caseKey(ref, this.snapshotStamp(ref))) {
      this.reused++;
      return entry.diagnostics;
    }
    return undefined;
  }

  /** Keeps a case's findings under `snapshot`, the snapshot's stamp taken before the check read it (see snapshotStamp). */
  storeCase(ref: CaseRef, diagnostics: Diagnostic[], snapshot: string): void {
    if (this.#isCode(ref.prompt)) return;
    this.#next.cases[CheckCache.#id(ref)] = { key: this.#caseKey(ref, snapshot), snapshot, diagnostics };
    this.#changed = true;
  }

  /** The findings of a prompt's curated examples and stub entries from the last run. */
  items(prompt: string): Diagnostic[] | undefined {
    const entry = this.#old?.items[prompt];
    return entry && entry.key === this.#promptKey(prompt) ? entry.diagnostics : undefined;
  }

  storeItems(prompt: string, diagnostics: Diagnostic[]): void {
    this.#next.items[prompt] = { key: this.#promptKey(prompt), diagnostics };
    this.#changed = true;
  }

  #recordedStamps(files: readonly string[]): string[] {
    const cwd = this.#project.cwd ?? process.cwd();
    return files.map((f) => stamp(resolve(cwd, f)));
  }

  /**
   * The findings of the recorded-call files from the last run when no file changed (nor the
   * tools: they are in every key), and the key to store this run's under. The key is read
   * before the files are: a file that grows during the run is read again by the next.
   */
  recorded(files: readonly string[], options: object): { found: Diagnostic[] | undefined; key: string } {
    const stamps = this.#recordedStamps(files);
    // The line limit may come from the environment (PROMPT_CONTRACT_MAX_LINE_BYTES) rather than the options.
    const key = sha(JSON.stringify(options), process.env.PROMPT_CONTRACT_MAX_LINE_BYTES ?? '', ...files, ...stamps);
    const entry = this.#old?.recorded;
    const trusted = this.#old !== undefined && !stamps.some((s) => racy(s, this.#old!.at));
    return { found: trusted && entry && entry.key === key ? entry.diagnostics : undefined, key };
  }

  /** The provider lint's findings from the last run: they depend on the tools, the providers and this package only. */
  lint(providers: readonly string[]): Diagnostic[] | undefined {
    const found = this.#old?.lint?.[providers.join('\u0000')];
    return Array.isArray(found) ? found : undefined;
  }

  storeLint(providers: readonly string[], diagnostics: Diagnostic[]): void {
    this.#next.lint = { ...(this.#next.lint ?? {}), [providers.join('\u0000')]: diagnostics };
    this.#changed = true;
  }

  storeRecorded(key: string, diagnostics: Diagnostic[]): void {
    this.#next.recorded = { key, diagnostics };
    this.#changed = true;
  }

  /**
   * Settles the prompt entries for `write`. `cases` are every case of the module (in order);
   * entries of cases and prompts that no longer exist are dropped. `whole` says the run settled
   * every case and prompt (no shard, no filter), so the next run may reuse them without
   * reading the module.
   */
  save(cases: readonly CaseRef[], whole: boolean): void {
    // The prompt files are as the last run left them and nothing was checked anew: its entries
    // stand, and the prompts need not even be read.
    if (!this.#changed && this.#moduleUnchanged && whole) return;
    const module = this.#project.module;
    const ids = new Set(cases.map(CheckCache.#id));
    for (const id of Object.keys(this.#next.cases)) {
      if (!ids.has(id)) {
        delete this.#next.cases[id];
        this.#changed = true;
      }
    }
    for (const prompt of Object.keys(this.#next.items)) {
      if (!module.prompts.has(prompt)) {
        delete this.#next.items[prompt];
        this.#changed = true;
      }
    }
    if (whole) {
      const files: Record<string, string> = { ...this.#below };
      // Data files named from outside the prompts folder are part of what was read too.
      const cwd = this.#project.cwd ?? process.cwd();
      for (const prompt of module.prompts.values()) {
        for (const doc of [prompt.examples?.doc, prompt.turns?.doc, prompt.retrieval?.doc]) {
          const path = doc ? resolve(cwd, doc.file) : undefined;
          // Its stamp as it was read, never as it is now: it may have been replaced since.
          if (path !== undefined && !(path in files)) files[path] = stampAtRead(path) ?? 'not read';
        }
      }
      const prompts = [...module.prompts.keys()];
      const order = cases.map((r) => ({ prompt: r.prompt, case: r.case }));
      const same = this.#old?.files && sameStamps(files, this.#old.files) && JSON.stringify(this.#old.order) === JSON.stringify(order) && JSON.stringify(this.#old.prompts) === JSON.stringify(prompts);
      if (!same) this.#changed = true;
      Object.assign(this.#next, { files, order, prompts, module: moduleSeal(this.#next.run, files, order, prompts) });
    } else {
      // A partial run leaves the module's stamps unknown: the next run reads the module.
      delete this.#next.files;
      delete this.#next.order;
      delete this.#next.prompts;
      delete this.#next.module;
      this.#changed = true;
    }
  }

  /** Writes the cache when anything changed: whole, through a temporary file. A cache that cannot be written is skipped: it only saves time. */
  write(): void {
    if (!this.#changed) return;
    try {
      replaceFile(this.#file, JSON.stringify(this.#next));
    } catch {
      // Not even the folder could be made (a file where it belongs, say): the next run starts cold.
    }
  }
}
