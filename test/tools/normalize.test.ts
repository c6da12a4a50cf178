import { z } from 'zod';
import { defineTool } from '../../src/tools/define.js';
import { applyDescriptions } from '../../src/tools/descriptions.js';
import { normalizeTool, normalizeTools, ToolShapeError } from '../../src/tools/normalize.js';
import { parseYaml } from '../../src/util/yaml.js';

const params = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('every provider shape reads as one ToolSpec', () => {
  test.each([
    ['anthropic', { name: 'w', description: 'd', input_schema: params }],
    ['openai-chat', { type: 'function', function: { name: 'w', description: 'd', parameters: params, strict: true } }],
    ['openai-responses', { type: 'function', name: 'w', description: 'd', parameters: params }],
    ['mcp', { name: 'w', description: 'd', inputSchema: params }],
    ['gemini-json-schema', { name: 'w', description: 'd', parametersJsonSchema: params }],
    ['bedrock', { toolSpec: { name: 'w', description: 'd', inputSchema: { json: params } } }],
    ['plain', { name: 'w', description: 'd', parameters: params }],
  ] as const)('%s', (shape, input) => {
    const tool = normalizeTool(input);
    expect(tool).toMatchObject({ name: 'w', description: 'd', inputSchema: params, origin: { shape } });
  });

  test('Gemini OpenAPI types become JSON Schema, nullable becomes a null union', () => {
    const tool = normalizeTool({ name: 'w', parameters: { type: 'OBJECT', properties: { n: { type: 'INTEGER', nullable: true }, tags: { type: 'ARRAY', items: { type: 'STRING' } } } } });
    expect(tool.origin.shape).toBe('gemini');
    expect(tool.inputSchema).toEqual({ type: 'object', properties: { n: { type: ['integer', 'null'] }, tags: { type: 'array', items: { type: 'string' } } } });
  });

  test('zod in any slot is converted from its input type; Vercel AI SDK records take names from keys', () => {
    const tools = normalizeTools({
      get_weather: { description: 'Weather', inputSchema: z.object({ city: z.string(), unit: z.enum(['c', 'f']).default('c') }) },
      wrapped: { description: 'Wrapped', inputSchema: { jsonSchema: params } },
    });
    expect(tools.map((t) => [t.name, t.origin.shape])).toEqual([['get_weather', 'vercel-ai'], ['wrapped', 'vercel-ai']]);
    // `unit` has a default: optional for the model that writes the call.
    expect(tools[0]!.inputSchema.required).toEqual(['city']);
    expect(tools[0]!.generated).toBe(true);
    expect(tools[1]!.inputSchema).toEqual(params);
  });

  test('lists, {tools: [...]} and Gemini functionDeclarations', () => {
    expect(normalizeTools([{ name: 'a', inputSchema: params }, { name: 'b', input_schema: params }]).map((t) => t.name)).toEqual(['a', 'b']);
    expect(normalizeTools({ tools: [{ name: 'a', inputSchema: params }] }, 'mcp.json')[0]!.origin).toEqual({
      shape: 'mcp', file: 'mcp.json', index: 0, pointer: '/tools/0', namePointer: '/tools/0/name', schemaPointer: '/tools/0/inputSchema',
    });
    expect(normalizeTools([{ functionDeclarations: [{ name: 'g', parameters: params }] }]).map((t) => t.name)).toEqual(['g']);
  });

  test('Gemini declarations under the REST name `function_declarations`, and without `parameters` (a function that takes none)', () => {
    const tools = normalizeTools([{ function_declarations: [{ name: 'turn_on_the_lights' }, { name: 'set_level', parameters: { type: 'OBJECT', properties: { level: { type: 'INTEGER' } } } }] }], 'gemini.json');
    expect(tools.map((t) => [t.name, t.origin.shape, t.inputSchema])).toEqual([
      ['turn_on_the_lights', 'gemini', { type: 'object', properties: {} }],
      ['set_level', 'gemini', { type: 'object', properties: { level: { type: 'integer' } } }],
    ]);
    expect(tools[0]!.origin).toMatchObject({ pointer: '/0/function_declarations/0', namePointer: '/0/function_declarations/0/name' });
    expect(normalizeTools({ functionDeclarations: [{ name: 'ping', description: 'Is it up?' }] }).map((t) => t.inputSchema)).toEqual([{ type: 'object', properties: {} }]);
    // Outside a declarations list a name alone is still not a tool: nothing says its shape.
    expect(() => normalizeTools([{ name: 'ping' }])).toThrow(ToolShapeError);
  });

  test('a misspelled `parameters` is refused with what it means, not read as a tool without arguments', () => {
    expect(() => normalizeTools([{ type: 'function', name: 'x', paramters: { type: 'object', properties: { a: { type: 'integer' } } } }], 'tools.json')).toThrow(/tools\.json\[0\]: unexpected key `paramters` in the definition of `x`; did you mean `parameters`\?/);
    expect(() => normalizeTools({ functionDeclarations: [{ name: 'g', parametrs: { type: 'OBJECT' } }] })).toThrow(/unexpected key `parametrs`.*did you mean `parameters`/);
  });

  test('an OpenAI Responses tool without `parameters` (or with null) takes no arguments', () => {
    const tools = normalizeTools([{ type: 'function', name: 'now' }, { type: 'function', name: 'today', parameters: null }]);
    expect(tools.map((t) => [t.name, t.origin.shape, t.inputSchema])).toEqual([
      ['now', 'openai-responses', { type: 'object', properties: {} }],
      ['today', 'openai-responses', { type: 'object', properties: {} }],
    ]);
  });

  test("tools the provider defines itself: a named one is kept, known and unchecked (an empty schema); one without a name is left out", () => {
    const tools = normalizeTools([
      { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
      { type: 'bash_20250124', name: 'bash' },
      { name: 'get_weather', input_schema: params },
      { type: 'web_search_preview' },
      { type: 'file_search', vector_store_ids: ['vs_1'] },
      { type: 'function', name: 'lookup', parameters: params },
      { googleSearch: {} },
      { code_execution: {} },
      { functionDeclarations: [{ name: 'g', parameters: params }], googleSearch: {} },
    ]);
    expect(tools.map((t) => t.name)).toEqual(['web_search', 'bash', 'get_weather', 'lookup', 'g']);
    // The index still names the entry in the file, and the name's own place for a provided tool.
    expect(tools.map((t) => t.origin.pointer)).toEqual(['/0', '/1', '/2', '/5', '/8/functionDeclarations/0']);
    expect(tools[1]).toEqual({ name: 'bash', inputSchema: {}, origin: { shape: 'anthropic', index: 1, pointer: '/1', namePointer: '/1/name' }, provided: { type: 'bash_20250124', definition: { type: 'bash_20250124', name: 'bash' } } });
    expect(tools[0]!.provided).toEqual({ type: 'web_search_20250305', definition: { type: 'web_search_20250305', name: 'web_search', max_uses: 5 } });
    expect(tools.slice(2).every((t) => t.provided === undefined)).toBe(true);
    // An AI SDK record: a provider tool is named by its key; its functions are no part of the definition.
    const [editor] = normalizeTools({ str_replace_based_edit_tool: { type: 'provider-defined', id: 'anthropic.text_editor_20250728', args: {}, execute: () => 'ok' } });
    expect(editor).toMatchObject({ name: 'str_replace_based_edit_tool', inputSchema: {}, provided: { type: 'anthropic.text_editor_20250728', definition: { type: 'provider-defined', id: 'anthropic.text_editor_20250728', args: {} } } });
    // A bare schema put in the list by mistake is not mistaken for one: it is reported.
    expect(() => normalizeTools([{ type: 'object', properties: { city: { type: 'string' } } }])).toThrow(ToolShapeError);
    expect(() => normalizeTools([{ notAGeminiTool: {} }])).toThrow(ToolShapeError);
  });

  test('defineTool output passes through with its handler and generated flag', () => {
    const tool = defineTool({ name: 'refund', input: z.object({ cents: z.number().int().max(10) }) });
    const [again] = normalizeTools([tool]);
    expect(again).toMatchObject({ name: 'refund', generated: true, handler: { kind: 'zod' } });
    expect(again!.inputSchema).toMatchObject({ properties: { cents: { type: 'integer', maximum: 10 } } });
  });

  test('an unknown shape says which keys it expected and found', () => {
    expect(() => normalizeTool({ title: 'x', schema: {} }, 'tools.json[3]')).toThrow(ToolShapeError);
    expect(() => normalizeTool({ title: 'x', schema: {} }, 'tools.json[3]')).toThrow(/tools\.json\[3\]: expected a tool with `input_schema`.*found keys `title`, `schema`/);
  });
});

describe('description mapping', () => {
  const tools = normalizeTools([{ name: 'move', inputSchema: { type: 'object', properties: { to: { type: 'object', properties: { city: { type: 'string' } } }, items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } } } } }]);

  test('merges tool and nested parameter descriptions without mutating the input', () => {
    const doc = parseYaml('move:\n  description: Move it.\n  parameters:\n    to: Destination.\n    to.city: The city.\n    items.sku: Stock unit.\n', 'd.yaml');
    const { tools: out, diagnostics } = applyDescriptions(tools, doc);
    expect(diagnostics).toEqual([]);
    expect(out[0]!.description).toBe('Move it.');
    expect(out[0]!.inputSchema).toMatchObject({ properties: { to: { description: 'Destination.', properties: { city: { description: 'The city.' } } }, items: { items: { properties: { sku: { description: 'Stock unit.' } } } } } });
    expect(JSON.stringify(tools[0]!.inputSchema)).not.toContain('Destination');
  });

  test('a stale entry is config/unknown-description-target at its line', () => {
    const doc = parseYaml('move:\n  parameters:\n    from: Origin.\nmissing_tool: Nothing.\n', 'd.yaml');
    const { diagnostics } = applyDescriptions(tools, doc);
    expect(diagnostics.map((d) => [d.ruleId, d.line, d.tool])).toEqual([
      ['config/unknown-description-target', 3, 'move'],
      ['config/unknown-description-target', 4, 'missing_tool'],
    ]);
  });

  test('a tool or parameter name a typo away from a real one is suggested', () => {
    const doc = parseYaml('mvoe: Move it.\nmove:\n  parameters:\n    tto: Destination.\n', 'd.yaml');
    expect(applyDescriptions(tools, doc).diagnostics.map((d) => d.message)).toEqual([
      'Unexpected tool `mvoe` in the description mapping, expected one of `move`; did you mean `move`?',
      'Unexpected parameter `tto` of `move` in the description mapping: the schema has no such property; did you mean `to`?',
    ]);
  });
});

