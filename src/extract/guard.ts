/**
 * What a custom notation hands back, checked before the extractor uses it. A notation is
 * code from the user's config: an `async` `parse`, a name that is a number, an offset past
 * the end of the text would otherwise surface as a TypeError deep in the extractor, or as
 * calls that vanish without a word. Each check here turns the mistake into a message that
 * names the notation, what it returned and what was expected; and each call runs under a time
 * bound (`withTimeout`), so a loop in it is stopped rather than hanging the run. Built-in
 * notations are not checked: their tests hold them to the same shapes.
 */
import { createContext, Script, type Context } from 'node:vm';
import { z } from 'zod';
import type { NotationMatch, ParsedCall, ParseFailure, ParseResult } from './notation.js';

/**
 * How long one call of a custom notation may run: `find` with the reading of its places, or
 * one `parse`. Far above what a regex or a scan takes on any prompt; a call past it is a loop.
 */
export const DEFAULT_NOTATION_TIMEOUT_MS = 5000;

/** A custom notation's call ran past its time and was stopped. */
export class NotationTimeout extends Error {}

let sandbox: { context: Context; script: Script } | undefined;

/**
 * Runs `fn` and stops it after `ms` milliseconds, even in a loop that never yields: a script
 * run by `node:vm` with a `timeout` is terminated by a watchdog thread, and so is any function
 * it calls, wherever that function was defined. A plain call could not be interrupted.
 */
