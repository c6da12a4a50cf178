import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolSpec } from '../tools/types.js';
import { InputError } from '../util/errors.js';
import { didYouMean } from '../util/suggest.js';
import { locate } from '../util/yaml.js';
import { PromptEnvironment, type RenderOptions } from './handlebars.js';
import type { CaseDefinition, DataItem, PromptDefinition, PromptModule } from './module.js';
import { type FewShotExample, fewShotTurns, hasMessageMarkers, withFewShot } from './conversation.js';
import { metadataFromFrontmatter, renderDotpromptMetadata, toMessages } from './dotprompt.js';
import { promptSchema } from './prompt-schemas.js';
import type { Message, Part, Role } from './messages.js';
import type { DataOrigin, InputSource, SourceMap } from './source-map.js';
import type { Shape } from './wire.js';

/** The exact text a prompt sends for one case, the tools sent beside it, and where each part came from. */
export interface RenderedCase {
  prompt: string;
  case: string;
  text: string;
  tools: ToolSpec[];
  sourceMap: SourceMap;
  /**
   * Present when the prompt renders to messages (`{{role}}`, `{{history}}`, few-shot turns, a
   * case's `history`), cut from `text` by dotprompt's rules; text parts map to their template
   * lines through `text`, structured parts to the YAML they were written in (`conversation.origins`).
   */
  messages?: Message[];
  conversation?: { shape: Shape; origins: WeakMap<Part, DataOrigin> };
  /** The prompt's `output.schema` (Picoschema expanded to JSON Schema), shown in the snapshot. */
  outputSchema?: unknown;
  /** The prompt module that built the text, for a prompt built by code: text no YAML gave came from there. */
  builtBy?: string;
}

/** One curated example or stub entry rendered alone through the partial production uses for it. */
export interface RenderedItem {
  prompt: string;
  kind: 'example' | 'stub';
  /** `file:line` of the item, for test names. */
  label: string;
  text: string;
  tools: ToolSpec[];
  sourceMap: SourceMap;
}

function toolsFor(prompt: PromptDefinition, registry: ReadonlyMap<string, ToolSpec>, testCase?: CaseDefinition): ToolSpec[] {
  const names = testCase?.tools ?? prompt.tools;
  return names.map((name, i) => {
    const tool = registry.get(name);
    if (tool) return tool;
    const known = [...registry.keys()].map((k) => `\`${k}\``).join(', ');
    if (testCase?.tools) {
      throw new InputError('render/unknown-tool', `Unknown tool \`${name}\` in case \`${testCase.name}\`, expected one of ${known}`, { file: testCase.file, line: testCase.line });
    }
    throw new InputError('render/unknown-tool', `Unknown tool \`${name}\` in prompt \`${prompt.name}\`, expected one of ${known}`, prompt.toolsAt[i] ?? { file: prompt.source.file });
  });
}

/** A tool as a template sees it in `@tools`: what is sent, not where it came from. */
function asSent(tool: ToolSpec): { name: string; description?: string; parameters: unknown } {
  return tool.description === undefined ? { name: tool.name, parameters: tool.inputSchema } : { name: tool.name, description: tool.description, parameters: tool.inputSchema };
}

const environments = new WeakMap<PromptModule, PromptEnvironment>();

/** One compiled environment per loaded module: templates compile once, not once per case. */
function environmentOf(module: PromptModule): PromptEnvironment {
  let env = environments.get(module);
  if (!env) environments.set(module, (env = new PromptEnvironment(module.partials, module.origins)));
  return env;
}

const quote = (names: Iterable<string>): string => [...names].map((n) => `\`${n}\``).join(', ');

// This package's own folder (`src/` or `dist/`): frames in it are not where a name was written.
const ownFolder = fileURLToPath(new URL('../', import.meta.url));

/**
 * Where the code that called into this package wrote the name it asked for: the first frame
 * of the current stack outside this package, Node.js and `node_modules`, as `file:line:column`
 * relative to the working folder. `undefined` when no frame qualifies.
 */
