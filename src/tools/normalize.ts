import { z } from 'zod';
import { tooDeepAt, tooDeepMessage } from '../schema/depth.js';
import { escapeSegment } from '../schema/pointer.js';
import { isRecord, setOwn, withObjectPrototypes } from '../util/values.js';
import { suggestName } from '../util/suggest.js';
import type { JsonSchemaObject, ToolInputExample, ToolShape, ToolSpec } from './types.js';

/** A tool definition that could not be understood; the message names what was expected. */
export class ToolShapeError extends Error {
  override name = 'ToolShapeError';
  /** JSON Pointer of the definition it is about, in the document `normalizeTools` read, when known. */
  pointer?: string;
}

/** `fn`, with the pointer of the definition it reads put on a ToolShapeError it throws (the innermost one wins). */
function at<T>(pointer: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof ToolShapeError && error.pointer === undefined) error.pointer = pointer;
    throw error;
  }
}

/** A zod schema (v4 carries `_zod`; v3 carries `_def`). */
export function isZodSchema(value: unknown): value is z.ZodType {
  return isRecord(value) && ('_zod' in value || '_def' in value);
}

/**
 * The JSON Schema of a zod input type, as the model must write it. `io: "input"` matters:
 * a field with a default is optional for the writer (the model) even though the parsed
 * output always has it.
 */
export function zodToJsonSchema(schema: z.ZodType, name = 'a tool'): JsonSchemaObject {
  if (!('_zod' in schema)) {
    throw new ToolShapeError(
      `The zod input type of ${name} is a zod 3 schema, expected a zod 4 one: install zod 4 (\`npm i zod@^4\`), or with zod 3.25 import \`z\` from 'zod/v4'`,
    );
  }
  let json: JsonSchemaObject;
  try {
    // `throw`, not `any`: a type JSON Schema cannot express (a date, a transform) must not silently become "accept anything".
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'throw' }) as JsonSchemaObject;
  } catch (error) {
    throw new ToolShapeError(`The zod input type of ${name} cannot be sent as JSON Schema: ${(error as Error).message}; use types a model can write (strings, numbers, enums, objects, arrays)`);
  }
  delete json.$schema;
  return json;
}

const geminiTypes = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);

function usesGeminiTypes(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  if (typeof schema.type === 'string' && geminiTypes.has(schema.type)) return true;
  if (isRecord(schema.properties)) return Object.values(schema.properties).some(usesGeminiTypes);
  return usesGeminiTypes(schema.items);
}

/** Gemini's OpenAPI-flavoured `parameters` (upper-case types, `nullable`) as plain JSON Schema. */
function fromGeminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(fromGeminiSchema);
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (key === 'properties' && isRecord(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromGeminiSchema(v)]));
    } else if (key === 'items' || key === 'anyOf') out[key] = fromGeminiSchema(value);
    // A key named `__proto__` stays a key: plain assignment would set the copy's prototype instead.
    else if (key !== 'nullable') setOwn(out, key, value);
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

/** Where `schemaFrom` finds the schema in the value at `slot`: the slot, or the wrapper's `jsonSchema`. */
function schemaSlot(value: unknown, slot: string): string {
  return !isZodSchema(value) && isRecord(value) && isRecord(value.jsonSchema) && !('type' in value) ? `${slot}/jsonSchema` : slot;
}

function schemaFrom(value: unknown, where: string): JsonSchemaObject {
  if (isZodSchema(value)) return zodToJsonSchema(value, where);
  // Vercel AI SDK's jsonSchema() wrapper keeps the plain schema under `jsonSchema`.
  if (isRecord(value) && isRecord(value.jsonSchema) && !('type' in value)) return value.jsonSchema as JsonSchemaObject;
  if (isRecord(value)) return value;
  throw new ToolShapeError(`${where}: expected a JSON Schema object, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`);
}

