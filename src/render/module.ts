import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { InputError } from '../util/errors.js';
import { readRegularFileSync, withoutBom } from '../util/files.js';
import { suggestName } from '../util/suggest.js';
import { inside, projectRootOf, realOrSelf, walkFolder } from '../util/walk.js';
import { locate, normalizeLineEnds, parseYaml, readYaml, type YamlDocument, type YamlNodePosition } from '../util/yaml.js';
import type { TemplateSource } from './handlebars.js';
import { CODE_PROMPT_FILE, codePromptName } from './code.js';
import type { DataOrigin } from './source-map.js';
import { shapeOfModel, shapes, type Shape } from './wire.js';

/** One YAML item (example or stub entry) that renders through a partial. */
export interface DataItem {
  value: Record<string, unknown>;
  origin: DataOrigin;
}

/** A list of YAML items and the partial production renders each of them with. */
export interface DataSet {
  doc: YamlDocument;
  partial: string;
  /** The frontmatter line that names the partial, for "unknown partial" errors. */
  declaredAt: { file: string; line?: number };
}

export interface CaseDefinition {
  name: string;
  prompt: string;
  description?: string;
  input: Record<string, unknown>;
  /** Key of the retrieval stub this case gets; absent means the prompt renders with no retrieved entries. */
  retrieval?: string;
  /** Tools sent with this case, when the case narrows the prompt's list. */
  tools?: string[];
  /** The conversation so far, as `{{history}}` receives it: dotprompt messages, with where each was written. */
  history?: Array<{ value: Record<string, unknown>; origin: DataOrigin }>;
  /** The wire shape for this case, over the prompt's: one prompt sent to two providers. */
  shape?: Shape;
  /**
   * dotprompt's data variables for this case (its `data.context`): `state:` is `{{@state}}`,
   * `auth:` is `{{@auth}}`, and each key of `context:` is a variable of its own name.
   */
  context?: Record<string, unknown>;
  /** The cases file, for pointing a finding at one input's line. */
  doc?: YamlDocument;
  file: string;
  line: number;
}

export interface PromptDefinition {
  name: string;
  description?: string;
  /** The template; for a prompt module, its file with an empty body (`code` says how to render it). */
  source: TemplateSource;
  /** Present for a prompt built by code (`<name>.prompt.ts`): the module's absolute path, imported when a case renders. */
  code?: { file: string; display: (p: string) => string };
  /** Tool names declared in the frontmatter, and where each one is written. */
  tools: string[];
  toolsAt: Array<{ file: string; line?: number; column?: number }>;
  input: Record<string, unknown>;
  /** The whole `.prompt` file as read, frontmatter included (what the check cache keys a prompt by). */
  sourceText?: string;
  examples?: DataSet & { items: DataItem[] };
  /** Examples that render as message turns (`examples: { file, turns: true }`), not through a partial. */
  turns?: { doc: YamlDocument; items: DataItem[] };
  retrieval?: DataSet & { entries: Map<string, DataItem[]> };
  /** The provider whose wire shape few-shot turns take: frontmatter `shape`, else the `model`'s provider. */
  shape?: Shape;
  /** The frontmatter as written (dotprompt's `model`, `config`, `input`, `output`, ...). */
  meta: Record<string, unknown>;
  /** The frontmatter with the place of every node, for findings about it (absent without frontmatter). */
  frontmatter?: YamlDocument;
  /** The module's named schemas (`PromptModule.schemas`), for Picoschema types that are not scalars. */
  schemas?: ReadonlyMap<string, Record<string, unknown>>;
  cases: Map<string, CaseDefinition>;
}

/** The prompt module: every prompt, partial and case under one folder. */
export interface PromptModule {
  root: string;
  prompts: Map<string, PromptDefinition>;
  partials: Map<string, TemplateSource>;
  /** YAML item object -> the node it was loaded from; the renderer marks their output with it. */
  origins: WeakMap<object, DataOrigin>;
  /**
   * Named schemas, as dotprompt's `defineSchema` registers them: `schemas/Name.json` (or
   * `.yaml`, `.yml`) in the prompts folder is the schema `Name`, JSON Schema or Picoschema,
   * for `schema: Name` and `field: Name` in a prompt's `input` and `output`. Set more before
   * the first render to register them from code.
   */
  schemas: Map<string, Record<string, unknown>>;
}

/**
 * Every file under the prompts folder, in name order; folders and files reached through a
 * symbolic link inside the project are read as any other, links that leave it are refused.
 */