export function callerPlace(stack: string | undefined = new Error().stack, cwd = process.cwd()): { file: string; line: number; column: number } | undefined {
  for (const frame of (stack ?? '').split('\n').slice(1)) {
    const match = /(?:\(|at )((?:file:\/\/)?[^()\s][^()]*?):(\d+):(\d+)\)?\s*$/.exec(frame);
    if (!match) continue;
    let file = match[1]!;
    if (file.startsWith('file://')) {
      try {
        file = fileURLToPath(file);
      } catch {
        continue;
      }
    }
    if (!isAbsolute(file) || file.startsWith(ownFolder) || /[\\/]node_modules[\\/]/.test(file)) continue;
    return { file: relative(cwd, file) || file, line: Number(match[2]), column: Number(match[3]) };
  }
  return undefined;
}

/** The prompts folder as shown to people, relative to the working folder. */
const folderOf = (module: PromptModule): string => relative(process.cwd(), module.root) || '.';

function lookupPrompt(module: PromptModule, name: string): PromptDefinition {
  const prompt = module.prompts.get(name);
  if (!prompt) {
    const known = [...module.prompts.keys()];
    // The name was written by the caller: point there, or at the prompts folder.
    throw new InputError('render/unknown-prompt', `Unknown prompt \`${name}\`, expected one of ${quote(known) || 'none'} (the \`.prompt\` files in \`${folderOf(module)}\`)${didYouMean(name, known)}`, callerPlace() ?? { file: folderOf(module) });
  }
  return prompt;
}

