import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { NotationDefinition } from '../extract/notation.js';
import type { Diagnostic, Severity } from '../report/diagnostic.js';
import { report } from '../report/rule.js';
import type { PersistedSource } from '../sources/persisted.js';
import type { HandlerRef } from '../tools/types.js';
import { InputError } from '../util/errors.js';
import { pathKind, readRegularFileSync, withoutBom } from '../util/files.js';
import { checkLocalImports } from './local-imports.js';
import { LineIndex } from '../util/lines.js';
import { describeChar, readJson, skipWhitespace } from '../extract/json.js';
import { isModuleScope } from '../util/module-scope.js';
import { suggestName } from '../util/suggest.js';
import { configRules } from './rules.js';
import { isTokenizerSetting, TOKENIZER_EXPECTED, type TokenizerSetting } from '../tokens/index.js';

/** A conversation store to read `tool_use` blocks from. Sampling belongs in the query (`LIMIT`, `TABLESAMPLE`, `ORDER BY random()`). */
export type PersistedSourceConfig = PersistedSource;

/** `file.ts#TypeName`, or a full handler reference. */
export type HandlerConfig = string | HandlerRef;

export interface PromptContractConfig {
  /** Folder of `.prompt` templates, partials, cases, examples and stubs. Default `prompts`. */
  prompts?: string;
  /** Tool definitions in any provider shape (array or name -> tool record), the path of a JSON tools file, or MCP servers (`mcpServer({...})`, alone or in the array). */
  tools: unknown;
  /** YAML mapping of tool and parameter descriptions, merged into the tools. */
  descriptions?: string;
  /** Where each hand-written tool's handler type lives: `{ lookup_order: 'src/handlers.ts#LookupOrderArgs' }`. */
  handlers?: Record<string, HandlerConfig>;
  /** Folder of committed snapshot files. Default `snapshots`. */
  snapshots?: string;
  /** JSONL files of recorded tool calls. */
  recorded?: string[];
  /**
   * Longest JSONL line read, in bytes (16 MiB by default, or `PROMPT_CONTRACT_MAX_LINE_BYTES`);
   * a longer line is reported as `recorded/line-too-long` and the rest of the file is read.
   */
  maxLineBytes?: number;
  /**
   * Largest text one render (a case, an example, a stub entry) may make, in bytes (4 MiB by
   * default); a render past it stops with an error at the block that passed it.
   */
  maxRenderedBytes?: number;
  /** Conversation stores holding `tool_use` blocks. */
  persisted?: PersistedSourceConfig[];
  /** Provider profiles the tools must fit (`anthropic`, `openai-strict`, ...). */
  providers?: string[];
  /**
   * Policy file (YAML): `severity` overrides and `ignore` entries, each with a written `reason`.
   * Default `prompt-contract.policy.yaml` beside the config, read when it exists.
   */
  policy?: string;
  /** Severity overrides by rule id or family (`compat/*`); `off` drops the rule. Win over the policy file's. */
  rules?: Record<string, Severity | 'off'>;
  /** Validate examples as OpenAI strict mode would: every object closed, every property required. */
  strictExamples?: boolean;
  /** House notations for few-shot calls, read besides the built-in ones: `[defineNotation({ name, find, parse })]`. */
  notations?: NotationDefinition<any>[];
  /** The tokenizer snapshots count with where no prompt or case names one (docs/tokens.md); default `o200k_base`. */
  tokenizer?: TokenizerSetting;
  /** Most tokens a case may send (prompt + tools); a prompt's frontmatter or a case may set its own (`budget/exceeded`). */
  budget?: number;
  /** Share a case may grow by against its baseline snapshot before `budget/grew` warns (0.1 is 10%, the default). */
  budgetGrowth?: number;
}

/** Identity function that gives a config file type checking and completion. */
export function defineConfig(config: PromptContractConfig): PromptContractConfig {
  return config;
}

