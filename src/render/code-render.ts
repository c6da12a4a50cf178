// Renders a case of a prompt module (see code.ts) into the rendered case every check reads.
// Which text came from the YAML is found the way templates find it: the builder runs a second
// time on copies of the case's input, examples and stubs whose strings are wrapped in marker
// code points; where that run gives the same text once the markers are removed, the markers'
// places are the places of the YAML values (a builder that measures or cuts its input's
// strings gives another text, and its findings point at the snapshot instead).
import { errorMessage, InputError } from '../util/errors.js';
import { DEFAULT_MAX_RENDERED_BYTES } from './handlebars.js';
import { normalizeTools, ToolShapeError } from '../tools/normalize.js';
import type { ToolSpec } from '../tools/types.js';
import { isRecord } from '../util/values.js';
import { codePromptOf, dataFileOf, outputOf, renderFailed, type CodePrompt, type PromptContext, type PromptTools, type SentTool } from './code.js';
import type { Part } from './messages.js';
import { readDataItems, type CaseDefinition, type DataItem, type PromptDefinition, type PromptModule } from './module.js';
import type { RenderedCase } from './render.js';
import { decode, emptySourceMap, hasMarkers, MarkerTable, RegionRecorder, SourceMap, type DataOrigin } from './source-map.js';
import type { YamlNodePosition } from '../util/yaml.js';

/** Imports a module file: the config's importer (jiti in the CLI, the test runner's own in the suites). */
export type ModuleImporter = (file: string) => Promise<unknown>;

export interface CodeRenderOptions {
  importer: ModuleImporter;
  maxRenderedBytes?: number;
}

const loaded = new WeakMap<ModuleImporter, Map<string, Promise<CodePrompt>>>();

/** The prompt module at `file`, imported once per importer. */
export function importCodePrompt(file: string, shown: string, importer: ModuleImporter): Promise<CodePrompt> {
  let byFile = loaded.get(importer);
  if (byFile === undefined) loaded.set(importer, (byFile = new Map()));
  let def = byFile.get(file);
  if (def === undefined) {
    def = (async () => {
      let exported: unknown;
      try {
        exported = await importer(file);
      } catch (error) {
        if (error instanceof InputError) throw error;
        throw new InputError('config/load-failed', `Cannot load the prompt module: ${errorMessage(error)}`, { file: shown }, { cause: error });
      }
      return codePromptOf(exported, shown);
    })();
    byFile.set(file, def);
  }
  return def;
}

/** The data a prompt module names (examples, retrieval stubs), read once per loaded prompt module. */
const dataOf = new WeakMap<PromptDefinition, { examples: DataItem[]; stubs: Map<string, DataItem[]> }>();

function moduleData(module: PromptModule, prompt: PromptDefinition, def: CodePrompt, file: string, display: (p: string) => string): { examples: DataItem[]; stubs: Map<string, DataItem[]> } {
  let data = dataOf.get(prompt);
  if (data === undefined) {
    const examples = def.examples === undefined ? [] : readDataItems(dataFileOf(file, def.examples), display, 'example', module.origins);
    const stubs = new Map<string, DataItem[]>();
    if (def.retrieval !== undefined) {
      for (const item of readDataItems(dataFileOf(file, def.retrieval), display, 'stub', module.origins)) {
        const key = String(item.origin.path[1]);
        stubs.set(key, [...(stubs.get(key) ?? []), item]);
      }
    }
    dataOf.set(prompt, (data = { examples, stubs }));
  }
  return data;
}