/** Every prompt and case, in a stable order. */
export function listCases(module: PromptModule): Array<{ prompt: string; case: string }> {
  const out: Array<{ prompt: string; case: string }> = [];
  for (const prompt of [...module.prompts.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    for (const name of [...prompt.cases.keys()].sort()) out.push({ prompt: prompt.name, case: name });
  }
  return out;
}

/**
 * Renders one case: the template with the case's inputs, the prompt's curated examples as
 * `examples`, the retrieval stub the case names as `retrieved`, and the tools as `@tools`.
 */
/** A case of a prompt, or the error that names the cases there are. */
function caseOf(module: PromptModule, prompt: PromptDefinition, caseName: string): CaseDefinition {
  const testCase = prompt.cases.get(caseName);
  if (testCase) return testCase;
  const known = [...prompt.cases.keys()];
  const files = [...new Set([...prompt.cases.values()].map((c) => c.file))];
  throw new InputError(
    'render/unknown-case',
    `Unknown case \`${caseName}\` for prompt \`${prompt.name}\`, expected one of ${quote(known) || `none (add them to a file in \`${folderOf(module)}/cases/\`)`}${files.length > 0 ? ` (in ${files.join(', ')})` : ''}${didYouMean(caseName, known)}`,
    callerPlace() ?? { file: files[0] ?? prompt.source.file },
  );
}

/**
 * Renders one case of any prompt: a template (`.prompt`), or a prompt module whose `render`
 * runs the production builder (see code-render.ts). `importer` imports a prompt module, as
 * the config was imported (jiti in the CLI, the test runner's loader in the suites).
 */
export async function renderAnyCase(module: PromptModule, promptName: string, caseName: string, registry: ReadonlyMap<string, ToolSpec>, options: RenderOptions & { importer?: (file: string) => Promise<unknown> } = {}): Promise<RenderedCase> {
  const prompt = lookupPrompt(module, promptName);
  if (prompt.code === undefined) return renderCase(module, promptName, caseName, registry, options);
  const testCase = caseOf(module, prompt, caseName);
  const importer = options.importer ?? (await import('../config/index.js')).defaultImporter;
  const { renderCodeCase } = await import('./code-render.js');
  return renderCodeCase(module, prompt, testCase, registry, { importer, ...(options.maxRenderedBytes === undefined ? {} : { maxRenderedBytes: options.maxRenderedBytes }) });
}

/** Renders one case of a template prompt (a prompt module renders with `renderAnyCase`: its builder may answer later). */
export function renderCase(module: PromptModule, promptName: string, caseName: string, registry: ReadonlyMap<string, ToolSpec>, options: RenderOptions = {}): RenderedCase {
  const prompt = lookupPrompt(module, promptName);
  const testCase = caseOf(module, prompt, caseName);
  if (prompt.code !== undefined) {
    throw new InputError('render/code-prompt', `Prompt \`${prompt.name}\` is built by code (${prompt.source.file}): render it with \`renderAnyCase\`, which waits for its builder`, callerPlace() ?? { file: prompt.source.file });
  }
  const tools = toolsFor(prompt, registry, testCase);
  // `examples` and `retrieved` are filled only for a prompt that declares them: any other sees its inputs alone, as dotprompt does.
  const filled: Record<string, unknown> = {};
  if (prompt.examples) filled.examples = prompt.examples.items.map((i) => i.value);
  if (prompt.retrieval) filled.retrieved = (testCase.retrieval === undefined ? [] : (prompt.retrieval.entries.get(testCase.retrieval) ?? [])).map((i) => i.value);
  for (const reserved of Object.keys(filled)) {
    if (Object.hasOwn(testCase.input, reserved)) throw new InputError('config/invalid', `Input \`${reserved}\` is reserved: the renderer fills it from the prompt's ${reserved === 'examples' ? 'examples file' : 'retrieval stubs'}`, { file: testCase.file, line: testCase.line });
  }
  const env = environmentOf(module);
  const context = { ...prompt.input, ...testCase.input, ...filled };
  const history = testCase.history?.map((h) => h.value);
  // dotprompt's data variables: the case's `state`, `auth` and `context`, and `@metadata` (the prompt's metadata without `input`, the history).
  const data = {
    ...(testCase.context ?? {}),
    metadata: { prompt: dotpromptMetadataOf(prompt, tools), ...(history ? { messages: history } : {}) },
    prompt: prompt.name,
    case: caseName,
    tools: tools.map(asSent),
  };
  let rendered: { text: string; sourceMap: SourceMap };
  try {
    rendered = env.render(prompt.source, context, data, options);
  } catch (error) {
    // A missing variable is the case's omission as much as the template's: name both.
    if (error instanceof InputError && error.code === 'render/missing-variable') {
      throw new InputError(error.code, `${error.message}; case \`${caseName}\` is defined at ${testCase.file}:${testCase.line}`, { file: error.file, line: error.line, column: error.column }, { cause: error });
    }
    throw error;
  }
  const { text, sourceMap } = rendered;
  sourceMap.withInputs(inputSources(prompt, testCase));
  const out: RenderedCase = { prompt: prompt.name, case: caseName, tools, text, sourceMap };
  const output = promptSchema(prompt, 'output');
  if (output.error) throw new InputError('config/invalid', `Unexpected output.schema in prompt \`${prompt.name}\`: ${output.error.message}`, { file: prompt.source.file });
  if (output.schema) out.outputSchema = output.schema;
  if (hasMessageMarkers(text) || prompt.turns || testCase.history || testCase.shape) {
    const origins = new WeakMap<Part, DataOrigin>();
    const history = (testCase.history ?? []).map((h) => historyMessage(h.value, h.origin, origins));
    // dotprompt's own rules cut the text into messages and place the history.
    let messages = toMessages(text, history) as Message[];
    if (prompt.turns) messages = withFewShot(messages, fewShotTurns(prompt.turns.items.map((item) => turnExample(item, module)), origins));
    out.messages = messages;
    out.conversation = { shape: testCase.shape ?? prompt.shape ?? 'anthropic', origins };
  }
  return out;
}

const metadataCache = new WeakMap<PromptDefinition, WeakMap<ToolSpec[], Record<string, unknown>>>();

