import { afterEach, describe, expect, test } from '@jest/globals';
import { cliInProcess } from '../cli/helpers.js';
import { scratchProject, type Scratch } from './render-project.js';

// Issue 25: prompt names were not held to the rules case names are, though each names a
// snapshot folder: `Agent` beside `agent`, NFC beside NFD spellings, `con`, `a:b` and a name
// holding an escape sequence were all accepted, and written as folders some checkouts cannot hold.

let project: Scratch | undefined;
afterEach(() => project?.remove());

const withCase = (name: string): Record<string, string> => ({
  [`prompts/${name}.prompt`]: 'Hello.\n',
  [`prompts/cases/${encodeURIComponent(name)}.yaml`]: `prompt: ${JSON.stringify(name)}\ncases:\n  basic:\n    input: {}\n`,
});

describe('a prompt name that cannot be a snapshot folder everywhere', () => {
  test.each([
    ['con', /it is a name Windows reserves for a device/],
    ['a:b', /a character Windows does not allow/],
    ['red\u001b[31mflag', /control character/],
    ['trailing.', /ends in a space or a dot/],
  ])('%j is refused at its file, exit 2', async (name, why) => {
    project = scratchProject(withCase(name));
    const result = await project.check();
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(why);
    expect(result.stderr).toContain('Unexpected prompt name');
    expect(result.stderr).toMatch(/prompts\/[^\n]*\.prompt:1:1: /);
    // Nothing the name holds reaches the terminal as it is.
    expect(result.stderr).not.toContain('\u001b');
    expect(result.stdout).not.toContain('\u001b');
  });

  test.each([
    ['Agent', 'agent'],
    ['caf\u00e9', 'cafe\u0301'],
  ])('%j beside %j is refused: one folder on macOS and Windows', async (a, b) => {
    project = scratchProject({ ...withCase(a), ...withCase(b) });
    const result = await project.check();
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Unexpected prompt "[^"]+" beside "[^"]+" \(prompts\/[^)]+\.prompt\): their names differ only in case or Unicode normalisation/);
    expect(result.stderr).toMatch(/\(config\/duplicate\)/);
  });

  test('`render --list` never prints an escape sequence from a name', async () => {
    project = scratchProject(withCase('red\u001b[31mflag'));
    const result = await cliInProcess(['render', '--list'], { cwd: project.dir });
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).not.toContain('\u001b');
  });

  test('ordinary names, and names that differ in more than case, are accepted', async () => {
    project = scratchProject({ ...withCase('agent'), ...withCase('agent_v2'), ...withCase('Émile') });
    const result = await cliInProcess(['render', '--list'], { cwd: project.dir });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').filter(Boolean).sort()).toEqual(['agent basic', 'agent_v2 basic', 'Émile basic'].sort());
  });
});
