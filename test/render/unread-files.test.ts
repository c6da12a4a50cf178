import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cliInProcess, demoCopy, repo, type Demo } from '../cli/helpers.js';

// A file in the prompts folder that is named like one prompt-contract reads, and is not read,
// is a `config/unread-file` warning naming the file and what is read instead, through `check`
// (in this process, see cliInProcess). The demo and the cline-agent fixture, both real
// prompt folders, get none.

interface Report {
  diagnostics: Array<{ ruleId: string; severity: string; message: string; file?: string }>;
}

const unread = (stdout: string): Report['diagnostics'] => (JSON.parse(stdout) as Report).diagnostics.filter((d) => d.ruleId === 'config/unread-file');

let demo: Demo;
beforeAll(() => {
  demo = demoCopy();
});
afterAll(() => demo?.remove());

function put(file: string, text = 'x: 1\n'): void {
  mkdirSync(dirname(join(demo.dir, file)), { recursive: true });
  writeFileSync(join(demo.dir, file), text);
}

test('the demo and the cline-agent fixture have no unread files', async () => {
  const own = await cliInProcess(['check', '--format', 'json'], { cwd: demo.dir });
  expect(own.code).toBe(0);
  expect(unread(own.stdout)).toEqual([]);
  const cline = await cliInProcess(['check', '--format', 'json'], { cwd: join(repo, 'test/fixtures/cline-agent') });
  expect(unread(cline.stdout)).toEqual([]);
});

test('each file named like ours that is not read is a warning naming it and what is read instead', async () => {
  // What an author meant, under a name the loader passes over.
  put('prompts/welcome.prompt.yaml', '---\nmodel: x\n---\nHello\n');
  put('prompts/greeting.prompt.md', '---\nmodel: x\n---\nHi\n');
  put('prompts/triage.promt', '---\nmodel: x\n---\nTriage\n');
  put('prompts/agent.prompt.tsx', 'export default {};\n');
  put('prompts/partials/_footer.hbs', 'Thanks!\n');
  put('prompts/cases.yml', 'prompt: refund_agent\ncases:\n  extra:\n    input: {}\n');
  put('prompts/case/status.yaml', 'prompt: status_chat\ncases:\n  more:\n    input: {}\n');
  put('prompts/cases/refund_extra.json', '{"prompt": "refund_agent", "cases": {}}\n');
  put('prompts/example/refund_more.yaml', 'examples: []\n');
  put('prompts/examples/orphan.yaml', 'examples: []\n');
  // Files that are no prompt-contract file, or that are read: no finding.
  put('prompts/notes.md', '# notes\n');
  put('prompts/cases/README.md', '# how cases work\n');
  put('prompts/stuff/notes.yaml', 'a: 1\n');
  put('prompts/prompts.md', '# prompts\n');

  const run = await cliInProcess(['check', '--format', 'json'], { cwd: demo.dir });
  // Warnings: the run still passes by default.
  expect(run.code).toBe(0);
  const found = unread(run.stdout);
  const byFile = Object.fromEntries(found.map((d) => [d.file, d.message]));
  expect(Object.keys(byFile).sort()).toEqual(
    [
      'prompts/agent.prompt.tsx',
      'prompts/case/status.yaml',
      'prompts/cases.yml',
      'prompts/cases/refund_extra.json',
      'prompts/example/refund_more.yaml',
      'prompts/examples/orphan.yaml',
      'prompts/greeting.prompt.md',
      'prompts/partials/_footer.hbs',
      'prompts/triage.promt',
      'prompts/welcome.prompt.yaml',
    ].sort(),
  );
  for (const d of found) expect(d.severity).toBe('warning');
  expect(byFile['prompts/welcome.prompt.yaml']).toMatch(/^Unexpected file `prompts\/welcome\.prompt\.yaml` in the prompts folder, not read: prompts are `\.prompt` templates .*; did you mean `prompts\/welcome\.prompt`\?$/);
  expect(byFile['prompts/greeting.prompt.md']).toContain('did you mean `prompts/greeting.prompt`?');
  expect(byFile['prompts/triage.promt']).toContain('did you mean `prompts/triage.prompt`?');
  expect(byFile['prompts/agent.prompt.tsx']).toContain('did you mean `prompts/agent.prompt.ts`?');
  expect(byFile['prompts/partials/_footer.hbs']).toContain('did you mean `prompts/partials/_footer.prompt`?');
  expect(byFile['prompts/cases.yml']).toContain('cases files are read from the `cases/` folder of the prompts folder only; did you mean `prompts/cases/cases.yml`?');
  expect(byFile['prompts/case/status.yaml']).toContain('did you mean `prompts/cases/status.yaml`?');
  expect(byFile['prompts/cases/refund_extra.json']).toContain('cases files are YAML (`.yaml` or `.yml`); did you mean `prompts/cases/refund_extra.yaml`?');
  expect(byFile['prompts/example/refund_more.yaml']).toContain('no prompt names it');
  expect(byFile['prompts/example/refund_more.yaml']).toContain('did you mean `prompts/examples/refund_more.yaml`?');
  expect(byFile['prompts/examples/orphan.yaml']).toContain('no prompt names it');
  expect(byFile['prompts/examples/orphan.yaml']).not.toContain('did you mean');

  // `--fail-on warning` makes them fail a run, and the pretty report names the rule.
  expect((await cliInProcess(['check', '--fail-on', 'warning', '--format', 'json'], { cwd: demo.dir })).code).toBe(1);
  expect((await cliInProcess(['check'], { cwd: demo.dir })).stdout).toContain('config/unread-file');
});

test('a data file a prompt names is read, wherever it is', async () => {
  // The examples file moves to `example/` and the prompt names it there: read, so no finding.
  const examples = demo.read('prompts/examples/refund_agent.yaml');
  put('prompts/example/refund_agent.yaml', examples);
  demo.edit('prompts/refund_agent.prompt', 'file: examples/refund_agent.yaml', 'file: example/refund_agent.yaml');
  const run = await cliInProcess(['check', '--format', 'json'], { cwd: demo.dir });
  const files = unread(run.stdout).map((d) => d.file);
  expect(files).not.toContain('prompts/example/refund_agent.yaml');
  // The file it left behind in `examples/` is named by no prompt now.
  expect(files).toContain('prompts/examples/refund_agent.yaml');
});

test('a cases file in `cases/` naming a prompt that does not exist stops the run, naming the prompts there are', async () => {
  put('prompts/cases/ghost.yaml', 'prompt: refund_agnet\ncases:\n  a:\n    input: {}\n');
  const run = await cliInProcess(['check'], { cwd: demo.dir });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('Unknown prompt `refund_agnet`');
  expect(run.stderr).toContain('did you mean `refund_agent`?');
});
