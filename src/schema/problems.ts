/**
 * Why a tool's input schema is not valid JSON Schema, as findings a person can act on: the
 * keyword that is wrong, where it is (a JSON Pointer into the schema), what it holds and
 * what JSON Schema expects there. Built from `compileFailure` (validator.ts), so that the
 * provider lint, recorded-call validation and the example check agree on what compiles.
 */
import type { ErrorObject } from 'ajv';
import type { JsonSchemaObject } from '../tools/types.js';
import { errorMessage } from '../util/errors.js';
import { isRecord, show } from '../util/values.js';
import { listKeywords, mapKeywords, singleKeywords } from './keywords.js';
import { getAt, joinPointer, splitPointer } from './pointer.js';
import { compileFailure, type CompileFailure, type Draft } from './validator.js';

export interface SchemaProblem {
  /** JSON Pointer into the schema: the keyword that is wrong (`/properties/location/type`), or the value inside it. */
  pointer: string;
  /** The keyword the problem is in (`type`, `properties`, `$ref`, `pattern`); `''` when it is the whole schema. */
  keyword: string;
  /** The value found at `pointer`. */
  actual: unknown;
  /** What JSON Schema expects there, in words ("an object", "one of `"array"`, ..."). */
  expected: string;
  /** "Unexpected `"dict"` as `type` at `/properties/location/type`, expected one of ...". */
  message: string;
  /** The concrete change, when it is known ("write `"object"`, JSON Schema's name for `dict`"). */
  fix?: string;
}


/** What a pointer into a schema names, in words for a message ("as `type`", "as the schema of property `x`"), and the keyword it is in. */
interface Role {
  as: string;
  /** The closest keyword (`type`, `items`, `properties`); `''` for the root. */
  keyword: string;
  /** Whether the pointer names a subschema (whose value must be a schema), not a keyword's literal value. */
  subschema: boolean;
}

function roleOf(schema: unknown, pointer: string): Role {
  let node: unknown = schema;
  let role: Role = { as: 'as the input schema', keyword: '', subschema: true };
  // What the next segment is: a keyword of a schema, a name or index that leads to a schema, or literal data.
  let next: 'keyword' | 'entry' | 'data' = 'keyword';
  for (const segment of splitPointer(pointer)) {
    const value = Array.isArray(node) ? node[Number(segment)] : isRecord(node) && Object.hasOwn(node, segment) ? node[segment] : undefined;
    if (next === 'keyword') {
      const container = mapKeywords.has(segment) || listKeywords.has(segment) || (segment === 'items' && Array.isArray(value));
      if (singleKeywords.has(segment) || (segment === 'items' && !container)) {
        role = { as: `as \`${segment}\``, keyword: segment, subschema: true };
        next = 'keyword';
      } else {
        role = { as: `as \`${segment}\``, keyword: segment, subschema: false };
        next = container ? 'entry' : 'data';
      }
    } else if (next === 'entry') {
      const keyword = role.keyword;
      const as = keyword === 'properties' ? `as the schema of property \`${segment}\`` : mapKeywords.has(keyword) ? `as \`${keyword}\` entry \`${segment}\`` : `as \`${keyword}\` entry ${segment}`;
      role = { as, keyword, subschema: true };
      next = 'keyword';
    } else {
      role = { as: `in \`${role.keyword}\``, keyword: role.keyword, subschema: false };
    }
    node = value;
  }
  return role;
}

const article = (type: string): string => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** One meta-schema error as what was expected, in words. */
function expectation(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'enum':
      return `one of ${(p.allowedValues as unknown[]).map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`;
    case 'const':
      return `\`${JSON.stringify(p.allowedValue)}\``;
    case 'type': {
      const types = String(p.type).split(',');
      if (types.includes('object') && types.includes('boolean')) return 'a schema (an object, or `true` or `false`)';
      return types.map(article).join(' or ');
    }
    case 'format':
      return p.format === 'regex' ? 'a valid regular expression' : `a valid \`${String(p.format)}\``;
    case 'uniqueItems':
      return 'a list without repeated items';
    default:
      return `a value that ${e.message ?? 'matches the meta-schema'}`;
  }
}

