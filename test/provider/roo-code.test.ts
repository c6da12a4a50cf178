import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createJiti } from 'jiti';
import { lintTools, loadProject } from '../../src/index.js';
import type { ToolSpec } from '../../src/tools/types.js';
import { cli, lineOf, repo, report } from '../cli/helpers.js';

// Real tools: Roo Code's 21 native tool definitions, as its own modules (test/fixtures/roo-code-tools,
// see PROVENANCE.md), listed by a project's config in the order Roo's getNativeTools() sends
// them. The built CLI's `check` lints them for the configured providers. Each tool's own
// `strict` flag decides whether the strict rules apply: 15 set `strict: true`, six leave it
// out on purpose.

const fixtures = join(repo, 'test/fixtures/roo-code-tools');

// Roo Code's getNativeTools() order, with each module's export.
const modules: Array<[file: string, binding: string]> = [
  ['access_mcp_resource', 'default'],
  ['apply_diff', 'apply_diff'],
  ['apply_patch', 'default'],
  ['ask_followup_question', 'default'],
  ['attempt_completion', 'default'],
  ['codebase_search', 'default'],
  ['execute_command', 'default'],
  ['generate_image', 'default'],
  ['list_files', 'default'],
  ['new_task', 'default'],
  ['read_command_output', 'default'],
  ['read_file', 'read_file'],
  ['run_slash_command', 'default'],
  ['skill', 'default'],
  ['search_replace', 'default'],
  ['edit_file', 'default'],
  ['edit', 'default'],
  ['search_files', 'default'],
  ['switch_mode', 'default'],
  ['update_todo_list', 'default'],
  ['write_to_file', 'default'],
];

/** The tools Roo Code leaves non-strict: no `strict` in their OpenAI Chat definition. */
const nonStrict = ['apply_diff', 'apply_patch', 'read_command_output', 'search_replace', 'edit_file', 'edit'];

/** The 9 properties of read_file missing from `required` (4 at the root, the 5 of `indentation`). */
const readFileOptional = [
  '/properties/mode',
  '/properties/offset',
  '/properties/limit',
  '/properties/indentation',
  '/properties/indentation/properties/anchor_line',
  '/properties/indentation/properties/max_levels',
  '/properties/indentation/properties/include_siblings',
  '/properties/indentation/properties/include_header',
  '/properties/indentation/properties/max_lines',
].sort();

function config(providers: string[]): string {
  const imports = modules.map(([file, binding], i) => (binding === 'default' ? `import t${i} from './${file}.ts';` : `import { ${binding} as t${i} } from './${file}.ts';`));
  return `${imports.join('\n')}\n\nexport default {\n  prompts: 'prompts',\n  tools: [${modules.map((_, i) => `t${i}`).join(', ')}],\n  providers: ${JSON.stringify(providers)},\n};\n`;
}

interface Finding {
  ruleId: string;
  severity: string;
  message: string;
  provider?: string;
  tool?: string;
  file?: string;
  line?: number;
  schemaPath?: string;
  url?: string;
}

let dir: string;
const read = (name: string): string => readFileSync(join(dir, name), 'utf8');
const write = (name: string, text: string): void => writeFileSync(join(dir, name), text);

/** The provider findings of `check` on the Roo project, for `providers`. */
function lint(providers: string[]): Finding[] {
  write('prompt-contract.config.ts', config(providers));
  const result = cli(['check', '--no-cache', '--format', 'json'], { cwd: dir });
  return (report(result).diagnostics as Finding[]).filter((d) => d.ruleId.startsWith('provider/'));
}

