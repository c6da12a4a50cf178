/** Which parsed JSON values are tool calls, in every common shape. */
import { readJson } from './json.js';
import type { Notation } from './types.js';

export interface RawCall {
  name: string;
  arguments: unknown;
  /** Set for shapes that name their provider; otherwise the container's notation applies. */
  notation?: Notation;
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

/** A tool definition's `parameters` is a schema; a call's is the arguments. */
function isSchemaLike(value: unknown): boolean {
  if (!isObject(value)) return false;
  return value.type === 'object' || value.type === 'dict' || isObject(value.properties) || '$schema' in value;
}

function parseArguments(name: string, args: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  if (args === undefined) return { ok: true, value: {} };
  if (typeof args !== 'string') return { ok: true, value: args };
  const read = readJson(args, 0);
  if (!read.ok) return { ok: false, message: `The \`arguments\` of \`${name}\` is a string that is not JSON: ${read.message}` };
  if (/\S/.test(args.slice(read.end))) return { ok: false, message: `The \`arguments\` of \`${name}\` is a string with text after the JSON value, expected one JSON object` };
  return { ok: true, value: read.value };
}

const argumentKeys = ['arguments', 'args', 'input', 'parameters', 'tool_input'] as const;

function fromMessage(message: Record<string, unknown>): ShapeResult {
  const calls: RawCall[] = [];
  if (Array.isArray(message.tool_calls)) {
    const r = fromArray(message.tool_calls, 'openai-tool-calls');
    if (r.kind === 'error') return r;
    if (r.kind === 'calls') calls.push(...r.calls);
  }
  if (Array.isArray(message.content)) {
    for (const block of message.content) {
      if (isObject(block) && block.type === 'tool_use') {
        const r = one(block);
        if (r.kind === 'error') return r;
        if (r.kind === 'calls') calls.push(...r.calls);
      }
    }
  }
  return { kind: 'calls', calls };
}

function one(value: unknown): ShapeResult {
  if (!isObject(value)) return { kind: 'none' };
  if (value.type === 'tool_use') {
    if (typeof value.name !== 'string' || value.name === '') return { kind: 'error', message: 'Unexpected `tool_use` block without a `name` string, expected `{"type": "tool_use", "name": ..., "input": {...}}`' };
    const args = parseArguments(value.name, value.input);
    if (!args.ok) return { kind: 'error', message: args.message, name: value.name };
    return { kind: 'calls', calls: [{ name: value.name, arguments: args.value, notation: 'anthropic-tool-use' }] };
  }
  if (isObject(value.functionCall)) {
    const fc = value.functionCall;
    if (typeof fc.name !== 'string' || fc.name === '') return { kind: 'error', message: 'Unexpected `functionCall` without a `name` string, expected `{"functionCall": {"name": ..., "args": {...}}}`' };
    const args = parseArguments(fc.name, fc.args ?? fc.arguments);
    if (!args.ok) return { kind: 'error', message: args.message, name: fc.name };
    return { kind: 'calls', calls: [{ name: fc.name, arguments: args.value }] };
  }
  if (typeof value.role === 'string') return fromMessage(value);
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
    return { kind: 'calls', calls: [{ name: fn.name, arguments: args.value, notation: 'openai-tool-calls' }] };
  }
  const name = typeof value.function === 'string' ? value.function : value.name ?? value.tool ?? value.tool_name;
  const key = argumentKeys.find((k) => Object.hasOwn(value, k));
  if (key !== undefined) {
    if (key === 'parameters' && isSchemaLike(value.parameters)) return { kind: 'none' };
    if (typeof name !== 'string' || name === '') {
      if (key === 'arguments' || key === 'args') return { kind: 'error', message: `Unexpected \`${key}\` without a tool \`name\` string beside it, expected \`{"name": ..., "${key}": {...}}\`` };
      return { kind: 'none' };
    }
    const args = parseArguments(name, value[key]);
    if (!args.ok) return { kind: 'error', message: args.message, name };
    return { kind: 'calls', calls: [{ name, arguments: args.value }] };
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
    if (r.kind === 'calls') calls.push(...r.calls.map((c) => (notation && !c.notation ? { ...c, notation } : c)));
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
  if (/["'](?:arguments|args|tool_calls|tool_input|functionCall)["']\s*:/.test(text)) return true;
  if (/["']type["']\s*:\s*["']tool_use["']/.test(text)) return true;
  return /["'](?:name|function)["']\s*:/.test(text) && /["'](?:input|parameters)["']\s*:/.test(text) && !/["']properties["']\s*:/.test(text);
}
