import { describe, expect, test } from '@jest/globals';
import { load as loadYaml } from 'js-yaml';
import { checkExamples } from '../../src/checks/examples.js';
import { SchemaCompiler } from '../../src/schema/validator.js';
import { extractToolCalls } from '../../src/extract/index.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import type { JsonSchemaObject, ToolSpec } from '../../src/tools/types.js';
import { acceptance } from './helpers.js';

// BFCL writes Python-flavoured types; its own mapping table (bfcl/raw/type_mappings.py) turns them into JSON Schema.
const bfclTypes: Record<string, string> = {
  dict: 'object', float: 'number', tuple: 'array', list: 'array', bool: 'boolean', any: 'string', String: 'string', Boolean: 'boolean', HashMap: 'object',
};
function fromBfcl(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(fromBfcl);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'type' && typeof v === 'string') out.type = bfclTypes[v] ?? v;
    else if (k === 'properties' && typeof v === 'object' && v !== null) out.properties = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, fromBfcl(s)]));
    else if (k === 'items') out.items = fromBfcl(v);
    else out[k] = v;
  }
  return out;
}

describe('Hermes prompt assets', () => {
  const examples = JSON.parse(acceptance('hermes/few_shot.json')) as Array<{ example: string }>;

  test('each few-shot example yields its <tool_call>, valid against the tools it declares', () => {
    expect(examples.length).toBeGreaterThan(0);
    const names: string[] = [];
    for (const { example } of examples) {
      const result = extractToolCalls(example);
      expect(result.diagnostics).toEqual([]);
      expect(result.examples).toHaveLength(1);
      expect(result.examples[0]!.notation).toBe('hermes');
      const declared = /<tools>([\s\S]*?)<\/tools>/.exec(example)![1]!;
      const tools = normalizeTools(JSON.parse(declared));
      expect(checkExamples(result.examples, tools)).toEqual([]);
      names.push(result.examples[0]!.name);
    }
    expect(names).toEqual(['calculate_distance', 'generate_password']);
    expect(extractToolCalls(examples[1]!.example).examples[0]!.arguments).toEqual({ length: 8 });
  });

  test('the system prompt describes the format with placeholders: findings, not calls', () => {
    const raw = acceptance('hermes/sys_prompt.yml');
    const rawResult = extractToolCalls(raw);
    expect(rawResult.examples).toEqual([]);
    expect(rawResult.diagnostics.map((d) => [d.ruleId, d.actual])).toEqual([
      ['example/placeholder', '<python-code>'],
      ['example/placeholder', '<function-name>'],
    ]);
    // Rendered as Hermes renders it (Python str.format turns `{{` into `{`): still placeholders.
    const doc = loadYaml(raw) as Record<string, string>;
    const rendered = Object.values(doc).join('\n').replace(/\{\{/g, '{').replace(/\}\}/g, '}');
    const result = extractToolCalls(rendered);
    expect(result.examples).toEqual([]);
    expect(result.diagnostics.map((d) => d.ruleId)).toEqual(['example/placeholder', 'example/placeholder']);
    expect(result.diagnostics.every((d) => d.severity === 'warning')).toBe(true);
  });
});

describe('BFCL', () => {
  const source = acceptance('bfcl/raw/default_prompts.py');
  const format = (key: string): string => {
    const m = new RegExp(`"${key}": (['"])(.*)\\1,\\n`).exec(source);
    if (!m) throw new Error(`OUTPUT_FORMAT_MAPPING[${key}] not found in default_prompts.py`);
    return m[2]!.replace(/\\n/g, '\n');
  };

  test('the python and json output formats are placeholders, not calls', () => {
    for (const key of ['python', 'json']) {
      const prompt = `You should only return the function calls in your response.\n\nIf you decide to invoke any of the function(s), you MUST put it in the format of ${format(key)}. You SHOULD NOT include any other text in the response.\n`;
      const result = extractToolCalls(prompt);
      expect(result.examples).toEqual([]);
      expect(result.diagnostics.map((d) => d.ruleId)).toEqual(['example/placeholder']);
    }
  });

  test('the prompt source file as a whole holds no calls', () => {
    const result = extractToolCalls(source);
    expect(result.examples).toEqual([]);
    expect(result.diagnostics.length).toBeGreaterThan(0);
    expect(new Set(result.diagnostics.map((d) => d.ruleId))).toEqual(new Set(['example/placeholder']));
  });

  test('every pythonic call string parses and validates against its tools', () => {
    const lines = acceptance('bfcl/calls_pythonic.jsonl').split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(50);
    const toolsByFile = new Map<string, ToolSpec[]>();
    const compiler = new SchemaCompiler();
    let checked = 0;
    for (const line of lines) {
      const { id, call, tool, schema_file } = JSON.parse(line) as { id: string; call: string; tool: string; schema_file: string };
      let tools = toolsByFile.get(schema_file);
      if (!tools) {
        const defs = acceptance(`bfcl/raw/multi_turn_func_doc/${schema_file}`).split('\n').filter(Boolean).map((l) => {
          const def = JSON.parse(l) as { name: string; description: string; parameters: unknown };
          return { name: def.name, description: def.description, parameters: fromBfcl(def.parameters) as JsonSchemaObject };
        });
        tools = normalizeTools(defs);
        toolsByFile.set(schema_file, tools);
      }
      const result = extractToolCalls(`[${call}]`, { tools });
      expect({ id, diagnostics: result.diagnostics }).toEqual({ id, diagnostics: [] });
      expect(result.examples.map((e) => e.name)).toEqual([tool]);
      expect({ id, findings: checkExamples(result.examples, tools, { compiler }) }).toEqual({ id, findings: [] });
      checked++;
    }
    expect(checked).toBe(lines.length);
  });
});

describe('LangChain published few-shot calls', () => {
  test('are caught as stale against the published tools', () => {
    const tools = normalizeTools(JSON.parse(acceptance('langchain/schemas.json')));
    const calls = acceptance('langchain/few_shot_calls.jsonl').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { name: string; args: unknown });
    // Rendered the way a prompt template would show them: Hermes tags, one per call.
    const prompt = ['Examples:', ...calls.map((c) => `<tool_call>\n${JSON.stringify({ name: c.name, arguments: c.args })}\n</tool_call>`)].join('\n\n');
    const { examples, diagnostics } = extractToolCalls(prompt, { tools });
    expect(diagnostics).toEqual([]);
    expect(examples.map((e) => e.name)).toEqual(['Multiply', 'Add']);
    const findings = checkExamples(examples, tools);
    const unknown = findings.filter((d) => d.ruleId === 'example/unknown-tool');
    expect(unknown.map((d) => [d.tool, d.expected, d.fix])).toEqual([
      ['Multiply', 'multiply', 'Rename the call to `multiply`'],
      ['Add', 'add', 'Rename the call to `add`'],
    ]);
    expect(unknown[0]!.message).toContain('did you mean `multiply`?');
    // Renamed, the arguments are still stale: `x`/`y` where the tools take `a`/`b`.
    const invalid = findings.filter((d) => d.ruleId === 'example/invalid-arguments');
    expect(invalid.map((d) => [d.tool, d.instancePath])).toEqual([
      ['multiply', '/a'],
      ['multiply', '/b'],
      ['add', '/a'],
      ['add', '/b'],
    ]);
  });
});