beforeAll(() => {
  const root = join(repo, '.cache', 'cli-tests');
  mkdirSync(root, { recursive: true });
  dir = mkdtempSync(join(root, 'roo-code-'));
  mkdirSync(join(dir, 'prompts'));
  for (const name of readdirSync(fixtures).filter((f) => f.endsWith('.ts'))) cpSync(join(fixtures, name), join(dir, name));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The 21 tools as the exported `loadProject` reads the project's config. */
async function tools(): Promise<ToolSpec[]> {
  write('prompt-contract.config.ts', config(['openai']));
  const jiti = createJiti(import.meta.url, { moduleCache: false });
  return (await loadProject({ cwd: dir, importer: (file) => jiti.import(file) })).tools;
}

// The fixtures themselves, so the findings below follow from the files as vendored.
test('the project holds the 21 tools, 15 with `strict: true` and the six non-strict ones without a flag', () => {
  expect(modules).toHaveLength(21);
  const flagged = modules.filter(([file]) => /^\s*strict: true,$/m.test(readFileSync(join(fixtures, `${file}.ts`), 'utf8'))).map(([file]) => file);
  expect(flagged).toHaveLength(15);
  expect(modules.map(([file]) => file).filter((f) => !flagged.includes(f))).toEqual(nonStrict);
  for (const file of nonStrict) expect(readFileSync(join(fixtures, `${file}.ts`), 'utf8')).not.toMatch(/^\s*strict: (true|false),$/m);
});

describe('`check` on Roo Code’s tools', () => {
  test('`openai`: read_file sets `strict: true` with 9 optional properties: 9 errors that name the flag, at the line of its name; nothing else', () => {
    const found = lint(['openai']);
    expect(found.map((d) => [d.ruleId, d.severity, d.tool])).toEqual(readFileOptional.map(() => ['provider/optional-property', 'error', 'read_file']));
    expect(found.map((d) => d.schemaPath).sort()).toEqual(readFileOptional);
    const line = lineOf(read('read_file.ts'), 'name: "read_file"');
    for (const d of found) {
      expect(d).toMatchObject({ provider: 'openai', file: 'read_file.ts', line });
      expect(d.message).toContain('for `openai` (`read_file` sets `strict: true`), which requires every property in `required` in strict mode');
    }
  });

  test('`openai-strict`: the same 9, and no strict-only rule on the six tools Roo leaves non-strict', () => {
    const found = lint(['openai-strict']);
    expect(found.map((d) => [d.ruleId, d.tool, d.schemaPath]).sort()).toEqual(readFileOptional.map((path) => ['provider/optional-property', 'read_file', path]));
    expect(found.filter((d) => nonStrict.includes(d.tool ?? ''))).toEqual([]);
  });

  test('`anthropic`: nothing (Roo’s flags are OpenAI’s, written in the OpenAI shape)', () => {
    expect(lint(['anthropic'])).toEqual([]);
  });

  test('no description-length finding, though 12 descriptions are longer than 1,024 characters', async () => {
    const found = lint(['openai', 'openai-strict', 'anthropic']);
    expect(found.filter((d) => /description/.test(d.ruleId))).toEqual([]);
    const long = (await tools()).filter((t) => (t.description?.length ?? 0) > 1024).map((t) => t.name);
    expect(long).toHaveLength(12);
  });

  test('a tool that flips its flag flips its findings: read_command_output with `strict: true` gets 3, read_file with `strict: false` none', () => {
    const commandOutput = read('read_command_output.ts');
    const readFile = read('read_file.ts');
    try {
      write('read_command_output.ts', commandOutput.replace('name: "read_command_output",', 'name: "read_command_output",\n\t\tstrict: true,'));
      write('read_file.ts', readFile.replace('strict: true,', 'strict: false,'));
      for (const provider of ['openai', 'openai-strict']) {
        const found = lint([provider]);
        expect(found.map((d) => [d.ruleId, d.tool, d.schemaPath]).sort()).toEqual([
          ['provider/optional-property', 'read_command_output', '/properties/limit'],
          ['provider/optional-property', 'read_command_output', '/properties/offset'],
          ['provider/optional-property', 'read_command_output', '/properties/search'],
        ]);
        for (const d of found) expect(d.message).toContain('(`read_command_output` sets `strict: true`)');
      }
    } finally {
      write('read_command_output.ts', commandOutput);
      write('read_file.ts', readFile);
    }
  });
});

describe('`lintTools` on the same tools', () => {
  test('`anthropic-strict` holds every tool to strict tool use: an OpenAI flag is not Anthropic’s, and the profile takes tools that do not decide as strict', async () => {
    const found = lintTools(await tools(), 'anthropic-strict');
    expect(found.map((d) => [d.ruleId, d.tool, d.schemaPath, d.actual])).toEqual([
      ['provider/unsupported-keyword', 'ask_followup_question', '/properties/follow_up/maxItems', 4],
      ['provider/unsupported-keyword', 'edit_file', '/properties/expected_replacements/minimum', 1],
      ['provider/limit-exceeded', undefined, undefined, 21],
    ]);
    // edit_file is one of the six without a flag: strict here only because the profile says so, and its message does not claim a flag.
    expect(found[1]!.message).not.toContain('sets `strict: true`');
  });

  test('`openai` and `anthropic` agree with `check`: 9 findings for `openai`, none for `anthropic`', async () => {
    const loaded = await tools();
    expect(lintTools(loaded, 'openai').map((d) => d.schemaPath).sort()).toEqual(readFileOptional);
    expect(lintTools(loaded, 'anthropic')).toEqual([]);
  });
});
