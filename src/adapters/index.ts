// Agent adapters: a prompt module made from the very agent object production constructs, with
// the Vercel AI SDK, the OpenAI Agents SDK, LangChain.js or Mastra. Each reads the
// instructions (or the formatted messages) and the tools with their input JSON Schemas and
// tool-level examples from the object, offline: no model is called and no framework is
// imported here (the objects are read by their documented shape), so each framework stays an
// optional peer the project itself installs. What an adapter returns is a `definePrompt`
// definition: its cases, examples and stubs are YAML, and every check runs on what it renders.
import { definePrompt, type CodePrompt, type PromptContext, type PromptOutput } from '../render/code.js';
import { isZodSchema, zodToJsonSchema } from '../tools/normalize.js';
import { isRecord } from '../util/values.js';

/** An agent, or a function of the case's input (and context) that builds it, as production does. */
export type AgentSource<Agent, Input> = Agent | ((input: Input, context: PromptContext) => Agent | Promise<Agent>);

/** Messages after the instructions, for a case: the conversation the agent is called with. */
export type CaseMessages<Input> = (input: Input, context: PromptContext) => readonly unknown[] | Promise<readonly unknown[]>;

/** A tool definition in Anthropic's shape, which the normaliser reads with its examples. */
interface AdaptedTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  input_examples?: unknown[];
  strict?: boolean;
}

async function agentOf<Agent, Input>(source: AgentSource<Agent, Input>, input: Input, context: PromptContext, isAgent: (value: unknown) => boolean): Promise<Agent> {
  if (typeof source === 'function' && !isAgent(source)) return (source as (input: Input, context: PromptContext) => Agent | Promise<Agent>)(input, context);
  return source as Agent;
}

/**
 * The JSON Schema of a tool's input, whatever wraps it: a JSON Schema, the AI SDK's
 * `jsonSchema()` (whose `jsonSchema` may be a promise), a Standard JSON Schema
 * (`~standard.jsonSchema.input`, as zod 4 and Mastra's wrappers give), or a zod 4 schema.
 */
export async function inputSchemaOf(schema: unknown, tool: string): Promise<Record<string, unknown>> {
  if (!isRecord(schema) && typeof schema !== 'function') throw new TypeError(`The tool \`${tool}\` has no input schema the adapter can read`);
  const box = schema as Record<string, unknown>;
  const standard = box['~standard'];
  if (isRecord(standard) && isRecord(standard.jsonSchema) && typeof standard.jsonSchema.input === 'function') {
    return (await (standard.jsonSchema.input as (options: { target: string }) => unknown)({ target: 'draft-07' })) as Record<string, unknown>;
  }
  if ('jsonSchema' in box && !isZodSchema(box)) return (await box.jsonSchema) as Record<string, unknown>;
  if (isZodSchema(box)) return zodToJsonSchema(box, `\`${tool}\``) as Record<string, unknown>;
  return box;
}

/** Instructions as one text: a string, a system message (`{role, content}`), or a list of them. */
function instructionsText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(instructionsText).filter((t) => t !== '').join('\n\n');
  if (isRecord(value) && typeof value.content === 'string') return value.content;
  if (isRecord(value) && Array.isArray(value.content)) return value.content.map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : '')).join('');
  throw new TypeError(`Unexpected instructions (${typeof value}); expected a string or system messages`);
}

/** The prompt: the instructions alone as text, or the system message and the case's messages after it. */
async function output<Input>(instructions: string, messages: CaseMessages<Input> | undefined, input: Input, context: PromptContext): Promise<PromptOutput> {
  if (messages === undefined) return instructions;
  const rest = await messages(input, context);
  return [...(instructions === '' ? [] : [{ role: 'system', content: instructions }]), ...rest];
}

const examplesOf = (list: unknown): unknown[] | undefined => (Array.isArray(list) ? list.map((e) => (isRecord(e) && 'input' in e ? e.input : e)) : undefined);

/** The agent of each case, built once from the case's input (a factory) or given (an object): `tools` and `render` read the same one. */
function perCase<Agent, Input>(source: AgentSource<Agent, Input>, isAgent: (value: unknown) => boolean): (input: Input, context: { prompt: string; case: string }) => Promise<Agent> {
  const built = new Map<string, Promise<Agent>>();
  return (input, context) => {
    let agent = built.get(context.case);
    if (agent === undefined) built.set(context.case, (agent = agentOf(source, input, { examples: [], retrieved: [], tools: [], ...context }, isAgent)));
    return agent;
  };
}

// --- The Vercel AI SDK ---------------------------------------------------------------------

/** What the adapter reads of an AI SDK agent (`ToolLoopAgent`, v6 and v7; `Experimental_Agent`, v5). */
export interface AiSdkAgentLike {
  tools?: Record<string, unknown>;
  settings?: { instructions?: unknown; system?: unknown; tools?: Record<string, unknown> };
}

const isAiSdkAgent = (value: unknown): boolean => isRecord(value) && isRecord((value as AiSdkAgentLike).settings);

