import { createRequire } from 'node:module';
import { describe, expect, test } from '@jest/globals';
import { lintTools } from '../../src/checks/provider/index.js';
import type { JsonSchemaObject, ToolSpec } from '../../src/tools/types.js';

/**
 * Oracles: the official SDKs' own strict transforms. Where our lint reports an unsupported
 * keyword, the SDK transform must move or refuse it; where our lint is quiet, the transform
 * must keep the schema. The SDKs are not dependencies, so these run only when installed:
 * - `@anthropic-ai/sdk`: `transformJSONSchema` (src/lib/transform-json-schema.ts) moves
 *   unsupported keywords into the description.
 * - `openai`: `toStrictJsonSchema` (src/lib/transform.ts) throws on what strict mode refuses.
 */
const require = createRequire(import.meta.url);
// Resolve the transform modules themselves: neither SDK exports its package.json.
const has = (modulePath: string): boolean => {
  try {
    require.resolve(modulePath);
    return true;
  } catch {
    return false;
  }
};

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

const anthropicSdk = has('@anthropic-ai/sdk/lib/transform-json-schema');
const openaiSdk = has('openai/lib/transform');

describe('SDK oracles', () => {
  (anthropicSdk ? test : test.skip)('anthropic-strict lint agrees with @anthropic-ai/sdk transformJSONSchema', async () => {
    const modulePath: string = '@anthropic-ai/sdk/lib/transform-json-schema';
    const { transformJSONSchema } = (await import(modulePath)) as { transformJSONSchema: (s: JsonSchemaObject) => JsonSchemaObject };
    // The transform also normalizes (it drops `type` beside `enum`); what it cannot express it
    // moves into the description as `{keyword: value}`. Those moves are the oracle.
    const moved = (out: JsonSchemaObject): boolean => JSON.stringify(out).includes('"description":"{');
    for (const schema of samples) {
      const flagged = lintTools(spec(schema), 'anthropic-strict').some((d) => d.ruleId === 'provider/unsupported-keyword' || d.ruleId === 'provider/unsupported-format');
      expect({ schema, moved: moved(transformJSONSchema(structuredClone(schema))) }).toEqual({ schema, moved: flagged });
    }
  });

  (openaiSdk ? test : test.skip)('openai-strict lint agrees with openai toStrictJsonSchema on refused keywords', async () => {
    const modulePath: string = 'openai/lib/transform';
    const { toStrictJsonSchema } = (await import(modulePath)) as { toStrictJsonSchema: (s: JsonSchemaObject) => JsonSchemaObject };
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

  test('reports why oracles are skipped', () => {
    // Not a failure: the SDKs are optional; the lead decides whether to add them as devDependencies.
    if (!anthropicSdk || !openaiSdk) {
      const missing = [anthropicSdk ? '' : '@anthropic-ai/sdk', openaiSdk ? '' : 'openai'].filter(Boolean);
      console.info(`provider oracles skipped: ${missing.join(', ')} not installed`);
    }
    expect(typeof anthropicSdk).toBe('boolean');
  });
});
