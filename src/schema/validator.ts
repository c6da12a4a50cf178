import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, KeywordCxt, KeywordDefinition, ValidateFunction } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import { _, Ajv2020, str } from 'ajv/dist/2020.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import type { JsonSchemaObject } from '../tools/types.js';
import { collectUnsupported, patternEngine, type UnsupportedPattern } from '../util/regex.js';
import { isRecord, setOwn, show } from '../util/values.js';
import { listKeywords, mapKeywords, singleKeywords } from './keywords.js';
import { formatCondition, showPattern } from './formats.js';
import { joinPointer } from './pointer.js';
import { loopingRef } from './refs.js';

// Loaded when first needed: most tool sets are 2020-12 (or say no draft) and many use no
// `format`; the other drafts' classes and ajv-formats cost a third of Ajv's start-up.
// All three are CommonJS, so `require` loads them in every module system, Jest's included.
const load = createRequire(import.meta.url);
const draftClass = {
  'draft-07': () => (load('ajv') as { Ajv: typeof Ajv }).Ajv,
  '2019-09': () => (load('ajv/dist/2019.js') as { Ajv2019: typeof Ajv2019 }).Ajv2019,
};

/** ajv-formats' `addFormats` and its full formats (`fullFormats.url` is replaced, see urlFormat). */
function ajvFormats(): { addFormats: (ajv: Ajv) => Ajv; fullFormats: Record<string, unknown> } {
  const module = load('ajv-formats') as { default?: (ajv: Ajv) => Ajv };
  return { addFormats: module.default ?? (module as unknown as (ajv: Ajv) => Ajv), fullFormats: (load('ajv-formats/dist/formats.js') as { fullFormats: Record<string, unknown> }).fullFormats };
}

export type Draft = 'draft-07' | '2019-09' | '2020-12';

/** The draft a schema declares through `$schema`; 2020-12 when it declares none (what Anthropic and MCP assume). */
export function draftOf(schema: JsonSchemaObject): Draft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[4-7]/.test(declared)) return 'draft-07';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

const ucs2length = ((ucs2lengthModule as unknown as { default?: unknown }).default ?? ucs2lengthModule) as (text: string) => number;

/**
 * `maxLength` and `minLength` as Ajv defines them (length in code points, the same errors),
 * but without counting code points when the string's UTF-16 length already decides: a
 * string has at most `.length` and at least half as many code points. Ajv counts every
 * character of every bounded string, which was a third of the time spent validating
 * typical tool arguments.
 */
const stringLength: KeywordDefinition = {
  keyword: ['maxLength', 'minLength'],
  type: 'string',
  schemaType: 'number',
  $data: true,
  error: {
    message: ({ keyword, schemaCode }) => str`must NOT have ${keyword === 'maxLength' ? 'more' : 'fewer'} than ${schemaCode} characters`,
    params: ({ schemaCode }) => _`{limit: ${schemaCode}}`,
  },
  code(cxt: KeywordCxt) {
    const { keyword, data, schemaCode, gen } = cxt;
    const count = gen.scopeValue('func', { ref: ucs2length, code: _`require("ajv/dist/runtime/ucs2length").default` });
    cxt.fail$data(
      keyword === 'maxLength'
        ? _`${data}.length > ${schemaCode} && ${count}(${data}) > ${schemaCode}`
        : _`${data}.length < ${schemaCode} || (((${data}.length + 1) >> 1) < ${schemaCode} && ${count}(${data}) < ${schemaCode})`,
    );
  },
};

/**
 * ajv-formats' `url` with `(?:\S+(?::\S*)?@)?` written `(?:\S+@)?`: the same strings (the
 * optional `:\S*` only re-splits what `\S+` matches), without the quadratic backtracking of
 * the original over a long value full of `:` (64 KB took over a second). The other formats
 * stay linear on the inputs tested in test/hostile/regex-formats.test.ts.
 */
function urlFormat(fullFormats: Record<string, unknown>): RegExp {
  const original = fullFormats.url as RegExp;
  const userinfo = String.raw`(?:\S+(?::\S*)?@)?`;
  return original.source.includes(userinfo) ? new RegExp(original.source.replace(userinfo, String.raw`(?:\S+@)?`), original.flags) : original;
}

/** Ajv instances that have the formats; the rest get them before the first schema that names one. */
const withFormats = new WeakSet<Ajv>();