function walk(state: ModuleState): string[] {
  const files = walkFolder(state.absRoot, {
    within: [state.projectRoot],
    skip: (name) => name.startsWith('.') || name === 'node_modules',
    display: state.display,
    what: 'the prompts folder',
  });
  return files.map((entry) => entry.path);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Each prompt's case names as a case-insensitive file system sees them, to the name first written. */
const foldedCaseNames = new WeakMap<object, Map<string, string>>();

/** Windows' reserved device names, which no file may have there, with any extension. */
const reservedNames = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\..*)?$/i;

/**
 * Why a case name cannot be a snapshot file name on every system a team checks out on, or
 * undefined when it can: a snapshot is `snapshots/<prompt>/<case>.txt`, and a name git on
 * Windows or macOS cannot check out, or one that reads differently than it is (bidirectional
 * controls), breaks the review it is for.
 */
function unfitFileName(name: string): string | undefined {
  if (name === '' || name === '.' || name === '..') return 'it is empty or a path step';
  if (/[/\\]/.test(name)) return 'it holds a path separator';
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'it holds a control character (a line break, a tab)';
  if (/[\u202a-\u202e\u2066-\u2069\u200e\u200f]/.test(name)) return 'it holds a bidirectional control character, which shows it as other than it is';
  if (/[<>:"|?*]/.test(name)) return 'it holds a character Windows does not allow in a file name (`<>:"|?*`)';
  if (reservedNames.test(name)) return 'it is a name Windows reserves for a device';
  if (/[ .]$/.test(name)) return 'it ends in a space or a dot, which Windows drops';
  if (Buffer.byteLength(name, 'utf8') > 200) return `it is ${Buffer.byteLength(name, 'utf8')} bytes long, past the 200 a file name can take with its extension`;
  return undefined;
}

/**
 * The prompt a cases file names, read from its text without parsing the YAML, when it is
 * written plainly (`prompt: name` at the start of a line, once); undefined otherwise.
 */
function casesPrompt(path: string): string | undefined {
  const text = readRegularFileSync(path);
  // An indented line after it would continue a plain value (`prompt: foo` + `  bar` is `foo bar`).
  const names = [...text.matchAll(/^prompt:[ \t]*(["']?)([\w.-]+)\1(?:[ \t]+#.*)?[ \t]*\r?$(?!\n[ \t]+[^\s#])/gm)];
  return names.length === 1 ? names[0]![2] : undefined;
}

/** Splits dotprompt-style YAML frontmatter (`---` fenced) from the template body. */
export function splitFrontmatter(text: string, file: string): { frontmatter: YamlDocument | undefined; body: string; bodyLine: number } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  // `---` then `key: value` lines and no closing `---`: the frontmatter was left open, and the
  // file would render as a template that has no tools, examples or cases.
  if (!match && /^---\r?\n(?:[ \t]*(?:#[^\n]*)?\n)*[A-Za-z_][\w-]*:(?:[ \t]|\r?\n|$)/.test(text)) {
    throw new InputError('config/yaml-syntax', 'Unclosed frontmatter: the `---` on line 1 opens it, expected a line of `---` after its last key', { file, line: 1, column: 1 });
  }
  if (!match) return { frontmatter: undefined, body: text, bodyLine: 1 };
  // dotprompt trims the body after a frontmatter (and only then): leading blank lines move the body's first line down.
  const rest = text.slice(match[0].length);
  const body = rest.trim();
  const skipped = rest.slice(0, rest.length - rest.trimStart().length);
  const bodyLine = match[0].split('\n').length - (match[0].endsWith('\n') ? 0 : 1) + (skipped.match(/\n/g)?.length ?? 0);
  // A leading newline stands in for the opening `---`, so YAML lines and columns are file lines and columns.
  let frontmatter: YamlDocument;
  try {
    frontmatter = parseYaml(`\n${match[1]}`, file);
  } catch (error) {
    if (!(error instanceof InputError) || error.code !== 'config/yaml-syntax') throw error;
    // js-yaml's "end of the stream" is the closing `---` here.
    const closing = match[0].split('\n').length - (match[0].endsWith('\n') ? 1 : 0);
    const message = error.message.replace(/^YAML syntax error: /, '').replace(/end of the stream/, `end of the frontmatter (the closing \`---\` on line ${closing})`);
    throw new InputError(error.code, `YAML syntax error in the frontmatter: ${message}`, { file, line: error.line, column: error.column }, { cause: error });
  }
  return { frontmatter, body, bodyLine };
}

function where(doc: YamlDocument, path: Array<string | number>): { file: string; line?: number; column?: number } {
  const at = locate(doc, path);
  return at ? { file: doc.file, line: at.line, column: at.column } : { file: doc.file };
}

function expectString(doc: YamlDocument, path: Array<string | number>, value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw new InputError('config/invalid', `Expected ${what} (a string), got ${JSON.stringify(value)}`, where(doc, path));
  return value;
}

/** Registers every mapping and list inside an item, so a call nested in it maps to its own lines. */
function register(value: object, origin: DataOrigin, origins: WeakMap<object, DataOrigin>): void {
  origins.set(value, origin);
  for (const [key, child] of Object.entries(value)) {
    if (typeof child !== 'object' || child === null) continue;
    const k = Array.isArray(value) ? Number(key) : key;
    const node = origin.node.children?.get(k);
    if (node) register(child, { ...origin, path: [...origin.path, k], node }, origins);
  }
}

/**
 * The list under `examples:` in an examples file. An empty file holds none; a file whose top is
 * a list, or a mapping without `examples` (`exemples:`), would hold none without a word, and a
 * prompt would quietly lose its examples: those are errors at the file.
 */
function examplesIn(doc: YamlDocument): unknown {
  const value = doc.value;
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) throw new InputError('config/invalid', 'Unexpected list at the top of the examples file, expected a mapping with the list under `examples:`', { file: doc.file, line: 1, column: 1 });
  if (!isRecord(value)) throw new InputError('config/invalid', `Unexpected ${JSON.stringify(value)} as the examples file, expected a mapping with the list under \`examples:\``, { file: doc.file, line: 1, column: 1 });
  if (Object.hasOwn(value, 'examples')) return value.examples;
  const keys = Object.keys(value);
  const guess = suggestName('examples', keys);
  const at = guess === undefined ? { line: 1, column: 1 } : (locate(doc, [guess.name]) ?? { line: 1, column: 1 });
  throw new InputError(
    'config/invalid',
    `Missing \`examples\` in the examples file, expected the list of examples under it; found ${keys.map((k) => `\`${k}\``).join(', ') || 'no keys'}${guess ? `; did you mean \`examples\` for \`${guess.name}\`?` : ''}`,
    { file: doc.file, ...at },
  );
}

function items(doc: YamlDocument, path: Array<string | number>, list: unknown, kind: DataOrigin['kind'], origins: WeakMap<object, DataOrigin>): DataItem[] {
  if (list === null || list === undefined) return [];
  if (!Array.isArray(list)) throw new InputError('config/invalid', `Expected a list of ${kind === 'example' ? 'examples' : 'retrieved entries'}, got ${typeof list}`, where(doc, path));
  return list.map((value, i) => {
    const itemPath = [...path, i];
    if (!isRecord(value)) throw new InputError('config/invalid', `Expected a mapping for each ${kind === 'example' ? 'example' : 'retrieved entry'}, got ${JSON.stringify(value)}`, where(doc, itemPath));
    let node: YamlNodePosition | undefined = doc.root;
    for (const key of itemPath) node = node?.children?.get(key);
    const origin: DataOrigin = { kind, doc, path: itemPath, node: node ?? { start: 0 } };
    register(value, origin, origins);
    return { value, origin };
  });
}

/**
 * The file a prompt's frontmatter names (`examples.file`, `retrieval.file`), refused where it
 * leads outside the project, after links: a prompt reads the project's data, not
 * `../../../etc/passwd`, as a link in the prompts folder may not lead out either.
 */
function dataFileIn(projectRoot: string, promptFile: string, fm: YamlDocument, path: Array<string | number>, file: string): string {
  const full = resolve(dirname(promptFile), file);
  // A missing file is named where it is asked for: the frontmatter line, not the file that is not there.
  if (!existsSync(full)) throw new InputError('config/unreadable', `Cannot find \`${path.join('.')}\` ${JSON.stringify(file)} (looked for \`${full}\`); expected a YAML file, its path relative to the prompt`, where(fm, path));
  const real = realOrSelf(full);
  if (!inside(realOrSelf(projectRoot), real)) {
    throw new InputError('config/invalid', `Unexpected \`${path.join('.')}\` ${JSON.stringify(file)}: it leads to \`${real}\`, outside the project \`${projectRoot}\`; expected a file inside the project (copy it in)`, where(fm, path));
  }
  return full;
}