test('a zod type JSON Schema cannot express is an error naming the tool, not "accept anything"', () => {
  expect(() => defineTool({ name: 'book', input: z.object({ when: z.date() }) })).toThrow(/`book` cannot be sent as JSON Schema/);
});

test('a schema built from null-prototype objects reads as plain objects, so validation can compare its values', async () => {
  const bare = <T extends object>(value: T): T => Object.assign(Object.create(null) as T, value);
  const properties = bare({ kind: bare({ type: 'string', enum: ['a', 'b'] }) });
  // `__proto__` as a property name stays a property, not a prototype.
  Object.defineProperty(properties, '__proto__', { value: bare({ type: 'integer' }), enumerable: true, writable: true, configurable: true });
  const schema = bare({ type: 'object', properties, required: ['kind'], anyOf: [bare({ required: ['kind'] }), bare({ required: ['__proto__'] })] });
  const [tool] = normalizeTools([{ name: 'w', input_schema: schema }]);
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      Object.values(value).forEach(walk);
    }
  };
  walk(tool!.inputSchema);
  expect(JSON.parse(JSON.stringify(tool!.inputSchema))).toEqual(JSON.parse(JSON.stringify(schema)));
  expect(Object.keys(tool!.inputSchema.properties as object)).toEqual(['kind', '__proto__']);
  // A schema without such objects is kept as it is.
  const [plain] = normalizeTools([{ name: 'w', input_schema: params }]);
  expect(plain!.inputSchema).toBe(params);
  // Ajv's meta-schema check compares the items of `type` with their valueOf: it no longer throws.
  const { compileFailure } = await import('../../src/schema/validator.js');
  const [listed] = normalizeTools([{ name: 'w', input_schema: { type: [bare({}), bare({})] } }]);
  expect(compileFailure(listed!.inputSchema)).toMatchObject({ kind: 'meta' });
});