/** `{{@metadata.prompt}}`: the prompt's frontmatter as dotprompt's metadata (tools as `toolDefs`, schemas expanded), without `input`. */
function dotpromptMetadataOf(prompt: PromptDefinition, tools: ToolSpec[]): Record<string, unknown> {
  let byTools = metadataCache.get(prompt);
  if (!byTools) metadataCache.set(prompt, (byTools = new WeakMap()));
  let out = byTools.get(tools);
  if (out) return out;
  const definitions = Object.fromEntries(tools.map((t) => [t.name, { name: t.name, ...(t.description === undefined ? {} : { description: t.description }), inputSchema: t.inputSchema }]));
  const schemas = prompt.schemas;
  let meta: Record<string, unknown>;
  try {
    meta = { ...renderDotpromptMetadata(metadataFromFrontmatter(prompt.meta), { tools: definitions, ...(schemas ? { resolveSchema: (name: string) => schemas.get(name) } : {}) }) };
  } catch {
    // A schema that does not expand is reported by the schema checks, at its line: the metadata shows it as written.
    meta = { ...metadataFromFrontmatter(prompt.meta) };
  }
  delete meta.input;
  delete meta.template;
  byTools.set(tools, (out = meta));
  return out;
}

/** Where a case's inputs are written, then its prompt's defaults: a finding in text printed from one points there. */
function inputSources(prompt: PromptDefinition, testCase: CaseDefinition): InputSource[] {
  const out: InputSource[] = [];
  const caseInput = testCase.doc?.root?.children?.get('cases')?.children?.get(testCase.name)?.children?.get('input');
  if (testCase.doc && caseInput) out.push({ doc: testCase.doc, node: caseInput, value: testCase.input });
  const defaults = prompt.frontmatter?.root?.children?.get('input')?.children?.get('default');
  if (prompt.frontmatter && defaults) out.push({ doc: prompt.frontmatter, node: defaults, value: prompt.input });
  return out;
}