function dataSet(projectRoot: string, promptFile: string, fm: YamlDocument, key: 'examples' | 'retrieval', display: (p: string) => string): DataSet | undefined {
  const spec = (fm.value as Record<string, unknown>)[key];
  if (spec === undefined) return undefined;
  if (key === 'examples' && isRecord(spec) && spec.turns === true) return undefined;
  if (!isRecord(spec)) throw new InputError('config/invalid', `Expected \`${key}\` to be a mapping with \`file\` and \`partial\``, where(fm, [key]));
  const file = expectString(fm, [key, 'file'], spec.file, `\`${key}.file\``);
  const partial = expectString(fm, [key, 'partial'], spec.partial, `\`${key}.partial\``);
  const path = dataFileIn(projectRoot, promptFile, fm, [key, 'file'], file);
  // At the partial's name, not at the `partial:` key: that is what an unknown-partial error is about.
  const node = fm.root?.children?.get(key)?.children?.get('partial');
  const declaredAt = node ? { file: fm.file, ...fm.lines.at(node.start) } : where(fm, [key, 'partial']);
  return { doc: readYaml(path, display(path)), partial, declaredAt };
}

/** What reading a prompt module folder accumulates, file after file. */
interface ModuleState {
  absRoot: string;
  /** The folder links may lead into: the project's (its config's folder). */
  projectRoot: string;
  display: (p: string) => string;
  partials: Map<string, TemplateSource>;
  prompts: Map<string, PromptDefinition>;
  origins: WeakMap<object, DataOrigin>;
  /** `prompt:name` / `partial:name` -> the file that defined it, for duplicate errors. */
  seen: Map<string, string>;
  /** Prompt names as a case-insensitive, normalising file system sees them, to the first one written. */
  foldedPrompts: Map<string, { name: string; file: string }>;
  schemas: Map<string, Record<string, unknown>>;
}