/** The policy file read when the config names none, beside the config (and named by compat findings' advice). */
export const defaultPolicyFile = 'prompt-contract.policy.yaml';

export const configFileNames = ['prompt-contract.config.ts', 'prompt-contract.config.mts', 'prompt-contract.config.cts', 'prompt-contract.config.mjs', 'prompt-contract.config.cjs', 'prompt-contract.config.js', 'prompt-contract.config.json'];

/** The config file in `cwd`, or an InputError that says which names were looked for. */
export function findConfigFile(cwd: string, explicit?: string): string {
  if (explicit !== undefined) {
    const file = isAbsolute(explicit) ? explicit : resolve(cwd, explicit);
    if (!existsSync(file)) throw new InputError('config/missing', 'Cannot find the config file', { file: explicit });
    return file;
  }
  for (const name of configFileNames) {
    const file = resolve(cwd, name);
    if (existsSync(file)) return file;
  }
  throw new InputError('config/missing', `Cannot find a config file in ${cwd}, expected one of ${configFileNames.join(', ')} (see prompt-contract's docs/config.md for a minimal config)`);
}

/** How a module is imported: jiti in the CLI (TypeScript without a build), Jest's own loader inside Jest. */
export type Importer = (file: string) => Promise<unknown>;

let jitiImporter: Importer | undefined;

/**
 * A JSON config, read and parsed here whatever importer is given: importing JSON needs an
 * import attribute (`with { type: 'json' }`), and Jest's loader warns of a deprecation when a
 * test runner's importer imports it without one.
 */
function readJsonConfig(file: string): unknown {
  let text: string;
  try {
    text = withoutBom(readRegularFileSync(file));
  } catch (error) {
    throw new InputError('config/unreadable', `Cannot read the config (${(error as Error).message}); expected a regular JSON file`, { file }, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // Node 20's JSON.parse names no position for most errors: the package's own reader finds the place, and says what it expected there.
    const read = readJson(text, 0);
    let message = (error as Error).message;
    let offset: number | undefined;
    if (!read.ok) {
      message = read.message;
      offset = read.offset;
    } else {
      const k = skipWhitespace(text, read.end);
      if (k < text.length) {
        message = `Unexpected ${describeChar(text, k)} after the JSON value, expected the end of the file`;
        offset = k;
      }
    }
    if (offset === undefined) {
      const pos = /position (\d+)/.exec((error as Error).message)?.[1];
      if (pos !== undefined) offset = Number(pos);
    }
    const at = offset === undefined ? undefined : new LineIndex(text).at(offset);
    throw new InputError('config/json-syntax', `Invalid JSON in the config: ${message}`, { file, line: at?.line, column: at?.column }, { cause: error });
  }
}

let jitiRequirer: ((file: string) => unknown) | undefined;

/**
 * The same, where `import()` is not to be had (Jest without VM modules): jiti's `require`,
 * which resolves packages by their CommonJS entries, so `import ... from 'prompt-contract'` in
 * the config gets this package's CommonJS build, as the test file does.
 */
export function jitiRequire(file: string): unknown {
  if (!jitiRequirer) {
    const { createJiti } = createRequire(import.meta.url)('jiti') as typeof import('jiti');
    jitiRequirer = createJiti(import.meta.url, { fsCache: true, moduleCache: true, tryNative: false });
  }
  return jitiRequirer(file);
}

declare const __PROMPT_CONTRACT_CJS__: boolean | undefined;
/** Whether this is the CommonJS bundle (scripts/bundle.mjs defines the name), which the command line runs from. */
const commonJsBuild = typeof __PROMPT_CONTRACT_CJS__ !== 'undefined' && __PROMPT_CONTRACT_CJS__;

/**
 * From the CommonJS bundle, where `import()` is not to be had: a CommonJS file by `require`, any
 * other with jiti's `require`, so that the config's `import ... from 'prompt-contract'` gets the
 * bundle already loaded rather than a second copy of the package in ES modules. A file that only
 * an ES module can hold (top-level `await`) is refused there as a syntax error, and is then
 * imported with jiti, as the ES build does.
 */
async function bundledImporter(file: string): Promise<unknown> {
  if (file.endsWith('.cjs') || (file.endsWith('.js') && !isModuleScope(file))) return createRequire(import.meta.url)(file) as unknown;
  let mod: unknown;
  try {
    mod = jitiRequire(file);
  } catch (error) {
    if ((error as { name?: unknown }).name === 'SyntaxError') return jitiImport(file);
    throw error;
  }
  // jiti's interop object looks `then` up on the default export, as resolving this function's
  // promise does: `export default null` made that a TypeError. Such a module is given plainly.
  try {
    void (mod as { then?: unknown } | null)?.then;
  } catch {
    return { default: (mod as { default?: unknown }).default };
  }
  return mod;
}

/**
 * Whether Node's own `import()` failed on a TypeScript module it cannot read: Node without type
 * stripping (`Unknown file extension ".ts"`), or TypeScript that stripping refuses. jiti, which
 * the CLI loads the config with, reads them. Nothing of the config has run yet when a module it
 * imports statically fails so: a module is loaded with all it imports before any is evaluated.
 */
export function isTypeScriptLoadError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX' || code === 'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING') return true;
  return code === 'ERR_UNKNOWN_FILE_EXTENSION' && typeof message === 'string' && /"\.[cm]?tsx?"/.test(message);
}

