import { checkToolExamples } from '../../src/checks/tool-examples.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import { placeJsonTools } from '../../src/tools/places.js';
import type { ToolSpec } from '../../src/tools/types.js';

// The check over examples written on tool definitions: the same rule ids as a prompt's
// examples, a message that names which example, and no finding for examples that fit.

const search = {
  type: 'object',
  properties: { path: { type: 'string' }, regex: { type: 'string' }, max_results: { type: 'integer' } },
  required: ['path', 'regex'],
};

function tools(definitions: unknown[]): ToolSpec[] {
  const text = JSON.stringify({ tools: definitions }, null, 2);
  const found = normalizeTools(JSON.parse(text), 'tools.json');
  placeJsonTools(found, text);
  return found;
}

test('input examples that fit give nothing; one that does not is example/invalid-arguments naming input_examples[i]', () => {
  const found = checkToolExamples(tools([{ name: 'search_files', input_schema: search, input_examples: [{ path: '.', regex: 'TODO' }, { path: '.', regex: 'TODO', max_results: 'ten' }] }]));
  expect(found).toEqual([expect.objectContaining({ ruleId: 'example/invalid-arguments', severity: 'error', tool: 'search_files', file: 'tools.json', instancePath: '/max_results' })]);
  expect(found[0]!.message).toMatch(/^In `input_examples\[1\]` of tool `search_files`, /);
});

test('strict mode reads the schema as OpenAI strict mode does', () => {
  const defined = tools([{ name: 'search_files', input_schema: search, input_examples: [{ path: '.', regex: 'TODO' }] }]);
  expect(checkToolExamples(defined)).toEqual([]);
  expect(checkToolExamples(defined, { strict: true }).map((d) => d.ruleId)).toEqual(['example/invalid-arguments']);
});

test('an entry of the wrong shape is example/unparseable, a placeholder example/placeholder', () => {
  const found = checkToolExamples(tools([
    { name: 'a', inputSchema: search, inputExamples: [{ path: '.', regex: 'x' }] },
    { name: 'b', input_schema: search, input_examples: [{ path: '<directory-path>', regex: 'x' }] },
  ]));
  expect(found.map((d) => [d.ruleId, d.tool])).toEqual([['example/unparseable', 'a'], ['example/placeholder', 'b']]);
  expect(found[0]!.message).toContain('`inputExamples[0]` of tool `a`');
});

test('a provider-defined tool is not checked', () => {
  expect(checkToolExamples(tools([{ type: 'bash_20250124', name: 'bash', input_examples: [{ nothing: 1 }] }]))).toEqual([]);
});

const described = (description: string, parameter?: string): ToolSpec[] =>
  tools([{ name: 'search_files', description, input_schema: parameter === undefined ? search : { ...search, properties: { ...search.properties, regex: { type: 'string', description: parameter } } } }]);

test('a call in a description is read by the extractor and validated: the finding names the description and its line', () => {
  const found = checkToolExamples(described('Search.\n\nExample:\n<search_files>\n<path>.</path>\n<regex>TODO</regex>\n<max_results>ten</max_results>\n</search_files>'));
  expect(found).toEqual([expect.objectContaining({ ruleId: 'example/invalid-arguments', tool: 'search_files', file: 'tools.json' })]);
  expect(found[0]!.message).toMatch(/^In the `search_files` example in the description of `search_files`, line 4 of it, /);
  expect(checkToolExamples(described('Search.\n<search_files>\n<path>.</path>\n<regex>TODO</regex>\n</search_files>'))).toEqual([]);
});

test("JSON of the tool's own arguments on a line of its own is its example: checked when it parses, example/unparseable when it does not", () => {
  expect(checkToolExamples(described('Example:\n{ "path": "src", "regex": "function\\\\s+" }'))).toEqual([]);
  const wrong = checkToolExamples(described('Example:\n{ "path": "src", "regex": "x", "max_results": "ten" }'));
  expect(wrong.map((d) => [d.ruleId, d.instancePath])).toEqual([['example/invalid-arguments', '/max_results']]);
  const escape = checkToolExamples(described('Example:\n{ "path": "src", "regex": "function\\s+\\w+" }'));
  expect(escape).toEqual([expect.objectContaining({ ruleId: 'example/unparseable', tool: 'search_files' })]);
  expect(escape[0]!.message).toMatch(/^Unexpected `s` in the JSON arguments of `search_files` at column 37, expected an escape/);
  expect(escape[0]!.message).toContain('in the description of `search_files`, line 2 of it');
});

test('JSON that names none of the tool’s properties, or a whole call, is not read as its arguments', () => {
  expect(checkToolExamples(described('Returns:\n{ "matches": [bad] }'))).toEqual([]);
  // A call-shaped object is the extractor's: one finding, not two.
  const call = checkToolExamples(described('Example:\n{"name": "search_files", "arguments": {"path": ".", "regex": "x", "max_results": "ten"}}'));
  expect(call.map((d) => d.ruleId)).toEqual(['example/invalid-arguments']);
});

test("a parameter's description is read too, and a call of another tool is checked against that tool", () => {
  const found = checkToolExamples(described('Search.', 'A regex, e.g. <search_files><path>.</path><regex>a</regex><max_results>x</max_results></search_files>'));
  expect(found.map((d) => d.ruleId)).toEqual(['example/invalid-arguments']);
  expect(found[0]!.message).toContain('the description of parameter `regex` of `search_files`');
  const unknown = checkToolExamples(described('Use after <tool_call>{"name": "find_files", "arguments": {"path": "."}}</tool_call>'));
  expect(unknown.map((d) => d.ruleId)).toContain('example/unknown-tool');
});

test('an arguments object over several lines is read whole; one whose keys are mostly not the tool’s (a result shown) is not read', () => {
  const multi = checkToolExamples(described('Example:\n{\n  "path": "src",\n  "regex": "x",\n  "max_results": "ten"\n}'));
  expect(multi.map((d) => [d.ruleId, d.instancePath])).toEqual([['example/invalid-arguments', '/max_results']]);
  expect(multi[0]!.message).toContain('line 2 of it');
  expect(checkToolExamples(described('Returns:\n{ "path": "src/a.ts", "line": 3, "text": "TODO", "context": [] }'))).toEqual([]);
  // A parameter renamed in the schema and not in the example: half its keys are the tool's, so it is read, and rejected only where the schema closes the object.
  const renamed = tools([{ name: 'search_files', description: 'Example:\n{ "path": ".", "pattern": "TODO" }', input_schema: { ...search, additionalProperties: false } }]);
  expect(checkToolExamples(renamed).map((d) => d.ruleId)).toEqual(['example/invalid-arguments', 'example/invalid-arguments']);
});
