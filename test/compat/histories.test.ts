// Changes met walking real schema histories (the GitHub MCP server's tool snapshots, BFCL's
// function docs) that the breaking-change check misjudged, each in its smallest form.
import { describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffTools } from '../../src/checks/compat/index.js';
import { loadProject, readToolsFile } from '../../src/project.js';
import type { RecordedItem } from '../../src/sources/types.js';
import type { JsonSchemaObject } from '../../src/tools/types.js';
import { diff, tool } from './helpers.js';

const found = (before: JsonSchemaObject, after: JsonSchemaObject) => diff(before, after).map((d) => [d.ruleId, d.instancePath]);
const call = (id: string, args: unknown): RecordedItem => ({ id, name: 't', arguments: args, where: { source: 'calls.jsonl' } });

describe('missed breaks', () => {
  test('a property named only in `required` took any value: giving it a type or an enum narrows it', () => {
    expect(found({ type: 'object', properties: {}, required: ['a'] }, { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] })).toEqual([['compat/type-narrowed', '/a']]);
    expect(found({ type: 'object', required: ['a'] }, { type: 'object', properties: { a: { enum: ['x'] } }, required: ['a'] })).toEqual([['compat/enum-added', '/a']]);
    // Not required before: the model was never told to send it, so typing it is growth.
    expect(found({ type: 'object', properties: {} }, { type: 'object', properties: { a: { type: 'integer' } } })).toEqual([]);
  });

  test('an object that drops its whole `properties` no longer describes them: each is ignored', () => {
    const before = { type: 'object', properties: { o: { type: 'object', properties: { k: { type: 'string' }, j: { type: 'string' } } } } };
    const findings = diff(before, { type: 'object', properties: { o: { type: 'object' } } });
    expect(findings.map((d) => [d.ruleId, d.instancePath, d.schemaPath])).toEqual([
      ['compat/property-ignored', '/o/k', '/properties/o'],
      ['compat/property-ignored', '/o/j', '/properties/o'],
    ]);
  });
});

describe('findings that were wrong', () => {
  test('an object split into `anyOf` branches: a property another branch declares is not ignored, and the required one is said to be per branch', () => {
    const before = { type: 'object', properties: { x: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } } } };
    const branch = (name: string) => ({ type: 'object', properties: { [name]: { type: 'string' } }, required: [name] });
    const findings = diff(before, { type: 'object', properties: { x: { anyOf: [branch('a'), branch('b')] } } });
    expect(findings.map((d) => [d.ruleId, d.instancePath])).toEqual([['compat/required-added', '/x/a']]);
    expect(findings[0]!.message).toContain('is now required in the union branch closest to the old schema, and no branch accepts every call the old schema did');
    // Outside a union, the message says every call that leaves it out is rejected.
    expect(diff({ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] })[0]!.message).toContain('every call that leaves it out');
  });

  test('the witnesses of an added `not` are the calls it rejects, not calls another keyword rejects', () => {
    const before = { type: 'object', properties: { a: { type: 'string' } } };
    const after = { type: 'object', properties: { a: { type: 'string', maxLength: 2 } }, not: { required: ['b'] } };
    const findings = diffTools([tool('t', before)], [tool('t', after)], { witnesses: [call('k1', { a: 'long' }), call('k2', { a: 'x', b: 1 })] });
    expect(findings.map((d) => [d.ruleId, d.witnesses?.map((w) => w.id)])).toEqual([
      ['compat/max-length-added', ['k1']],
      ['compat/constraint-added', ['k2']],
    ]);
  });
});

test('a tools file that defines one name twice is refused at the second definition: which one a check read would be a guess', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pc-dup-'));
  try {
    const file = join(dir, 'tools.json');
    writeFileSync(file, '[\n  {"name": "t", "input_schema": {"type": "object"}},\n  {"name": "u", "input_schema": {"type": "object"}},\n  {"name": "t", "input_schema": {"type": "object", "properties": {"a": {"type": "integer"}}}}\n]\n');
    expect(() => readToolsFile(file, 'tools.json')).toThrow(expect.objectContaining({ code: 'config/duplicate', file: 'tools.json', line: 4, message: expect.stringContaining('Duplicate tool `t`, also defined earlier (line 2)') }));
    // Tools written in the config itself are held to the same.
    mkdirSync(join(dir, 'prompts'));
    writeFileSync(join(dir, 'prompt-contract.config.json'), JSON.stringify({ tools: [{ name: 'a', input_schema: { type: 'object' } }, { name: 'a', input_schema: { type: 'object' } }] }));
    await expect(loadProject({ cwd: dir })).rejects.toMatchObject({ code: 'config/duplicate', message: expect.stringContaining('Duplicate tool `a`, also defined earlier') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('`if`, which rejects nothing itself', () => {
  const base = { type: 'object', properties: { kind: { type: 'string' }, id: { type: 'string' } } };
  const iff = { properties: { kind: { const: 'order' } }, required: ['kind'] };
  test('added with `then`: one finding, on `then`', () => {
    expect(found(base, { ...base, if: iff, then: { required: ['id'] } })).toEqual([['compat/constraint-added', '']]);
    expect(diff(base, { ...base, if: iff, then: { required: ['id'] } })[0]!.schemaPath).toBe('/then');
  });
  test('alone: no finding; changed while `then` stays: a finding on `if`', () => {
    expect(found(base, { ...base, if: iff })).toEqual([]);
    const before = { ...base, if: iff, then: { required: ['id'] } };
    const after = { ...base, if: { properties: { kind: { const: 'refund' } }, required: ['kind'] }, then: { required: ['id'] } };
    expect(diff(before, after).map((d) => [d.ruleId, d.schemaPath])).toEqual([['compat/constraint-changed', '/if']]);
  });
});

test('a tools file with a definition that cannot be read is refused at that definition, line and column', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pc-shape-'));
  try {
    const file = join(dir, 'tools.json');
    writeFileSync(file, '[\n  {"name": "a", "input_schema": {"type": "object"}},\n  {"name": "b", "inputSchema": null}\n]\n');
    expect(() => readToolsFile(file, 'tools.json')).toThrow(expect.objectContaining({ code: 'config/tool-shape', file: 'tools.json', line: 3, column: 3, message: 'tools.json[1].inputSchema: expected a JSON Schema object, got null' }));
    writeFileSync(file, '{"tools": {"lookup": {"description": "no schema, no parameters key"}, "ok": {"inputSchema": {"type": "object"}}}}');
    expect(() => readToolsFile(file, 'tools.json')).toThrow(expect.objectContaining({ code: 'config/tool-shape', line: 1 }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
