import type { JsonSchema, JsonSchemaObject } from '../tools/types.js';
import { isRecord } from '../util/values.js';
import { getAt, joinPointer } from './pointer.js';

/**
 * The fragment of a `$ref` into the same document, percent-decoded: a JSON Pointer
 * (`/$defs/x`), `''` for `#`, or an anchor name. Undefined for a ref into another
 * document, or one whose escapes do not decode.
 */
export function localRefFragment(ref: string): string | undefined {
  if (!ref.startsWith('#')) return undefined;
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
}

/**
 * A local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, any `#/...` pointer) resolved against
 * its document root, with the pointer of the target. Remote and anchor refs, and pointers to
 * anything but a schema, give undefined: callers treat them as unknown rather than guess.
 * One step only: a target that is itself a `$ref` is the caller's to follow, and to stop
 * following when it cycles.
 */
export function resolveLocalRef(root: JsonSchemaObject, ref: string): { schema: JsonSchema; pointer: string } | undefined {
  const pointer = localRefFragment(ref);
  if (pointer === undefined || (pointer !== '' && !pointer.startsWith('/'))) return undefined;
  const target = getAt(root, pointer);
  return typeof target === 'boolean' || isRecord(target) ? { schema: target, pointer } : undefined;
}

/** Keywords whose subschemas apply to the same value, not to a part of it. */
const inPlaceLists = ['allOf', 'anyOf', 'oneOf'] as const;
const inPlaceSingles = ['not', 'if', 'then', 'else'] as const;

/**
 * The pointer of a local `$ref` that leads back to a schema it is applied from without
 * descending into the value (`{"$ref": "#"}` at the root, `allOf: [{"$ref": "#"}]`, two
 * `$defs` naming each other): validating would recurse until the stack runs out. A `$ref`
 * reached through `properties`, `items` and the like is ordinary recursion (a tree), since
 * each step moves into a smaller part of the value. Undefined when there is none.
 */
export function loopingRef(root: JsonSchemaObject): string | undefined {
  // Depth-first over "applies in place" edges, from every schema node; `done` nodes have no loop through them.
  const done = new Set<unknown>();
  const active = new Set<unknown>();
  // `at`: where `schema` sits in the document. Returns where the `$ref` that closes a loop sits.
  const visit = (schema: Record<string, unknown>, at: string): string | undefined => {
    active.add(schema);
    // Each subschema applied to the same value: [schema, where it sits, where the keyword leading to it sits].
    const next: Array<[unknown, string, string]> = [];
    if (typeof schema.$ref === 'string') {
      const target = resolveLocalRef(root, schema.$ref);
      if (target) next.push([target.schema, target.pointer, joinPointer(at, '$ref')]);
    }
    for (const key of inPlaceLists) if (Array.isArray(schema[key])) (schema[key] as unknown[]).forEach((s, i) => next.push([s, joinPointer(at, key, i), joinPointer(at, key, i)]));
    for (const key of inPlaceSingles) if (schema[key] !== undefined) next.push([schema[key], joinPointer(at, key), joinPointer(at, key)]);
    if (isRecord(schema.dependentSchemas)) for (const [k, s] of Object.entries(schema.dependentSchemas)) next.push([s, joinPointer(at, 'dependentSchemas', k), joinPointer(at, 'dependentSchemas', k)]);
    for (const [child, childAt, edge] of next) {
      if (!isRecord(child) || done.has(child)) continue;
      if (active.has(child)) return edge;
      const found = visit(child, childAt);
      if (found !== undefined) return found;
    }
    active.delete(schema);
    done.add(schema);
    return undefined;
  };
  // Every subschema is a starting point: a loop can sit anywhere below the root. A chain of
  // `$ref`s longer than the stack allows is left to Ajv, as before.
  try {
    return everyStart(root, done, visit);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

function everyStart(root: JsonSchemaObject, done: Set<unknown>, visit: (schema: Record<string, unknown>, at: string) => string | undefined): string | undefined {
  const stack: Array<[unknown, string]> = [[root, '']];
  const seen = new Set<unknown>();
  while (stack.length > 0) {
    const [schema, pointer] = stack.pop()!;
    if (!isRecord(schema) && !Array.isArray(schema)) continue;
    if (seen.has(schema)) continue;
    seen.add(schema);
    if (isRecord(schema) && !done.has(schema)) {
      const found = visit(schema, pointer);
      if (found !== undefined) return found;
    }
    for (const [key, child] of Object.entries(schema)) if (typeof child === 'object' && child !== null && key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples') stack.push([child, joinPointer(pointer, key)]);
  }
  return undefined;
}
