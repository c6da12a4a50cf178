import { z } from 'zod';
import { formatTool, formatToolsBaseline } from '../../src/snapshot/format.js';
import { defineTool } from '../../src/tools/define.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import { placeJsonTools } from '../../src/tools/places.js';
import { findTextLines, jsonStringLines, parameterDescriptions } from '../../src/tools/text-places.js';
import { LineIndex } from '../../src/util/lines.js';

// Example inputs written on a tool definition are kept on its ToolSpec with where each is
// written, and sent: the snapshot and the tools baseline show them.

const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

test('Anthropic input_examples and AI SDK inputExamples are read with the JSON Pointer of each input', () => {
  const [anthropic, aiSdk] = normalizeTools([
    { name: 'a', input_schema: schema, input_examples: [{ city: 'Paris' }, { city: 'Oslo' }] },
    { name: 'b', inputSchema: schema, inputExamples: [{ input: { city: 'Rome' } }] },
  ]);
  expect(anthropic!.inputExamples).toEqual([
    { key: 'input_examples', index: 0, input: { city: 'Paris' }, pointer: '/0/input_examples/0' },
    { key: 'input_examples', index: 1, input: { city: 'Oslo' }, pointer: '/0/input_examples/1' },
  ]);
  expect(aiSdk!.inputExamples).toEqual([{ key: 'inputExamples', index: 0, input: { city: 'Rome' }, pointer: '/1/inputExamples/0/input' }]);
});

test('an entry that is no input is kept with what is wrong, for the check to report where it is written', () => {
  const [notList, noInput] = normalizeTools([
    { name: 'a', input_schema: schema, input_examples: { city: 'Paris' } },
    { name: 'b', inputSchema: schema, inputExamples: [{ city: 'Rome' }] },
  ]);
  expect(notList!.inputExamples).toEqual([expect.objectContaining({ key: 'input_examples', index: -1, problem: expect.stringMatching(/^Unexpected an object with keys `city` as `input_examples`, expected an array/) })]);
  expect(noInput!.inputExamples).toEqual([expect.objectContaining({ key: 'inputExamples', index: 0, pointer: '/1/inputExamples/0', problem: expect.stringContaining('expected `{ input: {...} }`') })]);
});

test('defineTool takes inputExamples in the AI SDK shape; a tool passed through keeps them without another document’s places', () => {
  const tool = defineTool({ name: 'a', input: z.object({ city: z.string() }), inputExamples: [{ input: { city: 'Paris' } }] });
  expect(tool.inputExamples).toEqual([{ key: 'inputExamples', index: 0, input: { city: 'Paris' } }]);
  const placed = { ...tool, inputExamples: [{ ...tool.inputExamples![0]!, line: 9, pointer: '/x' }] };
  expect(normalizeTools([placed])[0]!.inputExamples).toEqual([{ key: 'inputExamples', index: 0, input: { city: 'Paris' } }]);
});

const file = `{
  "tools": [
    {
      "name": "a",
      "description": "Find a city.\\nExample:\\n{\\"city\\": \\"Paris\\"}",
      "input_schema": { "type": "object", "properties": { "city": { "type": "string", "description": "A city (\\"Paris\\")" } } },
      "input_examples": [
        {
          "city": "Paris"
        }
      ]
    }
  ]
}`;

test('a JSON tools file places each example and each node in it, and each line of a description at the string that writes it', () => {
  const tools = normalizeTools(JSON.parse(file), 'tools.json');
  placeJsonTools(tools, file);
  const [example] = tools[0]!.inputExamples!;
  expect([example!.line, example!.column]).toEqual([8, 9]);
  expect(example!.places?.get('/city')).toEqual([9, 11]);
  const own = tools[0]!.origin.texts?.get('');
  expect(own?.file).toBe('tools.json');
  const line5 = file.split('\n')[4]!;
  // Line 3 of the description starts after the second `\n` escape, on the file's line 5.
  expect(own?.lines?.get(2)).toEqual([5, line5.indexOf('{\\"city') + 1]);
  expect(tools[0]!.origin.texts?.get('/properties/city')?.at[0]).toBe(6);
});

test('the lines of a string literal are found in a module through its escapes, in order', () => {
  const module = 'const D = `Search.\nExample:\n{ "regex": "a\\\\s+" }`;\nconst E = "<x>\\"q\\"</x>";\n';
  const lines = new LineIndex(module);
  expect(findTextLines(module, 'Search.\nExample:\n{ "regex": "a\\s+" }', 0, lines)).toEqual(new Map([[2, [3, 1]]]));
  expect(findTextLines(module, '<x>"q"</x>', 0, lines)).toEqual(new Map([[0, [4, 12]]]));
  expect(jsonStringLines('"a\\nb"', 0, new LineIndex('"a\\nb"'))).toEqual(new Map([[0, [1, 2]], [1, [1, 5]]]));
});

test('parameter descriptions are walked through properties and items, by the pointer of the node they describe', () => {
  const walked = parameterDescriptions({ type: 'object', description: 'not a parameter', properties: { a: { type: 'array', items: { type: 'object', properties: { b: { type: 'string', description: 'B' } } } }, c: { description: 'C' } } });
  expect(walked).toEqual([
    { pointer: '/properties/a/items/properties/b', name: 'a.b', text: 'B' },
    { pointer: '/properties/c', name: 'c', text: 'C' },
  ]);
});

test('the snapshot of a tool and the tools baseline show the examples sent, and the baseline reads back with them', () => {
  const [tool] = normalizeTools([{ name: 'a', input_schema: schema, input_examples: [{ city: 'Paris' }] }]);
  expect(formatTool(tool!)).toContain('input examples:\n  {"city":"Paris"}\n');
  const baseline = formatToolsBaseline([tool!]);
  expect(JSON.parse(baseline).tools[0].input_examples).toEqual([{ city: 'Paris' }]);
  expect(normalizeTools(JSON.parse(baseline))[0]!.inputExamples?.map((e) => e.input)).toEqual([{ city: 'Paris' }]);
  const [plain] = normalizeTools([{ name: 'b', input_schema: schema }]);
  expect(formatTool(plain!)).not.toContain('input examples:');
  expect(JSON.parse(formatToolsBaseline([plain!])).tools[0]).not.toHaveProperty('input_examples');
});
