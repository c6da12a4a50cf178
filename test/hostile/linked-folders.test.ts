import { afterEach, describe, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPromptModule } from '../../src/render/module.js';
import { SNAPSHOT_HEADER } from '../../src/snapshot/format.js';
import { reconcile, removeObsolete, scanSnapshots, snapshotFile } from '../../src/snapshot/state.js';
import { InputError } from '../../src/util/errors.js';
import { scratchProject, staleCall, type Scratch } from './render-project.js';

// Issue 25: `prompts/cases` as a symbolic link to a shared folder was skipped by the folder
// walk (a link is not a directory entry's `isDirectory()`): no case rendered, a stale call in
// one went unreported, the run passed, and `-u` removed the case's snapshot as obsolete.

const prompt = 'Notes for the agent:\n{{notes}}\n';
const cases = `prompt: agent\ncases:\n  basic:\n    input:\n      notes: |\n        Look the order up first:\n${staleCall.split('\n').map((l) => `        ${l}`).join('\n')}\n`;

let project: Scratch | undefined;
afterEach(() => project?.remove());

describe('a folder of the prompts reached through a symbolic link', () => {
  test('`prompts/cases` linked to a folder inside the project is read: the stale call is reported, the snapshot is not obsolete', async () => {
    project = scratchProject({ 'prompts/agent.prompt': prompt, 'shared/cases/agent.yaml': cases });
    symlinkSync(join(project.dir, 'shared', 'cases'), join(project.dir, 'prompts', 'cases'), 'dir');
    // The case's snapshot as a previous run wrote it.
    project.write('snapshots/agent/basic.txt', `${SNAPSHOT_HEADER} 2\nold\n`);
    const result = await project.check();
    expect(result.stdout).not.toContain('No problems found');
    const stale = result.diagnostics.filter((d) => d.ruleId.startsWith('example/'));
    expect(stale.length).toBeGreaterThan(0);
    expect(stale[0]!.message).toMatch(/order/);
    expect(result.diagnostics.filter((d) => d.ruleId === 'snapshot/obsolete')).toEqual([]);
    expect(result.code).toBe(1);
  });

  test('a linked `.prompt` file and a linked partials folder inside the project are read as files and folders', () => {
    project = scratchProject({ 'shared/agent.prompt': 'Hello {{> greeting}}\n', 'shared/partials/_greeting.prompt': 'there\n' });
    symlinkSync(join(project.dir, 'shared', 'agent.prompt'), join(project.dir, 'prompts', 'agent.prompt'));
    symlinkSync(join(project.dir, 'shared', 'partials'), join(project.dir, 'prompts', 'partials'), 'dir');
    const module = loadPromptModule('prompts', project.dir);
    expect([...module.prompts.keys()]).toEqual(['agent']);
    expect([...module.partials.keys()]).toEqual(['greeting']);
  });

  test('a link that leaves the project is refused by name, exit 2', async () => {
    project = scratchProject({ 'prompts/agent.prompt': prompt });
    mkdirSync(join(project.outer, 'elsewhere'));
    writeFileSync(join(project.outer, 'elsewhere', 'agent.yaml'), cases);
    symlinkSync(join(project.outer, 'elsewhere'), join(project.dir, 'prompts', 'cases'), 'dir');
    const result = await project.check();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('prompts/cases');
    expect(result.stderr).toMatch(/Unexpected symbolic link `prompts\/cases` in the prompts folder: it leads to `[^`]*elsewhere`, outside the project/);
  });

  test('a link back into a folder it sits in is refused as a loop, not walked for ever', () => {
    project = scratchProject({ 'prompts/agent.prompt': prompt });
    mkdirSync(join(project.dir, 'prompts', 'more'));
    symlinkSync(join(project.dir, 'prompts'), join(project.dir, 'prompts', 'more', 'again'), 'dir');
    let error: unknown;
    try {
      loadPromptModule('prompts', project.dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'config/unreadable', file: join('prompts', 'more', 'again'), message: expect.stringContaining('leads back to') });
  });

  test.each([
    ['to nothing', 'leads to nothing', (dir: string) => symlinkSync(join(dir, 'shared', 'missing'), join(dir, 'prompts', 'cases'), 'dir')],
    ['to itself', 'leads back to itself', (dir: string) => symlinkSync('cases', join(dir, 'prompts', 'cases'))],
  ])('a link %s is refused by name, not skipped (its cases would vanish and -u delete their snapshots)', (_what, said, link) => {
    project = scratchProject({ 'prompts/agent.prompt': prompt });
    link(project.dir);
    let error: unknown;
    try {
      loadPromptModule('prompts', project.dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'config/unreadable', file: join('prompts', 'cases'), message: expect.stringContaining(said) });
  });

  test('a link to a file outside the project is refused too', () => {
    project = scratchProject();
    writeFileSync(join(project.outer, 'secret.prompt'), 'Hello\n');
    symlinkSync(join(project.outer, 'secret.prompt'), join(project.dir, 'prompts', 'agent.prompt'));
    expect(() => loadPromptModule('prompts', project!.dir)).toThrow(expect.objectContaining({ code: 'config/unreadable', file: join('prompts', 'agent.prompt') }) as unknown as Error);
  });
});

describe('a snapshot folder that is a symbolic link', () => {
  test('is foreign, never entered: its snapshots are not obsolete and `-u` removes nothing through it', () => {
    project = scratchProject();
    const snapshots = join(project.dir, 'snapshots');
    const shared = join(project.dir, 'shared-snapshots');
    mkdirSync(shared);
    const kept = join(shared, 'old.txt');
    writeFileSync(kept, `${SNAPSHOT_HEADER} x\n`);
    symlinkSync(shared, join(snapshots, 'agent'), 'dir');
    const scan = scanSnapshots(snapshots, new Set([snapshotFile(snapshots, 'agent', 'basic'), join(snapshots, 'tools.json')]));
    expect(scan.obsolete).toEqual([]);
    expect(scan.foreign).toEqual([join(snapshots, 'agent')]);
    removeObsolete(snapshots, scan.obsolete);
    expect(existsSync(kept)).toBe(true);
    expect(readFileSync(kept, 'utf8')).toContain(SNAPSHOT_HEADER);
  });
});

// Issue #25 (hostile re-test): `check` read a case's snapshot through a link in the snapshots
// folder, so a snapshot kept elsewhere (another branch's, a shared folder) passed the case,
// although the README says such a link is never entered.
describe('a snapshot reached through a symbolic link', () => {
  const text = `${SNAPSHOT_HEADER} 2\nHello\n`;

  test.each([
    ['its prompt folder', (snapshots: string, shared: string) => symlinkSync(shared, join(snapshots, 'agent'), 'dir')],
    ['the file itself', (snapshots: string, shared: string) => {
      mkdirSync(join(snapshots, 'agent'));
      symlinkSync(join(shared, 'basic.txt'), join(snapshots, 'agent', 'basic.txt'));
    }],
  ])('through %s is not compared, and never written through', (_what, link) => {
    project = scratchProject();
    const snapshots = join(project.dir, 'snapshots');
    const shared = join(project.dir, 'shared-snapshots');
    mkdirSync(shared);
    writeFileSync(join(shared, 'basic.txt'), text);
    // The same file, read where it really is, matches.
    expect(reconcile(join(shared, 'basic.txt'), text, 'none', project.dir, shared).status).toBe('matched');
    link(snapshots, shared);
    const file = snapshotFile(snapshots, 'agent', 'basic');
    for (const mode of ['none', 'new', 'all'] as const) {
      const result = reconcile(file, text.replace('Hello', 'Bye'), mode, project.dir, snapshots);
      expect(result).toMatchObject({ status: 'foreign', link: expect.stringMatching(/^snapshots\/agent/) });
    }
    expect(readFileSync(join(shared, 'basic.txt'), 'utf8')).toBe(text);
  });

  test('`check` reports the case, naming the link, exit 1', async () => {
    project = scratchProject({ 'prompts/agent.prompt': 'Hello\n', 'prompts/cases/agent.yaml': 'prompt: agent\ncases:\n  basic:\n    input: {}\n' });
    const shared = join(project.dir, 'shared-snapshots');
    mkdirSync(shared);
    writeFileSync(join(shared, 'basic.txt'), text);
    symlinkSync(shared, join(project.dir, 'snapshots', 'agent'), 'dir');
    const result = await project.check();
    expect(result.code).toBe(1);
    const found = result.diagnostics.filter((d) => d.ruleId === 'snapshot/missing');
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toMatch(/^No snapshot for `agent` case `basic`: snapshots\/agent is a symbolic link, and a link inside the snapshots folder is never entered/);
  });
});