function moduleState(root: string, cwd: string, projectRoot?: string): ModuleState {
  const absRoot = resolve(cwd, root);
  const display = (p: string): string => relative(cwd, p) || p;
  try {
    if (!statSync(absRoot).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new InputError('config/prompts-missing', `Cannot find the prompts folder, expected a directory of .prompt files`, { file: display(absRoot) });
  }
  return { absRoot, projectRoot: projectRoot === undefined ? projectRootOf(absRoot, cwd) : resolve(cwd, projectRoot), display, partials: new Map(), prompts: new Map(), origins: new WeakMap(), seen: new Map(), foldedPrompts: new Map(), schemas: new Map() };
}

/**
 * Refuses a prompt name that cannot be a snapshot folder on every system a team checks out
 * on, by the rule case names follow, and one that differs from another prompt's only in case
 * or Unicode normalisation: the two folders are one on macOS and Windows.
 */
function checkPromptName(state: ModuleState, name: string, file: string): void {
  const at = { file, line: 1, column: 1 };
  const unfit = unfitFileName(name);
  if (unfit !== undefined) {
    throw new InputError('config/invalid', `Unexpected prompt name ${JSON.stringify(name)}: ${unfit}, and it names the snapshot folder every checkout must be able to hold; expected a file name of at most 200 bytes without control characters, \`/\`, \`\\\` or \`<>:"|?*\` (rename the \`.prompt\` file)`, at);
  }
  const fold = name.normalize('NFC').toLowerCase();
  const twin = state.foldedPrompts.get(fold);
  if (twin !== undefined && twin.name !== name) {
    throw new InputError('config/duplicate', `Unexpected prompt ${JSON.stringify(name)} beside ${JSON.stringify(twin.name)} (${twin.file}): their names differ only in case or Unicode normalisation, and their snapshot folders are one folder on macOS and Windows; expected names that differ in more (rename one \`.prompt\` file)`, at);
  }
  if (twin === undefined) state.foldedPrompts.set(fold, { name, file });
}

/**
 * Registers one prompt module (`<name>.prompt.ts`, `.mts`, `.mjs`, ...) as a prompt built by
 * code. Its file is not read here: it is code, imported when one of its cases renders (with
 * the importer the config was loaded with), and its examples and stubs are the files it names.
 */
function readCodePromptFile(state: ModuleState, path: string, only: ReadonlySet<string> | undefined): void {
  const name = codePromptName(basename(path));
  const file = state.display(path);
  checkPromptName(state, name, file);
  if (only && !only.has(name)) return;
  const key = `prompt:${name}`;
  if (state.seen.has(key)) throw new InputError('config/duplicate', `Duplicate prompt \`${name}\`, also defined in ${state.seen.get(key)}`, { file });
  state.seen.set(key, file);
  state.prompts.set(name, { name, source: { file, body: '', bodyLine: 1 }, code: { file: path, display: state.display }, tools: [], toolsAt: [], input: {}, meta: {}, cases: new Map() });
}

/**
 * The items of a YAML data file a prompt module names: `examples:` (a list), or `stubs:` (a
 * mapping of retrieval key -> list of entries), each item with its origin for findings.
 */
export function readDataItems(file: string, display: (p: string) => string, kind: 'example' | 'stub', origins: WeakMap<object, DataOrigin>): DataItem[] {
  const doc = readYaml(file, display(file));
  if (kind === 'example') return items(doc, ['examples'], examplesIn(doc), 'example', origins);
  const stubs = (doc.value as Record<string, unknown> | null)?.stubs;
  if (!isRecord(stubs)) throw new InputError('config/invalid', 'Expected a `stubs` mapping of retrieval key -> list of entries', { file: doc.file, line: 1 });
  return Object.entries(stubs).flatMap(([k, list]) => items(doc, ['stubs', k], list, 'stub', origins));
}

/** Reads one `.prompt` file into the state: a partial, or a prompt (unless `only` leaves it out). */
function readPromptFile(state: ModuleState, path: string, only: ReadonlySet<string> | undefined): void {
  const { display, partials, prompts, origins, seen } = state;
  const base = basename(path, '.prompt');
  const isPartial = base.startsWith('_');
  const name = isPartial ? base.slice(1) : base;
  const file = display(path);
  if (!isPartial) checkPromptName(state, name, file);
  if (only && !isPartial && !only.has(name)) return;
  let text: string;
  try {
    // Line ends as committed, whatever the checkout did: CRLF from `core.autocrlf=true` renders as LF.
    text = withoutBom(normalizeLineEnds(readRegularFileSync(path)));
  } catch (error) {
    throw new InputError('config/unreadable', `Cannot read file (${(error as Error).message}); expected a regular text file`, { file });
  }
  const key = `${isPartial ? 'partial' : 'prompt'}:${name}`;
  if (seen.has(key)) throw new InputError('config/duplicate', `Duplicate ${isPartial ? 'partial' : 'prompt'} \`${name}\`, also defined in ${seen.get(key)}`, { file });
  seen.set(key, file);
  const { frontmatter, body, bodyLine } = splitFrontmatter(text, file);
  const source: TemplateSource = { file, body, bodyLine };
  if (isPartial) {
    partials.set(name, source);
    return;
  }
  const fm = frontmatter?.value ?? {};
  if (frontmatter && !isRecord(fm)) throw new InputError('config/invalid', 'Expected the frontmatter to be a YAML mapping', { file, line: 2 });
  const meta = fm as Record<string, unknown>;
  const tools = meta.tools ?? [];
  if (!Array.isArray(tools) || !tools.every((t) => typeof t === 'string')) {
    throw new InputError('config/invalid', 'Expected `tools` to be a list of tool names', frontmatter ? where(frontmatter, ['tools']) : { file });
  }
  const definition: PromptDefinition = {
    name,
    source,
    tools,
    toolsAt: tools.map((_t, i) => (frontmatter ? where(frontmatter, ['tools', i]) : { file })),
    input: isRecord(meta.input) && isRecord(meta.input.default) ? meta.input.default : {},
    sourceText: text,
    meta,
    ...(frontmatter ? { frontmatter } : {}),
    schemas: state.schemas,
    cases: new Map(),
  };
  if (meta.shape !== undefined) {
    if (typeof meta.shape !== 'string' || !(shapes as readonly string[]).includes(meta.shape)) {
      throw new InputError('config/invalid', `Unexpected \`shape\` ${JSON.stringify(meta.shape)}, expected one of ${shapes.map((x) => `\`${x}\``).join(', ')}`, frontmatter ? where(frontmatter, ['shape']) : { file });
    }
    definition.shape = meta.shape as Shape;
  } else {
    const fromModel = shapeOfModel(meta.model);
    if (fromModel) definition.shape = fromModel;
  }
  if (typeof meta.description === 'string') definition.description = meta.description;
  if (frontmatter) {
    const turnSpec = meta.examples;
    if (isRecord(turnSpec) && turnSpec.turns === true) {
      const turnFile = expectString(frontmatter, ['examples', 'file'], turnSpec.file, '`examples.file`');
      const turnPath = dataFileIn(state.projectRoot, path, frontmatter, ['examples', 'file'], turnFile);
      const doc = readYaml(turnPath, display(turnPath));
      definition.turns = { doc, items: items(doc, ['examples'], examplesIn(doc), 'example', origins) };
    }
    const examples = dataSet(state.projectRoot, path, frontmatter, 'examples', display);
    if (examples) definition.examples = { ...examples, items: items(examples.doc, ['examples'], examplesIn(examples.doc), 'example', origins) };
    const retrieval = dataSet(state.projectRoot, path, frontmatter, 'retrieval', display);
    if (retrieval) {
      const stubs = (retrieval.doc.value as Record<string, unknown> | null)?.stubs;
      if (!isRecord(stubs)) throw new InputError('config/invalid', 'Expected a `stubs` mapping of retrieval key -> list of entries', { file: retrieval.doc.file, line: 1 });
      const entries = new Map<string, DataItem[]>();
      for (const [k, list] of Object.entries(stubs)) entries.set(k, items(retrieval.doc, ['stubs', k], list, 'stub', origins));
      definition.retrieval = { ...retrieval, entries };
    }
  }
  prompts.set(name, definition);
}

/**
 * Reads one cases file into the prompts it names (those `only` leaves out are skipped, unread
 * when the text names its prompt plainly; `known`: the file is known to name one of them).
 */
function readCasesFile(state: ModuleState, path: string, only: ReadonlySet<string> | undefined, known = false): void {
  const { absRoot, display, prompts, origins } = state;
  if (only && !known) {
    const named = casesPrompt(path);
    if (named !== undefined && !only.has(named)) return;
  }
  const doc = readYaml(path, display(path));
  const value = doc.value;
  if (!isRecord(value)) throw new InputError('config/invalid', 'Expected a mapping with `prompt` and `cases`', { file: doc.file, line: 1 });
  const promptName = expectString(doc, ['prompt'], value.prompt, '`prompt`, the name of a .prompt file');
  // A prompt left out by `only` (its cases file was not written plainly enough to skip unread).
  if (only && !only.has(promptName)) return;
  const prompt = prompts.get(promptName);
  if (!prompt) {
    const known = [...prompts.keys()];
    const guess = suggestName(promptName, known);
    // At the name itself, not at the `prompt:` key.
    const node = doc.root?.children?.get('prompt');
    const at = node ? { file: doc.file, ...doc.lines.at(node.start) } : where(doc, ['prompt']);
    throw new InputError(
      'render/unknown-prompt',
      `Unknown prompt \`${promptName}\`, expected one of ${known.map((p) => `\`${p}\``).join(', ') || 'none'} (the \`.prompt\` files in \`${display(absRoot)}\`)${guess ? `; did you mean \`${guess.name}\`?` : ''}`,
      at,
    );
  }
  if (!isRecord(value.cases)) throw new InputError('config/invalid', 'Expected `cases` to be a mapping of case name -> inputs', where(doc, ['cases']));
  for (const [caseName, spec] of Object.entries(value.cases)) {
    const at = where(doc, ['cases', caseName]);
    // The name becomes a snapshot file's name: refused here, at its line, before anything is rendered.
    const unfit = unfitFileName(caseName);
    if (unfit !== undefined) {
      throw new InputError('config/invalid', `Unexpected case name ${JSON.stringify(caseName)} of prompt \`${promptName}\`: ${unfit}, and it names a snapshot file that every checkout must be able to hold; expected a name of at most 200 bytes without control characters, \`/\`, \`\\\` or \`<>:"|?*\``, at);
    }
    if (!isRecord(spec)) throw new InputError('config/invalid', `Expected case \`${caseName}\` to be a mapping with \`input\``, at);
    if (prompt.cases.has(caseName)) throw new InputError('config/duplicate', `Duplicate case \`${caseName}\` for prompt \`${promptName}\``, at);
    // Their snapshot files would be one file on macOS and Windows, whose file names ignore case.
    let folded = foldedCaseNames.get(prompt);
    if (!folded) foldedCaseNames.set(prompt, (folded = new Map()));
    const fold = caseName.normalize('NFC').toLowerCase();
    const twin = folded.get(fold);
    folded.set(fold, caseName);
    if (twin !== undefined) throw new InputError('config/duplicate', `Unexpected case \`${caseName}\` beside \`${twin}\` for prompt \`${promptName}\`: their snapshot files differ only in case, and are one file on macOS and Windows; expected names that differ in more than case`, at);
    const input = spec.input ?? {};
    if (!isRecord(input)) throw new InputError('config/invalid', 'Expected `input` to be a mapping of template variables', where(doc, ['cases', caseName, 'input']));
    const definition: CaseDefinition = { name: caseName, prompt: promptName, input, doc, file: doc.file, line: at.line ?? 1 };
    if (typeof spec.description === 'string') definition.description = spec.description;
    if (spec.retrieval !== undefined && spec.retrieval !== null) {
      const key = expectString(doc, ['cases', caseName, 'retrieval'], spec.retrieval, '`retrieval`, a key of the retrieval stubs');
      if (!prompt.retrieval) throw new InputError('config/invalid', `Case \`${caseName}\` names retrieval \`${key}\`, but prompt \`${promptName}\` declares no \`retrieval\` stubs`, where(doc, ['cases', caseName, 'retrieval']));
      if (!prompt.retrieval.entries.has(key)) {
        throw new InputError('render/unknown-stub', `Unknown retrieval stub \`${key}\`, expected one of ${[...prompt.retrieval.entries.keys()].map((k) => `\`${k}\``).join(', ')} (in ${prompt.retrieval.doc.file})`, where(doc, ['cases', caseName, 'retrieval']));
      }
      definition.retrieval = key;
    }
    if (spec.shape !== undefined) {
      if (typeof spec.shape !== 'string' || !(shapes as readonly string[]).includes(spec.shape)) {
        throw new InputError('config/invalid', `Unexpected \`shape\` ${JSON.stringify(spec.shape)}, expected one of ${shapes.map((x) => `\`${x}\``).join(', ')}`, where(doc, ['cases', caseName, 'shape']));
      }
      definition.shape = spec.shape as Shape;
    }
    const context = caseContext(doc, caseName, spec);
    if (context) definition.context = context;
    if (spec.history !== undefined && spec.history !== null) {
      definition.history = items(doc, ['cases', caseName, 'history'], spec.history, 'example', origins);
    }
    if (spec.tools !== undefined) {
      if (!Array.isArray(spec.tools) || !spec.tools.every((t) => typeof t === 'string')) throw new InputError('config/invalid', 'Expected `tools` to be a list of tool names', where(doc, ['cases', caseName, 'tools']));
      definition.tools = spec.tools;
    }
    prompt.cases.set(caseName, definition);
  }
}

/** `@` names the renderer gives itself or Handlebars does: a case's `context:` may not take them. */
const RESERVED_DATA = new Set(['root', 'index', 'key', 'first', 'last', 'level', 'partial-block', 'prompt', 'case', 'tools', 'metadata']);

/** A case's data variables: `context:` (any names but the reserved), then `state:` and `auth:`. */
function caseContext(doc: YamlDocument, caseName: string, spec: Record<string, unknown>): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  if (spec.context !== undefined && spec.context !== null) {
    if (!isRecord(spec.context)) throw new InputError('config/invalid', 'Expected `context` to be a mapping of data variables (`{{@name}}`)', where(doc, ['cases', caseName, 'context']));
    for (const key of Object.keys(spec.context)) {
      if (RESERVED_DATA.has(key) || key.startsWith('_')) {
        throw new InputError('config/invalid', `Unexpected \`${key}\` in \`context\`: \`@${key}\` is a variable the renderer or Handlebars fills; expected another name`, where(doc, ['cases', caseName, 'context', key]));
      }
    }
    out = { ...spec.context };
  }
  for (const key of ['state', 'auth'] as const) {
    if (spec[key] === undefined) continue;
    if (out && Object.hasOwn(out, key)) throw new InputError('config/duplicate', `Duplicate \`${key}\`: case \`${caseName}\` gives it both as \`${key}:\` and in \`context:\`; expected one`, where(doc, ['cases', caseName, key]));
    out = { ...(out ?? {}), [key]: spec[key] };
  }
  return out;
}

