import { joinPointer } from '../../schema/pointer.js';
import { localRefFragment } from '../../schema/refs.js';
import { isRecord } from '../../util/values.js';
import type { PatternFeature } from './profiles.js';

export type SchemaNode = Record<string, unknown>;

/** A subschema position: the keyword that holds it and its JSON Pointer. */
export interface Child {
  keyword: string;
  path: string;
  schema: unknown;
}

const mapKeywords = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const listKeywords = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const singleKeywords = [
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'contentSchema',
  'not',
  'if',
  'then',
  'else',
];

/** The subschemas directly under `node`; literal payloads (`enum`, `const`, `default`) are not schemas. */
export function children(node: SchemaNode, path: string): Child[] {
  const out: Child[] = [];
  for (const keyword of mapKeywords) {
    const map = node[keyword];
    if (!isRecord(map)) continue;
    for (const [key, schema] of Object.entries(map)) out.push({ keyword, path: joinPointer(path, keyword, key), schema });
  }
  for (const keyword of listKeywords) {
    const list = node[keyword];
    if (Array.isArray(list)) list.forEach((schema, i) => out.push({ keyword, path: joinPointer(path, keyword, i), schema }));
  }
  if (Array.isArray(node.items)) {
    node.items.forEach((schema, i) => out.push({ keyword: 'items', path: joinPointer(path, 'items', i), schema }));
  } else if (node.items !== undefined) {
    out.push({ keyword: 'items', path: joinPointer(path, 'items'), schema: node.items });
  }
  for (const keyword of singleKeywords) {
    if (node[keyword] !== undefined) out.push({ keyword, path: joinPointer(path, keyword), schema: node[keyword] });
  }
  return out;
}

export function typesOf(node: SchemaNode): string[] {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type.filter((t): t is string => typeof t === 'string');
  return [];
}

/** An object schema: declared `type: "object"`, or untyped with `properties`. */
export function isObjectSchema(node: SchemaNode): boolean {
  const types = typesOf(node);
  return types.includes('object') || (types.length === 0 && node.$ref === undefined && isRecord(node.properties));
}

export function isArraySchema(node: SchemaNode): boolean {
  return typesOf(node).includes('array');
}

/** A parameter whose value is a union: `anyOf`/`oneOf` or a type list of more than one type. */
export function isUnion(node: SchemaNode): boolean {
  return Array.isArray(node.anyOf) || Array.isArray(node.oneOf) || typesOf(node).length > 1;
}

/** Every `$ref` in a schema, where it sits and which pointer it names. */
function collectRefs(root: unknown): Array<{ at: string; target: string | undefined; ref: string }> {
  const refs: Array<{ at: string; target: string | undefined; ref: string }> = [];
  const visit = (node: unknown, path: string): void => {
    if (!isRecord(node)) return;
    if (typeof node.$ref === 'string') refs.push({ at: path, target: localRefFragment(node.$ref), ref: node.$ref });
    for (const child of children(node, path)) visit(child.schema, child.path);
  };
  visit(root, '');
  return refs;
}

const within = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);
const inDefinitions = (path: string): boolean => /^\/(\$defs|definitions)\//.test(path);

/**
 * The `$ref`s that close a cycle reachable from the schema's own properties (a definition
 * that is recursive but never used is not sent to the model as a cycle). A target T leads to
 * T2 when a `$ref` to T2 sits inside T; expanding T never ends when T leads back to itself.
 */
export function recursiveRefs(root: unknown): Array<{ at: string; ref: string }> {
  const refs = collectRefs(root).filter((r): r is { at: string; target: string; ref: string } => r.target !== undefined);
  const inside = (target: string) => refs.filter((r) => within(r.at, target));
  const found = new Map<string, { at: string; ref: string }>();
  // Depth-first over targets; a target explored to the end holds no cycle we have not seen.
  const explored = new Set<string>();
  const search = (target: string, stack: string[]): void => {
    for (const r of inside(target)) {
      if (stack.some((t) => within(t, r.target))) {
        found.set(r.at, { at: r.at, ref: r.ref });
        continue;
      }
      if (!explored.has(r.target)) search(r.target, [...stack, r.target]);
    }
    explored.add(target);
  };
  for (const start of refs.filter((r) => !inDefinitions(r.at))) {
    if (within(start.at, start.target)) found.set(start.at, { at: start.at, ref: start.ref });
    else search(start.target, [start.target]);
  }
  return [...found.values()];
}

/**
 * Regular-expression features a constrained-decoding grammar cannot express. A small scanner
 * instead of a regex over the regex: escapes and character classes change what `\b` and
 * `(?=` mean (`[\b]` is a backspace).
 */
export function patternFeatures(source: string): PatternFeature[] {
  const found = new Set<PatternFeature>();
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) found.add('backreference');
      else if (!inClass && next === 'k' && source[i + 2] === '<') found.add('backreference');
      else if (!inClass && (next === 'b' || next === 'B')) found.add('word-boundary');
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(' && source[i + 1] === '?') {
      const rest = source.slice(i + 2, i + 4);
      if (rest.startsWith('=') || rest.startsWith('!') || rest === '<=' || rest === '<!') found.add('lookaround');
    }
  }
  return [...found];
}
