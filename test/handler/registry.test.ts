import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from '@jest/globals';
import { checkHandler } from '../../src/checks/handler.js';
import { handlerRules } from '../../src/checks/handler-rules.js';
import type { JsonSchemaObject } from '../../src/tools/types.js';
import { tool } from './helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const docs = readFileSync(path.join(root, 'docs/rules/handler.md'), 'utf8');
const sections = [...docs.matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim());
const general = ['Reading handler types'];

const object = (properties: Record<string, JsonSchemaObject>, required: string[] = []): JsonSchemaObject => ({ type: 'object', properties, required, additionalProperties: false });

/** The smallest drift that triggers each rule: [tool schema, handler schema]. */
const minimal: Record<keyof typeof handlerRules, [JsonSchemaObject, JsonSchemaObject]> = {
  'required-not-in-schema': [object({ a: { type: 'string' } }), object({ a: { type: 'string' } }, ['a'])],
  'type-mismatch': [object({ a: { type: 'string' } }), object({ a: { type: 'number' } })],
  'field-ignored': [object({ a: { type: 'string' }, b: { type: 'string' } }), object({ a: { type: 'string' } })],
  'constraint-not-in-schema': [object({ a: { type: 'string' } }), object({ a: { type: 'string', minLength: 1 } })],
  'optional-in-handler': [object({ a: { type: 'string' } }, ['a']), object({ a: { type: 'string' } })],
};

describe('the handler rule registry', () => {
  test.each(Object.values(handlerRules).map((rule) => [rule.id, rule] as const))('%s has a docs section, a description and a severity', (_id, rule) => {
    const name = rule.id.slice('handler/'.length);
    expect(rule.docs).toBe(`docs/rules/handler.md#${name}`);
    expect(sections).toContain(name);
    expect(rule.description.length).toBeGreaterThan(20);
    const section = docs.slice(docs.indexOf(`## ${name}`)).split(/^## /m)[1]!;
    expect(section).toContain(`**${rule.severity[0]!.toUpperCase()}${rule.severity.slice(1)}.**`);
    expect(section).toContain('Fix');
  });

  test('every rule section in the docs belongs to a rule', () => {
    const names = Object.values(handlerRules).map((r) => r.id.slice('handler/'.length));
    expect(sections.filter((s) => !general.includes(s)).sort()).toEqual([...names].sort());
  });

  test.each(Object.entries(minimal))('%s is produced by its minimal drift, and by nothing else', (name, [schema, handler]) => {
    const diagnostics = checkHandler(tool(schema), handler);
    expect(diagnostics.map((d) => d.ruleId)).toEqual([`handler/${name}`]);
    expect(diagnostics[0]!.severity).toBe(handlerRules[name as keyof typeof handlerRules].severity);
    expect(diagnostics[0]!.url).toBe(handlerRules[name as keyof typeof handlerRules].url);
    expect(diagnostics[0]!.url).toMatch(new RegExp(`/docs/rules/handler\\.md#${name}$`));
  });
});