/**
 * jiti is loaded lazily: plain `.json` and `.mjs` configs never pay for it. A JavaScript config
 * is imported by Node; one that imports TypeScript (`import { tools } from './src/tools.ts'`),
 * which Node cannot read, is loaded with jiti, as the CLI loads it.
 */
export async function defaultImporter(file: string): Promise<unknown> {
  if (file.endsWith('.json')) return readJsonConfig(file);
  if (commonJsBuild) return bundledImporter(file);
  if (/\.(c|m)?js$/.test(file)) {
    try {
      return await import(pathToFileURL(file).href);
    } catch (error) {
      if (isTypeScriptLoadError(error)) return jitiImport(file);
      throw error;
    }
  }
  return jitiImport(file);
}

/** A TypeScript or ES module file loaded with jiti (compiled to CommonJS on the fly, cached on disk), as the CLI loads it. */
export async function jitiImport(file: string): Promise<unknown> {
  if (!jitiImporter) {
    // Required, not imported: Jest without VM modules cannot `import()`, and jiti ships CommonJS.
    const { createJiti } = createRequire(import.meta.url)('jiti') as typeof import('jiti');
    const jiti = createJiti(import.meta.url, { fsCache: true, moduleCache: true });
    jitiImporter = (f) => jiti.import(f);
  }
  return jitiImporter(file);
}

function unwrapDefault(mod: unknown): unknown {
  let value = mod;
  // A CommonJS config imported as a module: Node and Jest give `module.exports` under that name
  // (and as `default`) beside the names they detected in it (`tools`, `prompts`); the object is it.
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, 'module.exports')) value = (value as Record<string, unknown>)['module.exports'];
  // ESM default, CJS interop default, and jiti's double wrapping all end at the config object.
  for (let i = 0; i < 3 && typeof value === 'object' && value !== null && 'default' in value && !('tools' in value); i++) {
    value = (value as { default: unknown }).default;
  }
  return value;
}

/** A config with every path made absolute against the config file's folder. */
export interface ResolvedConfig extends PromptContractConfig {
  file: string;
  root: string;
  prompts: string;
  snapshots: string;
  /** What is wrong with the config but does not stop the run: `config/unknown-key`. */
  findings: Diagnostic[];
}

type Path = readonly PropertyKey[];