/** Every later step walks the schema recursively: a schema nested too deep is refused here, with where it gets too deep. */
function assertDepth(schema: unknown, where: string, name: unknown): void {
  const deep = tooDeepAt(schema);
  if (deep !== undefined) throw new ToolShapeError(`${where}: the input schema of ${typeof name === 'string' && name !== '' ? `\`${name}\`` : 'the tool'} ${tooDeepMessage(deep)}`);
}

/** JSON Pointers, relative to the tool's definition, of its name (when it has one of its own) and of its input schema. */
interface Slots {
  name?: string;
  schema: string;
}

function spec(
  name: unknown,
  description: unknown,
  schema: JsonSchemaObject,
  shape: ToolShape,
  where: string,
  extra: Partial<ToolSpec> = {},
  slots?: Slots,
): ToolSpec {
  if (typeof name !== 'string' || name === '') throw new ToolShapeError(`${where}: expected a tool \`name\` string`);
  assertDepth(schema, where, name);
  schema = withObjectPrototypes(schema) as JsonSchemaObject;
  const origin: ToolSpec['origin'] = { shape };
  if (slots?.name !== undefined) origin.namePointer = slots.name;
  if (slots !== undefined) origin.schemaPointer = slots.schema;
  const tool: ToolSpec = { name, inputSchema: schema, origin, ...extra };
  if (typeof description === 'string') tool.description = description;
  return tool;
}

/** Where a definition keeps its input schema, in one shape or another. */
const schemaKeys = ['function', 'toolSpec', 'input_schema', 'inputSchema', 'parameters', 'parametersJsonSchema'];

/** The kinds of Gemini `Tool` that are not function declarations (`{googleSearch: {}}`, `{code_execution: {}}`). */
const geminiBuiltIns = new Set([
  'googleSearch', 'google_search', 'googleSearchRetrieval', 'google_search_retrieval', 'codeExecution', 'code_execution', 'urlContext',
  'url_context', 'retrieval', 'googleMaps', 'google_maps', 'computerUse', 'computer_use', 'fileSearch', 'file_search', 'enterpriseWebSearch',
  'enterprise_web_search',
]);

/**
 * A tool the provider defines itself, sent in the same list as function tools: Anthropic's
 * server and client tools (`{type: "web_search_20250305", name: "web_search"}`, `bash_20250124`),
 * OpenAI's built-in tools (`{type: "web_search_preview"}`, `file_search`, `code_interpreter`)
 * and free-form custom tools, Gemini's `{googleSearch: {}}`, AI SDK provider-defined tools.
 * None carries a JSON Schema of its arguments to check: a named one becomes a provided tool
 * (`providedTool`), one without a name is left out.
 */
export function isBuiltInTool(value: unknown): boolean {
  if (!isRecord(value) || isZodSchema(value) || schemaKeys.some((key) => key in value)) return false;
  // A bare schema put in the list by mistake (`{type: "object", properties: ...}`) is not one: it is reported.
  if (typeof value.type === 'string') return value.type !== 'function' && !schemaTypes.has(value.type.toLowerCase()) && !('properties' in value);
  const keys = Object.keys(value);
  return keys.length > 0 && value.name === undefined && keys.every((key) => geminiBuiltIns.has(key));
}

const schemaTypes = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/**
 * A provider-defined tool that the model calls by name (Anthropic's `bash`,
 * `str_replace_based_edit_tool`, `computer`, `memory`; an OpenAI custom tool; an AI SDK
 * provider tool, named by its key): kept, so that its calls in examples, logs and stored
 * conversations are known, with an empty schema, so that they are not checked. One without a
 * name (`{type: "web_search_preview"}`, `{googleSearch: {}}`) is never called by one, and is left out.
 */
function providedTool(value: unknown, key: string | undefined, place: (tool: ToolSpec) => ToolSpec): ToolSpec[] {
  if (!isRecord(value)) return [];
  const name = typeof value.name === 'string' && value.name !== '' ? value.name : key;
  const type = typeof value.id === 'string' ? value.id : typeof value.type === 'string' ? value.type : undefined;
  if (name === undefined || type === undefined) return [];
  const definition: Record<string, unknown> = {};
  // As written, minus what is no JSON (an AI SDK tool's `execute`).
  for (const [k, v] of Object.entries(value)) if (typeof v !== 'function' && typeof v !== 'symbol' && v !== undefined) definition[k] = v;
  const tool: ToolSpec = { name, inputSchema: {}, origin: { shape: key !== undefined ? 'vercel-ai' : /_\d{8}$/.test(type) ? 'anthropic' : 'openai-responses' }, provided: { type, definition } };
  if (typeof value.description === 'string') tool.description = value.description;
  const placed = place(tool);
  if (key === undefined && typeof value.name === 'string') placed.origin.namePointer = `${placed.origin.pointer ?? ''}/name`;
  return [placed];
}