const isCasesFile = (absRoot: string, f: string): boolean => f.startsWith(join(absRoot, 'cases') + sep) && /\.ya?ml$/.test(f);

const SCHEMA_FILE = /^([A-Za-z_][\w.-]*)\.(?:json|ya?ml)$/;
const isSchemaFile = (absRoot: string, f: string): boolean => dirname(f) === join(absRoot, 'schemas') && SCHEMA_FILE.test(basename(f));

/** Reads `schemas/Name.json` (or `.yaml`, `.yml`) as the named schema `Name`. */
function readSchemaFile(state: ModuleState, path: string): void {
  const name = SCHEMA_FILE.exec(basename(path))![1]!;
  const doc = readYaml(path, state.display(path));
  if (!isRecord(doc.value)) throw new InputError('config/invalid', `Expected the named schema \`${name}\` to be a mapping (JSON Schema or Picoschema), got ${JSON.stringify(doc.value)}`, { file: doc.file, line: 1, column: 1 });
  const key = `schema:${name}`;
  if (state.seen.has(key)) throw new InputError('config/duplicate', `Duplicate schema \`${name}\`, also defined in ${state.seen.get(key)}`, { file: doc.file, line: 1, column: 1 });
  state.seen.set(key, doc.file);
  state.schemas.set(name, doc.value);
}