/** `persisted[0].timeoutMs`: a place in the config as a person writes it. */
function dotted(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

const show = (value: unknown): string => JSON.stringify(value) ?? String(value);
const quote = (names: readonly string[]): string => names.map((n) => `\`${n}\``).join(', ');

/** The message `Expected \`key\` to be <what>, got <value>`, for the key the issue is about. */
const expected = (what: string) => (iss: z.core.$ZodRawIssue): string => `Expected \`${dotted(iss.path ?? [])}\` to be ${what}, got ${show(iss.input)}`;

const pathString = (): z.ZodString => z.string({ error: expected('a path string') });

const sourceNeeds = (iss: z.core.$ZodRawIssue): string =>
  `Expected \`${dotted((iss.path ?? []).slice(0, 2))}\` to have \`name\`, \`query\` and one of \`sqlite\` (a file) or \`postgres\` (a connection string or env:VAR)`;

/** One `persisted` entry: the keys of both kinds of source, `sqlite` or `postgres` deciding which it is. */
const persistedSource = z
  .strictObject({
    name: z.string({ error: sourceNeeds }),
    sqlite: z.string({ error: sourceNeeds }).optional(),
    postgres: z.string({ error: sourceNeeds }).optional(),
    query: z.string({ error: sourceNeeds }),
    column: z.string({ error: expected('a column name') }).optional(),
    idColumn: z.string({ error: expected('a column name') }).optional(),
    batchSize: z.number({ error: expected('a whole number of rows, at least 1') }).int().min(1).optional(),
    timeoutMs: z.number({ error: expected('a whole number of milliseconds from 1 to 2147483647') }).int().min(1).max(2_147_483_647).optional(),
    dangerouslyAllowPrivilegedRole: z.boolean({ error: expected('true or false') }).optional(),
  })
  .refine((s) => s.sqlite !== undefined || s.postgres !== undefined, { error: sourceNeeds })
  .refine((s) => s.sqlite === undefined || s.postgres === undefined, { error: (iss) => `Unexpected both \`sqlite\` and \`postgres\` in \`${dotted(iss.path ?? [])}\`, expected one of them` });

const handlerTool = (iss: z.core.$ZodRawIssue): string => String(iss.path?.[1]);

/** A `handlers` value: `file.ts#TypeName`, or a `HandlerRef` object. */
const handler = z.union(
  [
    z.string().refine((s) => s.lastIndexOf('#') > 0, { error: (iss) => `Expected the handler of \`${handlerTool(iss)}\` as \`path/to/file.ts#TypeName\`, got \`${String(iss.input)}\`` }),
    z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('typescript'), file: pathString(), type: z.string({ error: expected('a type name') }) }),
      z.strictObject({ kind: z.literal('json-schema'), schema: z.record(z.string(), z.unknown(), { error: expected('a JSON Schema object') }) }),
      z.strictObject({ kind: z.literal('zod'), schema: z.unknown() }),
    ]),
  ],
  { error: (iss) => `Expected the handler of \`${handlerTool(iss)}\` as \`path/to/file.ts#TypeName\` or a handler reference (\`{ kind: 'typescript', file, type }\`, \`{ kind: 'zod', schema }\` or \`{ kind: 'json-schema', schema }\`), got ${show(iss.input)}` },
);
const handlerKeys = ['kind', 'file', 'type', 'schema'];

const recordedNeeds = 'Expected `recorded` to be a list of JSONL file paths';
const providersNeed = 'Expected `providers` to be a list of provider names';