/** What a definition without `parameters` may hold besides (OpenAI Responses, Gemini `FunctionDeclaration`). */
const noArgumentKeys = new Set(['type', 'name', 'description', 'strict', 'parameters', 'response', 'responseJsonSchema', 'behavior']);

/** The schema of a function that takes no arguments, for definitions that may leave it out. */
const noArguments = (): JsonSchemaObject => ({ type: 'object', properties: {} });

/**
 * One tool definition in any common shape -> ToolSpec: Anthropic `input_schema`, OpenAI Chat
 * `{type:"function", function:{...}}`, OpenAI Responses `{type:"function", name, parameters}`,
 * MCP `inputSchema`, Gemini `parameters`/`parametersJsonSchema`, Bedrock `toolSpec`, Vercel AI
 * SDK `tool({inputSchema})` and zod schemas in any of those slots. `origin.namePointer` and
 * `origin.schemaPointer` say where in the definition the name and the schema were found.
 */
export function normalizeTool(input: unknown, where = 'tool', nameHint?: string, within?: 'gemini'): ToolSpec {
  if (!isRecord(input)) throw new ToolShapeError(`${where}: expected a tool definition object, got ${JSON.stringify(input)}`);
  // Already a ToolSpec (from defineTool): keep its handler and `generated` flag.
  if (isRecord(input.origin) && isRecord(input.inputSchema) && typeof input.name === 'string' && typeof input.origin.shape === 'string') {
    assertDepth(input.inputSchema, where, input.name);
    // Where it was found before belongs to another document: only its shape carries over.
    const shape = input.origin.shape as ToolShape;
    const tool: ToolSpec = { ...(input as unknown as ToolSpec), origin: { shape } };
    // Its examples' places belong to that other document too.
    if (tool.inputExamples) tool.inputExamples = tool.inputExamples.map(({ key, index, input: value, problem }) => ({ key, index, ...(problem === undefined ? { input: value } : { problem }) }));
    return tool;
  }
  const tool = normalizeShape(input, where, nameHint, within);
  const examples = inputExamplesOf(input);
  if (examples.length > 0) tool.inputExamples = examples;
  const described = isRecord(input.function) ? ['/function/description', input.function.description] : isRecord(input.toolSpec) ? ['/toolSpec/description', input.toolSpec.description] : ['/description', input.description];
  if (typeof described[1] === 'string') tool.origin.descriptionPointer = described[0] as string;
  return tool;
}

/**
 * The example inputs a definition carries: Anthropic's `input_examples` (inputs) and the AI
 * SDK's `inputExamples` (`{input}` each), at the top of the definition or beside an OpenAI
 * Chat `function`'s parameters. An entry of the wrong shape is kept with what is wrong, for
 * the check to report where it is written: the provider refuses the request, or drops it.
 */