/**
 * The kinds of prompt file, in one place: each says which files are its own, the prompt name
 * a file gives (undefined for a file that is no prompt of its own, a partial), and how it is
 * read. A `.prompt` template renders through Handlebars (render.ts); a prompt module is code,
 * imported and called when a case renders (code-render.ts), and the agent adapters
 * (src/adapters) are prompt modules made from an agent object. The checks see one kind of
 * rendered case whatever made it.
 */
const promptFileKinds: ReadonlyArray<{ kind: 'template' | 'module'; claims(file: string): boolean; promptName(file: string): string | undefined; read(state: ModuleState, path: string, only: ReadonlySet<string> | undefined): void }> = [
  {
    kind: 'template',
    claims: (file) => file.endsWith('.prompt'),
    promptName: (file) => (basename(file, '.prompt').startsWith('_') ? undefined : basename(file, '.prompt')),
    read: readPromptFile,
  },
  { kind: 'module', claims: (file) => CODE_PROMPT_FILE.test(file), promptName: (file) => codePromptName(basename(file)), read: readCodePromptFile },
];

const kindOf = (file: string) => promptFileKinds.find((k) => k.claims(file));

/**
 * Loads a prompt module folder: `*.prompt` templates (dotprompt layout: YAML frontmatter, a
 * Handlebars body), `_name.prompt` partials, example and retrieval-stub YAML named in the
 * frontmatter, and `cases/*.yaml` with the named standard inputs. `only` loads just the named
 * prompts (and every partial), and skips the cases files that plainly name another prompt.
 * `projectRoot`: where symbolic links in the folder may lead (by default the nearest folder
 * above it with a config file).
 */