export function withTimeout<T>(fn: () => T, ms: number): T {
  sandbox ??= { context: createContext({}), script: new Script('__call()') };
  const { context, script } = sandbox;
  const outer: unknown = context.__call;
  context.__call = fn;
  try {
    return script.runInContext(context, { timeout: ms }) as T;
  } catch (error) {
    if (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new NotationTimeout(`stopped after ${ms} ms`);
    throw error;
  } finally {
    // A notation may extract inside its own call: the outer call is put back.
    context.__call = outer;
  }
}

/** The message for a call stopped by `withTimeout`. */
export function timedOut(notation: string, fn: 'find' | 'parse', ms: number, textLength: number): string {
  return `Unexpected run of ${by(notation, fn)} past ${ms.toLocaleString('en-US')} ms on ${textLength.toLocaleString('en-US')} characters of text, expected it to return within that time; it is stopped, and the notation is not run again on this text`;
}

/**
 * Places one `find` may report per character of its text (plus a floor for short texts). A
 * notation reports at most a few places per call it finds; a `find` past this bound is
 * looping (a global regex whose `lastIndex` never advances yields the same place forever),
 * and it is stopped here instead of hanging the run.
 */
export const PLACES_PER_CHARACTER = 4;
export const MIN_PLACES = 10_000;

export function placeLimit(textLength: number): number {
  return MIN_PLACES + PLACES_PER_CHARACTER * textLength;
}

/** Deeper arguments than any a model writes: the walk that checks them stops here. */
const MAX_ARGUMENT_DEPTH = 256;

const offset = z.number().int().nonnegative();
const placeShape = z.object({ start: offset, end: offset });
const callShape = z.object({
  name: z.string().min(1),
  arguments: z.unknown(),
  notation: z.string().min(1).optional(),
  at: offset.optional(),
  notJson: z.object({ offset, message: z.string() }).optional(),
});
const failureShape = z.object({
  error: z.string(),
  offset: offset.optional(),
  tool: z.string().optional(),
  placeholder: z.string().optional(),
});

/** What each field holds, for "expected ..." in messages. */
const expectedOf: Record<string, string> = {
  start: 'an offset into the text (a whole number from 0)',
  end: 'an offset into the text (a whole number from 0)',
  name: 'the tool name as a non-empty string',
  arguments: 'the arguments as JSON data (an object; `{}` for none)',
  notation: 'a non-empty string',
  at: 'an offset into the text (a whole number from 0)',
  offset: 'an offset into the text (a whole number from 0)',
  notJson: 'an object `{ offset, message }`',
  message: 'a string',
  error: 'the message as a string',
  tool: 'a string',
  placeholder: 'a string',
};

function isThenable(value: unknown): boolean {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** A value as "Unexpected ..." names it: "Promise", "string \"abc\"", "`undefined`". */
export function describeValue(value: unknown): string {
  if (value === undefined) return '`undefined`';
  if (value === null) return '`null`';
  if (isThenable(value)) return 'Promise';
  switch (typeof value) {
    case 'string':
      return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`;
    case 'number':
      return `number ${String(value)}`;
    case 'boolean':
      return `\`${String(value)}\``;
    case 'bigint':
      return `bigint ${String(value)}n`;
    case 'symbol':
      return 'symbol';
    case 'function':
      return 'function';
    default:
      if (Array.isArray(value)) return 'array';
      if (typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function') return 'async iterable';
      return 'object';
  }
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const key of path) v = typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

function pathText(root: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`), root);
}

/** "the `house-call` notation's `parse`": who returned the value, for messages. */
function by(notation: string, fn: 'find' | 'parse'): string {
  return `the \`${notation}\` notation's \`${fn}\``;
}

/** The first problem zod found, as "Unexpected X at `path` <where>, expected Y". */
function issueMessage(error: z.ZodError, root: string, value: unknown, where: string): string {
  const issue = error.issues[0]!;
  const path = issue.path;
  const last = [...path].reverse().find((k): k is string => typeof k === 'string');
  const expected = last === undefined ? issue.message : (expectedOf[last] ?? issue.message);
  return `Unexpected ${describeValue(valueAt(value, path))} at \`${pathText(root, path)}\` ${where}, expected ${expected}`;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/** What `find` returned: an iterable to read places from, or why it cannot be read. */
export function checkFound(found: unknown, notation: string): Checked<Iterable<unknown>> {
  const iterable = typeof found === 'object' && found !== null && typeof (found as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
  if (iterable && !isThenable(found)) return { ok: true, value: found as Iterable<unknown> };
  const what = describeValue(found);
  const why = what === 'Promise' || what === 'async iterable' ? '; `find` runs synchronously, so an `async` find is never awaited' : '';
  return { ok: false, message: `Unexpected ${what} returned by ${by(notation, 'find')}, expected an iterable of places \`{ start, end }\` (an array or a generator)${why}` };
}

/** One place `find` yielded, against the text it was given. */
export function checkPlace(place: unknown, textLength: number, notation: string): Checked<NotationMatch> {
  const where = `from ${by(notation, 'find')}`;
  if (typeof place !== 'object' || place === null || Array.isArray(place)) return { ok: false, message: `Unexpected ${describeValue(place)} as a place ${where}, expected an object \`{ start, end }\`` };
  const parsed = placeShape.safeParse(place);
  if (!parsed.success) return { ok: false, message: issueMessage(parsed.error, 'place', place, where) };
  const { start, end } = parsed.data;
  if (end <= start || end > textLength) {
    return { ok: false, message: `Unexpected place \`{ start: ${start}, end: ${end} }\` ${where}, expected \`0 <= start < end <= ${textLength}\` (offsets into the ${textLength} characters of text it was given)` };
  }
  return { ok: true, value: place as NotationMatch };
}

/** Why a value is not JSON data (a cycle, a function, `NaN`, a class instance), as "Unexpected X at `path`"; undefined when it is. */
function jsonProblem(value: unknown, path: string, ancestors: Set<object>, depth: number): { unexpected: string; expected: string } | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { unexpected: `${describeValue(value)} at \`${path}\``, expected: 'JSON data (a finite number)' };
  if (typeof value !== 'object') return { unexpected: `${describeValue(value)} at \`${path}\``, expected: 'JSON data (a string, number, boolean, null, array or plain object)' };
  if (depth > MAX_ARGUMENT_DEPTH) return { unexpected: `nesting deeper than ${MAX_ARGUMENT_DEPTH} levels at \`${path}\``, expected: 'arguments a model writes' };
  if (ancestors.has(value)) return { unexpected: `cycle at \`${path}\` (an object inside itself)`, expected: 'JSON data' };
  const proto = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return { unexpected: `${isThenable(value) ? 'Promise' : 'class instance'} at \`${path}\``, expected: 'JSON data (a plain object)' };
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const p = jsonProblem(value[i], `${path}[${i}]`, ancestors, depth + 1);
        if (p) return p;
      }
      return undefined;
    }
    for (const [key, v] of Object.entries(value)) {
      const p = jsonProblem(v, `${path}.${key}`, ancestors, depth + 1);
      if (p) return p;
    }
    return undefined;
  } finally {
    ancestors.delete(value);
  }
}

/**
 * What `parse` returned: `undefined`, calls or a failure, each offset inside the text; or why
 * it cannot be used. Nothing is taken from a result that fails a check, so a broken call
 * next to good ones is reported rather than half read.
 */
export function checkParsed(result: unknown, textLength: number, notation: string): Checked<ParseResult> {
  if (result === undefined) return { ok: true, value: undefined };
  const where = `in what ${by(notation, 'parse')} returned`;
  if (isThenable(result)) {
    return { ok: false, message: `Unexpected Promise returned by ${by(notation, 'parse')}, expected the calls, \`undefined\` or \`{ error }\`; \`parse\` runs synchronously, so an \`async\` parse is never awaited` };
  }
  const past = (at: number | undefined, path: string): string | undefined =>
    at !== undefined && at > textLength ? `Unexpected offset ${at} at \`${path}\` ${where}, expected an offset into the ${textLength} characters of text (at most ${textLength})` : undefined;
  if (Array.isArray(result)) {
    const calls: ParsedCall[] = [];
    for (let i = 0; i < result.length; i++) {
      const item: unknown = result[i];
      const root = `calls[${i}]`;
      if (typeof item !== 'object' || item === null || Array.isArray(item)) return { ok: false, message: `Unexpected ${describeValue(item)} at \`${root}\` ${where}, expected a call \`{ name, arguments }\`` };
      const parsed = callShape.safeParse(item);
      if (!parsed.success) return { ok: false, message: issueMessage(parsed.error, root, item, where) };
      const call = item as ParsedCall;
      if (call.arguments === undefined) return { ok: false, message: `Unexpected \`undefined\` at \`${root}.arguments\` ${where}, expected the arguments as JSON data (an object; \`{}\` for none)` };
      const bad = jsonProblem(call.arguments, `${root}.arguments`, new Set(), 0);
      if (bad) return { ok: false, message: `Unexpected ${bad.unexpected} ${where}, expected ${bad.expected}` };
      const problem = past(call.at, `${root}.at`) ?? past(call.notJson?.offset, `${root}.notJson.offset`);
      if (problem) return { ok: false, message: problem };
      // A copy of plain data: a getter or a proxy in what `parse` returned runs no more once it is read here.
      const { name, notation: own, at, notJson } = parsed.data;
      calls.push({ name, arguments: JSON.parse(JSON.stringify(call.arguments)) as unknown, ...(own === undefined ? {} : { notation: own }), ...(at === undefined ? {} : { at }), ...(notJson === undefined ? {} : { notJson }) });
    }
    return { ok: true, value: calls };
  }
  if (typeof result === 'object' && result !== null && 'error' in result) {
    const parsed = failureShape.safeParse(result);
    if (!parsed.success) return { ok: false, message: issueMessage(parsed.error, 'failure', result, where) };
    const problem = past(parsed.data.offset, 'failure.offset');
    if (problem) return { ok: false, message: problem };
    const { error, offset: at, tool, placeholder } = parsed.data;
    const failure: ParseFailure = { error, ...(at === undefined ? {} : { offset: at }), ...(tool === undefined ? {} : { tool }), ...(placeholder === undefined ? {} : { placeholder }) };
    return { ok: true, value: failure };
  }
  return { ok: false, message: `Unexpected ${describeValue(result)} returned by ${by(notation, 'parse')}, expected an array of calls \`{ name, arguments }\`, \`undefined\` (not a call) or \`{ error }\` (a broken call)` };
}

/** `find` reported more places than its text can hold calls: it is looping, and is stopped. */
export function tooManyPlaces(notation: string, textLength: number): string {
  return `Unexpected more than ${placeLimit(textLength).toLocaleString('en-US')} places from ${by(notation, 'find')} on ${textLength.toLocaleString('en-US')} characters of text, expected a few places per call; a \`find\` that yields without end (a global regex whose \`lastIndex\` never advances) is stopped here, and none of its places in this text are read`;
}

/** `find` threw. */
export function findThrew(notation: string, error: unknown): string {
  return `Unexpected error in ${by(notation, 'find')}: ${error instanceof Error ? error.message : String(error)}, expected it to return the places it found`;
}
