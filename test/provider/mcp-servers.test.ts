import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from '@jest/globals';
import { formatLintMatrix, lintTools, providerNames } from '../../src/checks/provider/index.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import type { ToolSpec } from '../../src/tools/types.js';

// Real data: the reference MCP servers' tools (read-only, outside the repository).
const dir = new URL('../fixtures/acceptance/mcp-servers/schemas/', import.meta.url);

function load(): Map<string, ToolSpec[]> {
  // Absent data fails loudly (acceptance README): a skip would hide a broken checkout.
  if (!existsSync(dir)) throw new Error(`acceptance data missing: ${dir.pathname}`);
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  return new Map(files.map((f) => [f.replace(/\.json$/, ''), normalizeTools(JSON.parse(readFileSync(new URL(f, dir), 'utf8')), f)]));
}

const servers = load();
const tool = (server: string, name: string): ToolSpec[] => (servers.get(server) ?? []).filter((t) => t.name === name);
const rules = (tools: ToolSpec[], provider: (typeof providerNames)[number]) => lintTools(tools, provider).map((d) => `${d.severity} ${d.ruleId} ${d.tool} ${d.schemaPath ?? ''}`);

describe('the 13 reference MCP servers', () => {
  test('are all there, 87 tools', () => {
    expect(servers.size).toBe(13);
    expect([...servers.values()].reduce((n, t) => n + t.length, 0)).toBe(87);
  });

  test.each([...servers.keys()])('%s lints clean for `mcp` and without errors or warnings for lenient `anthropic`', (server) => {
    const tools = servers.get(server) ?? [];
    expect(lintTools(tools, 'mcp')).toEqual([]);
    expect(lintTools(tools, 'anthropic').filter((d) => d.severity !== 'info')).toEqual([]);
  });

  test('no tool name has a dot or other character the providers reject', () => {
    for (const [, tools] of servers) {
      for (const provider of providerNames) expect(lintTools(tools, provider).filter((d) => d.ruleId === 'provider/name-invalid')).toEqual([]);
    }
  });

  test('Gemini `parameters` rejects exactly the zod-generated servers, for `additionalProperties` and `$schema`', () => {
    const failing = [...servers].filter(([, tools]) => lintTools(tools, 'gemini').some((d) => d.severity === 'error')).map(([name]) => name);
    expect(failing).toEqual(['filesystem', 'github', 'gitlab', 'memory', 'sequentialthinking']);
    expect(rules(tool('memory', 'read_graph'), 'gemini')).toEqual([
      'error provider/unsupported-keyword read_graph /additionalProperties',
      'error provider/unsupported-keyword read_graph /$schema',
    ]);
  });

  test('sequentialthinking: `$ref` beside `description` is fine for `parametersJsonSchema`, not for `parameters`', () => {
    const tools = servers.get('sequentialthinking') ?? [];
    expect(lintTools(tools, 'gemini-json-schema')).toEqual([]);
    expect(rules(tools, 'gemini').filter((r) => r.includes('$ref'))).toEqual([
      'error provider/unsupported-keyword sequentialthinking /properties/isRevision/$ref',
      'error provider/unsupported-keyword sequentialthinking /properties/needsMoreThoughts/$ref',
    ]);
  });

  test("the corpus has no `openai` finding: sequentialthinking's 2781-character description is no finding, no limit being documented", () => {
    expect((servers.get('sequentialthinking') ?? []).find((t) => t.name === 'sequentialthinking')?.description?.length).toBe(2781);
    expect([...servers.values()].flatMap((tools) => lintTools(tools, 'openai'))).toEqual([]);
  });

  test("github: 26 tools exceed anthropic-strict's 20, and its numeric bounds are strict errors there only", () => {
    const github = servers.get('github') ?? [];
    const limits = lintTools(github, 'anthropic-strict').filter((d) => d.ruleId === 'provider/limit-exceeded');
    expect(limits.map((d) => d.actual)).toContain(26);
    expect(rules(tool('github', 'search_code'), 'anthropic-strict')).toEqual([
      'error provider/unsupported-keyword search_code /properties/page/minimum',
      'error provider/unsupported-keyword search_code /properties/per_page/minimum',
      'error provider/unsupported-keyword search_code /properties/per_page/maximum',
    ]);
    expect(lintTools(tool('github', 'search_code'), 'openai-strict').filter((d) => d.ruleId === 'provider/unsupported-keyword')).toEqual([]);
  });

  test('filesystem `minItems: 1` is within what anthropic-strict accepts', () => {
    expect(lintTools(servers.get('filesystem') ?? [], 'anthropic-strict')).toEqual([]);
  });

  test('docs/mcp-lint-table.md holds the current table (regenerate with scripts/mcp-lint-table.ts)', () => {
    const doc = readFileSync(new URL('../../docs/mcp-lint-table.md', import.meta.url), 'utf8');
    const sets = [...servers].map(([name, tools]) => ({ name, tools }));
    expect(doc).toContain(formatLintMatrix(sets, providerNames));
  });
});
