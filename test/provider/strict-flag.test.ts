import { describe, expect, test } from '@jest/globals';
import { lintTools, normalizeTools } from '../../src/index.js';

// Each tool's own `strict` flag decides whether the strict rules apply, in every shape the
// project reads: OpenAI Chat, OpenAI Responses, Anthropic, and shapes with no flag of their
// own (MCP). Tools go through the exported `normalizeTools` and `lintTools`, as a user's do.

/** An object with one optional property: fine unless strict (OpenAI: `optional-property`). */
const optional = { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'], additionalProperties: false };
/** A closed schema with a numeric bound: fine unless strict (Anthropic: `unsupported-keyword`). */
const bounded = { type: 'object', properties: { days: { type: 'integer', minimum: 1 } }, required: ['days'], additionalProperties: false };

const flag = (strict: boolean | undefined): { strict?: boolean } => (strict === undefined ? {} : { strict });
const chat = (strict?: boolean, parameters: object = optional) => ({ type: 'function', function: { name: 'get_weather', description: 'Weather now.', parameters, ...flag(strict) } });
const responses = (strict?: boolean, parameters: object = optional) => ({ type: 'function', name: 'get_weather', description: 'Weather now.', parameters, ...flag(strict) });
const anthropic = (strict?: boolean, input_schema: object = bounded) => ({ name: 'get_forecast', description: 'Forecast.', input_schema, ...flag(strict) });
const mcp = (inputSchema: object) => ({ name: 'get_forecast', description: 'Forecast.', inputSchema });

type Profile = Parameters<typeof lintTools>[1];
const rules = (definition: object, provider: Profile): string[] => lintTools(normalizeTools([definition]), provider).map((d) => `${d.ruleId} ${d.schemaPath ?? ''}`);

const optionalUnit = ['provider/optional-property /properties/unit'];
const minimum = ['provider/unsupported-keyword /properties/days/minimum'];

describe('OpenAI: the function’s `strict`', () => {
  test.each([
    ['Chat', chat],
    ['Responses', responses],
  ])('%s shape: `strict: true` gets the strict rules under `openai`; `false` or nothing escapes them even under `openai-strict`', (_, shape) => {
    expect(rules(shape(true), 'openai')).toEqual(optionalUnit);
    expect(rules(shape(true), 'openai-strict')).toEqual(optionalUnit);
    expect(rules(shape(false), 'openai')).toEqual([]);
    expect(rules(shape(false), 'openai-strict')).toEqual([]);
    expect(rules(shape(undefined), 'openai')).toEqual([]);
    expect(rules(shape(undefined), 'openai-strict')).toEqual([]);
  });

  test('the finding names the flag that made it apply, and keeps the profile asked for', () => {
    const [d] = lintTools(normalizeTools([chat(true)]), 'openai');
    expect(d).toMatchObject({ ruleId: 'provider/optional-property', provider: 'openai', tool: 'get_weather', severity: 'error' });
    expect(d!.message).toBe(
      'Unexpected optional property `unit` at `/properties/unit` for `openai` (`get_weather` sets `strict: true`), which requires every property in `required` in strict mode; list it in `required` and allow `null` in its type to keep it optional',
    );
  });

  test('rules that hold strict or not keep their wording: no flag clause on a non-strict rule of a strict tool', () => {
    const found = lintTools(normalizeTools([chat(true, { type: 'object', properties: { tags: { type: 'array' } }, required: ['tags'], additionalProperties: false })]), 'openai');
    const items = found.filter((d) => d.ruleId === 'provider/array-missing-items');
    expect(items).toHaveLength(1);
    expect(items[0]!.message).not.toContain('sets `strict: true`');
  });

  test('a tool with no flag of its own (MCP) is strict under `openai-strict` only, unless it carries one (a flag there speaks for every provider)', () => {
    expect(rules(mcp(optional), 'openai-strict')).toEqual(optionalUnit);
    expect(rules(mcp(optional), 'openai')).toEqual([]);
    expect(rules({ ...mcp(optional), strict: false }, 'openai-strict')).toEqual([]);
    expect(rules({ ...mcp(optional), strict: true }, 'openai')).toEqual(optionalUnit);
  });

  test('an Anthropic tool’s `strict` is Anthropic’s: `openai` ignores it, `openai-strict` takes the tool as strict whatever it says', () => {
    expect(rules(anthropic(true, optional), 'openai')).toEqual([]);
    expect(rules(anthropic(false, optional), 'openai-strict')).toEqual(optionalUnit);
    expect(rules(anthropic(undefined, optional), 'openai-strict')).toEqual(optionalUnit);
  });
});

describe('Anthropic: the tool’s `strict`', () => {
  test('`strict: true` gets strict tool use under `anthropic`; `false` or nothing escapes it even under `anthropic-strict`', () => {
    expect(rules(anthropic(true), 'anthropic')).toEqual(minimum);
    expect(rules(anthropic(true), 'anthropic-strict')).toEqual(minimum);
    expect(rules(anthropic(false), 'anthropic')).toEqual([]);
    expect(rules(anthropic(false), 'anthropic-strict')).toEqual([]);
    expect(rules(anthropic(undefined), 'anthropic')).toEqual([]);
    expect(rules(anthropic(undefined), 'anthropic-strict')).toEqual([]);
  });

  test('an OpenAI function’s `strict` is OpenAI’s: `anthropic` ignores it; MCP tools are strict under `anthropic-strict` only', () => {
    expect(rules(chat(true, bounded), 'anthropic')).toEqual([]);
    expect(rules(chat(false, bounded), 'anthropic-strict')).toEqual(minimum);
    expect(rules(mcp(bounded), 'anthropic-strict')).toEqual(minimum);
    expect(rules(mcp(bounded), 'anthropic')).toEqual([]);
  });

  test('request-wide limits count the strict tools only, and under `anthropic` say how many set the flag', () => {
    const many = (n: number, strictCount: number) =>
      normalizeTools(Array.from({ length: n }, (_, i) => ({ ...anthropic(i < strictCount ? true : undefined, { type: 'object', properties: {}, additionalProperties: false }), name: `tool_${i}` })));
    const limit = (tools: ReturnType<typeof many>, provider: Profile) => lintTools(tools, provider).filter((d) => d.ruleId === 'provider/limit-exceeded');
    // 30 tools, 21 of them strict: over the 20 strict tools a request.
    const [over] = limit(many(30, 21), 'anthropic');
    expect(over).toMatchObject({ provider: 'anthropic', actual: 21, expected: 20 });
    expect(over!.message).toContain('for `anthropic` (21 tools set `strict: true`), which accepts at most 20 strict tools a request');
    expect(limit(many(30, 21), 'anthropic-strict').map((d) => d.actual)).toEqual([21]);
    // 30 tools, 20 strict: within the limit, for both profiles (the other 10 say nothing in their own shape).
    expect(limit(many(30, 20), 'anthropic')).toEqual([]);
    expect(limit(many(30, 20), 'anthropic-strict')).toEqual([]);
  });
});

describe('profiles without a strict flag are unchanged by it', () => {
  test('Gemini, MCP and Bedrock do not read `strict`', () => {
    for (const provider of ['gemini-json-schema', 'mcp', 'bedrock'] as const) {
      expect(rules(chat(true), provider)).toEqual(rules(chat(false), provider));
    }
  });
});
