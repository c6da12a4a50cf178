import { afterEach, describe, expect, test } from '@jest/globals';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { addJestSuite, cliInProcess, runJestAsync, stableScratch } from '../cli/helpers.js';
import { scratchProject, staleCall, type Scratch } from './render-project.js';

// Issue 25: a `.prompt` file that no cases file names was never rendered or checked, and the
// run said "No problems found." even with a stale call written in it.

let project: Scratch | undefined;
afterEach(() => project?.remove());

describe('a prompt no case renders', () => {
  test('is reported as `render/no-case`, a warning at the prompt file, line 1', async () => {
    project = scratchProject({ 'prompts/forgotten.prompt': `---\ninput:\n  default:\n    who: Ada\n---\nHello {{who}}.\n${staleCall}\n` });
    const result = await project.check();
    expect(result.stdout).not.toContain('No problems found');
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ ruleId: 'render/no-case', severity: 'warning', file: 'prompts/forgotten.prompt', line: 1, message: expect.stringContaining('Unexpected prompt `forgotten` without a case') }),
    ]);
    // A warning: the run still passes unless asked to fail on warnings.
    expect(result.code).toBe(0);
    expect((await project.check(['--fail-on', 'warning'])).code).toBe(1);
  });

  test('a cases file that names the prompt but holds no case is the same', async () => {
    project = scratchProject({ 'prompts/agent.prompt': 'Hello.\n', 'prompts/cases/agent.yaml': 'prompt: agent\ncases: {}\n' });
    const result = await project.check();
    expect(result.diagnostics.map((d) => d.ruleId)).toEqual(['render/no-case']);
  });

  test('a prompt with a case, and a partial, are not reported', async () => {
    project = scratchProject({ 'prompts/agent.prompt': 'Hello {{> name}}.\n', 'prompts/_name.prompt': 'Ada', 'prompts/cases/agent.yaml': 'prompt: agent\ncases:\n  basic:\n    input: {}\n' });
    const result = await project.check();
    expect(result.diagnostics.filter((d) => d.ruleId === 'render/no-case')).toEqual([]);
  });
});

describe('a prompt no case renders, wherever the run is cut or cached', () => {
  test('each shard but the first leaves it to the first, which reports it once', async () => {
    project = scratchProject({ 'prompts/forgotten.prompt': `Hello.\n${staleCall}\n`, 'prompts/agent.prompt': 'Hi.\n', 'prompts/cases/agent.yaml': 'prompt: agent\ncases:\n  a:\n    input: {}\n  b:\n    input: {}\n' });
    const shards = await Promise.all(['1/2', '2/2'].map((s) => project!.check(['--shard', s])));
    expect(shards.map((r) => r.diagnostics.filter((d) => d.ruleId === 'render/no-case').length)).toEqual([1, 0]);
  });

  test('through the cache: a cases file added later ends the warning, and one removed brings it back', async () => {
    project = scratchProject({ 'prompts/forgotten.prompt': 'Hello.\n' });
    const env = { PROMPT_CONTRACT_CACHE_DIR: join(project.outer, 'cache') };
    const cached = async (): Promise<string[]> => {
      const r = await cliInProcess(['check', '--format', 'json'], { cwd: project!.dir, env });
      return (JSON.parse(r.stdout) as { diagnostics: Array<{ ruleId: string }> }).diagnostics.map((d) => d.ruleId);
    };
    expect(await cached()).toEqual(['render/no-case']);
    project.write('prompts/cases/forgotten.yaml', 'prompt: forgotten\ncases:\n  one:\n    input: {}\n');
    // Its new snapshot is missing, and nothing else.
    expect(await cached()).toEqual(['snapshot/missing']);
    rmSync(join(project.dir, 'prompts/cases/forgotten.yaml'));
    expect(await cached()).toEqual(['render/no-case']);
  });

  test('the Jest suite reports it too', async () => {
    const scratch = stableScratch('no-case-jest');
    try {
      const dir = join(scratch.dir, 'project');
      const p = scratchProject({ 'prompts/forgotten.prompt': 'Hello.\n' });
      cpSync(p.dir, dir, { recursive: true });
      p.remove();
      addJestSuite(dir);
      const r = await runJestAsync(dir, [], { CI: 'true' });
      expect(r.out).toContain('render/no-case');
      expect(r.out).toContain('Unexpected prompt `forgotten` without a case');
    } finally {
      scratch.remove();
    }
  }, 60_000);
});
