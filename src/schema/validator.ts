import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
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

function makeAjv(draft: Draft): Ajv {
  const options = { allErrors: true, strict: false, validateFormats: true, verbose: true } as const;
  const ajv = draft === '2020-12' ? new Ajv2020(options) : draft === '2019-09' ? new Ajv2019(options) : new Ajv(options);
  addFormats(ajv as Ajv);
  return ajv as Ajv;
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

/** A compiled schema: `errors(value)` returns [] when the value is valid. */
export interface Validator {
  (value: unknown): boolean;
  errors(value: unknown): SchemaError[];
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
    const validator = Object.assign(
      (value: unknown) => {
        if (validate(value)) return true;
        failed = { value, errors: [...(validate.errors ?? [])] };
        return false;
      },
      {
        errors(value: unknown): SchemaError[] {
          if (failed && failed.value === value) return explain(failed.errors);
          if (validate(value)) return [];
          return explain([...(validate.errors ?? [])]);
        },
      },
    );
    this.#cache.set(schema, validator);
    return validator;
  }
}

function at(path: string): string {
  return path === '' ? 'the arguments' : `\`${path}\``;
}

/** Ajv errors -> one message grammar ("`/amount_cents` must be <= 50000, got 60000"), dropping the noise `anyOf` adds. */
export function explain(errors: ErrorObject[]): SchemaError[] {
  const out: SchemaError[] = [];
  for (const e of errors) {
    // An anyOf/oneOf failure is already explained by its branches' errors.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const base = { instancePath: e.instancePath, schemaPath: e.schemaPath, keyword: e.keyword };
    const p = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case 'required':
        out.push({ ...base, instancePath: joinPointer(e.instancePath, String(p.missingProperty)), message: `Missing required property \`${String(p.missingProperty)}\` in ${at(e.instancePath)}`, expected: p.missingProperty });
        break;
      case 'additionalProperties':
        out.push({ ...base, instancePath: joinPointer(e.instancePath, String(p.additionalProperty)), message: `Unexpected property \`${String(p.additionalProperty)}\` in ${at(e.instancePath)}, expected only ${show(Object.keys((e.parentSchema as { properties?: object })?.properties ?? {}), 60)}`, actual: p.additionalProperty });
        break;
      case 'enum':
        out.push({ ...base, message: `Unexpected ${show(e.data, 60)} at ${at(e.instancePath)}, expected one of ${show(p.allowedValues, 60)}`, expected: p.allowedValues, actual: e.data });
        break;
      case 'const':
        out.push({ ...base, message: `Unexpected ${show(e.data, 60)} at ${at(e.instancePath)}, expected ${show(p.allowedValue, 60)}`, expected: p.allowedValue, actual: e.data });
        break;
      case 'type':
        out.push({ ...base, message: `Unexpected ${show(e.data, 60)} at ${at(e.instancePath)}, expected ${String(p.type)}`, expected: p.type, actual: e.data });
        break;
      default:
        out.push({ ...base, message: `${at(e.instancePath)} ${e.message ?? 'is invalid'}, got ${show(e.data, 60)}`.replace(/^the/, 'The'), expected: e.schema, actual: e.data });
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
