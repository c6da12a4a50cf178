import { MAX_SCHEMA_DEPTH, SchemaDepthError, shortPointer } from '../../schema/depth.js';
import { joinPointer } from '../../schema/pointer.js';
import { resolveLocalRef } from '../../schema/refs.js';
import type { JsonSchema, JsonSchemaObject } from '../../tools/types.js';
import { testPattern } from '../../util/regex.js';
import { isRecord } from '../../util/values.js';
import type { CompatRuleName } from './rules.js';
import {
  annotations, covers, deepEqual, intersectTypes, isSchema,
  topLevelAlternatives, typeOfValue, typeSet, type TypeName,
} from './schema.js';

/** One breaking change, as data: the message is written from it in messages.ts. */
export interface Change {
  rule: CompatRuleName;
  /** JSON Pointer into the new schema, at the keyword that rejects. */
  schemaPath: string;
  /** Where in the arguments the rejected value sits; `*` stands for any array index or property name. */
  instancePath: string;
  /** The old value of the keyword (or the old constraint it tightens). */
  expected?: unknown;
  /** The new value. */
  actual?: unknown;
  params: Record<string, unknown>;
}

type Hint = 'root' | 'property' | 'items' | 'additional' | 'other';

/** A node of the new schema that applies to the current value, with its pointer. */
interface Scoped {
  node: JsonSchemaObject;
  path: string;
}

interface At {
  sp: string;
  ip: string;
  hint: Hint;
  /** The new conjunction (node + its `allOf`/`$ref` targets) this node belongs to; undefined when the node starts one. */
  scope: Scoped[] | undefined;
  /** Set on a union branch: it checks removed properties against its parent's scope plus its own nodes. */
  branch?: boolean;
  /** On a union branch: the property names its sibling branches declare, which a value that leaves this branch still finds. */
  siblings?: ReadonlySet<string>;
}

interface Bound {
  value: number;
  exclusive: boolean;
  keyword: string;
}

type Kind = 'number' | 'string' | 'array' | 'object';

const structural = new Set(['$ref', 'allOf']);

/** Nested comparisons (one a schema level or `$ref` hop) before the walk gives up with a SchemaDepthError. */
const MAX_WALK_DEPTH = 2 * MAX_SCHEMA_DEPTH;
/** Keywords the walk compares only as wholes (added, changed), not by what they accept. */
export const genericKeywords = [
  'not', 'contains', 'minContains', 'maxContains', 'propertyNames', 'if', 'then', 'else', 'dependentRequired',
  'dependentSchemas', 'dependencies', 'unevaluatedItems', 'unevaluatedProperties',
] as const;

function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** Schema patterns are untrusted: they run on the linear-time engine validation uses, never on a backtracking one. */
function patternMatches(pattern: string, name: string): boolean {
  return testPattern(pattern, name) ?? false;
}

function isMultiple(value: number, of: number): boolean {
  const q = value / of;
  return Math.abs(q - Math.round(q)) < 1e-9;
}

function boundsOf(node: JsonSchemaObject, dir: 'max' | 'min'): Bound[] {
  const inclusive = dir === 'max' ? 'maximum' : 'minimum';
  const exclusive = dir === 'max' ? 'exclusiveMaximum' : 'exclusiveMinimum';
  const out: Bound[] = [];
  const inc = node[inclusive];
  const exc = node[exclusive];
  // draft-04 writes an exclusive bound as `maximum: n, exclusiveMaximum: true`.
  if (typeof inc === 'number') out.push({ value: inc, exclusive: exc === true, keyword: exc === true ? exclusive : inclusive });
  if (typeof exc === 'number') out.push({ value: exc, exclusive: true, keyword: exclusive });
  return out;
}

/** True when bound `a` admits fewer values than bound `b` on side `dir`. */
function tighter(a: Bound, b: Bound, dir: 'max' | 'min'): boolean {
  if (a.value !== b.value) return dir === 'max' ? a.value < b.value : a.value > b.value;
  return a.exclusive && !b.exclusive;
}

function tightest(bounds: Bound[], dir: 'max' | 'min'): Bound | undefined {
  let best: Bound | undefined;
  for (const b of bounds) if (!best || tighter(b, best, dir)) best = b;
  return best;
}

/** An integer-only domain makes `< 11` and `<= 10` the same bound. */
function asIntegerBound(b: Bound, dir: 'max' | 'min'): Bound {
  const value = dir === 'max' ? (b.exclusive ? Math.ceil(b.value) - 1 : Math.floor(b.value)) : b.exclusive ? Math.floor(b.value) + 1 : Math.ceil(b.value);
  return { value, exclusive: false, keyword: b.keyword };
}

function outside(value: number, b: Bound, dir: 'max' | 'min'): boolean {
  if (dir === 'max') return b.exclusive ? value >= b.value : value > b.value;
  return b.exclusive ? value <= b.value : value < b.value;
}

/**
 * Whether the scalar keywords of one old node admit a value; when unsure (a pattern that cannot
 * run), yes. An `enum` value that a sibling keyword rejects (`maxLength: 2` beside `"abcd"`)
 * was never valid, so it must not count as a value the new schema breaks.
 */