/** The tools a module sends for a case: its own list (names of the config's tools, or definitions), else every tool of the config; a case's `tools:` narrows it. */
async function toolsOf(def: CodePrompt, prompt: PromptDefinition, testCase: CaseDefinition, registry: ReadonlyMap<string, ToolSpec>, shown: string): Promise<ToolSpec[]> {
  let given: PromptTools | undefined;
  try {
    given = typeof def.tools === 'function' ? await def.tools({ prompt: prompt.name, case: testCase.name, input: structuredClone(testCase.input) }) : def.tools;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError('render/code-failed', `The prompt module's \`tools\` threw: ${errorMessage(error)}; expected the tools sent with the prompt`, { file: shown, line: 1, column: 1 }, { cause: error });
  }
  let tools: ToolSpec[];
  if (given === undefined) tools = [...registry.values()];
  else {
    const list = Array.isArray(given) ? given : undefined;
    const names = list?.filter((t): t is string => typeof t === 'string') ?? [];
    const definitions = list === undefined ? given : list.filter((t) => typeof t !== 'string');
    tools = names.map((name) => {
      const tool = registry.get(name);
      if (tool === undefined) throw new InputError('render/unknown-tool', `Unknown tool \`${name}\` in prompt module \`${prompt.name}\`, expected one of ${[...registry.keys()].map((k) => `\`${k}\``).join(', ')}`, { file: shown, line: 1, column: 1 });
      return tool;
    });
    if (!Array.isArray(definitions) || definitions.length > 0) {
      try {
        tools.push(...normalizeTools(definitions, shown));
      } catch (error) {
        if (error instanceof ToolShapeError) throw new InputError('config/tool-shape', error.message, { file: shown, line: 1, column: 1 });
        throw error;
      }
    }
  }
  if (testCase.tools === undefined) return tools;
  return testCase.tools.map((name) => {
    const tool = tools.find((t) => t.name === name) ?? registry.get(name);
    if (tool === undefined) throw new InputError('render/unknown-tool', `Unknown tool \`${name}\` in case \`${testCase.name}\`, expected one of ${tools.map((t) => `\`${t.name}\``).join(', ')}`, { file: testCase.file, line: testCase.line });
    return tool;
  });
}

function sent(tool: ToolSpec): SentTool {
  return { name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }), inputSchema: tool.inputSchema as Record<string, unknown> };
}

/** A copy of `value` whose strings are wrapped in the recorder's markers, each string with `originOf` its place. */
function marked(value: unknown, recorder: RegionRecorder, originOf: (path: Array<string | number>) => DataOrigin | undefined, path: Array<string | number> = [], depth = 0): unknown {
  if (typeof value === 'string') {
    const origin = originOf(path);
    return origin === undefined || value === '' ? value : recorder.wrap(origin, value);
  }
  if (depth > 64 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v, i) => marked(v, recorder, originOf, [...path, i], depth + 1));
  if (!isRecord(value) || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = marked(v, recorder, originOf, [...path, k], depth + 1);
  return out;
}

function nodeAt(root: YamlNodePosition | undefined, path: ReadonlyArray<string | number>): YamlNodePosition | undefined {
  let node = root;
  for (const key of path) node = node?.children?.get(key) ?? node?.children?.get(String(key));
  return node;
}

/** A promise, of this realm or another's (a module a test runner's loader evaluated elsewhere). */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** What a builder returned is the prompt, bounded as a template's render is. */
function checkSize(text: string, limit: number, shown: string): void {
  if (text.length > limit || Buffer.byteLength(text, 'utf8') > limit) {
    throw new InputError('render/too-large', `Unexpected rendered text over ${limit} bytes returned by \`render\`: more text than any prompt a model takes; expected a smaller prompt, or a higher \`maxRenderedBytes\` in the config`, { file: shown, line: 1, column: 1 });
  }
}