/** The config's shape. Unknown keys are `unrecognized_keys` issues: findings, not errors (see `validate`). */
const configSchema = z.strictObject(
  {
    prompts: pathString().optional(),
    tools: z.custom((value) => value !== undefined, { error: 'Expected `tools` in the config: tool definitions in any provider shape, or a JSON tools file' }),
    descriptions: pathString().optional(),
    handlers: z.record(z.string(), handler, { error: 'Expected `handlers` to map tool names to `path/to/file.ts#TypeName`' }).optional(),
    snapshots: pathString().optional(),
    recorded: z.array(z.string({ error: recordedNeeds }), { error: recordedNeeds }).optional(),
    maxLineBytes: z.number({ error: expected('a whole number of bytes, at least 1') }).int().min(1).optional(),
    maxRenderedBytes: z.number({ error: expected('a whole number of bytes, at least 1') }).int().min(1).optional(),
    tokenizer: z.custom<TokenizerSetting>(isTokenizerSetting, { error: expected(TOKENIZER_EXPECTED) }).optional(),
    budget: z.number({ error: expected('a whole number of tokens, at least 1') }).int().min(1).optional(),
    budgetGrowth: z.number({ error: expected('a share such as 0.1 (10%), 0 or more') }).min(0).optional(),
    persisted: z.array(persistedSource, { error: 'Expected `persisted` to be a list of sources' }).optional(),
    providers: z.array(z.string({ error: providersNeed }), { error: providersNeed }).optional(),
    policy: pathString().optional(),
    rules: z
      .record(
        z.string().regex(/^[a-z][a-z0-9-]*\/(?:\*|[a-z0-9][a-z0-9-]*)$/),
        z.enum(['error', 'warning', 'info', 'off'], { error: (iss) => `Unexpected severity ${show(iss.input)} for \`${String(iss.path?.at(-1))}\` in \`rules\`, expected error, warning, info or off` }),
        {
          error: (iss) =>
            iss.code === 'invalid_key'
              ? `Unexpected rule id \`${String(iss.path?.at(-1))}\` in \`rules\`, expected \`family/name\` or \`family/*\``
              : 'Expected `rules` to map rule ids (or `family/*`) to error, warning, info or off',
        },
      )
      .optional(),
    strictExamples: z.boolean({ error: expected('true or false') }).optional(),
    notations: z
      .array(
        z.custom<NotationDefinition<any>>(
          (v) => typeof v === 'object' && v !== null && typeof (v as NotationDefinition).name === 'string' && typeof (v as NotationDefinition).find === 'function' && typeof (v as NotationDefinition).parse === 'function',
          { error: 'Expected each entry of `notations` to be `defineNotation({ name, find, parse })`' },
        ),
        { error: 'Expected `notations` to be a list of `defineNotation({ name, find, parse })` values' },
      )
      .optional(),
    // A JSON config may name a JSON Schema for editors; it means nothing to prompt-contract.
    $schema: z.string().optional(),
  },
  { error: (iss) => (iss.code === 'invalid_type' ? 'Expected the config file to export a config object (`export default defineConfig({...})`)' : undefined) },
);

/** The keys an object at `path` may have, for did-you-mean. */
function keysAt(path: Path): string[] {
  if (path[0] === 'persisted') return Object.keys(persistedSource.shape);
  if (path[0] === 'handlers') return handlerKeys;
  return Object.keys(configSchema.shape).filter((key) => key !== '$schema');
}

/** The text with its `//` and `/* *\/` comments blanked out (offsets kept), strings left alone. */
export function withoutComments(text: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (c === '\\') out += c + (text[++i] ?? '');
      else out += c;
      if (c === quote) quote = undefined;
    } else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const line = text[i + 1] === '/';
      const end = text.indexOf(line ? '\n' : '*/', i + 2);
      const stop = end === -1 ? text.length : line ? end : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop - 1;
    } else {
      if (c === '"' || c === "'" || c === '`') quote = c;
      out += c;
    }
  }
  return out;
}

/**
 * Where the key at `path` is written in the config's text: each key's first occurrence as an
 * object key (`key:`, `"key":`, `'key':`, outside comments) after its parent's. Undefined when
 * a key is not written out (built in code, spread from elsewhere).
 */
