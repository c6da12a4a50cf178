import { afterEach, describe, expect, test } from '@jest/globals';
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