export function inputExamplesOf(definition: Record<string, unknown>): ToolInputExample[] {
  const out: ToolInputExample[] = [];
  const holders: Array<[Record<string, unknown>, string]> = [[definition, '']];
  if (isRecord(definition.function)) holders.push([definition.function, '/function']);
  for (const [holder, base] of holders) {
    for (const key of ['input_examples', 'inputExamples'] as const) {
      const list = holder[key];
      if (list === undefined || list === null) continue;
      if (!Array.isArray(list)) {
        out.push({ key, index: -1, pointer: `${base}/${key}`, problem: `Unexpected ${describe(list)} as \`${key}\`, expected an array of ${key === 'inputExamples' ? '`{ input: {...} }` objects' : 'input objects'}` });
        continue;
      }
      list.forEach((entry: unknown, index) => {
        if (key === 'input_examples') {
          out.push({ key, index, input: entry, pointer: `${base}/${key}/${index}` });
        } else if (isRecord(entry) && 'input' in entry) {
          out.push({ key, index, input: entry.input, pointer: `${base}/${key}/${index}/input` });
        } else {
          out.push({ key, index, pointer: `${base}/${key}/${index}`, problem: `Unexpected ${describe(entry)} as \`inputExamples[${index}]\`, expected \`{ input: {...} }\` (the AI SDK reads the example's \`input\`)` });
        }
      });
    }
  }
  return out;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (isRecord(value)) return `an object with keys ${Object.keys(value).map((k) => `\`${k}\``).join(', ') || 'none'}`;
  return JSON.stringify(value) ?? String(value);
}

function normalizeShape(input: Record<string, unknown>, where: string, nameHint: string | undefined, within: 'gemini' | undefined): ToolSpec {
  const strict = typeof input.strict === 'boolean' ? { strict: input.strict } : {};
  if (isRecord(input.function)) {
    const fn = input.function;
    const s = typeof fn.strict === 'boolean' ? { strict: fn.strict } : strict;
    const slots = { name: '/function/name', schema: fn.parameters === undefined ? '/function' : schemaSlot(fn.parameters, '/function/parameters') };
    return spec(fn.name, fn.description, schemaFrom(fn.parameters ?? { type: 'object', properties: {} }, `${where}.function.parameters`), 'openai-chat', where, s, slots);
  }
  if (isRecord(input.toolSpec)) {
    const ts = input.toolSpec;
    const json = isRecord(ts.inputSchema) ? ts.inputSchema.json : undefined;
    return spec(ts.name, ts.description, schemaFrom(json, `${where}.toolSpec.inputSchema.json`), 'bedrock', where, {}, { name: '/toolSpec/name', schema: '/toolSpec/inputSchema/json' });
  }
  const name = input.name ?? nameHint;
  const slot = (key: string): Slots => ({ ...(input.name === undefined ? {} : { name: '/name' }), schema: schemaSlot(input[key], `/${escapeSegment(key)}`) });
  if ('input_schema' in input) return spec(name, input.description, schemaFrom(input.input_schema, `${where}.input_schema`), 'anthropic', where, strict, slot('input_schema'));
  if ('inputSchema' in input) {
    const zod = isZodSchema(input.inputSchema);
    const shape: ToolShape = zod || input.name === undefined ? 'vercel-ai' : 'mcp';
    return spec(name, input.description, schemaFrom(input.inputSchema, `${where}.inputSchema`), shape, where, zod ? { ...strict, generated: true } : strict, slot('inputSchema'));
  }
  if ('parametersJsonSchema' in input) return spec(name, input.description, schemaFrom(input.parametersJsonSchema, `${where}.parametersJsonSchema`), 'gemini-json-schema', where, {}, slot('parametersJsonSchema'));
  // A Gemini declaration or an OpenAI Responses tool may leave `parameters` out (or null) when the function takes none.
  if ((within === 'gemini' || input.type === 'function') && (input.parameters === undefined || input.parameters === null) && !schemaKeys.some((key) => key !== 'parameters' && key in input)) {
    // A misspelled `parameters` must not turn the tool into one without arguments.
    const stray = Object.keys(input).find((key) => !noArgumentKeys.has(key));
    if (stray !== undefined) {
      const guess = suggestName(stray, ['parameters', 'parametersJsonSchema', 'description']);
      throw new ToolShapeError(`${where}: unexpected key \`${stray}\` in the definition of ${typeof name === 'string' ? `\`${name}\`` : 'a tool'}${guess ? `; did you mean \`${guess.name}\`?` : ''} Expected \`name\`, \`description\` and \`parameters\` (left out only when the function takes no arguments)`);
    }
    return spec(name, input.description, noArguments(), within === 'gemini' ? 'gemini' : 'openai-responses', where, strict, { ...(input.name === undefined ? {} : { name: '/name' }), schema: '' });
  }
  if ('parameters' in input) {
    // Checked before the Gemini conversion, which recurses.
    assertDepth(input.parameters, where, name);
    if (usesGeminiTypes(input.parameters)) {
      return spec(name, input.description, fromGeminiSchema(input.parameters) as JsonSchemaObject, 'gemini', where, {}, slot('parameters'));
    }
    const shape: ToolShape = input.type === 'function' ? 'openai-responses' : 'plain';
    return spec(name, input.description, schemaFrom(input.parameters, `${where}.parameters`), shape, where, strict, slot('parameters'));
  }
  if (isZodSchema(input) && nameHint) return spec(nameHint, undefined, zodToJsonSchema(input, `\`${nameHint}\``), 'zod', where, { generated: true }, { schema: '' });
  throw new ToolShapeError(
    `${where}: expected a tool with \`input_schema\` (Anthropic), \`function.parameters\` (OpenAI Chat), \`parameters\` (OpenAI Responses, Gemini), \`inputSchema\` (MCP, Vercel AI SDK) or \`toolSpec\` (Bedrock); found keys ${Object.keys(input).map((k) => `\`${k}\``).join(', ') || 'none'}`,
  );
}

/** Gemini's list of function declarations, under the name the SDKs use or the REST API's. */
function declarationsKey(value: unknown): 'functionDeclarations' | 'function_declarations' | undefined {
  if (!isRecord(value)) return undefined;
  if (Array.isArray(value.functionDeclarations)) return 'functionDeclarations';
  if (Array.isArray(value.function_declarations)) return 'function_declarations';
  return undefined;
}

/**
 * A whole tools document -> ToolSpec[]: one tool, an array of tools, an object with a
 * `tools` array (MCP `tools/list`), Gemini `{functionDeclarations}` or
 * `[{functionDeclarations}]` (or `function_declarations`), or a record of name -> tool (Vercel AI SDK `tools`). Each
 * tool's `origin` says where in the document it was found (`pointer`, and the pointers of
 * its name and schema), so a finding can point at the line that defines it. Tools the
 * provider defines itself (`isBuiltInTool`) carry no schema to check: those the model calls by
 * name are kept as provided tools, the others left out.
 */
export function normalizeTools(input: unknown, file?: string): ToolSpec[] {
  return normalizeAt(input, file, '');
}

function normalizeAt(input: unknown, file: string | undefined, base: string, within?: 'gemini'): ToolSpec[] {
  const where = file ?? 'tools';
  const withOrigin = (tool: ToolSpec, index: number, pointer: string, keyIsName = false): ToolSpec => {
    const origin = { ...tool.origin, index, ...(file === undefined ? {} : { file }), pointer };
    // Pointers found inside the definition are relative to it; a ToolSpec passed through (defineTool) has none.
    if (tool.origin.schemaPointer !== undefined) origin.schemaPointer = pointer + tool.origin.schemaPointer;
    if (tool.origin.namePointer !== undefined) origin.namePointer = pointer + tool.origin.namePointer;
    else if (keyIsName) origin.namePointer = pointer;
    if (tool.origin.descriptionPointer !== undefined) origin.descriptionPointer = pointer + tool.origin.descriptionPointer;
    tool.origin = origin;
    if (tool.inputExamples) tool.inputExamples = tool.inputExamples.map((e) => (e.pointer === undefined ? e : { ...e, pointer: pointer + e.pointer }));
    return tool;
  };
  if (Array.isArray(input)) {
    return input.flatMap((item, i) =>
      declarationsKey(item) !== undefined
        ? normalizeAt(item, file, `${base}/${i}`)
        : isBuiltInTool(item)
          ? providedTool(item, undefined, (tool) => withOrigin(tool, i, `${base}/${i}`))
          : [withOrigin(at(`${base}/${i}`, () => normalizeTool(item, `${where}[${i}]`, undefined, within)), i, `${base}/${i}`)],
    );
  }
  if (isRecord(input)) {
    if (Array.isArray(input.tools)) return normalizeAt(input.tools, file, `${base}/tools`);
    const declarations = declarationsKey(input);
    if (declarations !== undefined) return normalizeAt(input[declarations], file, `${base}/${declarations}`, 'gemini');
    const looksLikeOne = ['name', ...schemaKeys].some((k) => k in input);
    if (looksLikeOne) return [withOrigin(at(base, () => normalizeTool(input, where, undefined, within)), 0, base)];
    return Object.entries(input).flatMap(([name, tool], i) =>
      isBuiltInTool(tool) ? providedTool(tool, name, (t) => withOrigin(t, i, `${base}/${escapeSegment(name)}`, true)) : [withOrigin(at(`${base}/${escapeSegment(name)}`, () => normalizeTool(tool, `${where}.${name}`, name)), i, `${base}/${escapeSegment(name)}`, true)],
    );
  }
  throw new ToolShapeError(`${where}: expected a tool, an array of tools or an object with a \`tools\` array`);
}
