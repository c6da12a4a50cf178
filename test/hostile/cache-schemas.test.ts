// A named schema (`prompts/schemas/Name.yaml`) is part of what a prompt's cached findings
// depend on: a prompt whose output schema names it is shown in its snapshot with it, and a
// cached run must see the schema change as a cold run does.
import { afterEach, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProject } from '../../src/project.js';
import { renderCase } from '../../src/render/render.js';
import { formatSnapshot } from '../../src/snapshot/format.js';
import { cli } from '../cli/helpers.js';
import { scratchProject, type Scratch } from './render-project.js';

let project: Scratch | undefined;
let cacheDir: string | undefined;
afterEach(() => {
  project?.remove();
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
});

test('editing a named schema is seen by the next cached run', async () => {
  project = scratchProject({
    'prompts/agent.prompt': '---\noutput:\n  schema: Reply\n---\nHello {{name}}.\n',
    'prompts/schemas/Reply.yaml': 'answer: string\n',
    'prompts/cases/agent.yaml': 'prompt: agent\ncases:\n  basic:\n    input:\n      name: Ada\n',
  });
  const p = await loadProject({ cwd: project.dir });
  mkdirSync(join(project.dir, 'snapshots', 'agent'), { recursive: true });
  writeFileSync(join(project.dir, 'snapshots', 'agent', 'basic.txt'), formatSnapshot(renderCase(p.module, 'agent', 'basic', p.registry)));
  cacheDir = mkdtempSync(join(tmpdir(), 'pc-cache-schemas-'));
  const env = { PROMPT_CONTRACT_CACHE_DIR: cacheDir };
  const run = () => cli(['check', '--format', 'json'], { cwd: project!.dir, env });
  const ids = (r: { stdout: string }) => (JSON.parse(r.stdout) as { diagnostics: Array<{ ruleId: string }> }).diagnostics.map((d) => d.ruleId);
  expect(ids(run())).toEqual([]);
  expect(ids(run())).toEqual([]);
  writeFileSync(join(project.dir, 'prompts/schemas/Reply.yaml'), 'answer: integer\n');
  const cold = cli(['check', '--format', 'json', '--no-cache'], { cwd: project.dir });
  expect(ids(cold)).toEqual(['snapshot/outdated']);
  expect(ids(run())).toEqual(ids(cold));
});