/** The tools of an AI SDK tool set (a record: the key is the name the model calls). */
export async function aiSdkTools(tools: Record<string, unknown> | undefined): Promise<AdaptedTool[]> {
  const out: AdaptedTool[] = [];
  for (const [name, raw] of Object.entries(tools ?? {})) {
    if (!isRecord(raw)) continue;
    // Provider tools (`type: 'provider'`) are defined by the provider, not by a schema of ours.
    if (raw.type === 'provider' || raw.type === 'provider-defined') continue;
    const description = typeof raw.description === 'function' ? await (raw.description as (options: object) => unknown)({}) : raw.description;
    const examples = examplesOf(raw.inputExamples);
    out.push({ name, ...(typeof description === 'string' ? { description } : {}), input_schema: await inputSchemaOf(raw.inputSchema ?? raw.parameters, name), ...(examples ? { input_examples: examples } : {}), ...(typeof raw.strict === 'boolean' ? { strict: raw.strict } : {}) });
  }
  return out;
}

/**
 * A prompt module of an AI SDK agent: its `instructions` (`system` in v5) and its tools, with
 * their `inputExamples`. `messages` gives the conversation a case calls the agent with (as
 * `generateText({ messages })` would); without it the prompt is the instructions alone.
 */
export function aiSdkAgent<Input = Record<string, unknown>>(agent: AgentSource<AiSdkAgentLike, Input>, options: { messages?: CaseMessages<Input> } = {}): CodePrompt<Input> {
  const agents = perCase(agent, isAiSdkAgent);
  return definePrompt<Input>({
    tools: async (context) => {
      const a = await agents(context.input, context);
      return aiSdkTools(a.tools ?? a.settings?.tools);
    },
    render: async (input, context) => {
      const a = await agents(input, context);
      return output(instructionsText(a.settings?.instructions ?? a.settings?.system), options.messages, input, context);
    },
  });
}

/**
 * A prompt module of a `generateText` / `streamText` call's parameters (`system` or
 * `instructions`, `messages` or `prompt`, `tools`), built for a case by `params`.
 */
export function aiSdkCall<Input = Record<string, unknown>>(params: (input: Input, context: PromptContext) => Record<string, unknown> | Promise<Record<string, unknown>>): CodePrompt<Input> {
  const calls = new Map<string, Promise<Record<string, unknown>>>();
  const callOf = (input: Input, context: PromptContext) => {
    let call = calls.get(context.case);
    if (call === undefined) calls.set(context.case, (call = Promise.resolve(params(input, context))));
    return call;
  };
  return definePrompt<Input>({
    tools: async (context) => aiSdkTools((await callOf(context.input, { ...context, examples: [], retrieved: [], tools: [] })).tools as Record<string, unknown> | undefined),
    render: async (input, context) => {
      const call = await Promise.resolve(params(input, context));
      const system = instructionsText(call.instructions ?? call.system);
      const conversation = Array.isArray(call.messages) ? call.messages : Array.isArray(call.prompt) ? call.prompt : typeof call.prompt === 'string' ? [{ role: 'user', content: call.prompt }] : undefined;
      return conversation === undefined ? system : [...(system === '' ? [] : [{ role: 'system', content: system }]), ...conversation];
    },
  });
}

// --- The OpenAI Agents SDK -----------------------------------------------------------------

/** What the adapter reads of an OpenAI Agents SDK `Agent`. */
export interface OpenAiAgentLike {
  name?: string;
  getSystemPrompt(runContext: unknown): Promise<string | undefined> | string | undefined;
  getAllTools(runContext: unknown): Promise<readonly unknown[]> | readonly unknown[];
}

const isOpenAiAgent = (value: unknown): boolean => isRecord(value) && typeof (value as unknown as OpenAiAgentLike).getSystemPrompt === 'function';

/**
 * A prompt module of an OpenAI Agents SDK agent: `getSystemPrompt(runContext)` (its
 * `instructions`, a function of the run context or a string) and `getAllTools(runContext)`,
 * each function tool with the JSON Schema the model is sent (`parameters`, after strict mode's
 * rewrite) and its `strict` flag. `runContext` makes the run context for a case (the SDK's
 * `new RunContext(context)`); by default `{ context: input }`.
 */
export function openAiAgent<Input = Record<string, unknown>>(agent: AgentSource<OpenAiAgentLike, Input>, options: { runContext?: (input: Input) => unknown; messages?: CaseMessages<Input> } = {}): CodePrompt<Input> {
  const agents = perCase(agent, isOpenAiAgent);
  const runContextOf = (input: Input): unknown => (options.runContext ? options.runContext(input) : { context: input });
  return definePrompt<Input>({
    tools: async (context) => {
      const a = await agents(context.input, context);
      const out: AdaptedTool[] = [];
      for (const t of await a.getAllTools(runContextOf(context.input))) {
        if (!isRecord(t) || t.type !== 'function' || typeof t.name !== 'string') continue;
        out.push({ name: t.name, ...(typeof t.description === 'string' ? { description: t.description } : {}), input_schema: await inputSchemaOf(t.parameters, t.name), ...(typeof t.strict === 'boolean' ? { strict: t.strict } : {}) });
      }
      return out;
    },
    render: async (input, context) => {
      const a = await agents(input, context);
      return output((await a.getSystemPrompt(runContextOf(input))) ?? '', options.messages, input, context);
    },
  });
}

