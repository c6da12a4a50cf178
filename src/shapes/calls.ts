/**
 * Which parsed values are tool calls, in every common shape: the one reading shared by the
 * prompt extractor (src/extract) and the readers of recorded and persisted calls (src/sources).
 *
 * Recognised:
 * - an Anthropic `tool_use` block: `{"type": "tool_use", "id", "name", "input"}`;
 * - OpenAI: a `tool_calls` item `{"id", "type": "function", "function": {"name", "arguments": "<json>"}}`,
 *   the legacy `function_call` (on a message or alone), a Responses item
 *   `{"type": "function_call", "call_id", "name", "arguments"}`;
 * - Gemini: `{"functionCall": {"name", "args"}}`;
 * - `{name | tool | tool_name | function | action | command_name, arguments | args | input | parameters | tool_input | action_input | action_variables | params}`,
 *   smolagents' `{"action", "action_input"}`, Semantic Kernel's `{"action", "action_variables"}` and MetaGPT's `{"command_name", "args"}` among them;
 * - Bedrock Converse's `{"toolUse": {"toolUseId", "name", "input"}}`, an MCP `tools/call` request, and AutoGPT's `{"command": {"name", "args"}}`;
 * - containers: an array of any of these (content blocks of other types and call-less
 *   messages in it are skipped), a `tool_calls` list, a message (`role` with `tool_calls`,
 *   `function_call` or `content` blocks), a `{content}` or `{message}` wrapper, a request body
 *   (`messages`), an MCP `sampling/createMessage` request (`params.messages`) or result
 *   (`result` holding the model's message);
 * - tool definitions (a description or a schema beside `parameters`, `input_schema`...) are not calls.
 *
 * Two readings differ by `mode`, because a prompt and a log are different evidence:
 * - `prompt` (the extractor): a string under `arguments` that is not a JSON object or array
 *   (`"arguments": "image.png"`) is a bare value for the tool's one parameter (`plainString`),
 *   and a call without arguments (`{"type": "tool_use", "name": "x"}`) has `{}`;
 * - `recorded` (JSONL lines, database rows): `arguments` strings are JSON text by the OpenAI
 *   contract, decoded whatever value they hold (`"42"` is 42) and unreadable when they are not
 *   JSON (the handler's own `JSON.parse` would throw); a call without arguments is unreadable
 *   (the log does not say what the handler got, and `{}` would pass for it).
 */
import { readJson } from '../extract/json.js';
import type { Notation } from '../extract/types.js';

export type ShapeMode = 'prompt' | 'recorded';

export interface RawCall {
  name: string;
  arguments: unknown;
  /** The call's own id (`id`, a Responses item's `call_id`), when it has one. */
  id?: string;
  /** Set for shapes that name their provider; otherwise the container's notation applies. */
  notation?: Notation;
  /** `arguments` was a string that is not a JSON object (`"arguments": "image.png"`): the tool's single parameter may take it. */
  plainString?: boolean;
  /** The object the call was read from, when it sits inside a message or a request. */
  source?: object;
  /**
   * Recorded mode: why this call cannot be checked (its `arguments` are not JSON, it has none).
   * It stands beside the calls of the same value that can be, which are checked all the same.
   */
  unreadable?: string;
}

export type ShapeResult =
  | { kind: 'calls'; calls: RawCall[] }
  | { kind: 'error'; message: string; name?: string }
  /**
   * No call. `container`: the value is a list of messages or content blocks (or an empty
   * list) that holds none, a log's "no calls here" rather than something else entirely.
   */
  | { kind: 'none'; container?: boolean }
  /** `{"name": "x"}` and nothing else: a call without arguments inside a call block, a plain object elsewhere (prompt mode only). */
  | { kind: 'bare-name'; name: string };

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Thrown inside a reading and returned as its error result. */
class ShapeError extends Error {
  constructor(
    message: string,
    readonly tool?: string,
  ) {
    super(message);
  }
}

/** Keys that describe a parameter in a definition (`{"genre": {"param_type": "str", "description": ...}}`). */
const parameterDescriptionKeys = new Set(['type', 'param_type', 'description', 'required', 'enum', 'default', 'items', 'properties', 'format', 'anyOf', 'oneOf']);

/** A tool definition's `parameters` is a schema; a call's is the arguments. */
function isSchemaLike(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (value.type === 'object' || value.type === 'dict' || isObject(value.properties) || '$schema' in value) return true;
  // Each parameter described by an object of schema words: a definition in a home-made dialect.
  const entries = Object.values(value);
  return entries.length > 0 && entries.every((v) => isObject(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => parameterDescriptionKeys.has(k)) && ('type' in v || 'param_type' in v || 'description' in v));
}