test('a zod 3 schema is named as one, with what to install, not blamed on its types', async () => {
  // zod 4 still ships zod 3 under `zod/v3`: the schema a project on zod 3 would pass.
  const { z: z3 } = await import('zod/v3');
  const input = z3.object({ city: z3.string() });
  const expected = /The zod input type of `weather` is a zod 3 schema, expected a zod 4 one: install zod 4 \(`npm i zod@\^4`\), or with zod 3\.25 import `z` from 'zod\/v4'/;
  expect(() => defineTool({ name: 'weather', input: input as never })).toThrow(expected);
  expect(() => normalizeTools({ weather: { description: 'd', inputSchema: input } })).toThrow(ToolShapeError);
});

test('a description or parameters entry of the wrong type is an error at its line, not a missing description', () => {
  const tools = normalizeTools([{ name: 'move', inputSchema: { type: 'object', properties: { to: { type: 'string' } } } }]);
  const wrongDescription = parseYaml('move:\n  description: [1, 2]\n', 'd.yaml');
  expect(() => applyDescriptions(tools, wrongDescription)).toThrow(expect.objectContaining({ code: 'config/invalid', file: 'd.yaml', line: 2, message: 'Unexpected [1,2] as the description of `move`, expected a string' }));
  const wrongParameters = parseYaml('move:\n  description: Move it.\n  parameters: 5\n', 'd.yaml');
  expect(() => applyDescriptions(tools, wrongParameters)).toThrow(expect.objectContaining({ code: 'config/invalid', line: 3, message: expect.stringContaining('Unexpected 5 as the parameters of `move`, expected a mapping') }));
});