const roles: readonly Role[] = ['system', 'user', 'model', 'tool'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function at(origin: DataOrigin, path: Array<string | number>): { file: string; line?: number; column?: number } {
  const loc = locate(origin.doc, path);
  return { file: origin.doc.file, ...(loc ?? {}) };
}

/** A case's history message (`{role, content}` with dotprompt parts, or `{role, text}`), with each structured part's origin. */
function historyMessage(value: Record<string, unknown>, origin: DataOrigin, origins: WeakMap<Part, DataOrigin>): Message {
  const role = value.role;
  if (typeof role !== 'string' || !(roles as readonly string[]).includes(role)) {
    throw new InputError('config/invalid', `Unexpected history role ${JSON.stringify(role)}, expected one of ${roles.map((r) => `\`${r}\``).join(', ')}`, at(origin, [...origin.path, 'role']));
  }
  const content = typeof value.text === 'string' ? [{ text: value.text }] : typeof value.content === 'string' ? [{ text: value.content }] : value.content;
  if (!Array.isArray(content)) throw new InputError('config/invalid', 'Expected `content` to be text or a list of parts (`text`, `toolRequest`, `toolResponse`, `media`)', at(origin, origin.path));
  const parts: Part[] = content.map((p, i) => {
    const place = at(origin, [...origin.path, 'content', i]);
    if (!isRecord(p)) throw new InputError('config/invalid', `Expected a part mapping, got ${JSON.stringify(p)}`, place);
    if (typeof p.text === 'string') return { text: p.text };
    const req = p.toolRequest;
    if (isRecord(req) && typeof req.name === 'string') {
      const part: Part = { toolRequest: { name: req.name, input: req.input ?? {}, ...(typeof req.ref === 'string' ? { ref: req.ref } : {}) } };
      origins.set(part, dataOriginOf(origin, [...origin.path, 'content', i, 'toolRequest', 'input']));
      return part;
    }
    const res = p.toolResponse;
    if (isRecord(res) && typeof res.name === 'string') {
      const part: Part = { toolResponse: { name: res.name, output: res.output ?? null, ...(typeof res.ref === 'string' ? { ref: res.ref } : {}) } };
      origins.set(part, dataOriginOf(origin, [...origin.path, 'content', i, 'toolResponse']));
      return part;
    }
    if (isRecord(p.media) && typeof p.media.url === 'string') return { media: { url: p.media.url, ...(typeof p.media.contentType === 'string' ? { contentType: p.media.contentType } : {}) } };
    throw new InputError('config/invalid', 'Unexpected part, expected `text`, `toolRequest: {name, input, ref}`, `toolResponse: {name, output, ref}` or `media: {url}`', place);
  });
  return { role: role as Role, content: parts };
}

/** The origin of the YAML node at `path` in the same document (the node itself, for `locateInstance`). */
function dataOriginOf(origin: DataOrigin, path: Array<string | number>): DataOrigin {
  let node = origin.doc.root;
  for (const key of path) node = node?.children?.get(key) ?? node?.children?.get(String(key));
  return { ...origin, path, node: node ?? origin.node };
}

/** An examples-file item as few-shot turns: `{user, calls: [{name, arguments, result}], reply}`. */
function turnExample(item: { value: Record<string, unknown>; origin: DataOrigin }, module: PromptModule): FewShotExample<DataOrigin> {
  const { value, origin } = item;
  const calls = value.calls ?? [];
  if (!Array.isArray(calls)) throw new InputError('config/invalid', 'Expected `calls` to be a list of `{name, arguments, result}`', at(origin, [...origin.path, 'calls']));
  return {
    ...(typeof value.user === 'string' ? { user: value.user } : {}),
    ...(typeof value.reply === 'string' ? { reply: value.reply } : {}),
    origin,
    calls: calls.map((c, k) => {
      const path = [...origin.path, 'calls', k];
      if (!isRecord(c) || typeof c.name !== 'string') throw new InputError('config/invalid', 'Expected each call to have a `name` and `arguments`', at(origin, path));
      const args = c.arguments ?? {};
      return {
        name: c.name,
        arguments: args,
        hasResult: Object.hasOwn(c, 'result'),
        result: c.result,
        // A finding about the arguments points into them (`locateInstance`), so the origin is the arguments node.
        origin: (typeof args === 'object' && args !== null ? module.origins.get(args) : undefined) ?? dataOriginOf(origin, [...path, 'arguments']),
        resultOrigin: dataOriginOf(origin, [...path, 'result']),
      };
    }),
  };
}


/**
 * Renders every curated example and every retrieval-stub entry of a prompt through the
 * partial production uses for it, so that an example no standard case happens to show is
 * still checked.
 */
export function renderDataItems(module: PromptModule, promptName: string, registry: ReadonlyMap<string, ToolSpec>, options: RenderOptions = {}): RenderedItem[] {
  const prompt = lookupPrompt(module, promptName);
  const tools = toolsFor(prompt, registry);
  const out: RenderedItem[] = [];
  const renderAll = (list: DataItem[], partial: string, declaredAt: { file: string; line?: number }): void => {
    const env = environmentOf(module);
    for (const item of list) {
      const { text, sourceMap } = env.renderPartial(partial, item.value, { prompt: prompt.name, tools: tools.map(asSent) }, declaredAt, options);
      const at = locate(item.origin.doc, item.origin.path);
      out.push({ prompt: prompt.name, kind: item.origin.kind === 'stub' ? 'stub' : 'example', label: `${item.origin.doc.file}:${at?.line ?? 1}`, tools, text, sourceMap });
    }
  };
  if (prompt.examples) renderAll(prompt.examples.items, prompt.examples.partial, prompt.examples.declaredAt);
  if (prompt.retrieval) {
    for (const list of prompt.retrieval.entries.values()) renderAll(list, prompt.retrieval.partial, prompt.retrieval.declaredAt);
  }
  return out;
}
