import type { CorruptRecord, RecordedCall, RecordedItem } from './types.js';
import { errorMessage } from '../util/errors.js';
import { callsFromValue } from '../shapes/calls.js';

/** Where a record came from: a file and line, or a database source and row key. */
export type Where = RecordedCall['where'];

/** One call as found in a value, before it is placed. */
export interface FoundCall {
  id?: string;
  name: string;
  arguments: unknown;
}

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const expectedShapes =
  'expected `{name, arguments}`, `{tool, arguments}`, `{name, input}`, `{name, args}`, an OpenAI `{function: {name, arguments}}` call, an Anthropic `tool_use` block, a Gemini `functionCall`, a `tool_calls` list, a message with `content` blocks or `parts`, or a request with `messages`';

/**
 * The tool name of a value in one of the two shapes most logs hold, `{name, arguments}`
 * with the arguments as JSON (not a string) and an Anthropic `tool_use` block, read without
 * building anything; undefined for every other value. Where it gives a name,
 * `itemsFromValue` finds exactly one call, with that name and `plainArguments(value)` as
 * its arguments; anything less plain is left to `itemsFromValue`.
 */
export function plainCallName(value: unknown): string | undefined {
  if (!isObj(value)) return undefined;
  const name = value.name;
  if (typeof name !== 'string' || name === '' || value.tool_calls !== undefined || 'role' in value) return undefined;
  // A string `input` may be JSON text to decode.
  if (value.type === 'tool_use') return value.input === undefined || typeof value.input === 'string' ? undefined : name;
  if (value.type !== undefined || value.function !== undefined || value.function_call !== undefined) return undefined;
  // Keys the general reader looks at before `name` (a Gemini call, a request, an MCP message, a wrapper).
  if (value.functionCall !== undefined || value.messages !== undefined || value.params !== undefined || value.result !== undefined || value.tool_call !== undefined) return undefined;
  const args = value.arguments;
  return args === undefined || typeof args === 'string' ? undefined : name;
}

/** The arguments of a value `plainCallName` names. */
export function plainArguments(value: object): unknown {
  const o = value as Obj;
  return o.type === 'tool_use' ? o.input : o.arguments;
}

export function corrupt(message: string, where: Where): CorruptRecord {
  return { corrupt: true, message, where };
}

/**
 * The calls in one parsed value, each placed by `place` (which names it: a JSONL `line#i`
 * id, a database `row#i` key), or the one CorruptRecord that says why there are none.
 */
export function itemsFromValue(
  value: unknown,
  where: Where,
  place: (call: FoundCall, index: number, count: number) => RecordedCall,
): RecordedItem[] {
  // Call shapes are read as src/shapes/calls.ts reads them, in its recorded mode.
  const shape = callsFromValue(value, 'recorded');
  if (shape.kind === 'error') return [corrupt(shape.message, where)];
  if (shape.kind === 'none') return shape.container ? [] : [corrupt(`No tool call found: ${expectedShapes}`, where)];
  // bare-name does not occur in recorded mode: a call without arguments is an error there.
  if (shape.kind !== 'calls') return [corrupt(`No tool call found: ${expectedShapes}`, where)];
  const calls = shape.calls;
  return calls.map((call, i) => {
    const placed = place(call.id === undefined ? { name: call.name, arguments: call.arguments } : { id: call.id, name: call.name, arguments: call.arguments }, i, calls.length);
    // A call that cannot be read is reported at its own place; the others beside it are checked.
    return call.unreadable === undefined ? placed : corrupt(call.unreadable, placed.where);
  });
}

/** Parses JSON text, or returns the CorruptRecord that says why it is not JSON. */
export function parseJson(text: string, where: Where, what: string): { value: unknown } | CorruptRecord {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return notJson(error, where, what);
  }
}

/** The CorruptRecord for text that `JSON.parse` rejected with `error`. */
export function notJson(error: unknown, where: Where, what: string): CorruptRecord {
  return corrupt(`${what} is not valid JSON (${errorMessage(error)})`, where);
}
