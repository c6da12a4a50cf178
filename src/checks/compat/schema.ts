import type { JsonSchema } from '../../tools/types.js';
import { isRecord } from '../../util/values.js';

// Re-exported for witnesses.ts, which reads them from here.
export { getAt, splitPointer } from '../../schema/pointer.js';
export { show } from '../../util/values.js';

export function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'boolean' || isRecord(value);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && deepEqual(ao[k], bo[k]));
}

/** Keywords that change no validation outcome: edits to them are never breaking. */
export const annotations = new Set([
  'title', 'description', 'default', 'examples', 'example', '$comment', 'deprecated', 'readOnly', 'writeOnly',
  '$schema', '$id', '$anchor', '$defs', 'definitions', 'contentMediaType', 'contentEncoding', 'markdownDescription',
]);

/** Keywords whose value maps names to subschemas: the names are data, not keywords. */
const schemaMaps = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** A copy of a schema without annotations, for "same meaning" comparisons (tool renames). */
export function stripAnnotations(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(stripAnnotations);
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (annotations.has(key) && key !== '$defs' && key !== 'definitions') continue;
    if (key.startsWith('x-')) continue;
    if (schemaMaps.has(key) && isRecord(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stripAnnotations(v)]));
    } else if (key === 'enum' || key === 'const' || key === 'required') out[key] = value;
    else out[key] = stripAnnotations(value);
  }
  return out;
}

export type TypeName = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';
const typeNames = new Set<string>(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']);

/** The `type` keyword as a set, or undefined when it does not restrict (absent or unreadable). */
export function typeSet(type: unknown): Set<TypeName> | undefined {
  const list = typeof type === 'string' ? [type] : Array.isArray(type) ? type : undefined;
  if (!list || !list.every((t) => typeof t === 'string' && typeNames.has(t))) return undefined;
  return new Set(list as TypeName[]);
}

export function typeOfValue(value: unknown): TypeName {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'object') return 'object';
  return typeof value as TypeName;
}

/** True when a value of type `t` is accepted by the type set (integers are numbers). */
export function covers(types: ReadonlySet<TypeName>, t: TypeName): boolean {
  return types.has(t) || (t === 'integer' && types.has('number'));
}

/** Intersection of type sets; `integer` survives against `number`. */
export function intersectTypes(a: ReadonlySet<TypeName> | undefined, b: ReadonlySet<TypeName> | undefined): Set<TypeName> | undefined {
  if (!a) return b ? new Set(b) : undefined;
  if (!b) return new Set(a);
  const out = new Set<TypeName>();
  for (const t of a) {
    if (covers(b, t)) out.add(t);
    else if (t === 'number' && b.has('integer')) out.add('integer');
  }
  return out;
}

/** Splits a regex source on `|` at the top level (outside groups and classes). */
export function topLevelAlternatives(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(source.slice(start, i));
      start = i + 1;
    }
  }
  out.push(source.slice(start));
  return out;
}