// Type names other languages and function-calling formats use (BFCL and Llama tool files write
// `dict`), with JSON Schema's name for each.
const typeAliases: Record<string, string> = {
  dict: 'object', map: 'object', mapping: 'object', hash: 'object', record: 'object', struct: 'object', obj: 'object', json: 'object',
  list: 'array', tuple: 'array', set: 'array', sequence: 'array', arr: 'array',
  str: 'string', text: 'string', char: 'string',
  int: 'integer', long: 'integer', short: 'integer', int32: 'integer', int64: 'integer', uint: 'integer',
  float: 'number', double: 'number', decimal: 'number', real: 'number', num: 'number',
  bool: 'boolean',
  none: 'null', nil: 'null', nonetype: 'null',
};
const simpleTypes = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);

/** JSON Schema's name for a type name as another language writes it (`dict`, `String`), if it has one. */
function jsonType(name: string): string | undefined {
  const lower = name.toLowerCase();
  return Object.hasOwn(typeAliases, lower) ? typeAliases[lower] : simpleTypes.has(lower) ? lower : undefined;
}

/** The concrete change for the common mistakes, when there is one. */
function fixFor(role: Role, actual: unknown): string | undefined {
  const { keyword, subschema } = role;
  if (!subschema && keyword === 'type' && typeof actual === 'string') {
    const name = jsonType(actual);
    if (name !== undefined) return `write \`"${name}"\`, JSON Schema's name for \`${actual}\``;
    if (actual.toLowerCase() === 'any') return 'drop `type` (a schema without `type` accepts any value)';
  }
  if (!subschema && keyword === 'properties' && Array.isArray(actual)) {
    const first = actual.find((item): item is Record<string, unknown> => isRecord(item) && typeof item.name === 'string');
    if (first !== undefined) {
      const { name, ...rest } = first;
      return `write \`properties\` as an object from each property's name to its schema, such as ${show(Object.fromEntries([[name, rest]]), 80).replace(/^|$/g, '`')}`;
    }
    return "write `properties` as an object from each property's name to its schema";
  }
  if (!subschema && keyword === 'required' && typeof actual === 'string') return `write a list of names: \`${JSON.stringify([actual])}\``;
  const named = subschema && typeof actual === 'string' ? jsonType(actual) : undefined;
  if (named !== undefined) {
    return `write a schema object: \`{"type": "${named}"}\``;
  }
  return undefined;
}

const at = (pointer: string): string => (pointer === '' ? 'the root' : `\`${pointer}\``);

function problem(schema: JsonSchemaObject, pointer: string, expected: string, detail?: string): SchemaProblem {
  const actual = getAt(schema, pointer);
  const role = roleOf(schema, pointer);
  const out: SchemaProblem = {
    pointer,
    keyword: role.keyword,
    actual,
    expected,
    message: `Unexpected \`${show(actual, 60)}\` ${role.as} at ${at(pointer)}, expected ${expected}${detail === undefined ? '' : ` (${detail})`}`,
  };
  const fix = fixFor(role, actual);
  if (fix !== undefined) out.fix = fix;
  return out;
}

/** How the problems are worded for a reader who is not writing for Ajv alone. */
export interface ProblemOptions {
  /** Whether a list in `type` is allowed where it is read (Gemini's `parameters` take one name only); true by default. */
  typeLists?: boolean;
}

/** Meta-schema errors -> one problem per place, the deepest places only (an `anyOf` branch that went further explains the rest). */
function metaProblems(schema: JsonSchemaObject, errors: readonly ErrorObject[], options: ProblemOptions): SchemaProblem[] {
  const byPlace = new Map<string, string[]>();
  for (const e of errors) {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if' || e.keyword === 'not') continue;
    const list = byPlace.get(e.instancePath) ?? [];
    const text = expectation(e);
    if (!list.includes(text)) list.push(text);
    byPlace.set(e.instancePath, list);
  }
  const places = [...byPlace.keys()];
  const out: SchemaProblem[] = [];
  for (const [pointer, expected] of byPlace) {
    if (places.some((other) => other.startsWith(`${pointer}/`))) continue;
    const role = roleOf(schema, pointer);
    // `type` takes a type name or a list of them: say so once instead of "one of ... or an array".
    const typeWords = !role.subschema && role.keyword === 'type' && expected.length === 2 && expected[1] === 'an array';
    const words = typeWords ? (options.typeLists === false ? expected[0]! : `${expected[0]}, or a list of them`) : expected.join(', or ');
    out.push(problem(schema, pointer, words));
  }
  return out;
}