function locateKey(text: string, path: Path): { line: number; column: number } | undefined {
  let from = 0;
  let at: number | undefined;
  for (const key of path) {
    if (typeof key !== 'string') continue;
    const pattern = new RegExp(`(?<=^|[\\s{,])(["']?)${key.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\1\\s*:`, 'g');
    pattern.lastIndex = from;
    const match = pattern.exec(text);
    if (!match) return undefined;
    at = match.index;
    from = match.index + match[0].length;
  }
  return at === undefined ? undefined : new LineIndex(text).at(at);
}

/** Where the key at `path` is written in a config file, for a finding or an error about its value; undefined when it is not written out. */
export function locateConfigKey(file: string, path: Path): { line: number; column: number } | undefined {
  try {
    return locateKey(withoutComments(readRegularFileSync(file)), path);
  } catch {
    return undefined;
  }
}

/** Removes `key` from the object at `path`, copying only what leads there. */
function omitKey(value: unknown, path: Path, key: string): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (path.length === 0) return Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<PropertyKey, unknown>;
  copy[head!] = omitKey(copy[head!], rest, key);
  return copy;
}

/**
 * Checks the config against its schema. An unknown key (`recoded:` for `recorded:`) is a
 * finding, so the run goes on and reports everything; a known key with a wrong value is an
 * InputError at the key's line, since the run cannot mean what the config says.
 */
function validate(value: unknown, file: string, display: string): { config: PromptContractConfig; findings: Diagnostic[] } {
  const result = configSchema.safeParse(value);
  if (result.success) return { config: result.data as PromptContractConfig, findings: [] };
  let text: string | undefined;
  const place = (path: Path): { line: number; column: number } | undefined => {
    try {
      text ??= withoutComments(readRegularFileSync(file));
    } catch {
      return undefined;
    }
    return locateKey(text, path);
  };
  const unknown = unknownKeys(result.error.issues).map(({ path, key }) => ({ path, key, meant: suggestName(key, keysAt(path))?.name }));
  const problem = result.error.issues.find((iss) => iss.code !== 'unrecognized_keys');
  if (problem) {
    // A misspelled key is often why a known one is missing or wrong (`qurey` in a source): say so, as the run ends before its finding is seen.
    const object = dotted(problem.path.slice(0, -1));
    const nearby = unknown.filter((u) => u.meant !== undefined && (dotted(u.path) === dotted(problem.path) || (dotted(u.path) === object && u.meant === problem.path.at(-1))));
    const hint = nearby.map((u) => `; did you mean \`${u.meant}\` instead of \`${u.key}\`?`).join('');
    // Point at the misspelled key, else at the key with the wrong value, else (when it is missing) at its object's.
    let at = nearby[0] && place([...nearby[0].path, nearby[0].key]);
    const written = valueAt(value, problem.path) !== undefined;
    for (let n = problem.path.length - (written ? 0 : 1); at === undefined && n > 0; n--) at = place(problem.path.slice(0, n));
    throw new InputError('config/invalid', `${problem.message}${hint}`, { file, ...at });
  }
  let config = value;
  for (const u of unknown) config = omitKey(config, u.path, u.key);
  const findings = unknown.map(({ path, key, meant }) => {
    const where = path.length === 0 ? 'the config' : `\`${dotted(path)}\``;
    const unset = meant !== undefined && !Object.hasOwn(valueAt(value, path) as object, meant);
    const message = meant === undefined
      ? `Unexpected key \`${key}\` in ${where}, expected one of ${quote(keysAt(path))}: the key is ignored; rename or delete it`
      : `Unexpected key \`${key}\` in ${where}, expected \`${meant}\`: the key is ignored${unset ? `, so this run has no \`${meant}\`` : ''}; rename it to \`${meant}\``;
    return report(configRules['unknown-key'], { message, file: display, ...place([...path, key]) });
  });
  return { config: config as PromptContractConfig, findings };
}