/**
 * Whether an object with a name is a tool definition rather than a call. A call carries
 * arguments; a definition carries a description of the tool and a schema of its parameters.
 * A description beside `parameters` (or `input_schema`) and no `arguments` is a definition.
 */
function isDefinition(value: Obj): boolean {
  if (Object.hasOwn(value, 'arguments') || Object.hasOwn(value, 'args')) return false;
  const schemaKey = ['parameters', 'input_schema', 'inputSchema', 'parametersJsonSchema', 'params'].find((k) => Object.hasOwn(value, k));
  if (schemaKey === undefined) return false;
  return typeof value.description === 'string' || isSchemaLike(value[schemaKey]) || Object.hasOwn(value, 'returns') || Object.hasOwn(value, 'required');
}

/** Content blocks and list items of these types may be calls; other typed items (text, images, tool results, thinking, server tools) are not. */
const callBlockTypes = new Set(['tool_use', 'function', 'function_call', 'tool_call', 'tool-call', 'tool-invocation', 'dynamic-tool']);

/**
 * Whether a typed block or list item may be a call: the types above, and the AI SDK's UI
 * message parts `tool-<name>` (the tool's name in the type; `tool-result` and the like are not calls).
 */
function callBlockType(type: string, item: Obj): boolean {
  return callBlockTypes.has(type) || (type.startsWith('tool-') && Object.hasOwn(item, 'input') && !/^tool-(?:result|output|error|approval|input-(?:start|delta))/.test(type));
}

/** LangChain's stored message types (`{type: "ai", data: {...}}`, `message_to_dict`). */
const langchainTypes = new Set(['ai', 'human', 'system', 'tool', 'function', 'chat', 'AIMessageChunk', 'HumanMessageChunk', 'ToolMessageChunk']);

/**
 * The message a value stands for, when it is one in a wrapping of its own: LangChain's stored
 * `{type: "ai", data: {...}}` and its serialized `{lc: 1, type: "constructor", kwargs: {...}}`
 * (LangGraph checkpoints written as JSON).
 */
function wrappedMessage(value: Obj): Obj | undefined {
  if (typeof value.type === 'string' && langchainTypes.has(value.type) && isObject(value.data)) return value.data;
  if (value.lc === 1 && value.type === 'constructor' && isObject(value.kwargs) && Array.isArray(value.id)) return value.kwargs;
  return undefined;
}

// `action_variables`: Semantic Kernel's stepwise planner; `params`: MemGPT's and other local-model prompts.
const argumentKeys = ['arguments', 'args', 'input', 'parameters', 'tool_input', 'action_input', 'action_variables', 'params'] as const;
/** Keys a call carries besides its name and arguments. */
const callIdKeys = new Set(['id', 'call_id', 'type', 'index', 'name']);

function idOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** `target.push(...items)` without spreading (a message may hold more calls than a call may take arguments). */
function pushAll(target: RawCall[], items: readonly RawCall[]): void {
  for (const item of items) target.push(item);
}

class Reading {
  constructor(readonly mode: ShapeMode) {}

