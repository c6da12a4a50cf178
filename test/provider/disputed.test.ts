import { describe, expect, test } from '@jest/globals';
import { lintTools, profiles, type Fact } from '../../src/checks/provider/index.js';
import type { JsonSchemaObject, ToolSpec } from '../../src/tools/types.js';

// A fact the sources disagree on is a warning: failing a build on it would fail schemas the
// provider may well accept. These tests hold both directions, from the table and from a run.

function tool(properties: Record<string, unknown>): ToolSpec {
  const inputSchema: JsonSchemaObject = { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
  return { name: 'get_weather', description: 'Current weather for a city.', inputSchema, origin: { shape: 'plain' } };
}

describe('facts the sources disagree on', () => {
  const facts: Fact[] = [];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === 'object' && value !== null && !(value instanceof RegExp)) {
      if ('reason' in value) facts.push(value as Fact);
      else Object.values(value).forEach(collect);
    }
  };
  collect(Object.values(profiles));

  test('every fact whose reason says the sources disagree is a warning', () => {
    const disputed = facts.filter((f) => /sources disagree/.test(f.reason));
    // `minLength`/`maxLength` and `default` in OpenAI strict mode, and the old 64-character name limits.
    expect(disputed.length).toBeGreaterThanOrEqual(4);
    for (const fact of disputed) expect({ reason: fact.reason, severity: fact.severity }).toEqual({ reason: fact.reason, severity: 'warning' });
  });

  test('openai-strict: string length bounds and `default` are warnings that say the sources disagree, in a run', () => {
    const found = lintTools([tool({ city: { type: 'string', minLength: 1, maxLength: 80 }, unit: { type: 'string', enum: ['c', 'f'], default: 'c' } })], 'openai-strict');
    expect(found.map((d) => [d.ruleId, d.severity, d.schemaPath])).toEqual([
      ['provider/unsupported-keyword', 'warning', '/properties/city/minLength'],
      ['provider/unsupported-keyword', 'warning', '/properties/city/maxLength'],
      ['provider/unsupported-keyword', 'warning', '/properties/unit/default'],
    ]);
    for (const d of found) expect(d.message).toContain('sources disagree');
  });

  test('a name over 64 characters: a warning for the profiles whose old limit is disputed, never an error', () => {
    const long = { ...tool({ city: { type: 'string' } }), name: `get_${'w'.repeat(70)}` };
    for (const provider of ['anthropic', 'gemini'] as const) {
      const found = lintTools([long], provider).filter((d) => d.message.includes('sources disagree'));
      expect(found.length).toBeGreaterThan(0);
      for (const d of found) expect(d.severity).toBe('warning');
    }
  });
});