/** Every `$ref` (with its pointer) and every pattern (`pattern` values, `patternProperties` keys) in a schema, in document order. */
function* nodes(value: unknown, pointer = ''): Generator<{ pointer: string; node: Record<string, unknown> }> {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* nodes(value[i], joinPointer(pointer, i));
    return;
  }
  if (!isRecord(value)) return;
  yield { pointer, node: value };
  for (const [key, child] of Object.entries(value)) {
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    yield* nodes(child, joinPointer(pointer, key));
  }
}

/** What compiling threw, placed at the `$ref` or pattern that caused it when it can be found. */
function compileProblem(schema: JsonSchemaObject, error: unknown): SchemaProblem {
  const message = errorMessage(error);
  const missing = /can't resolve reference (\S+) from id/.exec(message)?.[1] ?? (error as { missingRef?: unknown }).missingRef;
  if (typeof missing === 'string') {
    for (const { pointer, node } of nodes(schema)) {
      if (node.$ref === missing || (typeof node.$ref === 'string' && missing.endsWith(node.$ref))) {
        return problem(schema, joinPointer(pointer, '$ref'), 'a reference to a schema this one defines (under `$defs`), or `#`', `nothing is defined at \`${String(node.$ref)}\``);
      }
    }
  }
  if (error instanceof SyntaxError || /regular expression/i.test(message)) {
    for (const { pointer, node } of nodes(schema)) {
      const candidates: Array<[string, string]> = [];
      if (typeof node.pattern === 'string') candidates.push([joinPointer(pointer, 'pattern'), node.pattern]);
      if (isRecord(node.patternProperties)) for (const key of Object.keys(node.patternProperties)) candidates.push([joinPointer(pointer, 'patternProperties', key), key]);
      for (const [where, source] of candidates) {
        try {
          new RegExp(source, 'u');
        } catch (bad) {
          const why = errorMessage(bad).replace(/^Invalid regular expression: \/.*\/u?: /s, '');
          const p = problem(schema, where, 'a valid regular expression', why);
          // A `patternProperties` key is a name, not a value: show the pattern itself.
          return where.endsWith('/pattern') ? p : { ...p, keyword: 'patternProperties', actual: source, message: `Unexpected pattern \`${show(source, 60)}\` in \`patternProperties\` at ${at(where)}, expected a valid regular expression (${why})` };
        }
      }
    }
  }
  return { pointer: '', keyword: '', actual: undefined, expected: 'a schema that compiles', message: `Unexpected input schema that does not compile (${message}), expected a valid JSON Schema` };
}

/** The problems of a failure `compileFailure` reported. */
export function explainFailure(schema: JsonSchemaObject, failure: CompileFailure, options: ProblemOptions = {}): SchemaProblem[] {
  if (failure.kind === 'meta') {
    const found = metaProblems(schema, failure.errors, options);
    if (found.length > 0) return found;
  }
  return [compileProblem(schema, failure.kind === 'compile' ? failure.error : new Error('the meta-schema rejects it'))];
}

/**
 * Why `schema` is not valid JSON Schema for the Ajv that validation uses, one problem per
 * place; [] when it compiles. `draft`: read it as this draft whatever its `$schema` says.
 */
export function schemaProblems(schema: JsonSchemaObject, options: ProblemOptions & { draft?: Draft } = {}): SchemaProblem[] {
  const failure = compileFailure(schema, options.draft);
  return failure === undefined ? [] : explainFailure(schema, failure, options);
}