  /** A string under `key` that should hold JSON, in recorded mode. */
  private decodeRecorded(name: string, text: string): unknown {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      // JSON.parse's wording differs between Node versions; the reader's does not.
      const read = readJson(text, 0);
      const detail = read.ok ? (error instanceof Error ? error.message : String(error)) : read.message;
      throw new ShapeError(`The arguments of \`${name}\` are a string that is not JSON (${detail})`, name);
    }
  }

  /** The call to `name` with the arguments found under `key`; `{}` when there are none (prompt mode). */
  private call(name: string, key: string, args: unknown, id: string | undefined, notation?: Notation): RawCall {
    const out: RawCall = { name, arguments: args };
    if (args === undefined) {
      if (this.mode === 'recorded') {
        out.unreadable = notation === 'anthropic-tool-use' ? `The \`tool_use\` block \`${name}\` has no \`input\`` : `The call to \`${name}\` has no \`arguments\`, \`args\` or \`input\``;
      } else out.arguments = {};
    } else if (typeof args === 'string') {
      const looksJson = /^\s*[[{]/.test(args);
      if (this.mode === 'recorded') {
        // OpenAI's `arguments` is JSON text, whatever it holds; other keys hold JSON when they look like it.
        if (key === 'arguments' || looksJson) {
          try {
            out.arguments = this.decodeRecorded(name, args);
          } catch (error) {
            if (!(error instanceof ShapeError)) throw error;
            out.arguments = undefined;
            out.unreadable = error.message;
          }
        }
      } else if (!looksJson) {
        // A JSON-encoded object (OpenAI's `arguments`) is decoded; any other string is a plain value.
        out.plainString = true;
      } else {
        const read = readJson(args, 0);
        if (!read.ok) throw new ShapeError(`The \`arguments\` of \`${name}\` is a string that is not JSON: ${read.message}`, name);
        if (/\S/.test(args.slice(read.end))) throw new ShapeError(`The \`arguments\` of \`${name}\` is a string with text after the JSON value, expected one JSON object`, name);
        out.arguments = read.value;
      }
    }
    if (id !== undefined) out.id = id;
    if (notation) out.notation = notation;
    return out;
  }

  /** `{"name", "arguments"}` under `function` (OpenAI), or `function_call` (legacy). */
  private fromFunction(fn: Obj, id: string | undefined): ShapeResult {
    // `{"type": "function", "function": {"name", "parameters"}}` is a tool definition, not a call.
    if (!('arguments' in fn) && ('parameters' in fn || 'description' in fn)) return { kind: 'none' };
    if (typeof fn.name !== 'string' || fn.name === '') {
      if (!('arguments' in fn)) return { kind: 'none' };
      throw new ShapeError('Unexpected `function` without a `name` string, expected `{"function": {"name": ..., "arguments": "..."}}`');
    }
    // Google ADK and Gemini's Python types write `{"function_call": {"name", "args"}}`.
    if (!('arguments' in fn) && 'args' in fn) return { kind: 'calls', calls: [this.call(fn.name, 'args', fn.args, idOf(fn.id) ?? id)] };
    return { kind: 'calls', calls: [this.call(fn.name, 'arguments', fn.arguments, id, 'openai-tool-calls')] };
  }

  /** Every item of a `tool_calls` list is a call; an item that is not makes the list unreadable. */
  private fromToolCalls(items: unknown[]): RawCall[] {
    const calls: RawCall[] = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const r = this.one(item);
      if (r.kind === 'calls') {
        for (const c of r.calls) {
          c.notation ??= 'openai-tool-calls';
          c.source ??= item as object;
          calls.push(c);
        }
      } else if (r.kind === 'bare-name' && this.mode === 'prompt') calls.push({ name: r.name, arguments: {}, notation: 'openai-tool-calls', source: item as object });
      else if (r.kind === 'bare-name') calls.push({ name: r.name, arguments: undefined, unreadable: `The call to \`${r.name}\` has no \`arguments\`, \`args\` or \`input\``, source: item as object });
      else throw new ShapeError(`Item ${i} of \`tool_calls\` is not a tool call, expected \`{"type": "function", "function": {"name": ..., "arguments": "..."}}\` or another call shape`);
    }
    return calls;
  }

  /** The calls in a message's `content` (a block or a list of blocks); other blocks are its text, images and results. */
  private fromContent(content: unknown): RawCall[] {
    const blocks = isObject(content) ? [content] : Array.isArray(content) ? content : [];
    const calls: RawCall[] = [];
    for (const block of blocks) {
      if (!isObject(block) || (typeof block.type === 'string' && !callBlockType(block.type, block))) continue;
      const r = this.one(block);
      if (r.kind !== 'calls') continue;
      for (const c of r.calls) {
        c.source = block;
        calls.push(c);
      }
    }
    return calls;
  }

  private fromMessage(message: Obj): RawCall[] {
    const kwargs = isObject(message.additional_kwargs) ? message.additional_kwargs : undefined;
    // LangChain keeps the calls in `tool_calls` and the provider's own copy in `additional_kwargs`: the first, else the second (LlamaIndex).
    const toolCalls = Array.isArray(message.tool_calls) && message.tool_calls.length > 0 ? message.tool_calls : Array.isArray(kwargs?.tool_calls) ? kwargs.tool_calls : undefined;
    const calls = toolCalls ? this.fromToolCalls(toolCalls) : [];
    if (isObject(message.function_call)) {
      const r = this.fromFunction(message.function_call, undefined);
      if (r.kind === 'calls') pushAll(calls, r.calls);
    }
    if (message.content !== undefined && message.content !== null && typeof message.content !== 'string') pushAll(calls, this.fromContent(message.content));
    // Gemini's `{role: "model", parts: [{functionCall}]}` and the AI SDK's UI messages (`parts` of type `tool-<name>`).
    const fromParts = Array.isArray(message.parts) ? this.fromContent(message.parts) : [];
    pushAll(calls, fromParts);
    // AI SDK 4's `toolInvocations: [{toolCallId, toolName, args}]`, which its `parts` repeat when it has them.
    if (Array.isArray(message.toolInvocations) && fromParts.length === 0) {
      for (const invocation of message.toolInvocations) {
        if (isObject(invocation) && typeof invocation.toolName === 'string') calls.push(this.call(invocation.toolName, 'args', invocation.args, idOf(invocation.toolCallId)));
      }
    }
    for (const c of calls) c.source ??= message;
    return calls;
  }

  /**
   * A list of calls, messages or content blocks. Call-less messages and blocks of other types
   * are skipped; anything else beside a call makes the list unreadable.
   */
  fromArray(items: unknown[]): ShapeResult {
    const calls: RawCall[] = [];
    let others = 0;
    for (const item of items) {
      if (isObject(item) && typeof item.role === 'string') {
        pushAll(calls, this.fromMessage(item));
        continue;
      }
      const wrapped = isObject(item) ? wrappedMessage(item) : undefined;
      if (wrapped) {
        pushAll(calls, this.fromMessage(wrapped));
        continue;
      }
      if (isObject(item) && typeof item.type === 'string' && !callBlockType(item.type, item)) continue;
      const r = Array.isArray(item) ? this.fromArray(item) : this.one(item);
      if (r.kind === 'calls') {
        for (const c of r.calls) {
          c.source ??= item as object;
          calls.push(c);
        }
      } else if (!(r.kind === 'none' && r.container)) others++;
    }
    if (calls.length === 0) return others === 0 ? { kind: 'none', container: true } : { kind: 'none' };
    if (others > 0) throw new ShapeError(`Unexpected ${others} item${others === 1 ? '' : 's'} that ${others === 1 ? 'is' : 'are'} not a tool call in an array of tool calls, expected every item to be a call`);
    return { kind: 'calls', calls };
  }

  one(value: unknown): ShapeResult {
    if (!isObject(value)) return { kind: 'none' };
    const wrapped = wrappedMessage(value);
    if (wrapped) return { kind: 'calls', calls: this.fromMessage(wrapped) };
    // The AI SDK's calls: a model message's `{type: "tool-call", toolName, input | args}`, a UI
    // message's `{type: "tool-<name>", input}` and `{type: "dynamic-tool", toolName, input}`,
    // and AI SDK 4's `{type: "tool-invocation", toolInvocation: {toolName, args}}`.
    if (typeof value.type === 'string' && (value.type.startsWith('tool-') || value.type === 'dynamic-tool')) {
      const id = idOf(value.toolCallId);
      if ((value.type === 'tool-call' || value.type === 'dynamic-tool') && typeof value.toolName === 'string') {
        const key = value.input !== undefined || value.args === undefined ? 'input' : 'args';
        return { kind: 'calls', calls: [this.call(value.toolName, key, value[key], id)] };
      }
      if (value.type === 'tool-invocation' && isObject(value.toolInvocation) && typeof value.toolInvocation.toolName === 'string') {
        const inv = value.toolInvocation;
        return { kind: 'calls', calls: [this.call(inv.toolName as string, 'args', inv.args, idOf(inv.toolCallId) ?? id)] };
      }
      if (callBlockType(value.type, value) && value.type.length > 'tool-'.length && !callBlockTypes.has(value.type)) {
        // The UI stream's `{type: "tool-input-available", toolName, input}` names its tool; a UI part `tool-<name>` names it in the type.
        const named = typeof value.toolName === 'string' && value.toolName !== '' ? value.toolName : value.type.slice('tool-'.length);
        return { kind: 'calls', calls: [this.call(named, 'input', value.input, id)] };
      }
    }
    if (value.type === 'tool_use') {
      if (typeof value.name !== 'string' || value.name === '') {
        throw new ShapeError(
          this.mode === 'recorded'
            ? 'A `tool_use` block has no `name` string, expected `{"type": "tool_use", "name": ..., "input": {...}}`'
            : 'Unexpected `tool_use` block without a `name` string, expected `{"type": "tool_use", "name": ..., "input": {...}}`',
        );
      }
      return { kind: 'calls', calls: [this.call(value.name, 'input', value.input, idOf(value.id), 'anthropic-tool-use')] };
    }
    if (isObject(value.functionCall)) {
      const fc = value.functionCall;
      if (typeof fc.name !== 'string' || fc.name === '') throw new ShapeError('Unexpected `functionCall` without a `name` string, expected `{"functionCall": {"name": ..., "args": {...}}}`');
      const key = fc.args === undefined || fc.args === null ? 'arguments' : 'args';
      return { kind: 'calls', calls: [this.call(fc.name, key, fc.args ?? fc.arguments, idOf(fc.id) ?? idOf(value.id))] };
    }
    if (typeof value.role === 'string') return { kind: 'calls', calls: this.fromMessage(value) };
    // Bedrock Converse's content block `{"toolUse": {"toolUseId", "name", "input"}}`, and its response `{"output": {"message": {...}}}`.
    if (isObject(value.toolUse)) return this.one(value.toolUse);
    if (isObject(value.output) && isObject(value.output.message) && typeof value.output.message.role === 'string') return this.one(value.output.message);
    // An MCP `tools/call` request: the call is its `params`, `{name, arguments}`.
    if (value.method === 'tools/call' && isObject(value.params)) {
      // Its `arguments` are optional: a tool that takes none is called without them.
      const params = value.params;
      if (typeof params.name === 'string' && params.name !== '' && params.arguments === undefined) return { kind: 'calls', calls: [{ name: params.name, arguments: {}, ...(idOf(value.id) === undefined ? {} : { id: idOf(value.id)! }) }] };
      return this.one(params);
    }
    // AutoGPT's reply: `{"thoughts": {...}, "command": {"name": ..., "args": {...}}}`.
    if (isObject(value.command) && typeof value.command.name === 'string' && isObject(value.command.args)) return this.one(value.command);
    // A request body or an MCP `sampling/createMessage` request: the calls are in its messages.
    if (Array.isArray(value.messages) && value.messages.some((m) => isObject(m) && typeof m.role === 'string')) return this.fromArray(value.messages);
    // A dataset row: `{"conversations": [messages]}` (ShareGPT's key, with OpenAI-style messages in it).
    if (Array.isArray(value.conversations) && value.conversations.some((m) => isObject(m) && typeof m.role === 'string')) return this.fromArray(value.conversations);
    if (isObject(value.params) && Array.isArray(value.params.messages)) return this.one(value.params);
    // A JSON-RPC response whose result is the model's message (MCP `sampling/createMessage`).
    if (isObject(value.result) && typeof value.result.role === 'string') return { kind: 'calls', calls: this.fromMessage(value.result) };
    // `{"tool_call": {...}}`, `{"function_call": {...}}`: one call under a key that says so.
    if (isObject(value.tool_call)) return this.one(value.tool_call);
    if (isObject(value.function_call)) return this.fromFunction(value.function_call, idOf(value.id));
    // `{"function_calls": [{name, parameters}, ...]}`: calls listed under a key that says so.
    if (Array.isArray(value.function_calls) && value.function_calls.length > 0 && value.function_calls.every((c) => isObject(c) && typeof c.name === 'string')) return this.fromArray(value.function_calls);
    if (Array.isArray(value.tool_calls)) {
      const calls = this.fromToolCalls(value.tool_calls);
      return calls.length === 0 ? { kind: 'none', container: true } : { kind: 'calls', calls };
    }
    if (isObject(value.function)) return this.fromFunction(value.function, idOf(value.id));
    // `command_name`: MetaGPT's role commands, `{"command_name": "Bash.run", "args": {...}}`.
    const name = typeof value.function === 'string' ? value.function : (value.name ?? value.tool ?? value.tool_name ?? value.action ?? value.command_name);
    // LangChain's JSON agents end with `{"action": "Final Answer", "action_input": ...}`: the reply, not a call (no provider allows a space in a tool name).
    if (this.mode === 'prompt' && typeof name === 'string' && /^final answer$/i.test(name)) return { kind: 'none' };
    // `params` holds arguments only beside `function` (MemGPT): beside `name` it is as often a route's or a request's parameters.
    const key = argumentKeys.find((k) => Object.hasOwn(value, k) && (k !== 'params' || typeof value.function === 'string'));
    if (key !== undefined && !isDefinition(value) && !(key === 'parameters' && isSchemaLike(value.parameters))) {
      if (typeof name !== 'string' || name === '') {
        // In a prompt, an object with other keys beside (`{"task": ..., "args": [...], "kwargs": {}}`, a job queue's message) is data, not a call that lost its name.
        const brokenCall = this.mode === 'recorded' || Object.keys(value).every((k) => k === key || callIdKeys.has(k));
        if (brokenCall && (key === 'arguments' || key === 'args')) throw new ShapeError(`Unexpected \`${key}\` without a tool \`name\` string beside it, expected \`{"name": ..., "${key}": {...}}\``);
        return { kind: 'none' };
      }
      return { kind: 'calls', calls: [this.call(name, key, value[key], idOf(value.call_id) ?? idOf(value.id))] };
    }
    if (key !== undefined) return { kind: 'none' };
    // A provider's whole response: OpenAI's `choices[].message`, Gemini's `candidates[].content`.
    const replies = Array.isArray(value.choices) ? value.choices.map((c) => (isObject(c) ? c.message : undefined)) : Array.isArray(value.candidates) ? value.candidates.map((c) => (isObject(c) ? c.content : undefined)) : undefined;
    if (replies) {
      const calls: RawCall[] = [];
      for (const reply of replies) if (isObject(reply)) pushAll(calls, this.fromMessage(reply));
      return calls.length === 0 ? { kind: 'none', container: true } : { kind: 'calls', calls };
    }
    // Parts without a `role` beside them: Gemini content, a Pydantic AI message (`{kind: "response", parts: [{part_kind: "tool-call", tool_name, args}]}`).
    if (Array.isArray(value.parts)) {
      const calls = this.fromContent(value.parts);
      return calls.length === 0 ? { kind: 'none', container: true } : { kind: 'calls', calls };
    }
    // A message without a `role`, or a wrapper around one (a Claude Code transcript line, `{"type": "assistant", "message": {...}}`).
    if (isObject(value.content) || Array.isArray(value.content)) {
      const calls = this.fromContent(value.content);
      return calls.length === 0 ? { kind: 'none', container: true } : { kind: 'calls', calls };
    }
    if (isObject(value.message)) {
      const r = this.one(value.message);
      return r.kind === 'bare-name' ? { kind: 'none' } : r;
    }
    if (typeof value.name === 'string' && Object.keys(value).every((k) => k === 'name' || k === 'id' || k === 'type')) {
      if (this.mode === 'recorded') throw new ShapeError(`The call to \`${value.name}\` has no \`arguments\`, \`args\` or \`input\``, value.name);
      return { kind: 'bare-name', name: value.name };
    }
    return { kind: 'none' };
  }
}

