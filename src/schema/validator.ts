import { _, Ajv, str, type ErrorObject, type KeywordCxt, type KeywordDefinition, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchemaObject } from '../tools/types.js';
import { show } from '../util/values.js';
import { joinPointer } from './pointer.js';

// ajv-formats is CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

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

function makeAjv(draft: Draft): Ajv {
  const options = { allErrors: true, strict: false, validateFormats: true, verbose: true } as const;
  const ajv = (draft === '2020-12' ? new Ajv2020(options) : draft === '2019-09' ? new Ajv2019(options) : new Ajv(options)) as Ajv;
  ajv.removeKeyword('maxLength');
  ajv.removeKeyword('minLength');
  ajv.addKeyword(stringLength);
  addFormats(ajv);
  return ajv;
}

/** One problem with one value, in both coordinates Ajv gives. */
export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
}

/** Where one problem is and what the schema expected there: a SchemaError without its message. */
export type SchemaPlace = Omit<SchemaError, 'message' | 'actual'>;

/** A compiled schema: `errors(value)` returns [] when the value is valid; `places(value)` the same problems without messages, cheaper. */
export interface Validator {
  (value: unknown): boolean;
  errors(value: unknown): SchemaError[];
  places(value: unknown): SchemaPlace[];
}

/**
 * Compiles JSON Schemas with Ajv, one Ajv instance per draft (2020-12 and draft-07 cannot
 * share one), all errors, formats on, unknown vendor keywords tolerated. Compiled
 * validators are cached by schema identity: recorded-call validation calls this per row.
 */
// One Ajv instance per draft for the process: creating one compiles its meta-schema, which
// costs more than compiling a tool's schema, and every check and worker needs the same few.
const shared = new Map<Draft, Ajv>();
const bodies = new WeakMap<JsonSchemaObject, JsonSchemaObject>();

function ajvFor(draft: Draft): Ajv {
  let ajv = shared.get(draft);
  if (!ajv) shared.set(draft, (ajv = makeAjv(draft)));
  return ajv;
}

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
    // Strip `$schema` for the compile: Ajv only knows the meta-schema of its own class, and the draft was chosen by draftOf.
    // The stripped copy is kept per schema so the shared Ajv instance's own cache hits for every compiler.
    let body = bodies.get(schema);
    if (!body) {
      const { $schema: _ignored, $id: _id, ...rest } = schema;
      bodies.set(schema, (body = rest));
    }
    const validate: ValidateFunction = ajvFor(draftOf(schema)).compile(body);
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
      },
    );
    this.#cache.set(schema, validator);
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
  const { keyword, schemaPath } = e;
  switch (keyword) {
    case 'required':
      return { instancePath: joinPointer(e.instancePath, String(p.missingProperty)), schemaPath, keyword, expected: p.missingProperty };
    case 'additionalProperties':
      return { instancePath: joinPointer(e.instancePath, String(p.additionalProperty)), schemaPath, keyword };
    default:
      return { instancePath: e.instancePath, schemaPath, keyword, expected: keyword === 'enum' ? p.allowedValues : keyword === 'const' ? p.allowedValue : keyword === 'type' ? p.type : e.schema };
  }
}

/** Ajv errors -> their places, without building messages (recorded calls group millions of failures this way). */
export function places(errors: readonly ErrorObject[]): SchemaPlace[] {
  const out: SchemaPlace[] = [];
  for (const e of errors) if (explained(e)) out.push(placeOf(e));
  return out;
}

/** Ajv errors -> one message grammar ("`/amount_cents` must be <= 50000, got 60000"), dropping the noise `anyOf` adds. */
export function explain(errors: readonly ErrorObject[]): SchemaError[] {
  const out: SchemaError[] = [];
  for (const e of errors) {
    if (!explained(e)) continue;
    const place = placeOf(e);
    const p = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case 'required':
        out.push({ ...place, message: `Missing required property \`${String(p.missingProperty)}\` in ${at(e.instancePath)}` });
        break;
      case 'additionalProperties':
        out.push({ ...place, message: `Unexpected property \`${String(p.additionalProperty)}\` in ${at(e.instancePath)}, expected only ${show(Object.keys((e.parentSchema as { properties?: object })?.properties ?? {}), 60)}`, actual: p.additionalProperty });
        break;
      case 'enum':
      case 'const':
        out.push({ ...place, message: `Unexpected ${show(e.data, 60)} at ${at(e.instancePath)}, expected ${e.keyword === 'enum' ? 'one of ' : ''}${show(place.expected, 60)}`, actual: e.data });
        break;
      case 'type':
        out.push({ ...place, message: `Unexpected ${show(e.data, 60)} at ${at(e.instancePath)}, expected ${String(p.type)}`, actual: e.data });
        break;
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
      out[key] = value;
    } else out[key] = strictView(value);
  }
  const isObjectSchema = out.type === 'object' || (typeof out.properties === 'object' && out.properties !== null);
  if (isObjectSchema) {
    const props = Object.keys((out.properties as object | undefined) ?? {});
    out.required = props;
    out.additionalProperties = false;
  }
  return out;
}
