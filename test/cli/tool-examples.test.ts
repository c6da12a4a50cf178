import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, lineOf, repo, report } from './helpers.js';

// Examples written on the tool definitions (Anthropic `input_examples`, AI SDK
// `inputExamples`, calls in a description) drift from the schema as prompt examples do: the
// built CLI reports each at the line that writes it, and nothing once the example fits.

interface Finding {
  ruleId: string;
  file?: string;
  line?: number;
  tool?: string;
  message: string;
}

function project(files: Record<string, string>): { dir: string; read(name: string): string; write(name: string, text: string): void; remove(): void } {
  const root = join(repo, '.cache', 'cli-tests');
  mkdirSync(root, { recursive: true });
  const dir = mkdtempSync(join(root, 'tool-examples-'));
  mkdirSync(join(dir, 'prompts'));
  const write = (name: string, text: string): void => writeFileSync(join(dir, name), text);
  for (const [name, text] of Object.entries(files)) write(name, text);
  return { dir, read: (name) => readFileSync(join(dir, name), 'utf8'), write, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The example findings of `check` (the project has no tools baseline: that finding is not these tests' subject). */
function exampleFindings(dir: string): Finding[] {
  const result = cli(['check', '--no-cache', '--format', 'json'], { cwd: dir });
  return (report(result).diagnostics as Finding[]).filter((d) => d.ruleId.startsWith('example/'));
}

const anthropicTools = (unit: string): string => `{
  "tools": [
    {
      "name": "get_weather",
      "description": "The weather now in a city.",
      "input_schema": {
        "type": "object",
        "properties": {
          "city": { "type": "string" },
          "unit": { "enum": ["celsius", "fahrenheit"] }
        },
        "required": ["city"]
      },
      "input_examples": [
        { "city": "Paris" },
        {
          "city": "Oslo",
          "unit": "${unit}"
        }
      ]
    }
  ]
}
`;

test('Anthropic input_examples in a JSON tools file: an example the schema rejects is an error at the line of the argument, a fitting one is not reported', () => {
  const p = project({ 'prompt-contract.config.json': '{ "prompts": "prompts", "tools": "tools.json" }\n', 'tools.json': anthropicTools('kelvin') });
  try {
    const found = exampleFindings(p.dir);
    expect(found).toEqual([
      expect.objectContaining({ ruleId: 'example/invalid-arguments', tool: 'get_weather', file: 'tools.json', line: lineOf(p.read('tools.json'), '"unit": "kelvin"') }),
    ]);
    expect(found[0]!.message).toContain('`input_examples[1]` of tool `get_weather`');
    p.write('tools.json', anthropicTools('celsius'));
    expect(exampleFindings(p.dir)).toEqual([]);
  } finally {
    p.remove();
  }
});

const aiSdkTools = (unit: string): string => `import { z } from 'zod';

// The AI SDK's \`tool\` returns the definition it is given: a project passes that object on.
const tool = <T>(definition: T): T => definition;

export const tools = {
  get_weather: tool({
    description: 'The weather now in a city.',
    inputSchema: z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']).optional() }),
    inputExamples: [
      { input: { city: 'Paris' } },
      { input: { city: 'Oslo', unit: '${unit}' } },
    ],
    execute: async () => 'sunny',
  }),
};
`;

test('AI SDK inputExamples on a tool in a TypeScript module: reported at the line of the example in the module, nothing once it fits', () => {
  const p = project({
    'prompt-contract.config.ts': "import { tools } from './tools.ts';\n\nexport default { prompts: 'prompts', tools };\n",
    'tools.ts': aiSdkTools('kelvin'),
  });
  try {
    const found = exampleFindings(p.dir);
    expect(found).toEqual([
      expect.objectContaining({ ruleId: 'example/invalid-arguments', tool: 'get_weather', file: 'tools.ts', line: lineOf(p.read('tools.ts'), "unit: 'kelvin'") }),
    ]);
    expect(found[0]!.message).toContain('`inputExamples[1]` of tool `get_weather`');
    p.write('tools.ts', aiSdkTools('celsius'));
    expect(exampleFindings(p.dir)).toEqual([]);
  } finally {
    p.remove();
  }
});

test("Roo Code's search_files description: its regex example is no JSON (`\\s` is no escape), reported at the example's line in the module; written with `\\\\s` it parses and fits", () => {
  const p = project({ 'prompt-contract.config.ts': "import listFiles from './list_files.ts';\nimport searchFiles from './search_files.ts';\n\nexport default { prompts: 'prompts', tools: [searchFiles, listFiles] };\n" });
  try {
    for (const name of ['search_files.ts', 'list_files.ts']) cpSync(join(repo, 'test/fixtures/roo-code-tools', name), join(p.dir, name));
    const found = exampleFindings(p.dir);
    expect(found).toEqual([
      expect.objectContaining({ ruleId: 'example/unparseable', tool: 'search_files', file: 'search_files.ts', line: lineOf(p.read('search_files.ts'), '"regex": "function\\\\s+\\\\w+"') }),
    ]);
    expect(found[0]!.message).toContain('the description of `search_files`');
    p.write('search_files.ts', p.read('search_files.ts').replace('function\\\\s+\\\\w+', 'function\\\\\\\\s+\\\\\\\\w+'));
    expect(exampleFindings(p.dir)).toEqual([]);
  } finally {
    p.remove();
  }
});

const describedTools = `{
  "tools": [
    {
      "name": "search_files",
      "input_schema": {
        "type": "object",
        "properties": { "path": { "type": "string" }, "regex": { "type": "string" }, "max_results": { "type": "integer" } },
        "required": ["path", "regex"]
      }
    }
  ]
}
`;

const describedYaml = (max: string): string => `search_files:
  description: |
    Search the files under a folder with a regular expression.

    Example: the first TODOs of the project
    <search_files>
    <path>.</path>
    <regex>TODO</regex>
    <max_results>${max}</max_results>
    </search_files>
`;

test('a call in a description written in descriptions.yaml: reported at its line in the YAML file, nothing once it fits', () => {
  const p = project({
    'prompt-contract.config.json': '{ "prompts": "prompts", "tools": "tools.json", "descriptions": "descriptions.yaml" }\n',
    'tools.json': describedTools,
    'descriptions.yaml': describedYaml('ten'),
  });
  try {
    const found = exampleFindings(p.dir);
    expect(found).toEqual([
      expect.objectContaining({ ruleId: 'example/invalid-arguments', tool: 'search_files', file: 'descriptions.yaml', line: lineOf(p.read('descriptions.yaml'), '<search_files>') }),
    ]);
    expect(found[0]!.message).toContain('the description of `search_files`');
    p.write('descriptions.yaml', describedYaml('10'));
    expect(exampleFindings(p.dir)).toEqual([]);
  } finally {
    p.remove();
  }
});
