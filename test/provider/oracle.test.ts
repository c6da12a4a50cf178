import { describe, expect, test } from '@jest/globals';
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { lintTools } from '../../src/checks/provider/index.js';
import type { JsonSchemaObject, ToolSpec } from '../../src/tools/types.js';

/**
 * Oracles: the official SDKs' own strict transforms. Where our lint reports an unsupported
 * keyword, the SDK transform must move or refuse it; where our lint is quiet, the transform
 * must keep the schema. Both SDKs are devDependencies: a missing one fails this suite (the
 * imports above do not resolve), it never skips.
 * - `@anthropic-ai/sdk`: `transformJSONSchema` (src/lib/transform-json-schema.ts) moves
 *   unsupported keywords into the description.
 * - `openai`: `toStrictJsonSchema` (src/lib/transform.ts) throws on what strict mode refuses.
 */
const spec = (inputSchema: JsonSchemaObject): ToolSpec[] => [{ name: 't', description: 'd', inputSchema, origin: { shape: 'plain' } }];
const closed = (properties: Record<string, unknown>): JsonSchemaObject => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });

const samples: JsonSchemaObject[] = [
  closed({ n: { type: 'integer', minimum: 1 } }),
  closed({ s: { type: 'string', maxLength: 10 } }),
  closed({ a: { type: 'array', items: { type: 'string' }, minItems: 3 } }),
  closed({ a: { type: 'array', items: { type: 'string' }, minItems: 1 } }),
  closed({ f: { type: 'string', format: 'uri' } }),
  closed({ e: { type: 'string', enum: ['x', 'y'] } }),
];

describe('SDK oracles', () => {
  test('anthropic-strict lint agrees with @anthropic-ai/sdk transformJSONSchema', () => {
    // The transform also normalizes (it drops `type` beside `enum`); what it cannot express it
    // moves into the description as `{keyword: value}`. Those moves are the oracle.
    const moved = (out: JsonSchemaObject): boolean => JSON.stringify(out).includes('"description":"{');
    for (const schema of samples) {
      const flagged = lintTools(spec(schema), 'anthropic-strict').some((d) => d.ruleId === 'provider/unsupported-keyword' || d.ruleId === 'provider/unsupported-format');
      expect({ schema, moved: moved(transformJSONSchema(structuredClone(schema))) }).toEqual({ schema, moved: flagged });
    }
  });

  test('openai-strict lint agrees with openai toStrictJsonSchema on refused keywords', () => {
    // The SDK refuses what it cannot express (`not`) and rewrites what it can (a one-branch
    // `allOf` is inlined). Either way the schema as written is not what strict mode takes.
    for (const schema of [closed({ a: { allOf: [{ type: 'string' }] } }), closed({ a: { not: { type: 'string' } } }), closed({ a: { type: 'string' } })]) {
      const flagged = lintTools(spec(schema), 'openai-strict').some((d) => d.severity === 'error');
      let notAsWritten: boolean;
      try {
        notAsWritten = JSON.stringify(toStrictJsonSchema(structuredClone(schema))) !== JSON.stringify(schema);
      } catch {
        notAsWritten = true;
      }
      expect({ schema, notAsWritten }).toEqual({ schema, notAsWritten: flagged });
    }
  });
});