function addFormatsTo(ajv: Ajv): void {
  if (withFormats.has(ajv)) return;
  const { addFormats, fullFormats } = ajvFormats();
  addFormats(ajv);
  ajv.addFormat('url', urlFormat(fullFormats));
  withFormats.add(ajv);
}

/**
 * Whether a schema may use `format`: any key or string `"format"` in it. Erring on the side of
 * loading the formats keeps validation the same whatever was compiled before (a property
 * named `default` or `enum` holds a schema too, so no key can be skipped).
 */
function namesFormat(schema: unknown): boolean {
  return JSON.stringify(schema).includes('"format"');
}

/**
 * The options every Ajv here shares. `logger: false`: Ajv would print "unknown format ...
 * ignored" to the console for every schema the lint compiles; an unknown format is tolerated
 * like an unknown keyword, not a finding.
 */
export const AJV_OPTIONS = { allErrors: true, strict: false, validateFormats: true, verbose: true, logger: false } as const;

/** Keywords as validation reads them: string lengths in code points (see stringLength). */
export function withKeywords<A extends Pick<Ajv, 'removeKeyword' | 'addKeyword'>>(ajv: A): A {
  ajv.removeKeyword('maxLength');
  ajv.removeKeyword('minLength');
  ajv.addKeyword(stringLength);
  return ajv;
}

export const META_2020 = 'https://json-schema.org/draft/2020-12/schema';

/** What the prebuilt meta-schema validator was generated from; it is used only when this matches. */
export function metaStamp(): string {
  return `ajv ${(load('ajv/package.json') as { version: string }).version} ${JSON.stringify(AJV_OPTIONS)}`;
}

/**
 * The 2020-12 meta-schema's validator as Ajv compiles it, generated into `dist/` at build time
 * (scripts/build-meta.mjs): compiling it costs more than any tool's schema and every run paid
 * it. Undefined where it was not built (the sources run under a test runner) or was built by
 * another Ajv; Ajv then compiles the meta-schema itself, to the same function.
 */
function prebuiltMeta(): ValidateFunction | undefined {
  try {
    const built = load('./meta-2020-12.cjs') as { stamp?: string; default?: ValidateFunction };
    return built.stamp === metaStamp() && typeof built.default === 'function' ? built.default : undefined;
  } catch {
    return undefined;
  }
}

function makeAjv(draft: Draft, ownProperties: boolean): Ajv {
  // Schema patterns are untrusted: they run on a linear-time engine (src/util/regex.ts).
  // `ownProperties`: a property the value inherits (`constructor`, `toString`) is not a property it has.
  const meta = draft === '2020-12' ? prebuiltMeta() : undefined;
  // `defaultMeta` named: Ajv2020 would otherwise compile the meta-schema to find its own id.
  const options = { ...AJV_OPTIONS, ownProperties, code: { regExp: patternEngine }, ...(meta ? { defaultMeta: META_2020 } : {}) };
  const ajv = withKeywords((draft === '2020-12' ? new Ajv2020(options) : new (draftClass[draft]())(options)) as Ajv);
  if (meta) {
    // Every meta-schema check (Ajv's own before a compile, and compileFailure's) asks `validate`
    // with the meta-schema's id: those go to the prebuilt function, with its errors where Ajv keeps them.
    const validate = ajv.validate.bind(ajv);
    ajv.validate = ((schemaKeyRef: unknown, data: unknown) => {
      if (schemaKeyRef !== META_2020) return validate(schemaKeyRef as string, data);
      const valid = meta(data);
      ajv.errors = valid ? null : (meta.errors ?? null);
      return valid;
    }) as Ajv['validate'];
    return ajv;
  }
  // The meta-schema is compiled now, before any formats: what it accepts must not depend on
  // which schema came first. Its own `format`s (`uri-reference` on `$ref`) are left unchecked;
  // a `$ref` that resolves to nothing fails the compile instead. (The prebuilt one is compiled
  // without formats too.) Its two patterns are plain enough for V8's engine.
  ajv.validateSchema({});
  return ajv;
}

/**
 * Ajv skips a property named `__proto__` in `properties` (it guards its own objects that
 * way), so a value's `__proto__` went unchecked and was reported as unexpected. The schema
 * it compiles declares such a property through `patternProperties` instead (`^__proto__$`
 * matches that name only), which Ajv applies to own keys like any other; errors are placed
 * back under `properties` (see `PROTO_PATH`).
 */
const PROTO_PATTERN = '^__proto__$';
const PROTO_PATH = `/patternProperties/${encodeURIComponent(PROTO_PATTERN)}`;

