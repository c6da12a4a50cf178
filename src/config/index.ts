import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Severity } from '../report/diagnostic.js';
import type { HandlerRef } from '../tools/types.js';
import { InputError } from '../util/errors.js';
import { readRegularFileSync } from '../util/files.js';
import { LineIndex } from '../util/lines.js';

import type { PersistedSource } from '../sources/persisted.js';

/** A conversation store to read `tool_use` blocks from. Sampling belongs in the query (`LIMIT`, `TABLESAMPLE`, `ORDER BY random()`). */
export type PersistedSourceConfig = PersistedSource;

/** `file.ts#TypeName`, or a full handler reference. */
export type HandlerConfig = string | HandlerRef;

export interface PromptContractConfig {
  /** Folder of `.prompt` templates, partials, cases, examples and stubs. Default `prompts`. */
  prompts?: string;
  /** Tool definitions in any provider shape (array or name -> tool record), or the path of a JSON tools file. */
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
  /** Conversation stores holding `tool_use` blocks. */
  persisted?: PersistedSourceConfig[];
  /** Provider profiles the tools must fit (`anthropic`, `openai-strict`, ...). */
  providers?: string[];
  /** Policy file (YAML): `severity` overrides and `ignore` entries, each with a written `reason`. */
  policy?: string;
  /** Severity overrides by rule id or family (`compat/*`); `off` drops the rule. Win over the policy file's. */
  rules?: Record<string, Severity | 'off'>;
  /** Validate examples as OpenAI strict mode would: every object closed, every property required. */
  strictExamples?: boolean;
}

/** Identity function that gives a config file type checking and completion. */
export function defineConfig(config: PromptContractConfig): PromptContractConfig {
  return config;
}

export const configFileNames = ['prompt-contract.config.ts', 'prompt-contract.config.mts', 'prompt-contract.config.mjs', 'prompt-contract.config.js', 'prompt-contract.config.json'];

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
  throw new InputError('config/missing', `Cannot find a config file in ${cwd}, expected one of ${configFileNames.join(', ')} (see the README for a minimal config)`);
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
    text = readRegularFileSync(file);
  } catch (error) {
    throw new InputError('config/unreadable', `Cannot read the config (${(error as Error).message}); expected a regular JSON file`, { file }, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const pos = /position (\d+)/.exec((error as Error).message)?.[1];
    const at = pos === undefined ? undefined : new LineIndex(text).at(Number(pos));
    throw new InputError('config/json-syntax', `Invalid JSON in the config: ${(error as Error).message}`, { file, line: at?.line, column: at?.column }, { cause: error });
  }
}

/** jiti is loaded lazily: plain `.json` and `.mjs` configs never pay for it. */
export async function defaultImporter(file: string): Promise<unknown> {
  if (/\.(c|m)?js$|\.json$/.test(file)) {
    if (file.endsWith('.json')) return readJsonConfig(file);
    return import(pathToFileURL(file).href);
  }
  if (!jitiImporter) {
    const { createJiti } = await import('jiti');
    const jiti = createJiti(import.meta.url, { fsCache: true, moduleCache: true });
    jitiImporter = (f) => jiti.import(f);
  }
  return jitiImporter(file);
}

function unwrapDefault(mod: unknown): unknown {
  let value = mod;
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
}

function checkShape(config: unknown, file: string): PromptContractConfig {
  if (typeof config !== 'object' || config === null) throw new InputError('config/invalid', 'Expected the config file to export a config object (`export default defineConfig({...})`)', { file });
  const c = config as Record<string, unknown>;
  if (!('tools' in c)) throw new InputError('config/invalid', 'Expected `tools` in the config: tool definitions in any provider shape, or a JSON tools file', { file });
  const strings = (key: string): void => {
    if (c[key] !== undefined && typeof c[key] !== 'string') throw new InputError('config/invalid', `Expected \`${key}\` to be a path string, got ${JSON.stringify(c[key])}`, { file });
  };
  strings('prompts');
  strings('descriptions');
  strings('snapshots');
  strings('policy');
  if (c.recorded !== undefined && !(Array.isArray(c.recorded) && c.recorded.every((r) => typeof r === 'string'))) {
    throw new InputError('config/invalid', 'Expected `recorded` to be a list of JSONL file paths', { file });
  }
  if (c.maxLineBytes !== undefined && !(Number.isInteger(c.maxLineBytes) && (c.maxLineBytes as number) >= 1)) {
    throw new InputError('config/invalid', `Expected \`maxLineBytes\` to be a whole number of bytes, at least 1, got ${JSON.stringify(c.maxLineBytes)}`, { file });
  }
  if (c.rules !== undefined) {
    if (typeof c.rules !== 'object' || c.rules === null || Array.isArray(c.rules)) throw new InputError('config/invalid', 'Expected `rules` to map rule ids (or `family/*`) to error, warning, info or off', { file });
    for (const [id, level] of Object.entries(c.rules)) {
      if (!/^[a-z][a-z0-9-]*\/(?:\*|[a-z0-9][a-z0-9-]*)$/.test(id)) throw new InputError('config/invalid', `Unexpected rule id \`${id}\` in \`rules\`, expected \`family/name\` or \`family/*\``, { file });
      if (!['error', 'warning', 'info', 'off'].includes(level as string)) throw new InputError('config/invalid', `Unexpected severity ${JSON.stringify(level)} for \`${id}\` in \`rules\`, expected error, warning, info or off`, { file });
    }
  }
  if (c.providers !== undefined && !(Array.isArray(c.providers) && c.providers.every((p) => typeof p === 'string'))) {
    throw new InputError('config/invalid', 'Expected `providers` to be a list of provider names', { file });
  }
  if (c.persisted !== undefined) {
    if (!Array.isArray(c.persisted)) throw new InputError('config/invalid', 'Expected `persisted` to be a list of sources', { file });
    c.persisted.forEach((p: unknown, i: number) => {
      const s = p as Record<string, unknown>;
      if (typeof s?.name !== 'string' || typeof s.query !== 'string' || (typeof s.sqlite !== 'string' && typeof s.postgres !== 'string')) {
        throw new InputError('config/invalid', `Expected \`persisted[${i}]\` to have \`name\`, \`query\` and one of \`sqlite\` (a file) or \`postgres\` (a connection string or env:VAR)`, { file });
      }
    });
  }
  return c as unknown as PromptContractConfig;
}

/** Loads, checks and resolves the project's config. */
export async function loadConfig(options: { cwd?: string; file?: string; importer?: Importer } = {}): Promise<ResolvedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const file = findConfigFile(cwd, options.file);
  let mod: unknown;
  try {
    mod = file.endsWith('.json') ? readJsonConfig(file) : await (options.importer ?? defaultImporter)(file);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError('config/load-failed', `Cannot load the config: ${(error as Error).message}`, { file }, { cause: error });
  }
  const config = checkShape(unwrapDefault(mod), file);
  const root = dirname(file);
  const abs = (p: string): string => (isAbsolute(p) ? p : resolve(root, p));
  const resolved: ResolvedConfig = { ...config, file, root, prompts: abs(config.prompts ?? 'prompts'), snapshots: abs(config.snapshots ?? 'snapshots') };
  if (config.descriptions !== undefined) resolved.descriptions = abs(config.descriptions);
  if (config.recorded) resolved.recorded = config.recorded.map(abs);
  if (config.persisted) resolved.persisted = config.persisted.map((p) => ('sqlite' in p ? { ...p, sqlite: abs(p.sqlite) } : p));
  if (config.policy !== undefined) resolved.policy = abs(config.policy);
  return resolved;
}
