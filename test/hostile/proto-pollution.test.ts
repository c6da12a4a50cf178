import { afterAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCheck } from '../../src/checks/run.js';
import { extractToolCalls } from '../../src/extract/index.js';
import { loadProject } from '../../src/project.js';
import { SchemaCompiler } from '../../src/schema/validator.js';
import { checkExamples } from '../../src/checks/examples.js';
import { normalizeTools } from '../../src/tools/normalize.js';

// Names that reach a prototype, or that every object inherits. Each input file is user text:
// a key in any of them must stay a key, never reach `Object.prototype`.
const hostile = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'] as const;
type Hostile = (typeof hostile)[number];

const root = mkdtempSync(join(tmpdir(), 'pc-proto-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Under Jest, objects made by JSON.parse and structuredClone may come from another realm than
// `{}` literals: each realm's prototypes are watched.
const shared: Array<Record<string, unknown>> = [
  ...new Set([Object.prototype, Object.getPrototypeOf(JSON.parse('{}')), Object.getPrototypeOf(structuredClone({})), Array.prototype, Object.getPrototypeOf(JSON.parse('[]')), Function.prototype]),
] as Array<Record<string, unknown>>;

/** Each shared prototype's own properties, as `name:kind`, to compare before and after. */
function snapshot(): string[][] {
  return shared.map((proto) =>
    Object.getOwnPropertyNames(proto).sort().map((name) => {
      const d = Object.getOwnPropertyDescriptor(proto, name)!;
      return `${name}:${typeof d.value}${d.get ? ':getter' : ''}`;
    }),
  );
}
const clean = snapshot();

/** What a run changed on the shared prototypes: `[]` when nothing. */
function changes(): string[] {
  const now = snapshot();
  return now.flatMap((names, i) => [...names.filter((n) => !clean[i]!.includes(n)).map((n) => `+${n}`), ...clean[i]!.filter((n) => !names.includes(n)).map((n) => `-${n}`)]);
}

/** Puts back what a failing run added, so that one failure does not spoil the next assertions. */
function restore(): void {
  shared.forEach((proto, i) => {
    for (const name of Object.getOwnPropertyNames(proto)) if (!clean[i]!.some((n) => n.startsWith(`${name}:`))) delete proto[name];
  });
}

const y = (key: string) => JSON.stringify(key);

/** A project whose every YAML and JSON input carries the hostile keys, and one invalid example (`amount` 500 > 100). */
function project(dir: string, k: Record<'schema' | 'param' | 'descParam' | 'example' | 'nested' | 'stub' | 'caseName' | 'input' | 'descTool' | 'recorded', Hostile>): void {
  mkdirSync(join(dir, 'prompts', 'partials'), { recursive: true });
  mkdirSync(join(dir, 'prompts', 'examples'), { recursive: true });
  mkdirSync(join(dir, 'prompts', 'stubs'), { recursive: true });
  mkdirSync(join(dir, 'prompts', 'cases'), { recursive: true });
  mkdirSync(join(dir, 'prompts', 'tools'), { recursive: true });
  // A parameter the tool does not have: never one of its own property names.
  const descParam = k.descParam === k.schema || k.descParam === k.param ? hostile.find((h) => h !== k.schema && h !== k.param)! : k.descParam;
  const tools = [
    {
      name: 'refund',
      input_schema: {
        type: 'object',
        properties: { order_id: { type: 'string', pattern: '^A-\\d{4}$' }, amount: { type: 'integer', maximum: 100 }, [k.schema]: { type: 'string' }, [k.param]: { type: 'object' } },
        required: ['order_id'],
      },
    },
  ];
  // JSON.stringify writes a computed `__proto__` key as an own key, as JSON.parse reads it.
  const toolsJson = JSON.stringify(tools).replace('"properties":{', `"properties":{${y(k.schema)}:{"type":"string"},`);
  writeFileSync(join(dir, 'tools.json'), toolsJson);
  writeFileSync(join(dir, 'prompt-contract.config.json'), JSON.stringify({ tools: 'tools.json', descriptions: 'prompts/tools/descriptions.yaml', recorded: ['calls.jsonl'] }));
  writeFileSync(
    join(dir, 'prompts', 'tools', 'descriptions.yaml'),
    // `descParam` names no property of the schema, nor of `amount` (a nested lookup).
    `refund:\n  description: Refund an order.\n  parameters:\n    ${k.param}: Hostile parameter words.\n    ${descParam}: Words for a parameter the tool does not have.\n    amount.${descParam}: Nested words.\n    amount: Amount in pence.\n${k.descTool}:\n  description: Not a tool.\n`,
  );
  writeFileSync(
    join(dir, 'prompts', 'refund.prompt'),
    `---\ntools: [refund]\nexamples: { file: examples/refund.yaml, partial: call }\nretrieval: { file: stubs/help.yaml, partial: entry }\ninput:\n  default: { locale: en, ${k.input}: 1 }\n---\nRefunds in {{locale}}.\n{{#each examples}}\n{{> call this}}\n{{/each}}\n{{#each retrieved}}\n{{> entry this}}\n{{/each}}\n`,
  );
  writeFileSync(join(dir, 'prompts', 'partials', '_call.prompt'), '<tool_call>\n{"name": "{{name}}", "arguments": {{json arguments}} }\n</tool_call>');
  writeFileSync(join(dir, 'prompts', 'partials', '_entry.prompt'), 'Article: {{title}}');
  writeFileSync(
    join(dir, 'prompts', 'examples', 'refund.yaml'),
    [
      `${k.example}: top-level noise`,
      'examples:',
      '  - name: refund',
      '    arguments:',
      '      order_id: A-1234',
      '      amount: 500',
      `      ${k.example}: a string`,
      '  - name: refund',
      `    ${k.nested}: { ${k.example}: 1 }`,
      '    arguments:',
      '      order_id: A-0001',
      `      ${k.param}: { ${k.nested}: { description: polluted } }`,
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'prompts', 'stubs', 'help.yaml'), `stubs:\n  ${k.stub}:\n    - title: Returns\n      ${k.stub}: { description: polluted }\n  plain: []\n`);
  writeFileSync(join(dir, 'prompts', 'cases', 'refund.yaml'), `prompt: refund\ncases:\n  ${k.caseName}:\n    input: { ${k.input}: { description: polluted }, locale: fr }\n    retrieval: ${k.stub}\n`);
  writeFileSync(
    join(dir, 'calls.jsonl'),
    [
      `{"name":"refund","arguments":{"order_id":"A-1234",${y(k.recorded)}:{"description":"polluted"}}}`,
      `{${y(k.recorded)}:{"name":"refund"},"name":"refund","arguments":{"order_id":"A-9999","amount":7}}`,
      `{"name":${y(k.recorded)},"arguments":{}}`,
      `{"tool_calls":[{"function":{"name":"refund","arguments":"{\\"order_id\\":\\"A-0002\\",${y(k.recorded).replace(/"/g, '\\"')}:{}}"}}]}`,
      '',
    ].join('\n'),
  );
}

const slot = fc.constantFrom(...hostile);

describe('hostile keys in every input', () => {
  test('leave Object.prototype untouched, and an invalid example is still an error', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.record({ schema: slot, param: slot, descParam: slot, example: slot, nested: slot, stub: slot, caseName: slot, input: slot, descTool: slot, recorded: slot }), async (keys) => {
        const dir = join(root, `run-${n++}`);
        project(dir, keys);
        try {
          const loaded = await loadProject({ cwd: dir });
          const diagnostics = await runCheck(loaded);
          const text = [
            `<tool_call>{"name": "refund", "arguments": {"order_id": "A-0003", ${y(keys.recorded)}: {"description": "polluted"}, "amount": 1000}}</tool_call>`,
            `<function_calls><invoke name="refund"><parameter name="${keys.example}">x</parameter><parameter name="order_id">A-0004</parameter></invoke></function_calls>`,
            '```python',
            `[refund(order_id="A-0005", ${keys.param === '__proto__' ? 'amount' : keys.param}=1, **{})]`,
            '```',
          ].join('\n');
          const extracted = extractToolCalls(text, { tools: loaded.tools });
          expect(changes()).toEqual([]);
          expect(({} as Record<string, unknown>).description).toBeUndefined();
          expect((JSON.parse('{}') as Record<string, unknown>).description).toBeUndefined();
          // The invalid example is reported as an error, from the YAML line it is written on.
          expect(diagnostics).toContainEqual(expect.objectContaining({ ruleId: 'example/invalid-arguments', severity: 'error', instancePath: '/amount', file: join('prompts', 'examples', 'refund.yaml'), line: 6 }));
          expect(diagnostics.filter((d) => d.ruleId === 'example/unchecked')).toEqual([]);
          // The extracted example with the hostile key is checked too.
          expect(checkExamples(extracted.examples, loaded.tools)).toContainEqual(expect.objectContaining({ ruleId: 'example/invalid-arguments', instancePath: '/amount' }));
          // The hostile key survived as a key of the extracted arguments.
          expect(Object.hasOwn(extracted.examples[0]!.arguments as object, keys.recorded)).toBe(true);
        } finally {
          restore();
        }
      }),
      { numRuns: 15 },
    );
  }, 60_000);
});