function admits(node: JsonSchemaObject, value: unknown): boolean {
  if (typeof value === 'number') {
    for (const dir of ['max', 'min'] as const) for (const b of boundsOf(node, dir)) if (outside(value, b, dir)) return false;
    return !(typeof node.multipleOf === 'number' && node.multipleOf > 0 && !isMultiple(value, node.multipleOf));
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof node.minLength === 'number' && length < node.minLength) return false;
    if (typeof node.maxLength === 'number' && length > node.maxLength) return false;
    return !(typeof node.pattern === 'string' && testPattern(node.pattern, value) === false);
  }
  return true;
}

function lengthOf(value: unknown, kind: 'string' | 'array' | 'object'): number | undefined {
  if (kind === 'string') return typeof value === 'string' ? [...value].length : undefined;
  if (kind === 'array') return Array.isArray(value) ? value.length : undefined;
  return isRecord(value) ? Object.keys(value).length : undefined;
}

function tupleOf(node: JsonSchemaObject): { list: unknown[]; listKeyword: string; rest: unknown; restKeyword: string } {
  if (Array.isArray(node.prefixItems)) return { list: node.prefixItems, listKeyword: 'prefixItems', rest: node.items, restKeyword: 'items' };
  if (Array.isArray(node.items)) return { list: node.items, listKeyword: 'items', rest: node.additionalItems, restKeyword: 'additionalItems' };
  return { list: [], listKeyword: 'items', rest: node.items, restKeyword: 'items' };
}

/**
 * Compares one tool's old and new input schema, keyword by keyword, for changes that make
 * a call the old schema accepted invalid under the new one. The old side is carried as a
 * conjunction (a node with its `allOf` members and `$ref` targets) so bounds and required
 * lists combine; an old `anyOf`/`oneOf` is split so every old branch is checked on its own.
 */
export class SchemaWalker {
  readonly #oldRoot: JsonSchemaObject;
  readonly #newRoot: JsonSchemaObject;
  readonly #ids = new WeakMap<object, number>();
  #nextId = 1;
  readonly #stack = new Set<string>();
  readonly #shadows = new WeakMap<object, Map<string, JsonSchemaObject>>();
  readonly #synthetic = new WeakSet<object>();
  readonly #typeNodes = new Map<string, JsonSchemaObject>();
  readonly #refsIn = new WeakMap<object, string[]>();
  readonly #refEqual = new Map<string, boolean>();

  constructor(oldRoot: JsonSchemaObject, newRoot: JsonSchemaObject) {
    this.#oldRoot = oldRoot;
    this.#newRoot = newRoot;
  }