const readings: Record<ShapeMode, Reading> = { prompt: new Reading('prompt'), recorded: new Reading('recorded') };

/**
 * The tool calls a parsed value holds: one call, an array of calls (parallel), a message,
 * a transcript or a request. Errors name the call's tool when it has one.
 */
export function callsFromValue(value: unknown, mode: ShapeMode = 'prompt'): ShapeResult {
  const reading = readings[mode];
  try {
    const result = Array.isArray(value) ? reading.fromArray(value) : reading.one(value);
    // Nothing readable at all: the value is unreadable, as one broken call always was.
    if (result.kind === 'calls' && result.calls.length > 0 && result.calls.every((c) => c.unreadable !== undefined)) {
      const first = result.calls[0]!;
      return { kind: 'error', message: first.unreadable!, name: first.name };
    }
    return result;
  } catch (error) {
    // A value nested deeper than the stack (JSON.parse has no depth limit) is not a call anyone made.
    if (error instanceof RangeError) return { kind: 'error', message: 'Unexpected value nested too deeply to read, expected a tool call or a message' };
    if (!(error instanceof ShapeError)) throw error;
    return error.tool === undefined ? { kind: 'error', message: error.message } : { kind: 'error', message: error.message, name: error.tool };
  }
}

/**
 * Whether text that failed to parse was meant as a call: it names the keys only calls have.
 * Used where the container does not say so (a `json` fence, prose).
 */
export function looksLikeCall(text: string): boolean {
  if (/["'](?:arguments|args|tool_calls|tool_input|action_input|action_variables|functionCall|function_call|toolUse)["']\s*:/.test(text)) return true;
  if (/["']type["']\s*:\s*["']tool_use["']/.test(text)) return true;
  return /["'](?:name|function)["']\s*:/.test(text) && /["'](?:input|parameters)["']\s*:/.test(text) && !/["']properties["']\s*:/.test(text);
}