export function loadPromptModule(root: string, cwd = process.cwd(), only?: ReadonlySet<string>, projectRoot?: string): PromptModule {
  const state = moduleState(root, cwd, projectRoot);
  const files = walk(state);
  for (const path of files.filter((f) => isSchemaFile(state.absRoot, f))) readSchemaFile(state, path);
  for (const kind of promptFileKinds) for (const path of files.filter(kind.claims)) kind.read(state, path, only);
  for (const path of files.filter((f) => isCasesFile(state.absRoot, f))) readCasesFile(state, path, only);
  const { absRoot, prompts, partials, origins, schemas } = state;
  return { root: absRoot, prompts, partials, origins, schemas };
}

/** A prompt module whose prompts are read when first asked for (see openPromptModule). */
export interface LazyPromptModule {
  module: PromptModule;
  /** Reads the prompt, its examples, stubs and cases, unless they are in `module` already. */
  ensure(prompt: string): void;
}

/**
 * The cases files of each prompt of a module read whole, in the order they were read: what a
 * worker needs to read one prompt's cases without guessing from the files' text.
 */
export function casesFilesOf(module: PromptModule, cwd = process.cwd()): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [name, prompt] of module.prompts) out.set(name, [...new Set([...prompt.cases.values()].map((definition) => resolve(cwd, definition.file)))]);
  return out;
}