// --- LangChain.js ----------------------------------------------------------------------------

/** What the adapter reads of a LangChain prompt template. */
export interface LangChainPromptLike {
  formatMessages(values: Record<string, unknown>): Promise<readonly unknown[]>;
}

/** A LangChain tool (`tool()`, a `StructuredTool`), or a model with tools bound (`bindTools`). */
export type LangChainTools = readonly unknown[] | { config?: { tools?: readonly unknown[] }; kwargs?: { tools?: readonly unknown[] } };

async function langChainToolsOf(tools: LangChainTools | undefined): Promise<unknown[]> {
  if (tools === undefined) return [];
  // A RunnableBinding from `bindTools`: its tools, already in the provider's shape (`config` in v1, `kwargs` before).
  const bound = Array.isArray(tools) ? undefined : ((tools as { config?: { tools?: unknown[] } }).config?.tools ?? (tools as { kwargs?: { tools?: unknown[] } }).kwargs?.tools);
  const list = (Array.isArray(tools) ? tools : (bound ?? [])) as unknown[];
  const out: unknown[] = [];
  for (const t of list) {
    if (isRecord(t) && typeof t.name === 'string' && 'schema' in t && !('input_schema' in t)) {
      out.push({ name: t.name, ...(typeof t.description === 'string' ? { description: t.description } : {}), input_schema: await inputSchemaOf(t.schema, t.name) } satisfies AdaptedTool);
    } else out.push(t);
  }
  return out;
}

/**
 * A prompt module of a LangChain `ChatPromptTemplate`, formatted with the case's input (and
 * `context.examples` as `examples`, for a `MessagesPlaceholder`), with the tools it is sent
 * with: `tool()` tools, or the model they were bound to (`model.bindTools(tools)`).
 */
export function langChainPrompt<Input extends Record<string, unknown> = Record<string, unknown>>(
  prompt: LangChainPromptLike | ((input: Input, context: PromptContext) => LangChainPromptLike | Promise<LangChainPromptLike>),
  options: { tools?: LangChainTools; values?: (input: Input, context: PromptContext) => Record<string, unknown> | Promise<Record<string, unknown>> } = {},
): CodePrompt<Input> {
  return definePrompt<Input>({
    ...(options.tools === undefined ? {} : { tools: async () => langChainToolsOf(options.tools) as Promise<object[]> }),
    render: async (input, context) => {
      const template = typeof prompt === 'function' ? await prompt(input, context) : prompt;
      const values = options.values ? await options.values(input, context) : input;
      return [...(await template.formatMessages(values))];
    },
  });
}

// --- Mastra ------------------------------------------------------------------------------------

/** What the adapter reads of a Mastra `Agent`. */
export interface MastraAgentLike {
  getInstructions(options?: { requestContext?: unknown }): unknown;
  listTools(options?: { requestContext?: unknown }): unknown;
}

const isMastraAgent = (value: unknown): boolean => isRecord(value) && typeof (value as unknown as MastraAgentLike).getInstructions === 'function';

/**
 * A prompt module of a Mastra agent: `getInstructions({ requestContext })` and
 * `listTools({ requestContext })`, each tool under the key the model calls it by (not its
 * `id`), with its `inputExamples`. `requestContext` makes Mastra's `RequestContext` for a case.
 */
export function mastraAgent<Input = Record<string, unknown>>(agent: AgentSource<MastraAgentLike, Input>, options: { requestContext?: (input: Input) => unknown; messages?: CaseMessages<Input> } = {}): CodePrompt<Input> {
  const agents = perCase(agent, isMastraAgent);
  const request = (input: Input) => (options.requestContext ? { requestContext: options.requestContext(input) } : {});
  return definePrompt<Input>({
    tools: async (context) => {
      const a = await agents(context.input, context);
      const tools = (await a.listTools(request(context.input))) as Record<string, unknown>;
      const out: AdaptedTool[] = [];
      for (const [name, t] of Object.entries(tools ?? {})) {
        if (!isRecord(t)) continue;
        const examples = examplesOf(t.inputExamples);
        out.push({ name, ...(typeof t.description === 'string' ? { description: t.description } : {}), input_schema: await inputSchemaOf(t.inputSchema, name), ...(examples ? { input_examples: examples } : {}) });
      }
      return out;
    },
    render: async (input, context) => {
      const a = await agents(input, context);
      return output(instructionsText(await a.getInstructions(request(input))), options.messages, input, context);
    },
  });
}
