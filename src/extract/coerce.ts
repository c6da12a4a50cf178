/**
 * Anthropic XML parameter values are text. The model writes `<parameter name="count">3</parameter>`
 * and the API hands the tool the number 3 because the schema says `integer`; an example is read
 * the same way, so a value that the schema cannot take stays a string and fails validation.
 */
import { readJson } from './json.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON types a schema allows, from `type`, its branches and its `enum`/`const` values; empty when it says nothing. */
export function typesOf(schema: unknown, depth = 0): Set<string> {
  const out = new Set<string>();
  if (!isObject(schema) || depth > 8) return out;
  if (typeof schema.type === 'string') out.add(schema.type);
  else if (Array.isArray(schema.type)) for (const t of schema.type) if (typeof t === 'string') out.add(t);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches) for (const t of typesOf(b, depth + 1)) out.add(t);
  }
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : [];
  for (const v of values) out.add(v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? 'number' : typeof v);
  return out;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const read = readJson(text, 0);
  if (!read.ok || /\S/.test(text.slice(read.end))) return { ok: false };
  return { ok: true, value: read.value };
}

/** The value a parameter's text stands for, given the property's schema (or none). */
export function coerceParameter(raw: string, schema: unknown): unknown {
  const t = raw.trim();
  const types = typesOf(schema);
  if (types.size === 0) {
    if (t.startsWith('{') || t.startsWith('[')) {
      const parsed = parseJson(t);
      if (parsed.ok) return parsed.value;
    }
    return raw;
  }
  if ((types.has('integer') || types.has('number')) && /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(t)) return Number(t);
  if (types.has('boolean') && /^(?:true|false)$/i.test(t)) return t.toLowerCase() === 'true';
  if (types.has('null') && (t === 'null' || t === 'None')) return null;
  if ((types.has('array') && t.startsWith('[')) || (types.has('object') && t.startsWith('{'))) {
    const parsed = parseJson(t);
    if (parsed.ok) return parsed.value;
  }
  return raw;
}