describe('a property literally named `__proto__` in a tool schema', () => {
  // Ajv skips `__proto__` in `properties`; the value's own `__proto__` went unchecked and was called unexpected.
  const [tool] = normalizeTools(JSON.parse('[{"name":"t","input_schema":{"type":"object","properties":{"__proto__":{"type":"integer","maximum":3}},"required":["__proto__"],"additionalProperties":false}}]'));
  const validate = new SchemaCompiler().compile(tool!.inputSchema);

  test('is validated like any other property, from JSON and from YAML', () => {
    expect(validate(JSON.parse('{"__proto__": 2}'))).toBe(true);
    expect(validate.errors(JSON.parse('{"__proto__": 9}'))).toEqual([
      expect.objectContaining({ keyword: 'maximum', instancePath: '/__proto__', schemaPath: '#/properties/__proto__/maximum' }),
    ]);
    expect(validate.errors(JSON.parse('{"__proto__": "two"}'))).toEqual([expect.objectContaining({ keyword: 'type', instancePath: '/__proto__' })]);
  });

  test('is required when the schema requires it, and inherited members never count as present', () => {
    expect(validate.errors({})).toEqual([expect.objectContaining({ keyword: 'required', instancePath: '/__proto__' })]);
    const inherited = new SchemaCompiler().compile({ type: 'object', properties: { constructor: { type: 'string' } }, required: ['constructor', 'toString'] });
    expect(inherited.errors({}).map((e) => [e.keyword, e.instancePath])).toEqual([
      ['required', '/constructor'],
      ['required', '/toString'],
    ]);
    expect(inherited({ constructor: 'c', toString: 't' })).toBe(true);
  });
});
