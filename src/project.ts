import { isAbsolute, relative, resolve } from 'node:path';
import { loadConfig, type HandlerConfig, type Importer, type ResolvedConfig } from './config/index.js';
import type { Diagnostic } from './report/diagnostic.js';
import { loadPromptModule, type PromptModule } from './render/module.js';
import { unreadPromptFiles } from './render/unread-files.js';
import { applyDescriptions } from './tools/descriptions.js';
import { normalizeTools, ToolShapeError } from './tools/normalize.js';
import { jsonPositions } from './tools/json-positions.js';
import { placeJsonTools, placeModuleTools } from './tools/places.js';
import type { HandlerRef, ToolSpec } from './tools/types.js';
import { InputError } from './util/errors.js';
import { readRegularFileSync, withoutBom } from './util/files.js';
import { LineIndex } from './util/lines.js';
import { readYaml } from './util/yaml.js';

/** Everything a run needs, loaded once: config, tools as sent, the prompt module. */
export interface Project {
  config: ResolvedConfig;
  /** Tools as sent to the model: normalized, descriptions merged, handler types attached. */
  tools: ToolSpec[];
  registry: Map<string, ToolSpec>;
  module: PromptModule;
  /** Findings made while loading (a description for a parameter that does not exist). */
  diagnostics: Diagnostic[];
  /** Shows a path relative to where the user ran the command. */
  display(path: string): string;
  /** Where the command runs: what paths are shown relative to (the process's own by default). */
  cwd?: string;
  /** What imported the config, and imports prompt modules the same way (the default importer when absent). */
  importer?: Importer;
}

/** A JSON.parse error as an InputError at the line and column of the position it names. */
export function jsonError(error: unknown, text: string, file: string, what: string): InputError {
  const pos = /position (\d+)/.exec((error as Error).message)?.[1];
  const at = pos === undefined ? undefined : new LineIndex(text).at(Number(pos));
  return new InputError('config/json-syntax', `Invalid JSON in ${what}: ${(error as Error).message}`, { file, line: at?.line, column: at?.column });
}

/**
 * Reads a JSON tools file (one tool, a list, `{tools: [...]}`) into ToolSpecs, each with the
 * line of its entry and of every node of its schema, for findings to point at.
 */
export function readToolsFile(file: string, shown = file): ToolSpec[] {
  let text: string;
  try {
    // A byte order mark (Windows editors write one) is no part of the JSON.
    text = withoutBom(readRegularFileSync(file));
  } catch (error) {
    throw new InputError('config/unreadable', `Cannot read the tools file (${(error as Error).message}); expected a regular JSON file`, { file: shown });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw jsonError(error, text, shown, 'the tools file');
  }
  let tools: ToolSpec[];
  try {
    tools = normalizeTools(json, shown);
  } catch (error) {
    if (error instanceof ToolShapeError) {
      // At the definition it is about: the line of its entry in the file.
      const node = error.pointer === undefined ? undefined : jsonPositions(text).get(error.pointer);
      const place = node === undefined ? {} : new LineIndex(text).at(node.start);
      throw new InputError('config/tool-shape', error.message, { file: shown, ...place });
    }
    throw error;
  }
  placeJsonTools(tools, text);
  assertUniqueNames(tools, shown);
  return tools;
}

/**
 * Every provider refuses a request with two tools of one name, and which one a check read would
 * be a guess: the second is refused, at its line when its definition was placed.
 */
function assertUniqueNames(tools: readonly ToolSpec[], shown: string): void {
  const first = new Map<string, ToolSpec>();
  for (const t of tools) {
    const earlier = first.get(t.name);
    if (earlier === undefined) {
      first.set(t.name, t);
      continue;
    }
    const line = (tool: ToolSpec): string => (tool.origin.line === undefined ? '' : ` (line ${tool.origin.line})`);
    const file = t.origin.file ?? shown;
    throw new InputError('config/duplicate', `Duplicate tool \`${t.name}\`, also defined earlier${earlier.origin.file === undefined || earlier.origin.file === file ? '' : ` in ${earlier.origin.file}`}${line(earlier)}; expected each tool name once, as every provider requires`, { file, ...(t.origin.line === undefined ? {} : { line: t.origin.line, column: t.origin.column }) });
  }
}

/**
 * A tool built in code can hold values no request can carry: JSON has no `Infinity`, `NaN` or
 * `undefined` list item (each is sent as `null`), nor a bigint, a function or a Date. The
 * model would be sent something other than what the checks read; such a value is refused at
 * the tool's place, with where it sits in the definition.
 */
export function assertSendable(tool: ToolSpec, shown: string): void {
  const parts: Array<[string, unknown]> = [['inputSchema', tool.inputSchema]];
  if (tool.provided) parts.push(['definition', tool.provided.definition]);
  for (const [what, root] of parts) {
    const bad = unsendable(root, '');
    if (bad === undefined) continue;
    const file = tool.origin.file ?? shown;
    throw new InputError(
      'config/tool-shape',
      `Unexpected ${bad.value} at \`${bad.pointer || '/'}\` in the ${what === 'inputSchema' ? 'input schema' : 'definition'} of tool \`${tool.name}\`: ${bad.why}; expected a JSON value (a finite number, a string, true, false, null, a list or an object)`,
      { file, ...(tool.origin.line === undefined ? {} : { line: tool.origin.line, column: tool.origin.column }) },
    );
  }
}

