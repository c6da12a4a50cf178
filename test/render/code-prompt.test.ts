// Issue #27: a prompt may be a module that calls the production builder. Its output goes
// through the same checks as a template's, and a finding points at what a person edits: the
// case input's line in the cases YAML, the example's line in its YAML, else the snapshot line
// with the module named as where the text was built.
import { afterEach, describe, expect, test } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProject } from '../../src/project.js';
import { renderAnyCase, renderCase } from '../../src/render/render.js';
import { definePrompt } from '../../src/render/code.js';
import { SNAPSHOT_TEXT_LINE } from '../../src/snapshot/format.js';
import { scratchProject, staleCall, type Scratch } from '../hostile/render-project.js';

let project: Scratch | undefined;
afterEach(() => project?.remove());

/** The 1-based line of `needle` in `file` of the project. */
const lineIn = (file: string, needle: string): number => readFileSync(join(project!.dir, file), 'utf8').split('\n').findIndex((l) => l.includes(needle)) + 1;
const errors = (found: Array<{ ruleId: string; severity: string }>) => found.filter((d) => d.severity === 'error' && !d.ruleId.startsWith('snapshot/'));

const cases = (input: string) => `prompt: agent\ncases:\n  basic:\n    input:\n${input}`;

describe('a prompt module', () => {
  test('renders what its builder returns, through the same checks: a stale call in a case input points at that input in the cases YAML', async () => {
    project = scratchProject({
      'prompts/agent.prompt.mjs': "export default { render: (input) => `You are the order agent.\\n\\nNotes:\\n${input.notes}\\n` };\n",
      'prompts/cases/agent.yaml': cases(`      notes: |\n        Look the order up first:\n${staleCall.split('\n').map((l) => `        ${l}`).join('\n')}\n`),
    });
    const r = await project.check();
    const found = errors(r.diagnostics);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((d) => d.ruleId === 'example/invalid-arguments')).toBe(true);
    // The call's block begins on its fence, inside the input's `|` block.
    expect(found[0]).toMatchObject({ file: join('prompts', 'cases', 'agent.yaml'), line: lineIn('prompts/cases/agent.yaml', '```tool_call'), column: 9 });
    expect(r.code).toBe(1);
  });

  test("an example item a builder formats points at its line in the module's examples file", async () => {
    project = scratchProject({
      'prompts/agent.prompt.mjs': [
        'export default {',
        "  examples: './examples/agent.yaml',",
        "  render: (input, context) => ['You look orders up.', ...context.examples.map((e) => `User: ${e.user}\\n<tool_call>${JSON.stringify({ name: e.name, arguments: e.arguments })}</tool_call>`)].join('\\n\\n'),",
        '};',
        '',
      ].join('\n'),
      'prompts/examples/agent.yaml': 'examples:\n  - user: Where is A-1042?\n    name: lookup_order\n    arguments:\n      order_id: A-1042\n  - user: And 77?\n    name: lookup_order\n    arguments:\n      order_id: "77"\n',
      'prompts/cases/agent.yaml': cases('      {}\n'),
    });
    const found = errors((await project.check()).diagnostics);
    expect(found).toEqual([expect.objectContaining({ ruleId: 'example/invalid-arguments', file: join('prompts', 'examples', 'agent.yaml'), line: lineIn('prompts/examples/agent.yaml', 'order_id: "77"') })]);
  });

  test('text the builder wrote itself points at the snapshot line, and says it was built by code', async () => {
    project = scratchProject({
      'prompts/agent.prompt.mjs': `export default { render: async () => ${JSON.stringify(`Intro.\n\n${staleCall}\n`)} };\n`,
      'prompts/cases/agent.yaml': cases('      {}\n'),
    });
    const found = errors((await project.check()).diagnostics);
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]).toMatchObject({ file: join('snapshots', 'agent', 'basic.txt'), line: 3 + SNAPSHOT_TEXT_LINE - 1, related: [expect.objectContaining({ message: `the text was built by code, in ${join('prompts', 'agent.prompt.mjs')}` })] });
  });

  test('a message list in a provider shape is read: a tool call in an assistant turn is checked against the schema', async () => {
    const messages = [
      { role: 'system', content: 'You look orders up.' },
      { role: 'user', content: 'Where is my order?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup_order', arguments: '{"order": "A-1042"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"status": "shipped"}' },
    ];
    project = scratchProject({
      'prompts/agent.prompt.mjs': `export default { render: () => ${JSON.stringify(messages)} };\n`,
      'prompts/cases/agent.yaml': cases('      {}\n'),
    });
    const found = errors((await project.check()).diagnostics);
    expect(found.map((d) => d.ruleId)).toContain('example/invalid-arguments');
  });

  test('what the module names as its tools is what is sent; a name the config lacks is refused at the module', async () => {
    project = scratchProject({
      'prompts/agent.prompt.mjs': "export default { tools: ['lookup_order', 'refund'], render: () => 'Hi.' };\n",
      'prompts/cases/agent.yaml': cases('      {}\n'),
    });
    const r = await project.check();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Unknown tool `refund` in prompt module `agent`');
    expect(r.stderr).toContain(join('prompts', 'agent.prompt.mjs'));
  });

  test.each([
    ['a builder that throws', "export default { render: () => { throw new Error('no user'); } };\n", "The prompt module's `render` threw for case `basic`: no user"],
    ['a module without render', 'export default { prompt: 1 };\n', 'Unexpected default export of the prompt module (object); expected `export default definePrompt({ render(input, context) { ... } })`'],
    ['a builder that returns a number', 'export default { render: () => 42 };\n', 'Unexpected number returned by `render`; expected the prompt text (a string) or a list of messages'],
  ])('%s: exit 2, naming the module', async (_what, source, said) => {
    project = scratchProject({ 'prompts/agent.prompt.mjs': source, 'prompts/cases/agent.yaml': cases('      {}\n') });
    const r = await project.check();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(said);
    expect(r.stderr).toContain(join('prompts', 'agent.prompt.mjs'));
  });

  test('the API renders it with renderAnyCase; renderCase says why it cannot', async () => {
    project = scratchProject({
      'prompts/agent.prompt.mjs': 'export default { render: (input, context) => `Hi ${input.name}; tools: ${context.tools.map((t) => t.name).join(",")}` };\n',
      'prompts/cases/agent.yaml': cases('      name: Ada\n'),
    });
    const p = await loadProject({ cwd: project.dir });
    const rendered = await renderAnyCase(p.module, 'agent', 'basic', p.registry);
    expect(rendered).toMatchObject({ text: 'Hi Ada; tools: lookup_order', builtBy: join('prompts', 'agent.prompt.mjs') });
    expect(() => renderCase(p.module, 'agent', 'basic', p.registry)).toThrow(/Prompt `agent` is built by code/);
  });

  test('definePrompt keeps what it is given and refuses a definition without render', () => {
    const def = definePrompt({ render: () => 'x' });
    expect(def.render({}, { prompt: 'p', case: 'c', examples: [], retrieved: [], tools: [] })).toBe('x');
    expect(() => definePrompt({} as never)).toThrow(/render\(input, context\)/);
  });
});