/**
 * The prompt module of `root` with every partial read and no prompt yet: `ensure(name)` reads
 * one prompt and the cases files `casesFiles` gives for it (see casesFilesOf). For a case
 * worker, which learns its prompts one at a time from a folder the main thread has already
 * read whole (and reported any error in): it reads only what it checks.
 */
export function openPromptModule(root: string, cwd: string, casesFiles: ReadonlyMap<string, readonly string[]>, projectRoot?: string): LazyPromptModule {
  const state = moduleState(root, cwd, projectRoot);
  const promptFiles = new Map<string, string[]>();
  const files = walk(state);
  for (const path of files.filter((f) => isSchemaFile(state.absRoot, f))) readSchemaFile(state, path);
  for (const kind of promptFileKinds) {
    for (const path of files.filter(kind.claims)) {
      const name = kind.promptName(path);
      // What is no prompt of its own (a partial) is read now: any prompt may use it.
      if (name === undefined) kind.read(state, path, undefined);
      else promptFiles.set(name, [...(promptFiles.get(name) ?? []), path]);
    }
  }
  const { absRoot, prompts, partials, origins, schemas } = state;
  return {
    module: { root: absRoot, prompts, partials, origins, schemas },
    ensure(prompt: string): void {
      if (prompts.has(prompt)) return;
      const only = new Set([prompt]);
      for (const path of promptFiles.get(prompt) ?? []) kindOf(path)!.read(state, path, only);
      if (!prompts.has(prompt)) throw new InputError('render/unknown-prompt', `Unknown prompt \`${prompt}\` (no \`${prompt}.prompt\` in \`${state.display(absRoot)}\`)`);
      for (const path of casesFiles.get(prompt) ?? []) readCasesFile(state, path, only, true);
    },
  };
}
