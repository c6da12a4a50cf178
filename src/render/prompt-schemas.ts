/**
 * A prompt's `input.schema` and `output.schema` expanded from Picoschema once per loaded
 * prompt, not once per case: every case of the prompt validates against, and shows, the same
 * object, so the schema compiler's cache (keyed by identity) compiles it once too.
 */
import type { JsonSchemaObject } from '../tools/types.js';
import type { PromptDefinition } from './module.js';
import { picoschema } from './picoschema.js';

export type Expanded = { schema?: JsonSchemaObject; error?: Error };

const cache = new WeakMap<PromptDefinition, Partial<Record<'input' | 'output', Expanded>>>();

/** The prompt's `input.schema` or `output.schema` as JSON Schema, or the error that stopped its expansion. */
export function promptSchema(prompt: PromptDefinition, key: 'input' | 'output'): Expanded {
  let entry = cache.get(prompt);
  if (!entry) cache.set(prompt, (entry = {}));
  const known = entry[key];
  if (known) return known;
  const section = prompt.meta[key];
  let out: Expanded = {};
  if (typeof section === 'object' && section !== null && !Array.isArray(section) && (section as Record<string, unknown>).schema !== undefined) {
    try {
      const schemas = prompt.schemas;
      const schema = picoschema((section as Record<string, unknown>).schema, schemas ? { resolveSchema: (name) => schemas.get(name) } : {});
      if (schema) out = { schema: schema as JsonSchemaObject };
    } catch (error) {
      out = { error: error instanceof Error ? error : new Error(String(error)) };
    }
  }
  entry[key] = out;
  return out;
}