function unsendable(value: unknown, pointer: string, depth = 0): { pointer: string; value: string; why: string } | undefined {
  if (depth > 512) return undefined;
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? undefined : { pointer, value: `\`${String(value)}\``, why: 'JSON cannot write it, and the provider is sent `null` in its place' };
    case 'bigint':
      return { pointer, value: `bigint \`${value}n\``, why: 'JSON cannot write it' };
    case 'function':
    case 'symbol':
      return { pointer, value: `${typeof value}`, why: 'JSON cannot write it, and it is left out of the request' };
    case 'undefined':
      return { pointer, value: '`undefined`', why: 'in a list it is sent as `null`' };
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = unsendable(value[i], `${pointer}/${i}`, depth + 1);
      if (bad) return bad;
    }
    return undefined;
  }
  if (value instanceof Date || value instanceof RegExp || value instanceof Map || value instanceof Set) {
    return { pointer, value: `a ${value.constructor.name}`, why: 'JSON writes it as something else (a string or `{}`)' };
  }
  for (const [key, child] of Object.entries(value)) {
    // An `undefined` member is left out of the request, as it is left out of every check.
    if (child === undefined) continue;
    const bad = unsendable(child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1);
    if (bad) return bad;
  }
  return undefined;
}

function handlerRef(value: HandlerConfig, root: string, tool: string, configFile: string): HandlerRef {
  if (typeof value !== 'string') return value.kind === 'typescript' ? { ...value, file: isAbsolute(value.file) ? value.file : resolve(root, value.file) } : value;
  const hash = value.lastIndexOf('#');
  if (hash <= 0) throw new InputError('config/invalid', `Expected the handler of \`${tool}\` as \`path/to/file.ts#TypeName\`, got \`${value}\``, { file: configFile });
  return { kind: 'typescript', file: resolve(root, value.slice(0, hash)), type: value.slice(hash + 1) };
}

/**
 * Loads the config, the tools and the prompt module. `lazyModule` reads the prompt module
 * when `module` is first used, so a run that finds everything unchanged in its cache never
 * parses it.
 */
export async function loadProject(options: { cwd?: string; config?: string; importer?: Importer; lazyModule?: boolean } = {}): Promise<Project> {
  const cwd = options.cwd ?? process.cwd();
  const config = await loadConfig({ cwd, ...(options.config === undefined ? {} : { file: options.config }), ...(options.importer ? { importer: options.importer } : {}) });
  const display = (path: string): string => relative(cwd, path) || path;
  let tools: ToolSpec[];
  if (typeof config.tools === 'string') tools = readToolsFile(resolve(config.root, config.tools), config.tools);
  else {
    // MCP servers (`mcpServer(...)`) are asked for their tools on every load: a changed description is seen by the next run.
    const servers = await (await import('./tools/mcp-project.js')).serverTools(config, display);
    try {
      tools = normalizeTools(servers?.tools ?? config.tools, display(config.file));
    } catch (error) {
      if (error instanceof ToolShapeError) throw new InputError('config/tool-shape', error.message, { file: display(config.file) });
      throw error;
    }
    servers?.place(tools);
    // Values carry no file: find where each tool's name is written, for findings to point at.
    placeModuleTools(tools, config.file, config.root, display);
  }
  // Tools read from a JSON file were checked as they were read; tools from modules are checked here.
  if (typeof config.tools !== 'string') {
    assertUniqueNames(tools, display(config.file));
    for (const tool of tools) assertSendable(tool, display(config.file));
  }
  // Unknown config keys come first: a misspelled key switches a check off silently otherwise.
  const diagnostics: Diagnostic[] = [...config.findings];
  if (config.descriptions !== undefined) {
    const merged = applyDescriptions(tools, readYaml(config.descriptions, display(config.descriptions)));
    tools = merged.tools;
    diagnostics.push(...merged.diagnostics);
  }
  for (const [name, value] of Object.entries(config.handlers ?? {})) {
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw new InputError('config/unknown-tool', `Unknown tool \`${name}\` in \`handlers\`, expected one of ${tools.map((t) => `\`${t.name}\``).join(', ')}`, { file: display(config.file) });
    tool.handler = handlerRef(value, config.root, name, display(config.file));
    // A handler named in the config is the code's own type, not the zod schema the tool was generated from: compare them.
    tool.generated = false;
  }
  // Files named like ours that the loader passes over: a prompt under a name it does not read has no checks at all.
  diagnostics.push(...unreadPromptFiles(config.prompts, { projectRoot: config.root, display, config: config.file }));
  const { isProviderName, providerNames } = await import('./checks/provider/index.js');
  for (const provider of config.providers ?? []) {
    if (!isProviderName(provider)) throw new InputError('config/invalid', `Unknown provider \`${provider}\` in \`providers\`, expected one of ${providerNames.map((p) => `\`${p}\``).join(', ')}`, { file: display(config.file) });
  }
  const registry = new Map(tools.map((t) => [t.name, t]));
  const importer = options.importer === undefined ? {} : { importer: options.importer };
  if (!options.lazyModule) return { config, tools, registry, module: loadPromptModule(config.prompts, cwd, undefined, config.root), diagnostics, display, cwd, ...importer };
  let module: PromptModule | undefined;
  return {
    config,
    tools,
    registry,
    get module(): PromptModule {
      return (module ??= loadPromptModule(config.prompts, cwd, undefined, config.root));
    },
    diagnostics,
    display,
    cwd,
    ...importer,
  };
}
