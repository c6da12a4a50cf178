import type { Diagnostic } from '../report/diagnostic.js';
import { report, type Finding, type RuleMeta } from '../report/rule.js';
import type { HandlerRef, JsonSchemaObject, ToolSpec } from '../tools/types.js';
import { toolPlace } from '../tools/places.js';
import { resolveHandlerSchema } from '../handlers/resolve.js';
import { escapeSegment, joinPointer } from '../schema/pointer.js';
import { resolveLocalRef } from '../schema/refs.js';
import { isRecord, show } from '../util/values.js';
import { compilePattern } from '../util/regex.js';
import { readRegularFileSync } from '../util/files.js';
import { MAX_PATTERN_SHOWN, showPattern } from '../schema/formats.js';
import { handlerRules as rules } from './handler-rules.js';
import { InputError } from '../util/errors.js';

// Everything below runs in one direction: every value the schema lets the model send
// must be one the handler accepts. The schema may promise less than the handler could
// take (more required fields, narrower types); the reverse is the outage.

type Schema = JsonSchemaObject | boolean;

/** Follows local `$ref`s (`#/definitions/X`, `#/$defs/X`, any local pointer); undefined when one leads outside the document. */
function deref(schema: unknown, root: JsonSchemaObject): Schema | undefined {
  let current = schema;
  // A bounded number of hops: `$ref`s that point at each other never reach a schema.
  for (let hops = 0; hops < 32; hops++) {
    if (typeof current === 'boolean') return current;
    if (!isRecord(current)) return undefined;
    if (typeof current.$ref !== 'string') return current;
    const target = resolveLocalRef(root, current.$ref);
    if (target === undefined) return undefined;
    // Sibling keywords of `$ref` (a description, a default) do not change what is accepted.
    current = target.schema;
  }
  return undefined;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const branchesOf = (s: JsonSchemaObject): unknown[] | undefined =>
  Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;

/** The JSON types a schema admits; undefined when it does not constrain the type at all. */
function typesOf(schema: Schema | undefined, root: JsonSchemaObject): Set<string> | undefined {
  if (schema === undefined || schema === true) return undefined;
  if (schema === false) return new Set();
  // `{not: {}}` admits nothing: the generator writes it for `undefined` (`string | undefined` in an index signature).
  if (isRecord(schema.not) && Object.keys(schema.not).length === 0) return new Set();
  if ('const' in schema) return new Set([jsonType(schema.const)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(jsonType));
  if (typeof schema.type === 'string') return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type.filter((t): t is string => typeof t === 'string'));
  const branches = branchesOf(schema);
  if (branches) {
    const out = new Set<string>();
    for (const branch of branches) {
      const types = typesOf(deref(branch, root), root);
      if (types === undefined) return undefined;
      for (const t of types) out.add(t);
    }
    return out;
  }
  if (Array.isArray(schema.allOf)) {
    let out: Set<string> | undefined;
    for (const branch of schema.allOf) {
      const types = typesOf(deref(branch, root), root);
      if (types !== undefined) out = out === undefined ? types : new Set([...out].filter((t) => accepts(types, t)));
    }
    return out;
  }
  if (isRecord(schema.properties)) return new Set(['object']);
  if (schema.items !== undefined || schema.prefixItems !== undefined) return new Set(['array']);
  return undefined;
}

/** An integer is a number, so a `number` type accepts what an `integer` schema lets through; not the reverse. */
function accepts(types: Set<string>, type: string): boolean {
  return types.has(type) || (type === 'integer' && types.has('number'));
}

/** The literal values a schema admits (`enum`, `const`, or a union of them); undefined when it admits more than a list. */
function valuesOf(schema: Schema | undefined, root: JsonSchemaObject): unknown[] | undefined {
  if (!isRecord(schema)) return undefined;
  if ('const' in schema) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum;
  const branches = branchesOf(schema);
  if (!branches) return undefined;
  const out: unknown[] = [];
  for (const branch of branches) {
    const values = valuesOf(deref(branch, root), root);
    if (values === undefined) return undefined;
    out.push(...values);
  }
  return out;
}

/** Properties and required names of an object schema, merged across `allOf` (intersections). */
function shapeOf(schema: JsonSchemaObject, root: JsonSchemaObject): { properties: Record<string, unknown>; required: string[]; declared: boolean } {
  // No prototype: `key in properties` and `properties[key]` must not find `constructor` or `__proto__` on every object.
  const properties: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const required = new Set<string>();
  let declared = false;
  const visit = (s: Schema | undefined, depth: number): void => {
    if (!isRecord(s) || depth > 8) return;
    if (isRecord(s.properties)) {
      declared = true;
      for (const [k, v] of Object.entries(s.properties)) if (!Object.hasOwn(properties, k)) Object.defineProperty(properties, k, { value: v, enumerable: true, writable: true, configurable: true });
    }
    if (Array.isArray(s.required)) for (const r of s.required) if (typeof r === 'string') required.add(r);
    if (Array.isArray(s.allOf)) for (const branch of s.allOf) visit(deref(branch, root), depth + 1);
  };
  visit(schema, 0);
  return { properties, required: [...required], declared };
}

interface Variant {
  schema: JsonSchemaObject;
  /** Where its own keywords are: the schema's path, or its `anyOf`/`oneOf` branch's. */
  path: string;
  /** Keywords beside the union, which every variant shares, and where they are. */
  base?: JsonSchemaObject;
  basePath?: string;
}

/**
 * The object types a schema is a union of: each `anyOf`/`oneOf` branch joined with the
 * keywords beside the union (`{properties, anyOf: [{required: [a]}, {required: [b]}]}` is a
 * common way to say "one of these"); the schema itself when it is no union. Branches that
 * admit no object (`null`, a string) are left out; a branch that admits anything makes the
 * union say nothing about the object's fields, and then there are no variants to compare.
 */
function objectVariants(schema: JsonSchemaObject, root: JsonSchemaObject, path: string): Variant[] {
  const key = Array.isArray(schema.anyOf) ? 'anyOf' : Array.isArray(schema.oneOf) ? 'oneOf' : undefined;
  if (key === undefined) return [{ schema, path }];
  const { [key]: branches, ...base } = schema;
  const out: Variant[] = [];
  for (const [i, b] of (branches as unknown[]).entries()) {
    const branch = deref(b, root);
    if (branch === false) continue;
    if (!isRecord(branch)) return [];
    const types = typesOf(branch, root);
    if (types !== undefined && !types.has('object')) continue;
    out.push({ schema: { allOf: [base, branch] }, path: `${path}/${key}/${i}`, base, basePath: path });
  }
  return out;
}

/** A keyword of a variant: its branch's own, else the one beside the union. */
function keywordOf(variant: Variant, keyword: string): unknown {
  if (variant.base === undefined) return variant.schema[keyword];
  const branch = (variant.schema.allOf as JsonSchemaObject[])[1]!;
  return branch[keyword] ?? variant.base[keyword];
}

/** Where a property of a variant is defined: beside the union when the shared keywords list it, else in the branch. */
function propertyPath(variant: Variant, key: string): string {
  const inBase = variant.base !== undefined && isRecord(variant.base.properties) && Object.hasOwn(variant.base.properties, key);
  return `${inBase ? variant.basePath : variant.path}/properties/${escapeSegment(key)}`;
}

const ordinal = (i: number): string => ['first', 'second', 'third', 'fourth', 'fifth'][i] ?? `${i + 1}th`;

const example: Record<string, string> = { string: '"text"', number: '1.5', integer: '1', boolean: 'true', null: 'null', object: '{}', array: '[]' };

const list = (names: readonly string[]): string => `[${names.join(', ')}]`;
const typeList = (types: Set<string>): string => [...types].map((t) => `\`${t}\``).join(' | ');

// zod's `.int()` adds the safe-integer range; it tells the model nothing and rejects nothing real.
const implicitBound = (keyword: string, value: unknown): boolean =>
  (keyword === 'maximum' && value === Number.MAX_SAFE_INTEGER) || (keyword === 'minimum' && value === Number.MIN_SAFE_INTEGER);

const lowerBounds = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const upperBounds = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

interface Place {
  /** Property names and `*` for array items, from the arguments' root. */
  segments: string[];
  schemaPath: string;
}

/** Node pairs one tool's comparison may visit: a second or so; real schemas take a few hundred. */
const MAX_COMPARISONS = 100_000;

const label = (segments: readonly string[]): string => segments.join('.').replace(/\.\*/g, '[]') || 'the arguments';

class Comparison {
  readonly out: Diagnostic[] = [];
  readonly #open = new Map<object, Set<object>>();
  #comparisons = 0;
  /** The line that declares the handler type, once looked for (null: not in that file, a re-export say). */
  #typeLine: number | null | undefined;

  constructor(
    readonly tool: ToolSpec,
    readonly schemaRoot: JsonSchemaObject,
    readonly handlerRoot: JsonSchemaObject,
  ) {}

  add(rule: RuleMeta, place: Place, finding: Omit<Finding, 'tool' | 'instancePath' | 'schemaPath'>): void {
    const full: Finding = { tool: this.tool.name, instancePath: joinPointer('', ...place.segments), schemaPath: place.schemaPath, ...finding, ...toolPlace(this.tool, place.schemaPath) };
    const handler = this.tool.handler;
    if (handler?.kind === 'typescript') {
      this.#typeLine ??= declarationLine(handler.file, handler.type) ?? null;
      full.related = [{ file: handler.file, ...(this.#typeLine === null ? {} : { line: this.#typeLine }), message: `handler type \`${handler.type}\`` }];
    }
    this.out.push(report(rule, full));
  }

  compare(schemaNode: unknown, handlerNode: unknown, place: Place): void {
    // Unions nested in unions on both sides multiply the pairs to compare at every level.
    if (++this.#comparisons > MAX_COMPARISONS) {
      throw new InputError('config/tool-shape', `Cannot compare tool \`${this.tool.name}\` with its handler type: their unions (\`anyOf\`/\`oneOf\`) nest too deeply to compare (over ${MAX_COMPARISONS.toLocaleString('en-US')} comparisons); expected fewer levels of unions within unions`, { file: this.tool.origin.file });
    }
    const s = deref(schemaNode, this.schemaRoot);
    const h = deref(handlerNode, this.handlerRoot);
    if (!isRecord(s) || !isRecord(h)) return;
    // A recursive type meets itself again below; stop when the pair is already being compared further up.
    const pairs = this.#open.get(s) ?? new Set<object>();
    if (pairs.has(h)) return;
    pairs.add(h);
    this.#open.set(s, pairs);
    try {
      this.#compare(s, h, place);
    } finally {
      pairs.delete(h);
    }
  }

  #compare(s: JsonSchemaObject, h: JsonSchemaObject, place: Place): void {
    const handlerTypes = typesOf(h, this.handlerRoot);
    if (handlerTypes === undefined) return;
    const schemaTypes = typesOf(s, this.schemaRoot);
    if (schemaTypes === undefined) return;
    const name = this.tool.name;
    const where = label(place.segments);

    const rejected = [...schemaTypes].filter((t) => !accepts(handlerTypes, t));
    if (rejected.length > 0) {
      const sample = example[rejected[0]!] ?? show(rejected[0], Infinity);
      this.add(rules['type-mismatch'], place, {
        message: `\`${name}\`: \`${where}\` is ${typeList(schemaTypes)} in the schema but ${typeList(handlerTypes)} in the handler type, so the model may send \`${sample}\`, which the handler cannot take. Change the schema's \`type\` to what the handler accepts, or widen the handler type`,
        expected: [...handlerTypes],
        actual: [...schemaTypes],
      });
      return;
    }

    const handlerValues = valuesOf(h, this.handlerRoot);
    if (handlerValues !== undefined) {
      const allowed = new Set(handlerValues.map((v) => show(v, Infinity)));
      const schemaValues = valuesOf(s, this.schemaRoot);
      if (schemaValues === undefined) {
        this.add(rules['type-mismatch'], place, {
          message: `\`${name}\`: \`${where}\` takes any ${typeList(schemaTypes)} in the schema but only ${list(handlerValues.map((v) => show(v, Infinity)))} in the handler type, so the model may send a value the handler cannot take. Add \`enum: ${show(handlerValues, Infinity)}\` to the schema`,
          expected: handlerValues,
          fix: `enum: ${show(handlerValues, Infinity)}`,
        });
        return;
      }
      const extra = schemaValues.filter((v) => !allowed.has(show(v, Infinity)));
      if (extra.length > 0) {
        this.add(rules['type-mismatch'], place, {
          message: `\`${name}\`: \`${where}\` allows ${list(extra.map((v) => show(v, Infinity)))} in the schema, which the handler type does not accept (handler accepts ${list(handlerValues.map((v) => show(v, Infinity)))}). Remove ${extra.length === 1 ? 'it' : 'them'} from the schema's \`enum\`, or add ${extra.length === 1 ? 'it' : 'them'} to the handler type`,
          expected: handlerValues,
          actual: extra,
        });
        return;
      }
    }

    this.#constraints(s, h, place);

    if (schemaTypes.has('object') && handlerTypes.has('object')) this.#object(s, h, place);
    if (schemaTypes.has('array') && handlerTypes.has('array')) this.#array(s, h, place);
  }

  #constraints(s: JsonSchemaObject, h: JsonSchemaObject, place: Place): void {
    const narrower = (keyword: string): boolean => {
      const hv = h[keyword];
      if (typeof hv !== 'number' || implicitBound(keyword, hv)) return false;
      const sv = s[keyword];
      if (typeof sv !== 'number') return true;
      return lowerBounds.includes(keyword) ? sv < hv : sv > hv;
    };
    const found = [...lowerBounds, ...upperBounds].filter(narrower);
    // Regular expressions cannot be compared for inclusion; the same source text is the one safe case.
    if (typeof h.pattern === 'string' && h.pattern !== s.pattern) found.push('pattern');
    if (typeof h.format === 'string' && h.format !== s.format) found.push('format');
    // A long pattern (zod's `.datetime()` writes hundreds of characters) is named by its format, or cut; `expected` keeps it whole.
    const written = (node: JsonSchemaObject, keyword: string): string => {
      if (keyword !== 'pattern' || typeof node.pattern !== 'string') return `\`${keyword}: ${show(node[keyword], Infinity)}\``;
      if (typeof node.format === 'string') return `the \`pattern\` of format \`${node.format}\``;
      return node.pattern.length > MAX_PATTERN_SHOWN ? `\`pattern\` ${showPattern(node.pattern)}` : `\`pattern: ${show(node.pattern, Infinity)}\``;
    };
    for (const keyword of found) {
      const schemaSide = s[keyword] === undefined ? 'states none' : `has ${written(s, keyword)}`;
      const wanted = written(h, keyword);
      this.add(rules['constraint-not-in-schema'], { ...place, schemaPath: `${place.schemaPath}/${keyword}` }, {
        message: `\`${this.tool.name}\`: \`${label(place.segments)}\` has ${wanted} in the handler type, and the schema ${schemaSide}, so the model may send values the handler rejects. Put ${wanted} in the schema, or relax the handler type`,
        expected: h[keyword],
        actual: s[keyword],
        fix: keyword === 'pattern' && wanted !== `\`pattern: ${show(h.pattern, Infinity)}\`` ? `Put the handler type's \`pattern\` (the finding's \`expected\`) in the schema, or relax the handler type` : `${keyword}: ${show(h[keyword], Infinity)}`,
      });
    }
  }

  #object(s: JsonSchemaObject, h: JsonSchemaObject, place: Place): void {
    const schemaVariants = objectVariants(s, this.schemaRoot, place.schemaPath);
    const handlerVariants = objectVariants(h, this.handlerRoot, '');
    if (schemaVariants.length === 0 || handlerVariants.length === 0) return;
    if (handlerVariants.length === 1) {
      this.#fields(schemaVariants, handlerVariants[0]!, place);
      return;
    }
    // A union handler type accepts a call when one of its members does.
    this.#unionHandler(schemaVariants, handlerVariants, place);
  }

  /**
   * The handler type is a union of object types: each object the schema lets through must be
   * one some member takes. The required fields decide first (a member that demands a field the
   * schema leaves out rejects the calls without it); a member that passes is then compared
   * field by field, and the findings stand only when every such member has some.
   */
  #unionHandler(schemaVariants: Variant[], handlerVariants: Variant[], place: Place): void {
    const name = this.tool.name;
    const before = this.out.length;
    for (const sv of schemaVariants) {
      const schemaRequired = shapeOf(sv.schema, this.schemaRoot).required;
      const missing = handlerVariants.map((hv) => shapeOf(hv.schema, this.handlerRoot).required.filter((k) => !schemaRequired.includes(k)));
      const passing = handlerVariants.filter((_, i) => missing[i]!.length === 0);
      const where = { segments: place.segments, schemaPath: sv.path };
      if (passing.length === 0) {
        const closest = missing.reduce((best, m, i) => (m.length < missing[best]!.length ? i : best), 0);
        const each = missing.map((m, i) => `the ${ordinal(i)} also requires ${list(m)}`).join(', ');
        const inField = place.segments.length > 0 ? ` for \`${label(place.segments)}\`` : '';
        this.add(rules['required-not-in-schema'], where, {
          message: `\`${name}\`: the handler type${inField} is a union of ${handlerVariants.length} object types, and none of them takes a call that sends only what the schema requires (${list(schemaRequired)}): ${each}. Add the fields one of them requires to the schema's \`required\`, or make them optional in the handler`,
          expected: missing[closest]!,
          actual: schemaRequired,
          fix: `add ${list(missing[closest]!)} to \`required\``,
        });
        continue;
      }
      const outcomes = passing.map((hv) => {
        const kept = this.out.length;
        this.#fields([sv], hv, where, false);
        return this.out.splice(kept);
      });
      if (outcomes.some((found) => !found.some((d) => d.severity === 'error'))) continue;
      const fewest = outcomes.reduce((best, found) => (found.length < best.length ? found : best));
      for (const d of fewest) this.out.push(d);
    }
    // Variants of the schema share fields: a finding in a shared one is said once.
    const seen = new Set<string>();
    const found = this.out.splice(before).filter((d) => {
      const key = `${d.ruleId}\u0000${d.instancePath}\u0000${d.schemaPath}\u0000${d.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    for (const d of found) this.out.push(d);
  }

  /**
   * Field by field, an object schema (one or more variants of it) against one handler object
   * type: the handler's required fields must be required by every variant (the subset check:
   * equality would also fail the harmless opposite case), and each field the model may send
   * must be one the handler takes.
   */
  #fields(variants: Variant[], handlerVariant: Variant, place: Place, ignored = true): void {
    const h = handlerVariant.schema;
    const handler = shapeOf(h, this.handlerRoot);
    const shapes = variants.map((v) => shapeOf(v.schema, this.schemaRoot));
    // What every variant requires is what the model always sends.
    const required = shapes[0]!.required.filter((k) => shapes.every((shape) => shape.required.includes(k)));
    const properties = new Map<string, Array<{ value: unknown; path: string }>>();
    shapes.forEach((shape, i) => {
      for (const [key, value] of Object.entries(shape.properties)) {
        const path = variants.length === 1 && variants[0]!.base === undefined ? `${place.schemaPath}/properties/${escapeSegment(key)}` : propertyPath(variants[i]!, key);
        const seen = properties.get(key);
        if (!seen) properties.set(key, [{ value, path }]);
        else if (!seen.some((p) => p.value === value)) seen.push({ value, path });
      }
    });
    const name = this.tool.name;
    const at = (key: string, path = `${place.schemaPath}/properties/${escapeSegment(key)}`): Place => ({ segments: [...place.segments, key], schemaPath: path });
    const union = variants.length > 1 ? ` in every one of its ${variants.length} variants` : '';
    const sets = `${place.segments.length > 0 ? `in \`${label(place.segments)}\`, ` : ''}schema requires ${list(required)}${union}; handler requires ${list(handler.required)}`;

    for (const key of handler.required) {
      if (required.includes(key)) continue;
      const field = label([...place.segments, key]);
      const mentioned = properties.has(key);
      this.add(rules['required-not-in-schema'], at(key, properties.get(key)?.[0]!.path), {
        message: mentioned
          ? `\`${name}\`: the handler requires \`${field}\`, which the schema does not require (${sets}). Add \`${key}\` to the schema's \`required\`, or make it optional in the handler`
          : `\`${name}\`: the handler requires \`${field}\`, which the schema never mentions, so the model is never told to send it (${sets}). Add \`${key}\` to the schema's \`properties\` and \`required\`, or make it optional in the handler`,
        expected: handler.required,
        actual: required,
        fix: mentioned ? `add \`${key}\` to \`required\`` : `add \`${key}\` to \`properties\` and \`required\``,
      });
    }

    // A member of a union (`Record<string, number> | null`) keeps its index signature in its own keywords.
    const additional = keywordOf(handlerVariant, 'additionalProperties');
    const handlerPatterns = keywordOf(handlerVariant, 'patternProperties');
    const patterns = isRecord(handlerPatterns) ? Object.entries(handlerPatterns) : [];
    // A handler schema that lists no properties and does not close itself says nothing about which fields it reads.
    const closed = handler.declared || additional === false;
    for (const [key, places] of properties) {
      for (const { value, path } of places) {
        if (key in handler.properties) {
          if (required.includes(key) && !handler.required.includes(key) && path === places[0]!.path) {
            this.add(rules['optional-in-handler'], at(key, path), {
              message: `\`${name}\`: the schema requires \`${label([...place.segments, key])}\`, which the handler treats as optional; allowed, and the model must spend tokens on it in every call. Make it optional in the schema if the model may leave it out`,
            });
          }
          this.compare(value, handler.properties[key], at(key, path));
          continue;
        }
        // Schema patterns are untrusted: linear time, and one the engine cannot run covers the key, as in validation.
        const pattern = patterns.find(([source]) => {
          try {
            return compilePattern(source).test(key);
          } catch {
            return false;
          }
        });
        if (pattern) this.compare(value, pattern[1], at(key, path));
        else if (isRecord(additional)) this.compare(value, additional, at(key, path));
        else if (additional !== true && closed && ignored && path === places[0]!.path) {
          this.add(rules['field-ignored'], at(key, path), {
            message: `\`${name}\`: the schema offers \`${label([...place.segments, key])}\`, which the handler type does not have, so the model spends tokens on a value that goes nowhere. Remove \`${key}\` from the schema, or read it in the handler`,
          });
        }
      }
    }

    // Fields the schema leaves open (`additionalProperties: {...}`, a map) must be values the handler's index signature takes.
    for (const variant of variants) {
      const open = keywordOf(variant, 'additionalProperties');
      if (isRecord(open) && isRecord(additional)) {
        const path = variant.base === undefined ? `${place.schemaPath}/additionalProperties` : `${variant.path}/additionalProperties`;
        this.compare(open, additional, { segments: [...place.segments, '<key>'], schemaPath: path });
      }
    }
  }

  #array(s: JsonSchemaObject, h: JsonSchemaObject, place: Place): void {
    const sTuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
    const hTuple = Array.isArray(h.prefixItems) ? h.prefixItems : Array.isArray(h.items) ? h.items : undefined;
    if (sTuple && hTuple) {
      sTuple.forEach((item, i) => {
        if (i < hTuple.length) this.compare(item, hTuple[i], { segments: [...place.segments, String(i)], schemaPath: `${place.schemaPath}/${Array.isArray(s.prefixItems) ? 'prefixItems' : 'items'}/${i}` });
      });
      return;
    }
    if (!sTuple && !hTuple && s.items !== undefined && h.items !== undefined) {
      this.compare(s.items, h.items, { segments: [...place.segments, '*'], schemaPath: `${place.schemaPath}/items` });
    }
  }
}

