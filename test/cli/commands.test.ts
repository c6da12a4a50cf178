import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPromptModule } from '../../src/render/module.js';
import { listCases } from '../../src/render/render.js';
import { cli, cliInProcess, repo, report, withDemo } from './helpers.js';

// Every command runs through the built binary at least once here (`check` in drift.test.ts,
// `init` in init.test.ts): --help and a usage error, reading standard input, and one test each
// of render, validate, diff and lint. The other tests run the CLI in this process (see cliInProcess).

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'pc-commands-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `text` in a file of its own, for `extract` to read. */
function promptFile(name: string, text: string): string {
  const file = join(scratch, name);
  writeFileSync(file, text);
  return file;
}

const acceptance = join(repo, 'test', 'fixtures', 'acceptance');

describe('render', () => {
  test('--list prints every prompt and case, one pair a line', () => {
    const result = cli(['render', '--list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(listCases(loadPromptModule('prompts', repo)).map((c) => `${c.prompt} ${c.case}\n`).join(''));
  });

  test('prints the exact text sent, the same as the snapshot holds', async () => {
    const result = await cliInProcess(['render', 'refund_agent', '--case', 'legacy_order']);
    expect(result.code).toBe(0);
    const snapshot = readFileSync(join(repo, 'snapshots/refund_agent/legacy_order.txt'), 'utf8');
    expect(snapshot).toContain(result.stdout);
    expect(result.stdout).toContain('"order_id": "B-0917"');
  });

  test('--tools prints the tool definitions sent with it, descriptions merged', async () => {
    const result = await cliInProcess(['render', 'order_triage', '--case', 'cancellation', '--tools']);
    expect(result.code).toBe(0);
    const { tools } = JSON.parse(result.stdout) as { tools: Array<{ name: string; description: string; input_schema: object }> };
    expect(tools.map((t) => t.name)).toEqual(['lookup_order', 'cancel_order', 'update_shipping_address', 'escalate_to_human', 'send_customer_email']);
    expect(tools[1]!.description).toMatch(/^Cancel an order that has not shipped/);
  });

  test("--tools --shape prints them as OpenAI's or Gemini's request carries them", async () => {
    const args = ['render', 'order_triage', '--case', 'cancellation', '--tools'];
    const anthropic = JSON.parse((await cliInProcess(args)).stdout) as { tools: Array<{ name: string; description: string; input_schema: object }> };
    const openai = JSON.parse((await cliInProcess([...args, '--shape', 'openai'])).stdout) as { tools: Array<{ type: string; function: { name: string; description: string; parameters: object } }> };
    expect(openai.tools.map((t) => t.type)).toEqual(anthropic.tools.map(() => 'function'));
    expect(openai.tools.map((t) => [t.function.name, t.function.description, t.function.parameters])).toEqual(anthropic.tools.map((t) => [t.name, t.description, t.input_schema]));
    const gemini = JSON.parse((await cliInProcess([...args, '--shape', 'gemini'])).stdout) as { tools: Array<{ functionDeclarations: Array<{ name: string; parametersJsonSchema: object }> }> };
    expect(gemini.tools).toHaveLength(1);
    expect(gemini.tools[0]!.functionDeclarations.map((d) => [d.name, d.parametersJsonSchema])).toEqual(anthropic.tools.map((t) => [t.name, t.input_schema]));
    const wrong = await cliInProcess([...args, '--shape', 'bedrock']);
    expect(wrong.code).toBe(2);
  });

  test("--tools without --shape prints the shape of the prompt's model", () =>
    withDemo(async (demo) => {
      demo.edit('prompts/refund_agent.prompt', 'model: anthropic/claude-sonnet', 'model: openai/gpt-4o');
      const r = await cliInProcess(['render', 'refund_agent', '--case', 'legacy_order', '--tools'], { cwd: demo.dir });
      expect(r.code).toBe(0);
      const { tools } = JSON.parse(r.stdout) as { tools: Array<{ type?: string; function?: { name: string } }> };
      expect(tools[0]).toMatchObject({ type: 'function', function: { name: 'lookup_order' } });
    }));

  test("--tools without --shape follows the case's own `shape` before the prompt's: the request that case sends", async () => {
    const shapeOf = async (caseName: string) => {
      const r = await cliInProcess(['render', 'status_chat', '--case', caseName, '--tools']);
      expect(r.code).toBe(0);
      const { tools } = JSON.parse(r.stdout) as { tools: Array<Record<string, unknown>> };
      return 'functionDeclarations' in tools[0]! ? 'gemini' : tools[0]!.type === 'function' ? 'openai' : 'anthropic';
    };
    expect([await shapeOf('first_message'), await shapeOf('follow_up_openai'), await shapeOf('refund_gemini')]).toEqual(['anthropic', 'openai', 'gemini']);
  });

  test('an unknown prompt or case exits 2 and names what exists', async () => {
    const prompt = await cliInProcess(['render', 'nope', '--case', 'x']);
    expect(prompt.code).toBe(2);
    expect(prompt.stderr).toContain('Unknown prompt `nope`, expected one of `order_triage`, `refund_agent`, `status_chat`');
    const missingCase = await cliInProcess(['render', 'refund_agent']);
    expect(missingCase.code).toBe(2);
    expect(missingCase.stderr).toContain('`standard_refund`');
  });
});

describe('usage and exit codes', () => {
  test('usage errors exit 2; --help exits 0', async () => {
    expect(cli(['frobnicate']).code).toBe(2);
    expect((await cliInProcess(['check', '--format', 'yaml'])).code).toBe(2);
    expect((await cliInProcess(['lint', '--provider', 'nope', join(acceptance, 'langchain/schemas.json')])).code).toBe(2);
    const help = cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('check');
  });

  test('no config where the command runs exits 2 and says what it looked for', async () => {
    const result = await cliInProcess(['check'], { cwd: join(repo, 'docs') });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('prompt-contract.config.ts');
  });
});

describe('report formats', () => {
  const stale = join(acceptance, 'langchain');
  const args = ['validate', join(stale, 'schemas.json'), join(stale, 'few_shot_calls.jsonl')];

  test('json follows the pinned shape', async () => {
    const result = await cliInProcess([...args, '--format', 'json']);
    expect(result.code).toBe(1);
    const r = report(result);
    expect(r.version).toBe(1);
    expect(Object.keys(r).sort()).toEqual(['diagnostics', 'summary', 'version']);
    expect(r.summary).toEqual({ errors: r.diagnostics.filter((d) => d.severity === 'error').length, warnings: 0, infos: 0 });
    for (const d of r.diagnostics) expect(d).toEqual(expect.objectContaining({ ruleId: expect.any(String), severity: expect.any(String), message: expect.any(String) }));
  });

  test('github prints workflow annotations', async () => {
    const result = await cliInProcess([...args, '--format', 'github']);
    expect(result.stdout.trim().split('\n').every((l) => /^::error (file=[^,]+,)?(line=\d+,)?(col=\d+,)?title=recorded\/[a-z-]+( \([^)]*\))?::.+/.test(l))).toBe(true);
  });

  test('markdown prints a PR comment with a findings table', async () => {
    const result = await cliInProcess([...args, '--format', 'markdown']);
    expect(result.stdout).toMatch(/^### ❌ prompt-contract: \d+ errors?, 0 warnings, 0 infos\n/);
    expect(result.stdout).toContain('| ❌ | `recorded/unknown-tool` |');
  });

  test('warnings pass by default and fail with --fail-on warning', async () => {
    // A name over 64 characters is only a warning for `anthropic` (its older limit; the current one is 128).
    const file = promptFile('long-name.json', JSON.stringify({ name: `get_${'w'.repeat(70)}`, description: 'The weather now.', input_schema: { type: 'object', properties: {} } }));
    const byDefault = await cliInProcess(['lint', file, '--provider', 'anthropic', '--format', 'json']);
    expect(report(byDefault).summary).toEqual({ errors: 0, warnings: 1, infos: 0 });
    expect(byDefault.code).toBe(0);
    expect((await cliInProcess(['lint', file, '--provider', 'anthropic', '--fail-on', 'warning'])).code).toBe(1);
  });

  test('pretty output says so when there is nothing to report', async () => {
    const clean = await cliInProcess(['validate', join(acceptance, 'openai-cookbook/schemas.json'), join(acceptance, 'openai-cookbook/calls.jsonl')]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toBe('No problems found.\n');
  });
});

describe('extract', () => {
  test('reads standard input and prints the pinned JSON shape', () => {
    const text = 'Intro\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n';
    const result = cli(['extract', '-', '--format', 'json'], { input: text });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      version: 1,
      examples: [{ name: 'get_weather', arguments: { city: 'Paris' }, notation: 'hermes', line: 3, column: 1, offset: 7 }],
      diagnostics: [],
    });
  });

  test('an unparseable call is a finding with exit 1', async () => {
    const result = await cliInProcess(['extract', promptFile('unparseable.md', '```tool_call\n{"name": "x", "arguments": {\n```\n')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('example/unparseable');
  });

  test('Hermes few-shot prompt assets extract as calls', async () => {
    const shots = JSON.parse(readFileSync(join(acceptance, 'hermes/few_shot.json'), 'utf8')) as Array<{ example: string }>;
    const result = await cliInProcess(['extract', promptFile('hermes.md', shots[0]!.example), '--format', 'json']);
    const out = JSON.parse(result.stdout) as { examples: Array<{ notation: string }> };
    expect(out.examples.length).toBeGreaterThan(0);
    expect(out.examples.every((e) => e.notation === 'hermes')).toBe(true);
  });
});

describe('validate on real data', () => {
  test('all OpenAI cookbook calls pass', async () => {
    const r = await cliInProcess(['validate', join(acceptance, 'openai-cookbook/schemas.json'), join(acceptance, 'openai-cookbook/calls.jsonl'), '--format', 'json']);
    expect(r.code).toBe(0);
    expect(report(r).diagnostics).toEqual([]);
  });

  test('the published LangChain few-shot calls fail, with a did-you-mean', () => {
    const r = cli(['validate', join(acceptance, 'langchain/schemas.json'), join(acceptance, 'langchain/few_shot_calls.jsonl'), '--format', 'json']);
    expect(r.code).toBe(1);
    const unknown = report(r).diagnostics.filter((d) => d.ruleId === 'recorded/unknown-tool');
    expect(unknown.map((d) => d.message).join('\n')).toMatch(/`Multiply`[\s\S]*`multiply`/);
  });
});

describe('diff and lint', () => {
  const mcp = join(acceptance, 'mcp-servers/schemas');

  test('diff of a tools file against itself is clean', async () => {
    const file = join(mcp, 'github.json');
    const r = await cliInProcess(['diff', file, file, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(report(r).diagnostics).toEqual([]);
  });

  test('diff reports a tool removed between two files', () => {
    const r = cli(['diff', join(mcp, 'github.json'), join(mcp, 'gitlab.json'), '--format', 'json']);
    expect(r.code).toBe(1);
    expect(report(r).diagnostics.some((d) => d.ruleId === 'compat/tool-removed')).toBe(true);
  });

  test('lint finds what Gemini refuses in a zod-generated MCP server, and nothing for mcp', async () => {
    const gemini = cli(['lint', join(mcp, 'memory.json'), '--provider', 'gemini', '--format', 'json']);
    expect(gemini.code).toBe(1);
    expect(report(gemini).diagnostics.some((d) => d.ruleId === 'provider/unsupported-keyword')).toBe(true);
    const mcpProfile = await cliInProcess(['lint', join(mcp, 'memory.json'), '--provider', 'mcp', '--format', 'json']);
    expect(mcpProfile.code).toBe(0);
  });

  test('lint without files lints the configured project', async () => {
    const r = await cliInProcess(['lint', '--provider', 'anthropic', '--provider', 'openai', '--format', 'json']);
    expect(r.code).toBe(0);
  });

  test('--provider takes one name a flag, or names with commas, so the tools files after it stay files', async () => {
    const file = join(mcp, 'sequentialthinking.json');
    const repeated = await cliInProcess(['lint', '--provider', 'anthropic-strict', '--provider', 'gemini', file, '--format', 'json']);
    const commas = await cliInProcess(['lint', '--provider', 'anthropic-strict,gemini', file, '--format', 'json']);
    expect(repeated.code).toBe(1);
    expect(JSON.parse(commas.stdout)).toEqual(JSON.parse(repeated.stdout));
    expect(new Set(JSON.parse(repeated.stdout).diagnostics.map((d: { provider: string }) => d.provider))).toEqual(new Set(['anthropic-strict', 'gemini']));
    // The old habit of listing names after one flag: the second name lands among the files, and is named as a provider.
    const listed = await cliInProcess(['lint', file, '--provider', 'openai', 'gemini']);
    expect(listed.code).toBe(2);
    expect(listed.stderr).toContain('Unexpected provider name `gemini` where a tools file was expected');
    expect(listed.stderr).toContain('--provider openai --provider gemini');
    // The same name twice: its findings once. An empty name: said so.
    const twice = await cliInProcess(['lint', file, '--provider', 'openai,openai', '--provider', 'openai', '--format', 'json']);
    expect(JSON.parse(twice.stdout)).toEqual(JSON.parse((await cliInProcess(['lint', file, '--provider', 'openai', '--format', 'json'])).stdout));
    const empty = await cliInProcess(['lint', file, '--provider', ',']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('Unexpected empty --provider');
  });

  test("lint without --provider uses the config's providers, for its tools or for tools files; with no config it says what is missing", async () => {
    // The demo's config names anthropic and openai: the same findings as naming them.
    const dotted = promptFile('dotted.json', JSON.stringify({ name: 'files.read', description: 'Read a file.', input_schema: { type: 'object', properties: {} } }));
    const named = await cliInProcess(['lint', dotted, '--provider', 'anthropic', '--provider', 'openai', '--format', 'json']);
    const configured = await cliInProcess(['lint', dotted, '--format', 'json']);
    expect(JSON.parse(configured.stdout)).toEqual(JSON.parse(named.stdout));
    expect(JSON.parse(configured.stdout).diagnostics.length).toBeGreaterThan(0);
    expect((await cliInProcess(['lint', '--format', 'json'])).code).toBe(0);
    const nowhere = await cliInProcess(['lint', join(mcp, 'memory.json')], { cwd: mcp });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('Missing --provider, and no config names `providers`; expected --provider NAME');
  });
});
