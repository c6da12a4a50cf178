import type { CorruptRecord, RecordedCall, RecordedItem } from './types.js';
import { errorMessage } from '../util/errors.js';

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

/** A value that looks like a call or message but cannot be read as one; becomes a CorruptRecord. */
class Unreadable extends Error {}

const expectedShapes =
  'expected `{name, arguments}`, `{tool, arguments}`, `{name, input}`, `{name, args}`, an OpenAI `{function: {name, arguments}}` call, an Anthropic `tool_use` block, a `tool_calls` list or a message with `content` blocks';

/** OpenAI sends arguments as a JSON string; a string that does not parse would crash the handler too. */
function parseArguments(value: unknown, name: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch (error) {
    throw new Unreadable(`The arguments of \`${name}\` are a string that is not JSON (${errorMessage(error)})`);
  }
}

function idOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
}

function named(name: unknown, what: string): string {
  if (typeof name === 'string' && name !== '') return name;
  throw new Unreadable(`${what} has no \`name\` string`);
}

function found(id: string | undefined, name: string, args: unknown): FoundCall {
  return id === undefined ? { name, arguments: args } : { id, name, arguments: args };
}

/** One object in a call shape -> the call; undefined when it has no call shape at all. */
function callFromObject(o: Obj): FoundCall | undefined {
  if (o.type === 'tool_use') {
    const name = named(o.name, 'A `tool_use` block');
    if (!('input' in o)) throw new Unreadable(`The \`tool_use\` block \`${name}\` has no \`input\``);
    return found(idOf(o.id), name, o.input);
  }
  if (isObj(o.function)) {
    const name = named(o.function.name, 'An OpenAI `function` call');
    return found(idOf(o.id), name, parseArguments(o.function.arguments, name));
  }
  if (isObj(o.function_call)) {
    const name = named(o.function_call.name, 'A `function_call`');
    return found(idOf(o.id), name, parseArguments(o.function_call.arguments, name));
  }
  if (o.type === 'function_call') {
    const name = named(o.name, 'A Responses `function_call` item');
    return found(idOf(o.call_id) ?? idOf(o.id), name, parseArguments(o.arguments, name));
  }
  const rawName = o.name ?? o.tool;
  if (rawName === undefined) return undefined;
  const name = named(rawName, 'A tool call');
  const id = idOf(o.id);
  if ('arguments' in o) return found(id, name, parseArguments(o.arguments, name));
  if ('input' in o) return found(id, name, o.input);
  if ('args' in o) return found(id, name, o.args);
  throw new Unreadable(`The call to \`${name}\` has no \`arguments\`, \`input\` or \`args\``);
}

// Content blocks that are not calls (text, images, tool results, thinking) are skipped, not corrupt.
const callBlockTypes = new Set(['tool_use', 'function', 'function_call']);

/**
 * The tool calls in one parsed value: a single call in any common shape, a `tool_calls`
 * list, a message (Anthropic `content` blocks, OpenAI `tool_calls`), a `{message}` wrapper
 * or an array of any of these. `undefined` when the value has no such shape; a message
 * without calls gives `[]`. Throws Unreadable when a call is recognisable but broken.
 */
function callsIn(value: unknown): FoundCall[] | undefined {
  if (Array.isArray(value)) {
    const calls: FoundCall[] = [];
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (isObj(item) && typeof item.type === 'string' && !callBlockTypes.has(item.type)) continue;
      const inner = callsIn(item);
      if (inner === undefined) throw new Unreadable(`Item ${i} of the list is not a tool call or content block`);
      calls.push(...inner);
    }
    return calls;
  }
  if (!isObj(value)) return undefined;
  if (Array.isArray(value.tool_calls)) {
    return value.tool_calls.map((call: unknown, i: number) => {
      const one = isObj(call) ? callFromObject(call) : undefined;
      if (one === undefined) throw new Unreadable(`Item ${i} of \`tool_calls\` is not a tool call`);
      return one;
    });
  }
  // A message may carry a sender `name`: read it as a message before trying call shapes.
  if ('role' in value) {
    if (Array.isArray(value.content)) return callsIn(value.content);
    if (isObj(value.function_call)) return [callFromObject({ function_call: value.function_call })!];
    return [];
  }
  const single = callFromObject(value);
  if (single !== undefined) return [single];
  if (Array.isArray(value.content)) return callsIn(value.content);
  if (isObj(value.message)) return callsIn(value.message);
  return undefined;
}

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
  if (value.type === 'tool_use') return value.input === undefined ? undefined : name;
  if (value.type !== undefined || value.function !== undefined || value.function_call !== undefined) return undefined;
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
  let calls: FoundCall[] | undefined;
  try {
    calls = callsIn(value);
  } catch (error) {
    if (error instanceof Unreadable) return [corrupt(error.message, where)];
    throw error;
  }
  if (calls === undefined) return [corrupt(`No tool call found: ${expectedShapes}`, where)];
  return calls.map((call, i) => place(call, i, calls.length));
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