/** The line of `file` that declares the type `name` (`interface`, `type`, `enum` or `class`), for a finding to point at. */
function declarationLine(file: string, name: string): number | undefined {
  let text: string;
  try {
    text = readRegularFileSync(file);
  } catch {
    return undefined;
  }
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const at = new RegExp(`^[ \\t]*(?:export[ \\t]+)?(?:declare[ \\t]+)?(?:interface|type|enum|class|abstract[ \\t]+class)[ \\t]+${escaped}\\b`, 'm').exec(text);
  return at === null ? undefined : text.slice(0, at.index).split('\n').length;
}

/**
 * Compares a tool's schema (what the model is told it may send) with the JSON Schema of
 * the handler's argument type (what the code accepts). Reports, per field and nested
 * field: handler-required fields the schema does not require, schema fields the handler
 * does not read, types and enum values the handler does not accept, constraints only the
 * handler states, and schema-required fields the handler treats as optional.
 */
export function checkHandler(tool: ToolSpec, handlerSchema: JsonSchemaObject): Diagnostic[] {
  const comparison = new Comparison(tool, tool.inputSchema, handlerSchema);
  comparison.compare(tool.inputSchema, handlerSchema, { segments: [], schemaPath: '' });
  return comparison.out;
}

/**
 * Runs `checkHandler` for every tool that names a handler. Tools whose schema was generated
 * from the handler's own zod type (`generated: true`) are skipped: the schema and the handler
 * type are then one artifact, so comparing them only tests the generator. `resolve` errors
 * (a missing file or type) propagate: they mean the check could not run.
 */
export function checkHandlers(
  tools: readonly ToolSpec[],
  resolve: (ref: HandlerRef, tool: ToolSpec) => JsonSchemaObject = (ref) => resolveHandlerSchema(ref),
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const tool of tools) {
    if (tool.handler === undefined || tool.generated === true) continue;
    out.push(...checkHandler(tool, resolve(tool.handler, tool)));
  }
  return out;
}