/** Every unknown key, also those inside a union's failed options (a handler ref with a misspelled `type`), where they only explain the error. */
function unknownKeys(issues: readonly z.core.$ZodIssue[], base: Path = []): Array<{ path: Path; key: string }> {
  return issues.flatMap((iss) => {
    const path = [...base, ...iss.path];
    if (iss.code === 'unrecognized_keys') return iss.keys.map((key) => ({ path, key }));
    if (iss.code === 'invalid_union') return iss.errors.flatMap((options) => unknownKeys(options, path));
    return [];
  });
}

function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, key) => (typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[key] : undefined), value);
}

/** Loads, checks and resolves the project's config. */
/** How long a config may take to load (its imports, and the promise it may export), unless `PROMPT_CONTRACT_CONFIG_TIMEOUT` says otherwise. */
export const DEFAULT_CONFIG_TIMEOUT_S = 120;

/** `PROMPT_CONTRACT_CONFIG_TIMEOUT`, in seconds (a positive number), or the default. */
export function configTimeoutSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.PROMPT_CONTRACT_CONFIG_TIMEOUT?.trim();
  if (value === undefined || value === '') return DEFAULT_CONFIG_TIMEOUT_S;
  const n = /^\d{1,7}(?:\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!(n > 0)) throw new InputError('config/invalid', `Invalid PROMPT_CONTRACT_CONFIG_TIMEOUT=${JSON.stringify(value)}; expected a number of seconds above 0`);
  return n;
}

/**
 * `promise`, or a could-not-run error once the config has taken `seconds` to load: a module that
 * waits on a connection that never answers, or keeps a timer running beside a promise that
 * never settles, would otherwise hold the run with no word. The timer does not itself keep the
 * process alive: with nothing else pending, the run ends at once and says so (see cli-main.ts).
 */