// The cache never keeps a prompt module's findings: its builder is code that may read any file.
describe('a prompt module and the check cache', () => {
  test("an edit to a file the builder reads is seen by the next cached run; a template's cases are still reused", async () => {
    const { mkdtempSync, rmSync: remove } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { cli } = await import('../cli/helpers.js');
    project = scratchProject({
      'lib/wording.mjs': 'export const example = \'{"name": "lookup_order", "arguments": {"order_id": "A-1042"}}\';\n',
      'prompts/agent.prompt.mjs': "import { example } from '../lib/wording.mjs';\nexport default { render: () => `Example:\\n<tool_call>${example}</tool_call>\\n` };\n",
      'prompts/cases/agent.yaml': cases('      {}\n'),
      'prompts/plain.prompt': 'Hello {{name}}.\n',
      'prompts/cases/plain.yaml': 'prompt: plain\ncases:\n  basic:\n    input:\n      name: Ada\n',
    });
    const cacheDir = mkdtempSync(join(tmpdir(), 'pc-code-cache-'));
    try {
      const env = { PROMPT_CONTRACT_CACHE_DIR: cacheDir, PROMPT_CONTRACT_CACHE_STATS: '1' };
      const run = () => cli(['check', '--format', 'json'], { cwd: project!.dir, env });
      const ids = (r: { stdout: string }) => (JSON.parse(r.stdout) as { diagnostics: Array<{ ruleId: string }> }).diagnostics.map((d) => d.ruleId).filter((id) => !id.startsWith('snapshot/'));
      expect(ids(run())).toEqual([]);
      const second = run();
      expect(ids(second)).toEqual([]);
      // The template's one case is reused; the module's is checked again.
      expect(second.stderr).toContain('prompt-contract cache: 1 of 2 cases reused');
      writeFileSync(join(project.dir, 'lib/wording.mjs'), 'export const example = \'{"name": "lookup_order", "arguments": {"order_id": "1042"}}\';\n');
      expect(ids(run())).toEqual(['example/invalid-arguments']);
    } finally {
      remove(cacheDir, { recursive: true, force: true });
    }
  });
});
