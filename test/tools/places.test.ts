import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffTools } from '../../src/checks/compat/index.js';
import { checkHandler } from '../../src/checks/handler.js';
import { lintTools } from '../../src/checks/provider/index.js';
import { readToolsFile } from '../../src/project.js';
import { applyDescriptions } from '../../src/tools/descriptions.js';
import { jsonPositions } from '../../src/tools/json-positions.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import { descriptionPlace, placeJsonTools, placeModuleTools, toolPlace } from '../../src/tools/places.js';
import { parseYaml } from '../../src/util/yaml.js';

/** 1-based line and column of the first `needle` in `text`. */
function at(text: string, needle: string, from = 0): { line: number; column: number } {
  const offset = text.indexOf(needle, from);
  if (offset < 0) throw new Error(`${needle} not in text`);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pc-places-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('jsonPositions', () => {
  test('every value by JSON Pointer, members at their key', () => {
    const text = '{\n  "a": [1, {"b/c": "x\\"y"}],\n  "d~e": null,\n  "f": {"g": true}\n}\n';
    const p = jsonPositions(text);
    expect(p.get('')).toEqual({ start: 0 });
    expect(p.get('/a')).toEqual({ start: text.indexOf('['), keyStart: text.indexOf('"a"') });
    expect(p.get('/a/0')).toEqual({ start: text.indexOf('1') });
    expect(p.get('/a/1/b~1c')).toEqual({ start: text.indexOf('"x'), keyStart: text.indexOf('"b/c"') });
    expect(p.get('/d~0e')?.keyStart).toBe(text.indexOf('"d~e"'));
    expect(p.get('/f/g')?.start).toBe(text.indexOf('true'));
    expect([...p.keys()]).toHaveLength(8);
  });

  test('escaped keys are decoded, and a duplicated key answers with the last one, as JSON.parse keeps it', () => {
    const text = '{"\\u0061": 1, "a": 2}';
    expect(jsonPositions(text).get('/a')?.start).toBe(text.indexOf('2'));
  });
});

describe('tools read from a JSON file know their lines', () => {
  const text = `{
  "tools": [
    {
      "name": "create_refund",
      "inputSchema": {
        "type": "object",
        "properties": {
          "amount_cents": { "type": "integer", "maximum": 100000 }
        }
      }
    },
    {
      "type": "function",
      "function": {
        "name": "cancel_order",
        "strict": true,
        "parameters": { "type": "object", "properties": { "reason": { "type": "string" } } }
      }
    }
  ]
}
`;

  test('the name of each tool, and each node of its schema', () => {
    const file = join(dir, 'tools.json');
    writeFileSync(file, text);
    const [refund, cancel] = readToolsFile(file, 'tools.json');
    expect(toolPlace(refund!)).toEqual({ file: 'tools.json', ...at(text, '"name": "create_refund"') });
    expect(toolPlace(cancel!)).toEqual({ file: 'tools.json', ...at(text, '"name": "cancel_order"') });
    expect(toolPlace(refund!, '/properties/amount_cents/maximum')).toEqual({ file: 'tools.json', ...at(text, '"maximum"') });
    // Ajv's schema paths start with `#`; a node that is not in the file answers with its nearest ancestor.
    expect(toolPlace(refund!, '#/properties/amount_cents/minimum')).toEqual({ file: 'tools.json', ...at(text, '"amount_cents"') });
    expect(toolPlace(cancel!, '/properties/reason')).toEqual({ file: 'tools.json', ...at(text, '"reason"') });
  });

  test('provider, compat and handler findings point at the node they are about', () => {
    const file = join(dir, 'tools.json');
    writeFileSync(file, text);
    const tools = readToolsFile(file, 'tools.json');
    const strict = lintTools(tools, 'openai-strict').filter((d) => d.ruleId === 'provider/open-object');
    expect(strict.map((d) => [d.tool, d.line])).toEqual([
      ['create_refund', at(text, '"inputSchema"').line],
      ['cancel_order', at(text, '"parameters"').line],
    ]);
    const next = text.replace('"maximum": 100000', '"maximum": 5000');
    const newFile = join(dir, 'new.json');
    writeFileSync(newFile, next.replace('"type": "integer"', '\n            "type": "integer"'));
    const [change] = diffTools(tools, readToolsFile(newFile, 'new.json'));
    expect(change).toMatchObject({ ruleId: 'compat/maximum-decreased', file: 'new.json', line: at(text, '"maximum"').line + 1 });
    const [mismatch] = checkHandler(tools[0]!, { type: 'object', properties: { amount_cents: { type: 'string' } } });
    expect(mismatch).toMatchObject({ ruleId: 'handler/type-mismatch', file: 'tools.json', line: at(text, '"amount_cents"').line });
  });

  test('a record of tools is placed at each key', () => {
    const record = '{\n  "get_weather": { "parameters": { "type": "object" } },\n  "get_time": { "parameters": { "type": "object" } }\n}';
    const tools = normalizeTools(JSON.parse(record), 'r.json');
    placeJsonTools(tools, record);
    expect(tools.map((t) => toolPlace(t).line)).toEqual([2, 3]);
  });
});

describe('tools defined in code are found by their name', () => {
  test('in a module the config imports, and in a JSON file that module reads', () => {
    mkdirSync(join(dir, 'tools'));
    const moduleText = `import { readFileSync } from 'node:fs';\nconst legacy = JSON.parse(readFileSync(new URL('./legacy.json', import.meta.url), 'utf8'));\n\nexport const tools = [\n  legacy,\n  {\n    name: 'create_refund',\n    input_schema: { type: 'object' },\n  },\n];\n`;
    const legacyText = '{\n  "name": "lookup_order",\n  "input_schema": {\n    "type": "object",\n    "properties": { "order_id": { "type": "string" } }\n  }\n}\n';
    writeFileSync(join(dir, 'tools', 'index.ts'), moduleText);
    writeFileSync(join(dir, 'tools', 'legacy.json'), legacyText);
    writeFileSync(join(dir, 'config.ts'), "import { tools } from './tools/index.js';\nexport default { tools, name: 'not_a_tool' };\n");
    const tools = normalizeTools([JSON.parse(legacyText), { name: 'create_refund', input_schema: { type: 'object' } }, { name: 'nowhere', input_schema: { type: 'object' } }], 'config.ts');
    placeModuleTools(tools, join(dir, 'config.ts'), dir, (p) => p.slice(dir.length + 1));
    expect(toolPlace(tools[1]!)).toEqual({ file: 'tools/index.ts', ...at(moduleText, "name: 'create_refund'") });
    expect(toolPlace(tools[0]!, '/properties/order_id')).toEqual({ file: 'tools/legacy.json', ...at(legacyText, '"order_id"') });
    // Found nowhere: the config file stays the place.
    expect(toolPlace(tools[2]!)).toEqual({ file: 'config.ts' });
  });
});

describe('wording is placed in the description mapping', () => {
  test('the description key, a parameter, or the entry when it has no description', () => {
    const yaml = 'create_refund:\n  description: Refund an order.\n  parameters:\n    amount_cents: In cents.\ncancel_order:\n  parameters:\n    reason: Why.\n';
    const tools = normalizeTools([
      { name: 'create_refund', input_schema: { type: 'object', properties: { amount_cents: { type: 'integer' } } } },
      { name: 'cancel_order', input_schema: { type: 'object', properties: { reason: { type: 'string' } } } },
    ], 'tools.json');
    const { tools: merged } = applyDescriptions(tools, parseYaml(yaml, 'descriptions.yaml'));
    expect(descriptionPlace(merged[0]!)).toEqual({ file: 'descriptions.yaml', ...at(yaml, 'description:') });
    expect(descriptionPlace(merged[0]!, '/amount_cents')).toEqual({ file: 'descriptions.yaml', ...at(yaml, 'amount_cents:') });
    expect(descriptionPlace(merged[1]!)).toEqual({ file: 'descriptions.yaml', ...at(yaml, 'cancel_order:') });
    const [missing] = lintTools(merged, 'openai').filter((d) => d.ruleId === 'provider/missing-description');
    expect(missing).toMatchObject({ tool: 'cancel_order', file: 'descriptions.yaml', line: at(yaml, 'cancel_order:').line });
  });
});