/** Renders one case of a prompt module. */
export async function renderCodeCase(module: PromptModule, prompt: PromptDefinition, testCase: CaseDefinition, registry: ReadonlyMap<string, ToolSpec>, options: CodeRenderOptions): Promise<RenderedCase> {
  const code = prompt.code!;
  const def = await importCodePrompt(code.file, prompt.source.file, options.importer);
  const shown = prompt.source.file;
  const display = code.display;
  const tools = await toolsOf(def, prompt, testCase, registry, shown);
  const data = moduleData(module, prompt, def, code.file, display);
  const stubs = testCase.retrieval === undefined ? [] : (data.stubs.get(testCase.retrieval) ?? []);
  if (testCase.retrieval !== undefined && !data.stubs.has(testCase.retrieval)) {
    throw new InputError('render/unknown-stub', `Unknown retrieval key \`${testCase.retrieval}\` in case \`${testCase.name}\`, expected one of ${[...data.stubs.keys()].map((k) => `\`${k}\``).join(', ') || 'none (the prompt module names no `retrieval` file)'}`, { file: testCase.file, line: testCase.line });
  }
  const context = (examples: unknown[], retrieved: unknown[]): PromptContext => ({ prompt: prompt.name, case: testCase.name, examples: examples as PromptContext['examples'], retrieved: retrieved as PromptContext['retrieved'], tools: tools.map(sent) });
  const input = { ...testCase.input };
  const limit = options.maxRenderedBytes ?? DEFAULT_MAX_RENDERED_BYTES;
  let first: unknown;
  try {
    first = def.render(structuredClone(input), context(data.examples.map((i) => structuredClone(i.value)), stubs.map((i) => structuredClone(i.value))));
  } catch (error) {
    throw renderFailed(error, shown, testCase.name);
  }
  const isAsync = isThenable(first);
  let value = first;
  if (isAsync) {
    try {
      value = await first;
    } catch (error) {
      throw renderFailed(error, shown, testCase.name);
    }
  }
  const result = outputOf(value, shown);
  checkSize(result.text, limit, shown);

  // The marked run: the case's strings at their lines in the cases file, the items' at theirs.
  const markedRun = (): { value: unknown; recorder: RegionRecorder } => {
    const recorder = new RegionRecorder();
    const caseNode = nodeAt(testCase.doc?.root, ['cases', testCase.name, 'input']);
    const inputOrigin = (path: Array<string | number>): DataOrigin | undefined => {
      const node = nodeAt(caseNode, path);
      return testCase.doc === undefined || node === undefined ? undefined : { kind: 'input', doc: testCase.doc, path: ['cases', testCase.name, 'input', ...path], node };
    };
    const itemsMarked = (list: DataItem[]) => list.map((item) => marked(item.value, recorder, () => item.origin));
    const value = def.render(marked(input, recorder, inputOrigin) as Record<string, unknown>, context(itemsMarked(data.examples), itemsMarked(stubs)));
    return { value, recorder };
  };
  const mapOf = (value: unknown, recorder: RegionRecorder): SourceMap => {
    const text = outputOf(value, shown).text;
    const { text: clean, map } = decode(text, new MarkerTable(), recorder);
    return clean === result.text ? map : emptySourceMap(result.text);
  };
  let sourceMap: SourceMap;
  if (hasMarkers(result.text)) sourceMap = emptySourceMap(result.text);
  else if (isAsync) {
    // A builder that answers later is run again now: a map made later could not wait for it.
    try {
      const run = markedRun();
      sourceMap = mapOf(await run.value, run.recorder);
    } catch {
      sourceMap = emptySourceMap(result.text);
    }
  } else {
    // A builder that answers at once is run again only when a finding needs a place.
    sourceMap = SourceMap.deferred(result.text, () => {
      const run = markedRun();
      if (isThenable(run.value)) throw new Error('the builder answered later');
      return mapOf(run.value, run.recorder);
    });
  }
  const out: RenderedCase = { prompt: prompt.name, case: testCase.name, tools, text: result.text, sourceMap, builtBy: shown };
  if (result.messages) {
    out.messages = result.messages;
    out.conversation = { shape: testCase.shape ?? prompt.shape ?? 'anthropic', origins: new WeakMap<Part, DataOrigin>() };
  }
  return out;
}
