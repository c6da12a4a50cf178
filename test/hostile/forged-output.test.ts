// Issue 25: text from checked files must not forge output. GitHub Actions runs any log line that
// starts with `::` (`::error file=...::`, `::add-mask::`), so a tool name or a case's `prompt:`
// holding a line break followed by such a command must never start a line of the report, on
// stdout or on stderr, in any format; a Markdown report must render it as text.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { markdownParts } from '../helpers/markdown.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addJestSuite, cli, runJestAsync, stableScratch, type CliResult } from '../cli/helpers.js';

const payload = '\n::error file=src/a.ts,line=1::FORGED\n::add-mask::secret\r::warning::CR';
const evil = `lookup${payload}`;
const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'pc-forged-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A project whose tool is named `evil`, with a prompt that calls it wrongly, and a case file whose `prompt:` is `casePrompt`. */
function project(name: string, casePrompt: string, under = root): string {
  const dir = join(under, name);
  mkdirSync(join(dir, 'prompts', 'cases'), { recursive: true });
  writeFileSync(join(dir, 'prompt-contract.config.json'), JSON.stringify({ prompts: 'prompts', tools: 'tools.json', snapshots: 'snapshots', recorded: ['calls.jsonl'] }));
  writeFileSync(join(dir, 'tools.json'), JSON.stringify([{ name: evil, description: 'Looks an order up.', input_schema: schema }]));
  writeFileSync(join(dir, 'prompts', 'p.prompt'), `---\ntools: [${JSON.stringify(evil)}]\n---\nCall it: <tool_call>{"name": ${JSON.stringify(evil)}, "arguments": {"n": "x"}}</tool_call>\n`);
  writeFileSync(join(dir, 'prompts', 'cases', 'c.yaml'), `prompt: ${JSON.stringify(casePrompt)}\ncases:\n  one:\n    input: {}\n`);
  writeFileSync(join(dir, 'calls.jsonl'), `${JSON.stringify({ id: `id${payload}`, name: evil, arguments: { n: 'x' } })}\n${JSON.stringify({ name: `gone${payload}`, arguments: {} })}\n`);
  return dir;
}

/** The annotations the `github` format writes on purpose: a level, the properties it sets, a title. */
const ownAnnotation = /^::(error|warning|notice) (file=[^,:]*,)?(line=\d+,)?(col=\d+,)?title=[^,:]*::/;

function commandLines(text: string): string[] {
  // The runner reads a line ended by `\n`, and some readers end one at a lone `\r` too.
  return text.split(/\r\n|\n|\r/).filter((line) => line.trimStart().startsWith('::'));
}

function expectNoForgedLines(result: CliResult, format: string): void {
  expect(commandLines(result.stderr)).toEqual([]);
  const commands = commandLines(result.stdout);
  if (format === 'github') for (const line of commands) expect(line).toMatch(ownAnnotation);
  else expect(commands).toEqual([]);
}

describe('a tool name holding a workflow command', () => {
  test.each(['pretty', 'markdown', 'github', 'json'])('starts no line of `check --format %s`', (format) => {
    const dir = project(`check-${format}`, 'p');
    const result = cli(['check', '--no-cache', '--format', format], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('FORGED');
    expectNoForgedLines(result, format);
    if (format === 'json') {
      // JSON stays exact: the name as written, escaped by JSON itself.
      const report = JSON.parse(result.stdout) as { diagnostics: Array<{ tool?: string }> };
      expect(report.diagnostics.map((d) => d.tool)).toContain(evil);
    }
    if (format === 'github') {
      const report = JSON.parse(cli(['check', '--no-cache', '--format', 'json'], { cwd: dir }).stdout) as { diagnostics: unknown[] };
      // One annotation a finding: no other line reads as a command.
      expect(commandLines(result.stdout)).toHaveLength(report.diagnostics.length);
    }
  });

  test.each(['pretty', 'markdown', 'github'])('starts no line of `validate --format %s`, whose recorded calls name it', (format) => {
    const dir = project(`validate-${format}`, 'p');
    const result = cli(['validate', 'tools.json', 'calls.jsonl', '--format', format], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('FORGED');
    expectNoForgedLines(result, format);
  });

  test('starts no line of `extract`', () => {
    const dir = project('extract', 'p');
    const result = cli(['extract', 'prompts/p.prompt'], { cwd: dir });
    expect(result.stdout).toContain('FORGED');
    expectNoForgedLines(result, 'pretty');
  });

  test('renders no link, image, HTML or mention in `lint --format markdown`', () => {
    const dir = project('markdown-nodes', 'p');
    writeFileSync(join(dir, 'tools.json'), JSON.stringify([{ name: 'x` ![i](https://evil.example/i.png) [l](https://evil.example) <img src=x> @octocat `', description: 'd', input_schema: schema }]));
    // The name breaks OpenAI's naming rule: the finding quotes it.
    const result = cli(['lint', 'tools.json', '--provider', 'openai', '--format', 'markdown'], { cwd: dir });
    expect(result.stdout).toContain('evil.example');
    const { kinds, texts } = markdownParts(result.stdout);
    for (const kind of ['link', 'image', 'html', 'linkReference', 'imageReference', 'definition']) expect(kinds).not.toContain(kind);
    expect(texts.join('\n')).not.toMatch(/@octocat|evil\.example/);
  });
});

describe("a cases file's `prompt:` holding a workflow command", () => {
  test.each(['pretty', 'markdown', 'github', 'json'])('starts no line of the could-not-run error, `--format %s`', (format) => {
    const dir = project(`cannot-run-${format}`, `p${payload}`);
    const result = cli(['check', '--no-cache', '--format', format], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('FORGED');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expectNoForgedLines(result, format);
    if (format === 'json') expect((JSON.parse(result.stdout) as { diagnostics: Array<{ message: string }> }).diagnostics[0]!.message).toContain(payload);
  });

  test('starts no line of `render`, nor of `render --list`', () => {
    const dir = project('render', `p${payload}`);
    const result = cli(['render', '--list'], { cwd: dir });
    expect(result.stderr).toContain('FORGED');
    expectNoForgedLines(result, 'pretty');
  });
});

describe('the Jest suite', () => {
  test('starts no line with a tool name holding a workflow command, in test names, failures or warnings', async () => {
    // Inside this repository, where Jest finds ts-jest and this package's source.
    const scratch = stableScratch('forged-jest');
    try {
      const dir = project('jest', 'p', scratch.dir);
      addJestSuite(dir);
      // The project's snapshot, as a run without CI writes it, so the second run compares it.
      await runJestAsync(dir, [], { CI: 'false' });
      // A new description: the snapshot diff shows the tool's name on the lines around it.
      writeFileSync(join(dir, 'tools.json'), JSON.stringify([{ name: evil, description: 'Looks an order up by its id.', input_schema: schema }]));
      const r = await runJestAsync(dir, ['--ci'], { CI: 'true' });
      expect(r.out).toContain('differs from its snapshot');
      expect(r.code).toBe(1);
      expect(r.out).toContain('FORGED');
      expect(commandLines(r.out)).toEqual([]);
    } finally {
      scratch.remove();
    }
  }, 60_000);
});