function protoSafe(schema: unknown): unknown {
  if (Array.isArray(schema)) {
    const items = schema.map(protoSafe);
    return items.some((item, i) => item !== schema[i]) ? items : schema;
  }
  if (!isRecord(schema)) return schema;
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    const next = protoSafe(value);
    if (next !== value) setOwn((out ??= { ...schema }), key, next);
  }
  const properties = (out ?? schema).properties;
  if (isRecord(properties) && Object.hasOwn(properties, '__proto__')) {
    out ??= { ...schema };
    const { __proto__: declared, ...rest } = { ...properties } as Record<string, unknown>;
    out.properties = rest;
    const patterns: Record<string, unknown> = isRecord(out.patternProperties) ? { ...out.patternProperties } : {};
    setOwn(patterns, PROTO_PATTERN, Object.hasOwn(patterns, PROTO_PATTERN) ? { allOf: [patterns[PROTO_PATTERN], declared] } : declared);
    out.patternProperties = patterns;
  }
  return out ?? schema;
}

/**
 * `nullable` is OpenAPI's keyword, not JSON Schema's: under the drafts it means nothing. Ajv
 * reads it anyway, and refuses to compile a schema whose `nullable` has no `type` beside it
 * (`{"nullable": true, "allOf": [{"$ref": ...}]}`, as OpenAPI generators write), or says
 * `nullable: false` beside a `type` that allows null. Those nodes are compiled without it,
 * which is what they mean as JSON Schema. A property named `nullable` is left alone.
 */
function nullableSafe(schema: unknown): unknown {
  if (!isRecord(schema)) return schema;
  let out: Record<string, unknown> | undefined;
  if (Object.hasOwn(schema, 'nullable')) {
    const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
    if (types.length === 0 || (types.includes('null') && schema.nullable === false)) {
      const { nullable: _dropped, ...rest } = schema;
      out = rest;
    }
  }
  const put = (key: string, value: unknown): void => {
    setOwn((out ??= { ...schema }), key, value);
  };
  for (const [key, value] of Object.entries(out ?? schema)) {
    if (mapKeywords.has(key) && isRecord(value)) {
      let map: Record<string, unknown> | undefined;
      for (const [name, child] of Object.entries(value)) {
        const next = nullableSafe(child);
        if (next !== child) setOwn((map ??= { ...value }), name, next);
      }
      if (map) put(key, map);
    } else if ((listKeywords.has(key) || key === 'items') && Array.isArray(value)) {
      const items = value.map(nullableSafe);
      if (items.some((item, i) => item !== value[i])) put(key, items);
    } else if (singleKeywords.has(key) || key === 'items') {
      const next = nullableSafe(value);
      if (next !== value) put(key, next);
    }
  }
  return out ?? schema;
}

/** The property names a schema declares, `__proto__` included. */
function declaredNames(schema: unknown): string[] {
  const names = Object.keys((schema as { properties?: object } | undefined)?.properties ?? {});
  const patterns = (schema as { patternProperties?: object } | undefined)?.patternProperties;
  return isRecord(patterns) && Object.hasOwn(patterns, PROTO_PATTERN) ? [...names, '__proto__'] : names;
}

/** A schema path of the compiled schema as written in the original one. */
function originalPath(schemaPath: string): string {
  return schemaPath.includes(PROTO_PATH) ? schemaPath.replace(PROTO_PATH, '/properties/__proto__') : schemaPath;
}

/** A pattern of a schema that validation skips, because it cannot run in linear time; `schemaPath` is where it is written. */
export interface SkippedPattern extends UnsupportedPattern {
  schemaPath: string;
}

/** One problem with one value, in both coordinates Ajv gives. */
export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
  /** The `format` of the schema node that failed (a `pattern` or `format` error), for messages to name in words. */
  format?: string;
}

/** Where one problem is and what the schema expected there: a SchemaError without its message. */
export type SchemaPlace = Omit<SchemaError, 'message' | 'actual'>;

/** A compiled schema: `errors(value)` returns [] when the value is valid; `places(value)` the same problems without messages, cheaper. */
export interface Validator {
  (value: unknown): boolean;
  errors(value: unknown): SchemaError[];
  places(value: unknown): SchemaPlace[];
  /** Patterns that match everything here because the linear-time engine cannot run them (backreferences, lookaround). */
  readonly skippedPatterns: readonly SkippedPattern[];
}

