// Issue #27: a real agent's prompt builder, unmodified. Cline's system prompt (vendored under
// test/fixtures/cline-agent with its provenance) is built by its own code through a prompt
// module: it is snapshotted, its few-shot calls are read and validated against Cline's tools,
// and an example broken in the vendored copy is reported where a reviewer sees it.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createJiti } from 'jiti';
import { loadProject } from '../../src/project.js';
import { renderAnyCase } from '../../src/render/render.js';
import { formatSnapshot, formatToolsBaseline } from '../../src/snapshot/format.js';
import { cli, stableScratch } from '../cli/helpers.js';

const fixture = join(import.meta.dirname, '..', 'fixtures', 'cline-agent');
const scratch = stableScratch('cline-agent');
const dir = join(scratch.dir, 'project');
const systemFile = join(dir, 'src', 'core', 'prompts', 'system.ts');

beforeAll(async () => {
  cpSync(fixture, dir, { recursive: true });
  // The snapshot as `-u` writes it, on this machine (Cline prints the operating system and shell).
  const jiti = createJiti(import.meta.url, { moduleCache: false });
  const project = await loadProject({ cwd: dir, importer: (file) => jiti.import(file) });
  const rendered = await renderAnyCase(project.module, 'cline', 'project', project.registry, { importer: (file) => jiti.import(file) });
  mkdirSync(join(dir, 'snapshots', 'cline'), { recursive: true });
  writeFileSync(join(dir, 'snapshots', 'cline', 'project.txt'), formatSnapshot(rendered));
  writeFileSync(join(dir, 'snapshots', 'tools.json'), formatToolsBaseline(project.tools));
}, 30_000);
afterAll(() => scratch.remove());

test("Cline's own builder renders its prompt, with the case's working folder", () => {
  const r = cli(['render', 'cline', '--case', 'project'], { cwd: dir });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('You are Cline, a highly skilled software engineer');
  expect(r.stdout).toContain('Current Working Directory: /home/dev/project');
  expect(r.stdout).toContain('<execute_command>\n<command>npm run dev</command>\n</execute_command>');
});

test('check reads its few-shot calls and finds them valid against its tools; the snapshot matches', () => {
  const r = cli(['check'], { cwd: dir });
  expect(r.stderr).toBe('');
  expect(r.stdout).toContain('Read 3 tool calls in 1 case in 1 notation (tag-per-tool); every call-like mention of a known tool was read.');
  expect(r.stdout).toContain('No problems found.');
  expect(r.code).toBe(0);
});

test('an example broken in the vendored builder is reported at its snapshot line, naming the module that built it', () => {
  const original = readFileSync(systemFile, 'utf8');
  try {
    writeFileSync(systemFile, original.replace('<command>npm run dev</command>', '<cmd>npm run dev</cmd>'));
    const r = cli(['check', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const found = (JSON.parse(r.stdout) as { diagnostics: Array<{ ruleId: string; file?: string; line?: number; message: string; related?: Array<{ message: string }> }> }).diagnostics;
    const broken = found.filter((d) => d.ruleId === 'example/invalid-arguments');
    expect(broken.map((d) => d.message)).toEqual([expect.stringContaining('missing required property `command`'), expect.stringContaining('unexpected property `cmd`')]);
    // The line the example sits on in the committed snapshot, where the PR diff shows it.
    const snapshotLine = readFileSync(join(dir, 'snapshots', 'cline', 'project.txt'), 'utf8').split('\n').indexOf('<command>npm run dev</command>') + 1;
    for (const d of broken) {
      expect(d).toMatchObject({ file: join('snapshots', 'cline', 'project.txt'), line: snapshotLine - 1 });
      expect(d.related).toEqual([expect.objectContaining({ message: `the text was built by code, in ${join('prompts', 'cline.prompt.ts')}` })]);
    }
    // The snapshot shows the edit too.
    expect(found.map((d) => d.ruleId)).toContain('snapshot/outdated');
  } finally {
    writeFileSync(systemFile, original);
  }
});
