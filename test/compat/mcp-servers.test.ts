import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from '@jest/globals';
import { diffTools } from '../../src/checks/compat/index.js';
import { compatRules, type CompatRuleName } from '../../src/checks/compat/rules.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import type { JsonSchemaObject, ToolSpec } from '../../src/tools/types.js';

// Read-only acceptance corpus beside the project; a missing folder fails the suite, never skips it.
const dir = new URL('../fixtures/acceptance/mcp-servers/schemas/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

function load(file: string): ToolSpec[] {
  return normalizeTools(JSON.parse(readFileSync(new URL(file, dir), 'utf8')), file);
}

function isObject(value: unknown): value is JsonSchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Tightens a copy of every tool: a pattern on the first string property, a maximum on the first number, the first optional property required. */
function tighten(tools: ToolSpec[]): { tools: ToolSpec[]; expected: string[] } {
  const out = structuredClone(tools);
  const expected: string[] = [];
  for (const t of out) {
    const props = isObject(t.inputSchema.properties) ? t.inputSchema.properties : {};
    const entries = Object.entries(props).filter(([, s]) => isObject(s)) as Array<[string, JsonSchemaObject]>;
    const str = entries.find(([, s]) => s.type === 'string' && s.pattern === undefined && s.enum === undefined);
    if (str) {
      str[1].pattern = '^never$';
      expected.push(`${t.name} compat/pattern-added /${str[0]}`);
    }
    const num = entries.find(([, s]) => (s.type === 'number' || s.type === 'integer') && s.maximum === undefined);
    if (num) {
      num[1].maximum = -1;
      expected.push(`${t.name} compat/maximum-added /${num[0]}`);
    }
    const required = Array.isArray(t.inputSchema.required) ? (t.inputSchema.required as string[]) : [];
    const optional = entries.find(([name]) => !required.includes(name));
    if (optional) {
      t.inputSchema.required = [...required, optional[0]];
      expected.push(`${t.name} compat/required-added /${optional[0]}`);
    }
  }
  return { tools: out, expected };
}

describe('reference MCP servers', () => {
  test('the corpus is there', () => {
    expect(files.length).toBeGreaterThanOrEqual(13);
  });

  test.each(files)('%s against itself: no finding', (file) => {
    const tools = load(file);
    expect(tools.length).toBeGreaterThan(0);
    expect(diffTools(tools, tools)).toEqual([]);
    expect(diffTools(tools, structuredClone(tools))).toEqual([]);
  });

  test.each(files)('%s against a tightened copy: the tightenings are found', (file) => {
    const tools = load(file);
    const { tools: tightened, expected } = tighten(tools);
    expect(expected.length).toBeGreaterThan(0);
    const found = diffTools(tools, tightened).map((d) => `${d.tool} ${d.ruleId} ${d.instancePath}`);
    expect(found.sort()).toEqual(expected.sort());
  });

  test.each(files)('%s against the tightened copy, reversed: loosening is clean', (file) => {
    const tools = load(file);
    expect(diffTools(tighten(tools).tools, tools)).toEqual([]);
  });

  test('every server against every other: well-formed findings, every vanished tool reported, nothing against itself', () => {
    const all = files.map(load);
    let findings = 0;
    for (const a of all) {
      expect(diffTools(a, a)).toEqual([]);
      const oldNames = new Set(a.map((t) => t.name));
      for (const b of all) {
        if (a === b) continue;
        const found = diffTools(a, b);
        findings += found.length;
        for (const d of found) {
          const name = d.ruleId.replace(/^compat\//, '') as CompatRuleName;
          expect(Object.keys(compatRules)).toContain(name);
          expect(d).toMatchObject({ ruleId: compatRules[name].id, url: compatRules[name].url, tool: expect.any(String), schemaPath: expect.any(String), instancePath: expect.any(String) });
          expect(oldNames.has(d.tool!)).toBe(true);
        }
        // A tool of `a` that `b` lacks is a break: reported once, as removed or renamed.
        const newNames = new Set(b.map((t) => t.name));
        for (const gone of [...oldNames].filter((n) => !newNames.has(n))) {
          expect(found.filter((d) => d.tool === gone && (d.ruleId === 'compat/tool-removed' || d.ruleId === 'compat/tool-renamed'))).toHaveLength(1);
        }
      }
    }
    expect(findings).toBeGreaterThan(0);
  });
});