  /** All changes, in walk order, without duplicates. */
  run(): Change[] {
    const out: Change[] = [];
    // Tool arguments are always a JSON object, so adding `type: object` at the root narrows nothing.
    this.#compare([this.#oldRoot, this.#typeNode('object')], this.#newRoot, { sp: '', ip: '', hint: 'root', scope: undefined }, out);
    const seen = new Set<string>();
    return out.filter((c) => {
      const key = `${c.rule}\u0000${c.schemaPath}\u0000${c.instancePath}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  #id(node: object): number {
    let id = this.#ids.get(node);
    if (id === undefined) this.#ids.set(node, (id = this.#nextId++));
    return id;
  }

  #typeNode(type: TypeName): JsonSchemaObject {
    let node = this.#typeNodes.get(type);
    if (!node) {
      node = { type };
      this.#synthetic.add(node);
      this.#typeNodes.set(type, node);
    }
    return node;
  }

  #shadow(node: JsonSchemaObject, keyword: string): JsonSchemaObject {
    let byKeyword = this.#shadows.get(node);
    if (!byKeyword) this.#shadows.set(node, (byKeyword = new Map()));
    let copy = byKeyword.get(keyword);
    if (!copy) {
      const { [keyword]: _dropped, ...rest } = node;
      copy = rest;
      byKeyword.set(keyword, copy);
    }
    return copy;
  }

  /** Old nodes that constrain the value: `$ref` followed, `allOf` flattened; `false` kept, `true` dropped. */
  #flattenOld(olds: readonly JsonSchema[]): Array<JsonSchemaObject | false> {
    const out: Array<JsonSchemaObject | false> = [];
    const seen = new Set<object>();
    // Depth first in document order, with an explicit stack: a long `$ref` chain costs no call stack.
    const stack: JsonSchema[] = [...olds].reverse();
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (s === true) continue;
      if (s === false) {
        out.push(false);
        continue;
      }
      if (seen.has(s)) continue;
      seen.add(s);
      if (Object.keys(s).some((k) => !structural.has(k) && !annotations.has(k))) out.push(s);
      const next: JsonSchema[] = [];
      if (typeof s.$ref === 'string') {
        const target = resolveLocalRef(this.#oldRoot, s.$ref);
        if (target) next.push(target.schema);
      }
      if (Array.isArray(s.allOf)) for (const m of s.allOf) if (isSchema(m)) next.push(m);
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
    }
    return out;
  }

  /** The new node with its `$ref` targets and `allOf` members, each with its pointer. */
  #flattenNew(node: JsonSchema, path: string): Scoped[] {
    const out: Scoped[] = [];
    const seen = new Set<object>();
    const stack: Array<{ s: unknown; p: string }> = [{ s: node, p: path }];
    while (stack.length > 0) {
      const { s, p } = stack.pop()!;
      if (!isRecord(s) || seen.has(s)) continue;
      seen.add(s);
      out.push({ node: s, path: p });
      const next: Array<{ s: unknown; p: string }> = [];
      if (typeof s.$ref === 'string') {
        const target = resolveLocalRef(this.#newRoot, s.$ref);
        if (target) next.push({ s: target.schema, p: target.pointer });
      }
      if (Array.isArray(s.allOf)) s.allOf.forEach((m, i) => next.push({ s: m, p: `${p}/allOf/${i}` }));
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
    }
    return out;
  }

  #refs(node: object): string[] {
    let refs = this.#refsIn.get(node);
    if (refs) return refs;
    const found = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (isRecord(v)) {
        for (const [k, x] of Object.entries(v)) {
          if (k === '$ref' && typeof x === 'string') found.add(x);
          else if (k !== 'enum' && k !== 'const' && k !== 'default' && k !== 'examples') walk(x);
        }
      }
    };
    walk(node);
    refs = [...found];
    this.#refsIn.set(node, refs);
    return refs;
  }

  /**
   * True when every `$ref` reachable from `node` means the same in both documents. The refs
   * reachable from `node` are explored with a worklist, not recursion (a chain of definitions
   * may be any length), and each is remembered: the same when its target is equal in both
   * documents and everything it reaches is the same too.
   */
  #sameRefs(node: object): boolean {
    const starts = this.#refs(node);
    if (starts.every((ref) => this.#refEqual.get(ref) === true)) return true;
    const next = new Map<string, string[]>();
    const differ: string[] = [];
    const work = [...starts];
    while (work.length > 0) {
      const ref = work.pop()!;
      if (next.has(ref)) continue;
      const known = this.#refEqual.get(ref);
      if (known !== undefined) {
        next.set(ref, []);
        if (!known) differ.push(ref);
        continue;
      }
      const a = resolveLocalRef(this.#oldRoot, ref);
      const b = resolveLocalRef(this.#newRoot, ref);
      const same = a === undefined || b === undefined ? a === b : deepEqual(a.schema, b.schema);
      const inside = b !== undefined && typeof b.schema !== 'boolean' ? this.#refs(b.schema) : [];
      next.set(ref, inside);
      if (!same) differ.push(ref);
      for (const r of inside) work.push(r);
    }
    // A ref is not the same when it reaches one whose target differs: walk the edges backwards.
    const from = new Map<string, string[]>();
    for (const [ref, inside] of next) {
      for (const r of inside) {
        const list = from.get(r);
        if (list) list.push(ref);
        else from.set(r, [ref]);
      }
    }
    const notSame = new Set(differ);
    const back = [...differ];
    while (back.length > 0) {
      for (const ref of from.get(back.pop()!) ?? []) {
        if (notSame.has(ref)) continue;
        notSame.add(ref);
        back.push(ref);
      }
    }
    for (const ref of next.keys()) this.#refEqual.set(ref, !notSame.has(ref));
    return starts.every((ref) => !notSame.has(ref));
  }

  #compare(olds: readonly JsonSchema[], neu: JsonSchema, at: At, out: Change[]): void {
    const conj = this.#flattenOld(olds);
    if (conj.includes(false)) return; // the old schema accepted nothing here
    const objs = conj as JsonSchemaObject[];
    // A bare `$ref` on the new side is followed first, so recursion meets the same pair again.
    const seenRefs = new Set<object>();
    while (isRecord(neu) && typeof neu.$ref === 'string' && !seenRefs.has(neu) && Object.keys(neu).every((k) => k === '$ref' || annotations.has(k))) {
      seenRefs.add(neu);
      const target = resolveLocalRef(this.#newRoot, neu.$ref);
      if (!target) return;
      neu = target.schema;
      at = { ...at, sp: target.pointer };
    }
    if (neu === true) return;
    // Synthetic type nodes stay out of the key, so `$ref: "#"` meets the root pair again and stops.
    const key = `${objs.filter((o) => !this.#synthetic.has(o)).map((o) => this.#id(o)).sort((a, b) => a - b).join(',')}|${typeof neu === 'boolean' ? 'false' : this.#id(neu)}`;
    if (this.#stack.has(key)) return; // recursion: this pair is already being compared further up
    // Each level costs a few calls: a schema (or `$ref` chain) deeper than this is refused, not overflowed.
    if (this.#stack.size >= MAX_WALK_DEPTH) {
      throw new SchemaDepthError(`the new schema nests deeper than ${MAX_WALK_DEPTH} levels, counting each \`$ref\` followed, at \`${shortPointer(at.sp)}\`; expected fewer levels, or a recursive \`$ref\` instead of a long chain`, at.sp);
    }
    this.#stack.add(key);
    try {
      const union = objs.find((n) => Array.isArray(n.anyOf) || Array.isArray(n.oneOf));
      if (union) {
        // Every old branch must stay valid on its own: a value may have matched just that one.
        const keyword = Array.isArray(union.anyOf) ? 'anyOf' : 'oneOf';
        const rest = objs.map((n) => (n === union ? this.#shadow(union, keyword) : n));
        for (const branch of union[keyword] as unknown[]) if (isSchema(branch)) this.#compare([...rest, branch], neu, at, out);
        return;
      }
      if (neu === false) this.#rejectAll(objs, at, out);
      else if (!(objs.some((o) => !this.#synthetic.has(o) && deepEqual(o, neu)) && this.#sameRefs(neu))) this.#compareNode(objs, neu, at, out);
    } finally {
      this.#stack.delete(key);
    }
  }

  #compareNode(objs: JsonSchemaObject[], neu: JsonSchemaObject, at: At, out: Change[]): void {
    const starts = at.scope === undefined || at.branch === true;
    const scope = at.scope ?? this.#flattenNew(neu, at.sp);
    const inner = (sp: string): At => ({ sp, ip: at.ip, hint: at.hint, scope });
    if (typeof neu.$ref === 'string') {
      const target = resolveLocalRef(this.#newRoot, neu.$ref);
      if (target) this.#compare(objs, target.schema, inner(target.pointer), out);
    }
    if (Array.isArray(neu.allOf)) {
      neu.allOf.forEach((m, i) => {
        if (isSchema(m)) this.#compare(objs, m, inner(`${at.sp}/allOf/${i}`), out);
      });
    }
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = neu[keyword];
      if (Array.isArray(branches)) this.#union(objs, branches, inner(`${at.sp}/${keyword}`), scope, keyword, out);
    }
    this.#keywords(objs, neu, at, out);
    if (starts) this.#removedProperties(objs, scope, at, out);
  }

  #rejectAll(objs: JsonSchemaObject[], at: At, out: Change[]): void {
    const rule: CompatRuleName =
      at.hint === 'property' ? 'property-removed' : at.hint === 'items' ? 'items-closed' : at.hint === 'additional' ? 'additional-properties-closed' : 'type-narrowed';
    const types = this.#oldInfo(objs).types;
    out.push({ rule, schemaPath: at.sp, instancePath: at.ip, expected: types ? [...types] : 'any', actual: false, params: { reason: 'false' } });
  }

  /** The types and the finite value set (enum, const, booleans) the old conjunction accepts. */
  #oldInfo(objs: JsonSchemaObject[]): { types: Set<TypeName> | undefined; values: unknown[] | undefined } {
    let types: Set<TypeName> | undefined;
    let values: unknown[] | undefined;
    for (const o of objs) {
      const t = typeSet(o.type);
      if (t) types = intersectTypes(types, t);
      const v = o.const !== undefined ? [o.const] : Array.isArray(o.enum) ? o.enum : undefined;
      if (v) values = values === undefined ? [...v] : values.filter((x) => v.some((y) => deepEqual(x, y)));
    }
    if (values && types) {
      const t = types;
      values = values.filter((v) => covers(t, typeOfValue(v)));
    }
    if (values) values = values.filter((v) => objs.every((o) => admits(o, v)));
    if (!values && types && types.size > 0 && [...types].every((t) => t === 'boolean' || t === 'null')) {
      values = [...(types.has('boolean') ? [true, false] : []), ...(types.has('null') ? [null] : [])];
    }
    if (values) types = new Set(values.map(typeOfValue));
    return { types, values };
  }

  /** Does some branch of the new union accept everything the old schema does? */
  #union(objs: JsonSchemaObject[], branches: unknown[], at: At, scope: Scoped[], keyword: string, out: Change[]): void {
    const { types } = this.#oldInfo(objs);
    const kinds = types ? [...types].filter((t) => !(t === 'integer' && types.has('number'))) : [];
    // [string, null] against anyOf[{string}, {null}]: each old type may find its own branch.
    const pieces = kinds.length > 1 ? kinds.map((t) => [...objs, this.#typeNode(t)]) : [objs];
    const declaredBy = branches.map((branch, i) => {
      const names = new Set<string>();
      if (isSchema(branch)) for (const f of this.#flattenNew(branch, `${at.sp}/${i}`)) if (isRecord(f.node.properties)) for (const k of Object.keys(f.node.properties)) names.add(k);
      return names;
    });
    const siblingsOf = (i: number): Set<string> => new Set(declaredBy.flatMap((names, j) => (j === i ? [] : [...names])));
    for (const piece of pieces) {
      let best: { changes: Change[]; score: number } | undefined;
      let covered = false;
      for (let i = 0; i < branches.length && !covered; i++) {
        const branch = branches[i];
        if (!isSchema(branch)) continue;
        const path = `${at.sp}/${i}`;
        const trial: Change[] = [];
        this.#compare(piece, branch, { sp: path, ip: at.ip, hint: at.hint, scope: [...scope, ...this.#flattenNew(branch, path)], branch: true, siblings: siblingsOf(i) }, trial);
        if (trial.length === 0) covered = true;
        else {
          const score = this.#typesMeet(piece, branch) ? trial.length : Number.POSITIVE_INFINITY;
          if (!best || score < best.score) best = { changes: trial, score };
        }
      }
      if (covered) continue;
      if (best && Number.isFinite(best.score)) out.push(...best.changes);
      else {
        const t = this.#oldInfo(piece).types;
        out.push({ rule: 'variant-removed', schemaPath: at.sp, instancePath: at.ip, expected: t ? [...t] : 'any', params: { keyword } });
      }
    }
  }

  #newTypes(node: JsonSchema): Set<TypeName> | undefined {
    let types: Set<TypeName> | undefined;
    for (const { node: n } of this.#flattenNew(node, '')) {
      const t = typeSet(n.type);
      if (t) types = intersectTypes(types, t);
    }
    return types;
  }

  #typesMeet(objs: JsonSchemaObject[], branch: JsonSchema): boolean {
    const a = this.#oldInfo(objs).types;
    const b = this.#newTypes(branch);
    if (!a || !b) return true;
    return [...a].some((t) => covers(b, t) || (t === 'number' && b.has('integer')));
  }

  #keywords(objs: JsonSchemaObject[], n: JsonSchemaObject, at: At, out: Change[]): void {
    const { types, values } = this.#oldInfo(objs);
    if ((types && types.size === 0) || (values && values.length === 0)) return;
    const push = (rule: CompatRuleName, keyword: string, change: Omit<Change, 'rule' | 'schemaPath' | 'instancePath' | 'params'> & { params?: Record<string, unknown> }, ip = at.ip): void => {
      out.push({ rule, schemaPath: joinPointer(at.sp, keyword), instancePath: ip, ...change, params: { keyword, ...change.params } });
    };
    const newTypes = typeSet(n.type);
    // With a finite old domain (enum, const), a keyword only breaks if it rejects one of those values.
    const anyRejected = (test: (v: unknown) => boolean): boolean => values === undefined || values.some(test);

    if (newTypes) {
      const lost = values ? [...new Set(values.map(typeOfValue))].filter((t) => !covers(newTypes, t)) : types ? [...types].filter((t) => !covers(newTypes, t)) : ['any'];
      if (lost.length > 0) push('type-narrowed', 'type', { expected: types ? [...types] : 'any', actual: n.type, params: { lost } });
    }

    const oldAllows = (k: Kind): boolean => !types || types.has(k) || (k === 'number' && types.has('integer'));
    const newAllows = (k: Kind): boolean => !newTypes || newTypes.has(k) || (k === 'number' && newTypes.has('integer'));
    const applies = (k: Kind): boolean => oldAllows(k) && newAllows(k);

    // enum / const
    const newValues = n.const !== undefined ? [n.const] : Array.isArray(n.enum) ? n.enum : undefined;
    if (newValues) {
      const keyword = n.const !== undefined ? 'const' : 'enum';
      if (values === undefined) {
        push(keyword === 'const' ? 'const-added' : 'enum-added', keyword, { expected: types ? [...types] : 'any', actual: keyword === 'const' ? n.const : n.enum });
      } else {
        const removed = values.filter((v) => !newValues.some((x) => deepEqual(x, v)));
        if (removed.length > 0) {
          push(keyword === 'const' ? 'const-changed' : 'enum-narrowed', keyword, { expected: values, actual: keyword === 'const' ? n.const : n.enum, params: { removed } });
        }
      }
    }

    if (applies('number')) this.#numbers(objs, n, types, values, push);
    if (applies('string')) {
      this.#limit(objs, n, 'minLength', 'maxLength', 'string', values, push);
      this.#pattern(objs, n, values, push);
      if (typeof n.format === 'string') {
        const old = objs.map((o) => o.format).filter((f): f is string => typeof f === 'string');
        if (!old.includes(n.format) && anyRejected((v) => typeof v === 'string')) {
          push(old.length > 0 ? 'format-changed' : 'format-added', 'format', { ...(old.length > 0 ? { expected: old[0] } : {}), actual: n.format });
        }
      }
    }
    if (applies('array')) {
      this.#limit(objs, n, 'minItems', 'maxItems', 'array', values, push);
      if (n.uniqueItems === true && !objs.some((o) => o.uniqueItems === true)) {
        const dup = (v: unknown): boolean => Array.isArray(v) && v.some((x, i) => v.findIndex((y) => deepEqual(x, y)) !== i);
        if (anyRejected(dup)) push('unique-items-added', 'uniqueItems', { expected: false, actual: true });
      }
      if (values === undefined) this.#items(objs, n, at, out);
    }
    if (applies('object')) {
      this.#limit(objs, n, 'minProperties', 'maxProperties', 'object', values, push);
      if (Array.isArray(n.required)) {
        const oldRequired = new Set(objs.flatMap((o) => (Array.isArray(o.required) ? o.required : [])));
        n.required.forEach((name, i) => {
          if (typeof name !== 'string' || oldRequired.has(name)) return;
          if (!anyRejected((v) => isRecord(v) && !hasOwn(v, name))) return;
          out.push({
            rule: 'required-added', schemaPath: `${at.sp}/required/${i}`, instancePath: joinPointer(at.ip, name),
            expected: [...oldRequired], actual: n.required, params: { keyword: 'required', name },
          });
        });
      }
      if (values === undefined) this.#properties(objs, n, at, out);
    }

    const changed = (keyword: string): boolean => n[keyword] !== undefined && !objs.some((o) => o[keyword] !== undefined && deepEqual(o[keyword], n[keyword]));
    for (const keyword of genericKeywords) {
      if (n[keyword] === undefined) continue;
      const old = objs.filter((o) => o[keyword] !== undefined).map((o) => o[keyword]);
      if (old.some((o) => deepEqual(o, n[keyword]))) continue;
      if (values !== undefined) continue; // a finite old domain: too little to judge; the values are checked elsewhere
      // `if` rejects nothing itself: it picks `then` or `else`. Without them it is inert; with a changed one, that one is the finding.
      if (keyword === 'if' && ((n.then === undefined && n.else === undefined) || changed('then') || changed('else'))) continue;
      push(old.length > 0 ? 'constraint-changed' : 'constraint-added', keyword, { ...(old.length > 0 ? { expected: old[0] } : {}), actual: n[keyword] });
    }
  }

  #numbers(
    objs: JsonSchemaObject[], n: JsonSchemaObject, types: Set<TypeName> | undefined, values: unknown[] | undefined,
    push: (rule: CompatRuleName, keyword: string, change: { expected?: unknown; actual?: unknown; params?: Record<string, unknown> }) => void,
  ): void {
    const integers = types !== undefined && types.size > 0 && [...types].every((t) => t === 'integer');
    for (const dir of ['max', 'min'] as const) {
      const newBound = tightest(boundsOf(n, dir), dir);
      if (!newBound) continue;
      const oldBound = tightest(objs.flatMap((o) => boundsOf(o, dir)), dir);
      let breaks: boolean;
      if (values) breaks = values.some((v) => typeof v === 'number' && outside(v, newBound, dir));
      else if (!oldBound) breaks = true;
      else breaks = integers ? tighter(asIntegerBound(newBound, dir), asIntegerBound(oldBound, dir), dir) : tighter(newBound, oldBound, dir);
      if (!breaks) continue;
      const exclusive = newBound.keyword.startsWith('exclusive');
      const rule: CompatRuleName = dir === 'max'
        ? exclusive ? (oldBound ? 'exclusive-maximum-decreased' : 'exclusive-maximum-added') : oldBound ? 'maximum-decreased' : 'maximum-added'
        : exclusive ? (oldBound ? 'exclusive-minimum-increased' : 'exclusive-minimum-added') : oldBound ? 'minimum-increased' : 'minimum-added';
      push(rule, newBound.keyword, { ...(oldBound ? { expected: oldBound.value } : {}), actual: newBound.value, params: { dir, old: oldBound, new: newBound } });
    }

    if (typeof n.multipleOf === 'number' && n.multipleOf > 0) {
      const step = n.multipleOf;
      const old = objs.map((o) => o.multipleOf).filter((m): m is number => typeof m === 'number' && m > 0);
      const divides = [...old, ...(integers ? [1] : [])].some((m) => isMultiple(m, step));
      const breaks = values ? values.some((v) => typeof v === 'number' && !isMultiple(v, step)) : !divides;
      if (breaks) push(old.length > 0 ? 'multiple-of-changed' : 'multiple-of-added', 'multipleOf', { ...(old.length > 0 ? { expected: old[0] } : {}), actual: step });
    }
  }

  #limit(
    objs: JsonSchemaObject[], n: JsonSchemaObject, minKeyword: string, maxKeyword: string, kind: 'string' | 'array' | 'object', values: unknown[] | undefined,
    push: (rule: CompatRuleName, keyword: string, change: { expected?: unknown; actual?: unknown; params?: Record<string, unknown> }) => void,
  ): void {
    const unit = kind === 'string' ? 'length' : kind === 'array' ? 'items' : 'properties';
    const numbers = (k: string): number[] => objs.map((o) => o[k]).filter((x): x is number => typeof x === 'number');
    const newMin = n[minKeyword];
    if (typeof newMin === 'number' && newMin > 0) {
      const old = numbers(minKeyword);
      const oldMin = old.length > 0 ? Math.max(...old) : undefined;
      const breaks = values
        ? values.some((v) => { const l = lengthOf(v, kind); return l !== undefined && l < newMin; })
        : newMin > (oldMin ?? 0);
      if (breaks) push(`min-${unit}-${oldMin === undefined ? 'added' : 'increased'}` as CompatRuleName, minKeyword, { ...(oldMin === undefined ? {} : { expected: oldMin }), actual: newMin, params: { unit } });
    }
    const newMax = n[maxKeyword];
    if (typeof newMax === 'number') {
      const old = numbers(maxKeyword);
      const oldMax = old.length > 0 ? Math.min(...old) : undefined;
      const breaks = values
        ? values.some((v) => { const l = lengthOf(v, kind); return l !== undefined && l > newMax; })
        : oldMax === undefined || newMax < oldMax;
      if (breaks) push(`max-${unit}-${oldMax === undefined ? 'added' : 'decreased'}` as CompatRuleName, maxKeyword, { ...(oldMax === undefined ? {} : { expected: oldMax }), actual: newMax, params: { unit } });
    }
  }

  #pattern(
    objs: JsonSchemaObject[], n: JsonSchemaObject, values: unknown[] | undefined,
    push: (rule: CompatRuleName, keyword: string, change: { expected?: unknown; actual?: unknown; params?: Record<string, unknown> }) => void,
  ): void {
    if (typeof n.pattern !== 'string') return;
    const pattern = n.pattern;
    const old = objs.map((o) => o.pattern).filter((p): p is string => typeof p === 'string');
    if (old.includes(pattern)) return;
    // `old|more` and `(?:old)|more` accept everything `old` did: a plain widening.
    const alternatives = topLevelAlternatives(pattern);
    if (old.some((p) => alternatives.includes(p) || alternatives.includes(`(?:${p})`) || alternatives.includes(`(${p})`))) return;
    if (values && values.every((v) => typeof v !== 'string' || testPattern(pattern, v) === true)) return;
    // The format beside the pattern (zod writes both), for the message to name it instead of printing the pattern.
    const params = typeof n.format === 'string' ? { format: n.format } : {};
    push(old.length > 0 ? 'pattern-changed' : 'pattern-added', 'pattern', { ...(old.length > 0 ? { expected: old[0] } : {}), actual: pattern, params });
  }

  #items(objs: JsonSchemaObject[], n: JsonSchemaObject, at: At, out: Change[]): void {
    const fresh = tupleOf(n);
    const olds = objs.map(tupleOf);
    const oldMaxItems = Math.min(...objs.map((o) => (typeof o.maxItems === 'number' ? o.maxItems : Number.POSITIVE_INFINITY)));
    const oldAt = (i: number): JsonSchema[] => olds.flatMap((t) => {
      const s = i < t.list.length ? t.list[i] : t.rest;
      return isSchema(s) ? [s] : [];
    });
    const sub = (sp: string, ip: string): At => ({ sp, ip, hint: 'items', scope: undefined });
    fresh.list.forEach((s, i) => {
      if (isSchema(s) && i < oldMaxItems) this.#compare(oldAt(i), s, sub(`${at.sp}/${fresh.listKeyword}/${i}`, `${at.ip}/${i}`), out);
    });
    if (!isSchema(fresh.rest)) return;
    const restPath = `${at.sp}/${fresh.restKeyword}`;
    const longest = Math.max(0, ...olds.map((t) => t.list.length));
    for (let i = fresh.list.length; i < longest && i < oldMaxItems; i++) this.#compare(oldAt(i), fresh.rest, sub(restPath, `${at.ip}/${i}`), out);
    if (Math.max(longest, fresh.list.length) < oldMaxItems) {
      const rest = olds.flatMap((t) => (isSchema(t.rest) ? [t.rest] : []));
      this.#compare(rest, fresh.rest, sub(restPath, `${at.ip}/*`), out);
    }
  }

  /** The old schemas a property value had to satisfy; undefined when old calls could not (or were not told to) send it. */
  #oldProperty(objs: JsonSchemaObject[], name: string): JsonSchema[] | undefined {
    const list: JsonSchema[] = [];
    let known = false;
    for (const o of objs) {
      let matched = false;
      if (isRecord(o.properties) && hasOwn(o.properties, name)) {
        const s = o.properties[name];
        if (isSchema(s)) list.push(s);
        matched = true;
      }
      if (isRecord(o.patternProperties)) {
        for (const [p, s] of Object.entries(o.patternProperties)) {
          if (patternMatches(p, name) && isSchema(s)) {
            list.push(s);
            matched = true;
          }
        }
      }
      if (!matched) {
        if (o.additionalProperties === false) return undefined;
        if (isRecord(o.additionalProperties)) {
          list.push(o.additionalProperties);
          matched = true;
        } else if (Array.isArray(o.required) && o.required.includes(name)) {
          // Named only in `required`: every old call sent it, with any value at all.
          list.push(true);
          matched = true;
        }
      }
      known ||= matched;
    }
    return known ? list : undefined;
  }

  #properties(objs: JsonSchemaObject[], n: JsonSchemaObject, at: At, out: Change[]): void {
    if (isRecord(n.properties)) {
      for (const [name, s] of Object.entries(n.properties)) {
        if (!isSchema(s)) continue;
        // A property the old object never declared: adding it optional is the safe way to grow a tool.
        const olds = this.#oldProperty(objs, name);
        if (olds === undefined) continue;
        this.#compare(olds, s, { sp: joinPointer(at.sp, 'properties', name), ip: joinPointer(at.ip, name), hint: 'property', scope: undefined }, out);
      }
    }
    if (isRecord(n.patternProperties)) {
      for (const [p, s] of Object.entries(n.patternProperties)) {
        if (!isSchema(s)) continue;
        const olds = objs.flatMap((o) => (isRecord(o.patternProperties) && isSchema(o.patternProperties[p]) ? [o.patternProperties[p] as JsonSchema] : []));
        if (olds.length > 0) this.#compare(olds, s, { sp: joinPointer(at.sp, 'patternProperties', p), ip: `${at.ip}/*`, hint: 'property', scope: undefined }, out);
      }
    }
    const closedBefore = objs.some((o) => o.additionalProperties === false || o.unevaluatedProperties === false);
    if (closedBefore) return;
    const ap = n.additionalProperties;
    if (ap === false) {
      const declared = Object.keys(isRecord(n.properties) ? n.properties : {});
      out.push({
        rule: 'additional-properties-closed', schemaPath: `${at.sp}/additionalProperties`, instancePath: `${at.ip}/*`,
        expected: objs.find((o) => o.additionalProperties !== undefined)?.additionalProperties ?? true, actual: false, params: { keyword: 'additionalProperties', declared },
      });
    } else if (isRecord(ap)) {
      const olds = objs.flatMap((o) => (isRecord(o.additionalProperties) ? [o.additionalProperties] : []));
      this.#compare(olds, ap, { sp: `${at.sp}/additionalProperties`, ip: `${at.ip}/*`, hint: 'additional', scope: undefined }, out);
    }
  }

