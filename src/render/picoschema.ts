/**
 * Picoschema, dotprompt's compact schema notation, expanded to JSON Schema.
 *
 *   name: string, a description        required field of a scalar type
 *   name?: number                      optional field: its type also allows null
 *   tags(array, the tags): string      array field; the value describes each item
 *   address(object): { street: ... }   nested object (the value is more Picoschema)
 *   color?(enum): [RED, GREEN]         enum; optional adds null to the values
 *   (*): any                           wildcard: the schema of every other key
 *
 * Scalar types are `string`, `number`, `integer`, `boolean`, `null` and `any` (no constraint).
 * Any other type name is a named schema, looked up with `resolveSchema`. A value that is
 * already JSON Schema (a `type` of a JSON Schema type at the top, or `properties`) is
 * returned as it is. Written from dotprompt's published spec (spec/picoschema.yaml).
 */
import { isRecord, setOwn } from '../util/values.js';

/** A JSON Schema object; Picoschema only ever writes plain JSON values into it. */
export type JsonSchema = Record<string, unknown>;

/** Looks up a named schema (`schema: Foo`); undefined or null when there is none. */
export type SchemaResolver = (name: string) => JsonSchema | null | undefined;

export interface PicoschemaOptions {
  /** Named schemas, looked up before `resolveSchema`. */
  schemas?: Record<string, JsonSchema>;
  resolveSchema?: SchemaResolver;
}

/** A Picoschema that cannot be expanded; `path` names the field (`address.street`), empty at the top. */
export class PicoschemaError extends Error {
  override name = 'PicoschemaError';
  readonly path: string;

  constructor(message: string, path: string) {
    super(message);
    this.path = path;
  }
}

const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null', 'any']);
const JSON_SCHEMA_TYPES = new Set([...SCALARS, 'object', 'array']);
const WILDCARD = '(*)';

/** `type, description` -> [type, description]: the first comma ends the type; spaces after it are dropped. */
function typeAndDescription(text: string): [string, string | undefined] {
  const comma = text.indexOf(',');
  if (comma < 0) return [text.trim(), undefined];
  return [text.slice(0, comma).trim(), text.slice(comma + 1).replace(/^ +/, '')];
}

const fieldName = (path: string[]): string => path.join('.');
const where = (path: string[]): string => (path.length ? `field \`${fieldName(path)}\`` : 'the schema');

class Expander {
  readonly #options: PicoschemaOptions;

  constructor(options: PicoschemaOptions) {
    this.#options = options;
  }

  named(name: string, path: string[]): JsonSchema {
    const schemas = this.#options.schemas;
    const found = (schemas && Object.hasOwn(schemas, name) ? schemas[name] : undefined) ?? this.#options.resolveSchema?.(name) ?? undefined;
    if (!found) {
      const known = [...SCALARS].map((s) => `\`${s}\``).join(', ');
      const message = this.#options.schemas || this.#options.resolveSchema
        ? `Picoschema: unknown type \`${name}\` for ${where(path)}: not a scalar type (${known}) and no schema of that name is defined`
        : `Picoschema: unknown type \`${name}\` for ${where(path)}: expected one of ${known}, or a named schema`;
      throw new PicoschemaError(message, fieldName(path));
    }
    return { ...found };
  }

  /** A type written as a string: `string`, `number, the description`, `Foo, a named one`. */
  scalar(text: string, path: string[]): JsonSchema {
    const [type, description] = typeAndDescription(text);
    const out: JsonSchema = !SCALARS.has(type) ? this.named(type, path) : type === 'any' ? {} : { type };
    if (description) out.description = description;
    return out;
  }

  value(value: unknown, path: string[]): JsonSchema {
    if (typeof value === 'string') return this.scalar(value, path);
    if (!isRecord(value)) {
      throw new PicoschemaError(`Picoschema: ${where(path)} must be a type name (a string) or a mapping of fields, got ${JSON.stringify(value) ?? String(value)}`, fieldName(path));
    }
    return this.object(value, path);
  }

  object(fields: Record<string, unknown>, path: string[]): JsonSchema {
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    let additionalProperties: unknown = false;
    for (const [key, value] of Object.entries(fields)) {
      if (key === WILDCARD) {
        additionalProperties = this.value(value, [...path, key]);
        continue;
      }
      const open = key.indexOf('(');
      let name = open < 0 ? key : key.slice(0, open);
      const optional = name.endsWith('?');
      if (optional) name = name.slice(0, -1);
      const at = [...path, name];
      if (name === '') throw new PicoschemaError(`Picoschema: the key \`${key}\` in ${where(path)} has no field name`, fieldName(at));
      if (!optional) required.push(name);

      let prop: JsonSchema;
      if (open < 0) {
        prop = this.value(value, at);
        if (optional && typeof prop.type === 'string') prop.type = [prop.type, 'null'];
      } else {
        if (!key.endsWith(')')) throw new PicoschemaError(`Picoschema: the key \`${key}\` opens \`(\` but does not end with \`)\``, fieldName(at));
        const [kind, description] = typeAndDescription(key.slice(open + 1, -1));
        if (kind === 'array') {
          prop = { type: optional ? ['array', 'null'] : 'array', items: this.value(value, at) };
        } else if (kind === 'object') {
          if (!isRecord(value)) throw new PicoschemaError(`Picoschema: ${where(at)} is \`(object)\`, so its value must be a mapping of fields, got ${JSON.stringify(value) ?? String(value)}`, fieldName(at));
          prop = this.object(value, at);
          if (optional) prop.type = [prop.type, 'null'];
        } else if (kind === 'enum') {
          if (!Array.isArray(value)) throw new PicoschemaError(`Picoschema: ${where(at)} is \`(enum)\`, so its value must be a list of values, got ${JSON.stringify(value) ?? String(value)}`, fieldName(at));
          const values = [...value];
          if (optional && !values.includes(null)) values.push(null);
          prop = { enum: values };
        } else {
          throw new PicoschemaError(`Picoschema: unknown type \`(${kind})\` for ${where(at)}: a parenthesised type is \`(object)\`, \`(array)\` or \`(enum)\``, fieldName(at));
        }
        if (description) prop.description = description;
      }
      setOwn(properties, name, prop);
    }
    const out: JsonSchema = { type: 'object', properties };
    if (required.length) out.required = required;
    out.additionalProperties = additionalProperties;
    return out;
  }
}

/**
 * Expands a Picoschema to JSON Schema. `undefined`, `null` and `''` give undefined (no schema).
 * Throws a PicoschemaError naming the field for an unknown type or a malformed value.
 */
export function picoschema(schema: unknown, options: PicoschemaOptions = {}): JsonSchema | undefined {
  if (schema === undefined || schema === null || schema === '') return undefined;
  const expander = new Expander(options);
  if (typeof schema === 'string') return expander.scalar(schema, []);
  if (isRecord(schema)) {
    // Already JSON Schema: left as written (an object with `properties` gets `type: object`).
    if (typeof schema.type === 'string' && JSON_SCHEMA_TYPES.has(schema.type)) return schema;
    if (isRecord(schema.properties)) return { ...schema, type: 'object' };
    return expander.object(schema, []);
  }
  throw new PicoschemaError(`Picoschema: a schema is a type name (a string) or a mapping of fields, got ${JSON.stringify(schema) ?? String(schema)}`, '');
}