function withinLimit<T>(promise: Promise<T>, seconds: number, file: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new InputError(
          'config/load-failed',
          `Cannot load the config: it has not finished loading after ${seconds} s (a connection that never answers, or a timer kept running beside a promise that never settles, in the config or a module it imports); expected the config to finish loading (PROMPT_CONTRACT_CONFIG_TIMEOUT=<seconds> gives it longer)`,
          { file },
        ),
      );
    }, Math.min(seconds * 1000, 2 ** 31 - 1));
    timer.unref?.();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export async function loadConfig(options: { cwd?: string; file?: string; importer?: Importer } = {}): Promise<ResolvedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const file = findConfigFile(cwd, options.file);
  const seconds = configTimeoutSeconds();
  if (!file.endsWith('.json')) {
    // A named pipe would keep the import waiting for a writer forever (a JSON config is read, and refused there),
    // and so would one among the modules it imports: those the project holds are looked at first.
    const kind = pathKind(file);
    if (kind !== 'file' && kind !== 'none') throw new InputError('config/load-failed', `Cannot load the config: it is ${kind}, not a regular file; expected a config file you wrote`, { file });
    checkLocalImports(file, (f) => relative(cwd, f) || f);
  }
  let mod: unknown;
  try {
    mod = file.endsWith('.json') ? readJsonConfig(file) : await withinLimit((options.importer ?? defaultImporter)(file), seconds, file);
  } catch (error) {
    if (error instanceof InputError) throw error;
    const message = (error as Error).message;
    // Node reads a `.js` file by the nearest package.json's `type`: CommonJS unless it says "module".
    const esmAsCommonJs = /\.js$/.test(file) && /Cannot use import statement outside a module|Unexpected token 'export'/.test(message);
    const hint = esmAsCommonJs ? '; this package is CommonJS (its package.json has no `"type": "module"`), so Node reads a `.js` config as CommonJS: rename it to `prompt-contract.config.mjs` or `.ts`' : '';
    // The place of a syntax error goes where places go, in the file that holds it (the config, or
    // a module it imports): jiti's messages end with `\n <file>:<line>:<column>` (a column from 0);
    // Node's own SyntaxError starts its stack with `<file>:<line>`, the line, and a caret under the place.
    const oneLine = message.replace(/\s*\n\s*/g, ' ');
    const place = /\s*\n\s*(\S+):(\d+):(\d+)\s*$/.exec(message);
    if (place && existsSync(place[1]!)) {
      const text = message.slice(0, place.index).replace(/\s+/g, ' ').trim();
      throw new InputError('config/load-failed', `Cannot load the config: ${text}${hint}`, { file: resolve(place[1]!), line: Number(place[2]), column: Number(place[3]) + 1 }, { cause: error });
    }
    const stack = error instanceof SyntaxError && typeof error.stack === 'string' ? /^(\/[^\n]*|[A-Za-z]:\\[^\n]*):(\d+)\n[^\n]*\n([ \t]*)\^/.exec(error.stack) : null;
    if (stack && existsSync(stack[1]!)) {
      throw new InputError('config/load-failed', `Cannot load the config: ${oneLine}${hint}`, { file: stack[1]!, line: Number(stack[2]), column: stack[3]!.length + 1 }, { cause: error });
    }
    throw new InputError('config/load-failed', `Cannot load the config: ${oneLine}${hint}`, { file }, { cause: error });
  }
  let exported = unwrapDefault(mod);
  // `export default loadTools().then(...)`: a config may be computed; what it settles to is the config.
  // A real promise only: a hand-made thenable that resolves to itself would be awaited forever.
  if (exported instanceof Promise) {
    try {
      exported = unwrapDefault(await withinLimit(exported, seconds, file));
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw new InputError('config/load-failed', `Cannot load the config: its default export is a promise that rejected: ${error instanceof Error ? error.message : String(error)}`, { file }, { cause: error });
    }
  }
  // Nothing exported as the default (`export const config = ...`, or no export at all): say so, rather than ask for `tools`.
  const known = new Set(keysAt([]));
  const unlike = (k: string): boolean => !known.has(k) && suggestName(k, [...known]) === undefined;
  const noDefault = (typeof exported === 'object' && exported !== null && !Array.isArray(exported) && Object.keys(exported).every(unlike) && !(typeof mod === 'object' && mod !== null && Object.hasOwn(mod, 'default')));
  if (!file.endsWith('.json') && (exported === undefined || exported === null || noDefault)) {
    const names = exported !== null && typeof exported === 'object' ? Object.keys(exported) : [];
    const found = exported === null ? 'its default export is null' : names.length > 0 ? `it exports only ${names.map((n) => `\`${n}\``).join(', ')}` : 'it exports nothing';
    throw new InputError('config/invalid', `Expected the settings as the config's default export (\`export default defineConfig({ tools, ... })\`, or \`module.exports = ...\` in CommonJS); ${found}`, { file });
  }
  const { config, findings } = validate(exported, file, relative(cwd, file) || file);
  const root = dirname(file);
  const abs = (p: string): string => (isAbsolute(p) ? p : resolve(root, p));
  const resolved: ResolvedConfig = { ...config, file, root, prompts: abs(config.prompts ?? 'prompts'), snapshots: abs(config.snapshots ?? 'snapshots'), findings };
  if (config.descriptions !== undefined) resolved.descriptions = abs(config.descriptions);
  if (config.recorded) resolved.recorded = config.recorded.map(abs);
  if (config.persisted) resolved.persisted = config.persisted.map((p) => ('sqlite' in p ? { ...p, sqlite: abs(p.sqlite) } : p));
  // A policy file beside the config is read without a `policy` key: compat findings tell people to
  // record their decisions there, and a decision written down but not read would be ignored in silence.
  if (config.policy !== undefined) resolved.policy = abs(config.policy);
  else if (pathKind(resolve(root, defaultPolicyFile)) !== 'none') resolved.policy = resolve(root, defaultPolicyFile);
  return resolved;
}