/**
 * Compiles JSON Schemas with Ajv, one Ajv instance per draft (2020-12 and draft-07 cannot
 * share one), all errors, formats on, unknown vendor keywords tolerated. Compiled
 * validators are cached by schema identity: recorded-call validation calls this per row.
 */
// One Ajv instance per draft for the process: creating one compiles its meta-schema, which
// costs more than compiling a tool's schema, and every check and worker needs the same few.
const shared = new Map<string, Ajv>();
const bodies = new WeakMap<JsonSchemaObject, JsonSchemaObject>();
// What each compiled function's compile met: Ajv returns its cached function without compiling again.
const skippedBy = new WeakMap<ValidateFunction, readonly SkippedPattern[]>();

/** The JSON Pointer of the first `pattern` (or `patternProperties` key) in `schema` written as `pattern`. */
function patternPath(schema: unknown, pattern: string, path = '#'): string | undefined {
  if (Array.isArray(schema)) {
    for (let i = 0; i < schema.length; i++) {
      const hit = patternPath(schema[i], pattern, `${path}/${i}`);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  if (!isRecord(schema)) return undefined;
  if (schema.pattern === pattern && Object.hasOwn(schema, 'pattern')) return `${path}/pattern`;
  if (isRecord(schema.patternProperties) && Object.hasOwn(schema.patternProperties, pattern)) return joinPointer(`${path}/patternProperties`, pattern);
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    const hit = patternPath(value, pattern, joinPointer(path, key));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

// Names every plain value inherits: `data.constructor !== undefined` holds for `{}`.
const inherited = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Whether a schema names a property every object inherits (in `properties`, `required`, anywhere). */
function namesInherited(schema: unknown): boolean {
  if (typeof schema === 'string') return inherited.has(schema);
  if (Array.isArray(schema)) return schema.some(namesInherited);
  if (!isRecord(schema)) return false;
  for (const [key, value] of Object.entries(schema)) if (inherited.has(key) || namesInherited(value)) return true;
  return false;
}

/**
 * The shared Ajv of a draft. Checking that a property is the value's own costs about half
 * the time of validating typical arguments (100 to 150 ns a call), and only matters for
 * names every object inherits, so schemas that name one (`constructor`, `toString`,
 * `__proto__`, ...) get an instance with `ownProperties` and the rest the plain one.
 */
function ajvFor(draft: Draft, ownProperties: boolean, body?: JsonSchemaObject): Ajv {
  const key = `${draft}:${ownProperties}`;
  let ajv = shared.get(key);
  if (!ajv) shared.set(key, (ajv = makeAjv(draft, ownProperties)));
  if (body !== undefined && !withFormats.has(ajv) && namesFormat(body)) addFormatsTo(ajv);
  return ajv;
}

/** `schema` without `$schema` and `$id`, the way Ajv takes it: Ajv only knows the meta-schema of its own class (the draft was chosen by draftOf). */
function plainOf(schema: JsonSchemaObject): JsonSchemaObject {
  const { $schema: _ignored, $id: _id, ...rest } = schema;
  return rest;
}

/** What is compiled for `schema`, kept per schema so that the shared Ajv instance's own cache hits for every compiler. */
function bodyOf(schema: JsonSchemaObject): JsonSchemaObject {
  let body = bodies.get(schema);
  if (!body) bodies.set(schema, (body = protoSafe(nullableSafe(plainOf(schema))) as JsonSchemaObject));
  return body;
}

/**
 * Why a schema does not compile: the meta-schema's errors (a keyword holding a value JSON
 * Schema does not allow, such as `"type": "dict"` or `"properties": [...]`; their
 * `instancePath` points into the schema), or what compiling threw (a `$ref` to nothing).
 */
export type CompileFailure = { kind: 'meta'; errors: readonly ErrorObject[] } | { kind: 'compile'; error: unknown };

const failures: Record<Draft, WeakMap<JsonSchemaObject, CompileFailure | null>> = { 'draft-07': new WeakMap(), '2019-09': new WeakMap(), '2020-12': new WeakMap() };

/**
 * Whether `schema` compiles with the Ajv that validation uses (the same draft, formats and
 * pattern engine as `SchemaCompiler`), and why not when it does not. Undefined when it
 * compiles. `draft`: the draft to read it as, when a provider reads every schema as one draft
 * whatever its `$schema` says (Anthropic: 2020-12); the draft it declares by default. Cached
 * per schema and draft: the provider lint asks once per tool and profile.
 */
export function compileFailure(schema: JsonSchemaObject, draft: Draft = draftOf(schema)): CompileFailure | undefined {
  const known = failures[draft].get(schema);
  if (known !== undefined) return known ?? undefined;
  const body = bodyOf(schema);
  const ajv = ajvFor(draft, namesInherited(body), body);
  let failure: CompileFailure | null = null;
  // The meta-schema first, on the schema as written: its errors point at the keyword that is wrong.
  const loop = loopingRef(schema);
  if (!ajv.validateSchema(plainOf(schema))) failure = { kind: 'meta', errors: [...(ajv.errors ?? [])] };
  else if (loop !== undefined) failure = { kind: 'compile', error: new Error(loopMessage(loop)) };
  else {
    try {
      collectUnsupported(() => ajv.compile(body));
    } catch (error) {
      failure = { kind: 'compile', error };
    }
  }
  failures[draft].set(schema, failure);
  return failure ?? undefined;
}

function loopMessage(pointer: string): string {
  return `the \`$ref\` at \`#${pointer}\` leads back to a schema it is applied from without going into the value, so validating would never end; expected each \`$ref\` cycle to pass through \`properties\`, \`items\` or the like`;
}

/** Validators by compiled body, across compilers: a body is compiled by one shared Ajv, so its validator can be shared too. */
const compiledBy = new WeakMap<JsonSchemaObject, Validator>();

export class SchemaCompiler {
  readonly #cache = new WeakMap<object, Validator>();
  readonly #strict = new WeakMap<object, Validator>();

  /** `strict`: validate as OpenAI strict mode reads the schema (see strictView); cached per schema too. */
  compile(schema: JsonSchemaObject, options: { strict?: boolean } = {}): Validator {
    if (options.strict) {
      let v = this.#strict.get(schema);
      if (!v) this.#strict.set(schema, (v = this.compile(strictView(schema) as JsonSchemaObject)));
      return v;
    }
    const hit = this.#cache.get(schema);
    if (hit) return hit;
    const body = bodyOf(schema);
    // Another compiler may have compiled this schema: the validator is shared, as Ajv shares it.
    const shared = compiledBy.get(body);
    if (shared) {
      this.#cache.set(schema, shared);
      return shared;
    }
    // Ajv compiles such a schema, and its validator then recurses until the stack runs out on the first value.
    const loop = loopingRef(schema);
    if (loop !== undefined) throw new Error(loopMessage(loop));
    const { result: validate, unsupported } = collectUnsupported(() => ajvFor(draftOf(schema), namesInherited(body), body).compile(body));
    if (!skippedBy.has(validate)) {
      const seen = new Set<string>();
      const skipped = unsupported.filter((u) => !seen.has(u.pattern) && seen.add(u.pattern));
      skippedBy.set(validate, skipped.map((u) => ({ ...u, schemaPath: patternPath(body, u.pattern) ?? '#' })));
    }
    const skippedPatterns = skippedBy.get(validate)!;
    // The errors of the last failed value: `errors()` right after a failed check (the usual
    // order) reuses them instead of validating again. Ajv overwrites `validate.errors` on the next call, so keep a copy.
    let failed: { value: unknown; errors: ErrorObject[] } | undefined;
    const ajvErrors = (value: unknown): ErrorObject[] => {
      if (failed && failed.value === value) return failed.errors;
      return validate(value) ? [] : [...(validate.errors ?? [])];
    };
    const validator = Object.assign(
      (value: unknown) => {
        if (validate(value)) return true;
        failed = { value, errors: [...(validate.errors ?? [])] };
        return false;
      },
      {
        errors: (value: unknown): SchemaError[] => explain(ajvErrors(value)),
        places: (value: unknown): SchemaPlace[] => places(ajvErrors(value)),
        skippedPatterns,
      },
    );
    this.#cache.set(schema, validator);
    compiledBy.set(body, validator);
    return validator;
  }
}

function at(path: string): string {
  return path === '' ? 'the arguments' : `\`${path}\``;
}

// An anyOf/oneOf/if failure is already explained by its branches' errors.
const explained = (e: ErrorObject): boolean => e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && e.keyword !== 'if';

/** The place of one Ajv error: a missing or unexpected property is placed at the property itself. */
function placeOf(e: ErrorObject): SchemaPlace {
  const p = e.params as Record<string, unknown>;
  const keyword = e.keyword;
  const schemaPath = originalPath(e.schemaPath);
  switch (keyword) {
    case 'required':
      return { instancePath: joinPointer(e.instancePath, String(p.missingProperty)), schemaPath, keyword, expected: p.missingProperty };
    case 'additionalProperties':
      return { instancePath: joinPointer(e.instancePath, String(p.additionalProperty)), schemaPath, keyword };
    default: {
      const place: SchemaPlace = { instancePath: e.instancePath, schemaPath, keyword, expected: keyword === 'enum' ? p.allowedValues : keyword === 'const' ? p.allowedValue : keyword === 'type' ? p.type : e.schema };
      const format = (e.parentSchema as { format?: unknown } | undefined)?.format;
      if ((keyword === 'pattern' || keyword === 'format') && typeof format === 'string') place.format = format;
      return place;
    }
  }
}

/**
 * A `pattern` error of a node whose `format` failed too: zod writes both for one string
 * (`z.string().datetime()`), and the format says the same in words.
 */
function patternBesideFormat(e: ErrorObject, errors: readonly ErrorObject[]): boolean {
  if (e.keyword !== 'pattern' || typeof (e.parentSchema as { format?: unknown } | undefined)?.format !== 'string') return false;
  const node = e.schemaPath.slice(0, e.schemaPath.lastIndexOf('/'));
  return errors.some((f) => f.keyword === 'format' && f.instancePath === e.instancePath && f.schemaPath === `${node}/format`);
}

/** Ajv errors -> their places, without building messages (recorded calls group millions of failures this way). */
export function places(errors: readonly ErrorObject[]): SchemaPlace[] {
  const out: SchemaPlace[] = [];
  for (const e of errors) if (explained(e) && !patternBesideFormat(e, errors)) out.push(placeOf(e));
  return out;
}

/** Ajv errors -> one message grammar ("`/amount_cents` must be <= 50000, got 60000"), dropping the noise `anyOf` adds. */
export function explain(errors: readonly ErrorObject[]): SchemaError[] {
  const out: SchemaError[] = [];
  for (const e of errors) {
    if (!explained(e) || patternBesideFormat(e, errors)) continue;
    const place = placeOf(e);
    const p = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case 'required':
        out.push({ ...place, message: `Missing required property \`${String(p.missingProperty)}\` in ${at(e.instancePath)}` });
        break;
      case 'additionalProperties':
        out.push({ ...place, message: `Unexpected property \`${String(p.additionalProperty)}\` in ${at(e.instancePath)}, expected only ${show(declaredNames(e.parentSchema), 60)}`, actual: p.additionalProperty });
        break;
      case 'enum':
      case 'const':
        out.push({ ...place, message: `Unexpected ${show(e.data, 60)} at ${at(e.instancePath)}, expected ${e.keyword === 'enum' ? 'one of ' : ''}${show(place.expected, 60)}`, actual: e.data });
        break;
      case 'type':
        out.push({ ...place, message: `Unexpected ${show(e.data, 60)} at ${at(e.instancePath)}, expected ${String(p.type)}`, actual: e.data });
        break;
      case 'pattern':
      case 'format': {
        // A format in words; a pattern shown short (the full one stays in `expected`).
        const condition = place.format !== undefined ? formatCondition(place.format) : e.keyword === 'pattern' ? `must match ${showPattern(String(p.pattern ?? e.schema))}` : `must be a valid \`${String(p.format ?? e.schema)}\``;
        out.push({ ...place, message: `${at(e.instancePath)} ${condition}, got ${show(e.data, 60)}`.replace(/^the/, 'The'), actual: e.data });
        break;
      }
      default:
        out.push({ ...place, message: `${at(e.instancePath)} ${e.message ?? 'is invalid'}, got ${show(e.data, 60)}`.replace(/^the/, 'The'), actual: e.data });
    }
  }
  return out;
}

/**
 * The schema as OpenAI strict mode reads it: every object closed and every property
 * required, so an example that leaves out an optional property is reported.
 */
export function strictView(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictView);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strictView(v)]));
    } else if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples' || key === 'required') {
      setOwn(out, key, value);
    } else setOwn(out, key, strictView(value));
  }
  const isObjectSchema = out.type === 'object' || (typeof out.properties === 'object' && out.properties !== null);
  if (isObjectSchema) {
    const props = Object.keys((out.properties as object | undefined) ?? {});
    out.required = props;
    out.additionalProperties = false;
  }
  return out;
}