  /** Old properties that the new conjunction no longer declares. */
  #removedProperties(objs: JsonSchemaObject[], scope: Scoped[], at: At, out: Change[]): void {
    const describes = scope.filter((s) => s.node.properties !== undefined || s.node.additionalProperties !== undefined || s.node.patternProperties !== undefined);
    // An object that dropped its whole `properties` (`{"type": "object"}`) no longer describes any of them.
    if (describes.length === 0) {
      const object = scope.find((s) => typeSet(s.node.type)?.has('object') === true);
      if (object === undefined) return;
      describes.push(object);
    }
    const { types, values } = this.#oldInfo(objs);
    if (values !== undefined || (types && !types.has('object'))) return;
    if (scope.some((s) => { const t = typeSet(s.node.type); return t !== undefined && !t.has('object'); })) return;
    const names = new Set(objs.flatMap((o) => Object.keys(isRecord(o.properties) ? o.properties : {})));
    // Names a union branch declares are judged inside that branch, with the branch's own nodes in scope.
    const inBranches = new Set<string>();
    if (at.branch !== true) {
      for (const s of scope) {
        for (const keyword of ['anyOf', 'oneOf']) {
          const branches = s.node[keyword];
          if (!Array.isArray(branches)) continue;
          for (const b of branches) {
            for (const f of this.#flattenNew(b as JsonSchema, '')) {
              if (isRecord(f.node.properties)) for (const k of Object.keys(f.node.properties)) inBranches.add(k);
            }
          }
        }
      }
    }
    for (const name of names) {
      if (inBranches.has(name) || at.siblings?.has(name) === true) continue;
      const olds = this.#oldProperty(objs, name);
      if (olds === undefined) continue;
      const ip = joinPointer(at.ip, name);
      const declares = (node: JsonSchemaObject): boolean =>
        (isRecord(node.properties) && hasOwn(node.properties, name)) ||
        (isRecord(node.patternProperties) && Object.keys(node.patternProperties).some((p) => patternMatches(p, name)));
      // Inside `allOf`, a member with `additionalProperties: false` rejects names only its siblings declare.
      const rejecting = scope.find((s) => s.node.additionalProperties === false && !declares(s.node));
      if (rejecting) {
        out.push({ rule: 'property-removed', schemaPath: `${rejecting.path}/additionalProperties`, instancePath: ip, params: { keyword: 'additionalProperties', name } });
        continue;
      }
      if (scope.some((s) => declares(s.node))) {
        for (const s of scope) {
          if (!isRecord(s.node.patternProperties) || (isRecord(s.node.properties) && hasOwn(s.node.properties, name))) continue;
          for (const [p, schema] of Object.entries(s.node.patternProperties)) {
            if (patternMatches(p, name) && isSchema(schema)) {
              this.#compare(olds, schema, { sp: joinPointer(s.path, 'patternProperties', p), ip, hint: 'property', scope: undefined }, out);
            }
          }
        }
        continue;
      }
      const open = scope.filter((s) => isRecord(s.node.additionalProperties));
      if (open.length > 0) {
        for (const s of open) this.#compare(olds, s.node.additionalProperties as JsonSchema, { sp: `${s.path}/additionalProperties`, ip, hint: 'property', scope: undefined }, out);
        continue;
      }
      const where = describes.find((s) => s.node.properties !== undefined) ?? describes[0]!;
      out.push({ rule: 'property-ignored', schemaPath: where.node.properties === undefined ? where.path : `${where.path}/properties`, instancePath: ip, params: { keyword: 'properties', name } });
    }
  }
}
