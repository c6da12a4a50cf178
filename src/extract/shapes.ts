/** Which parsed JSON values are tool calls, in every common shape. */
import { readJson } from './json.js';
import type { Notation } from './types.js';

export interface RawCall {
  name: string;
  arguments: unknown;
  /** Set for shapes that name their provider; otherwise the container's notation applies. */
  notation?: Notation;
  /** `arguments` was a string that is not a JSON object (`"arguments": "image.png"`): the tool's single parameter may take it. */
  plainString?: boolean;
  /** The object the call was read from, when it sits inside a message or a request. */
  source?: object;
}

export type ShapeResult =
  | { kind: 'calls'; calls: RawCall[] }
  | { kind: 'error'; message: string; name?: string }
  | { kind: 'none' }
  /** `{"name": "x"}` and nothing else: a call without arguments inside a call block, a plain object elsewhere. */
  | { kind: 'bare-name'; name: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
function isDefinition(value: Record<string, unknown>): boolean {
  if (Object.hasOwn(value, 'arguments') || Object.hasOwn(value, 'args')) return false;
  const schemaKey = ['parameters', 'input_schema', 'inputSchema', 'parametersJsonSchema'].find((k) => Object.hasOwn(value, k));
  if (schemaKey === undefined) return false;
  return typeof value.description === 'string' || isSchemaLike(value[schemaKey]) || Object.hasOwn(value, 'returns') || Object.hasOwn(value, 'required');
}

function parseArguments(name: string, args: unknown): { ok: true; value: unknown; plainString?: boolean } | { ok: false; message: string } {
  if (args === undefined) return { ok: true, value: {} };
  if (typeof args !== 'string') return { ok: true, value: args };
  const t = args.trim();
  // A JSON-encoded object (OpenAI's `arguments`) is decoded; any other string is a plain value.
  if (!t.startsWith('{') && !t.startsWith('[')) return { ok: true, value: args, plainString: true };
  const read = readJson(args, 0);
  if (!read.ok) return { ok: false, message: `The \`arguments\` of \`${name}\` is a string that is not JSON: ${read.message}` };
  if (/\S/.test(args.slice(read.end))) return { ok: false, message: `The \`arguments\` of \`${name}\` is a string with text after the JSON value, expected one JSON object` };
  return { ok: true, value: read.value };
}

function call(name: string, args: { value: unknown; plainString?: boolean }, notation?: Notation): RawCall {
  const out: RawCall = { name, arguments: args.value };
  if (notation) out.notation = notation;
  if (args.plainString) out.plainString = true;
  return out;
}

const argumentKeys = ['arguments', 'args', 'input', 'parameters', 'tool_input', 'action_input'] as const;

function fromMessage(message: Record<string, unknown>): ShapeResult {
  const calls: RawCall[] = [];
  if (Array.isArray(message.tool_calls)) {
    const r = fromArray(message.tool_calls, 'openai-tool-calls');
    if (r.kind === 'error') return r;
    if (r.kind === 'calls') calls.push(...r.calls);
  }
  if (isObject(message.function_call)) {
    const r = one({ function: message.function_call });
    if (r.kind === 'error') return r;
    if (r.kind === 'calls') calls.push(...r.calls);
  }
  const content = isObject(message.content) ? [message.content] : message.content;
  if (Array.isArray(content)) {
    for (const block of content) {
      if (isObject(block) && block.type === 'tool_use') {
        const r = one(block);
        if (r.kind === 'error') return r;
        if (r.kind === 'calls') calls.push(...r.calls.map((c) => ({ ...c, source: block })));
      }
    }
  }
  return { kind: 'calls', calls: calls.map((c) => (c.source ? c : { ...c, source: message })) };
}

function one(value: unknown): ShapeResult {
  if (!isObject(value)) return { kind: 'none' };
  if (value.type === 'tool_use') {
    if (typeof value.name !== 'string' || value.name === '') return { kind: 'error', message: 'Unexpected `tool_use` block without a `name` string, expected `{"type": "tool_use", "name": ..., "input": {...}}`' };
    const args = parseArguments(value.name, value.input);
    if (!args.ok) return { kind: 'error', message: args.message, name: value.name };
    return { kind: 'calls', calls: [call(value.name, args, 'anthropic-tool-use')] };
  }
  if (isObject(value.functionCall)) {
    const fc = value.functionCall;
    if (typeof fc.name !== 'string' || fc.name === '') return { kind: 'error', message: 'Unexpected `functionCall` without a `name` string, expected `{"functionCall": {"name": ..., "args": {...}}}`' };
    const args = parseArguments(fc.name, fc.args ?? fc.arguments);
    if (!args.ok) return { kind: 'error', message: args.message, name: fc.name };
    return { kind: 'calls', calls: [call(fc.name, args)] };
  }
  if (typeof value.role === 'string') return fromMessage(value);
  // A request body or an MCP `sampling/createMessage` request: the calls are in its messages.
  if (Array.isArray(value.messages) && value.messages.some((m) => isObject(m) && typeof m.role === 'string')) return fromArray(value.messages);
  if (isObject(value.params) && Array.isArray(value.params.messages)) return one(value.params);
  // A JSON-RPC response whose result is the model's message (MCP `sampling/createMessage`).
  if (isObject(value.result) && typeof value.result.role === 'string') return fromMessage(value.result);
  // `{"tool_call": {...}}`, `{"function_call": {...}}`: one call under a key that says so.
  if (isObject(value.tool_call)) return one(value.tool_call);
  if (isObject(value.function_call)) return one({ function: value.function_call });
  if (Array.isArray(value.tool_calls)) return fromArray(value.tool_calls, 'openai-tool-calls');
  if (isObject(value.function)) {
    const fn = value.function;
    // `{"type": "function", "function": {"name", "parameters"}}` is a tool definition, not a call.
    if (!('arguments' in fn) && ('parameters' in fn || 'description' in fn)) return { kind: 'none' };
    if (typeof fn.name !== 'string' || fn.name === '') {
      return 'arguments' in fn ? { kind: 'error', message: 'Unexpected `function` without a `name` string, expected `{"function": {"name": ..., "arguments": "..."}}`' } : { kind: 'none' };
    }
    const args = parseArguments(fn.name, fn.arguments);
    if (!args.ok) return { kind: 'error', message: args.message, name: fn.name };
    return { kind: 'calls', calls: [call(fn.name, args, 'openai-tool-calls')] };
  }
  const name = typeof value.function === 'string' ? value.function : value.name ?? value.tool ?? value.tool_name ?? value.action;
  const key = argumentKeys.find((k) => Object.hasOwn(value, k));
  if (key !== undefined) {
    if (isDefinition(value)) return { kind: 'none' };
    if (key === 'parameters' && isSchemaLike(value.parameters)) return { kind: 'none' };
    if (typeof name !== 'string' || name === '') {
      if (key === 'arguments' || key === 'args') return { kind: 'error', message: `Unexpected \`${key}\` without a tool \`name\` string beside it, expected \`{"name": ..., "${key}": {...}}\`` };
      return { kind: 'none' };
    }
    const args = parseArguments(name, value[key]);
    if (!args.ok) return { kind: 'error', message: args.message, name };
    return { kind: 'calls', calls: [call(name, args)] };
  }
  if (typeof value.name === 'string' && Object.keys(value).every((k) => k === 'name' || k === 'id' || k === 'type')) {
    return { kind: 'bare-name', name: value.name };
  }
  return { kind: 'none' };
}

function fromArray(items: unknown[], notation?: Notation): ShapeResult {
  if (items.length === 0) return { kind: 'none' };
  const calls: RawCall[] = [];
  let others = 0;
  for (const item of items) {
    const r = isObject(item) && typeof item.role === 'string' ? fromMessage(item) : one(item);
    if (r.kind === 'error') return r;
    if (r.kind === 'calls') calls.push(...r.calls.map((c) => ({ ...c, ...(notation && !c.notation ? { notation } : {}), source: c.source ?? (item as object) })));
    else if (!(isObject(item) && typeof item.role === 'string')) others++;
  }
  if (calls.length === 0) return { kind: 'none' };
  if (others > 0) return { kind: 'error', message: `Unexpected ${others} item${others === 1 ? '' : 's'} that ${others === 1 ? 'is' : 'are'} not a tool call in an array of tool calls, expected every item to be a call` };
  return { kind: 'calls', calls };
}

/** The tool calls a parsed JSON value holds: one call, an array of calls (parallel), a message or a transcript. */
export function callsFromValue(value: unknown): ShapeResult {
  if (Array.isArray(value)) return fromArray(value);
  return one(value);
}

/**
 * Whether text that failed to parse was meant as a call: it names the keys only calls have.
 * Used where the container does not say so (a `json` fence, prose).
 */
export function looksLikeCall(text: string): boolean {
  if (/["'](?:arguments|args|tool_calls|tool_input|action_input|functionCall|function_call)["']\s*:/.test(text)) return true;
  if (/["']type["']\s*:\s*["']tool_use["']/.test(text)) return true;
  return /["'](?:name|function)["']\s*:/.test(text) && /["'](?:input|parameters)["']\s*:/.test(text) && !/["']properties["']\s*:/.test(text);
}
