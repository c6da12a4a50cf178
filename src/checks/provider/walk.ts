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

/** Every `$ref` in a schema, where it sits and which pointer it names, in document order. */
function collectRefs(root: unknown): Array<{ at: string; target: string | undefined; ref: string }> {
  const refs: Array<{ at: string; target: string | undefined; ref: string }> = [];
  // An explicit stack, children pushed in reverse: the same order as a recursive walk, on any depth.
  const stack: Array<{ node: unknown; path: string }> = [{ node: root, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (!isRecord(node)) continue;
    if (typeof node.$ref === 'string') refs.push({ at: path, target: localRefFragment(node.$ref), ref: node.$ref });
    const kids = children(node, path);
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i]!.schema, path: kids[i]!.path });
  }
  return refs;
}

const within = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);
const inDefinitions = (path: string): boolean => /^\/(\$defs|definitions)\//.test(path);

/** `''`, `/a`, `/a/b` for `/a/b`: every pointer that `path` is `within`. */
function prefixes(path: string): string[] {
  if (path !== '' && !path.startsWith('/')) return [path]; // an anchor name: within nothing but itself
  const out = [''];
  for (let i = path.indexOf('/', 1); i !== -1; i = path.indexOf('/', i + 1)) out.push(path.slice(0, i));
  if (path !== '') out.push(path);
  return out;
}

/**
 * The `$ref`s that close a cycle reachable from the schema's own properties (a definition
 * that is recursive but never used is not sent to the model as a cycle). A target T leads to
 * T2 when a `$ref` to T2 sits inside T; expanding T never ends when T leads back to itself.
 */
export function recursiveRefs(root: unknown): Array<{ at: string; ref: string }> {
  const refs = collectRefs(root).filter((r): r is { at: string; target: string; ref: string } => r.target !== undefined);
  // The refs inside each pointer, indexed once: a long chain of definitions stays linear.
  const insideOf = new Map<string, typeof refs>();
  for (const r of refs) {
    for (const p of prefixes(r.at)) {
      const list = insideOf.get(p);
      if (list) list.push(r);
      else insideOf.set(p, [r]);
    }
  }
  const inside = (target: string): typeof refs => insideOf.get(target) ?? [];
  const found = new Map<string, { at: string; ref: string }>();
  // Depth-first over targets; a target explored to the end holds no cycle we have not seen.
  // Iterative, with the pointers on the current path counted with their prefixes, so that
  // "some target on the path lies within r.target" is one lookup and a chain of any length fits.
  const explored = new Set<string>();
  const onPath = new Map<string, number>();
  const enter = (target: string, delta: number): void => {
    for (const p of prefixes(target)) onPath.set(p, (onPath.get(p) ?? 0) + delta);
  };
  const search = (start: string): void => {
    const frames: Array<{ target: string; list: typeof refs; i: number }> = [{ target: start, list: inside(start), i: 0 }];
    enter(start, 1);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      if (frame.i >= frame.list.length) {
        explored.add(frame.target);
        enter(frame.target, -1);
        frames.pop();
        continue;
      }
      const r = frame.list[frame.i++]!;
      if ((onPath.get(r.target) ?? 0) > 0) {
        found.set(r.at, { at: r.at, ref: r.ref });
        continue;
      }
      if (!explored.has(r.target)) {
        frames.push({ target: r.target, list: inside(r.target), i: 0 });
        enter(r.target, 1);
      }
    }
  };
  for (const start of refs.filter((r) => !inDefinitions(r.at))) {
    if (within(start.at, start.target)) found.set(start.at, { at: start.at, ref: start.ref });
    else search(start.target);
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
