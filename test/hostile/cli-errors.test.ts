import { join } from 'node:path';
import { cli, cliInProcess, repo, withDemo } from '../cli/helpers.js';

// Issue #10, items 8 and 11: what the user typed is named in the message, with what exists;
// nothing a user supplies ends in a stack trace. What render names runs the CLI in this process
// (see cliInProcess); errors, their stack traces and PROMPT_CONTRACT_DEBUG go through the binary.

const stack = /^\s+at /m;

describe('render names what it does not know', () => {
  test('an unknown prompt: the known prompts, the prompts folder, and a guess', async () => {
    const plain = await cliInProcess(['render', 'nope']);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toBe('prompt-contract: Unknown prompt `nope`, expected one of `order_triage`, `refund_agent`, `status_chat` (the `.prompt` files in `prompts`) (render/unknown-prompt)\n');
    const typo = await cliInProcess(['render', 'refund_agnt', '--case', 'legacy_order']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('; did you mean `refund_agent`?');
  });

  test('the prompts folder is shown as the user would type it, from another folder too', async () => {
    const result = await cliInProcess(['render', 'nope', '--config', join(repo, 'prompt-contract.config.ts')], { cwd: join(repo, 'docs') });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('(the `.prompt` files in `../prompts`)');
  });

  test('an unknown case: the cases of that prompt, and a guess', async () => {
    const result = await cliInProcess(['render', 'refund_agent', '--case', 'legacy_ordr']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('prompt-contract: Unknown case `legacy_ordr` for prompt `refund_agent`, expected one of `standard_refund`, `legacy_order`, `empty_retrieval`; did you mean `legacy_order`? (render/unknown-case)\n');
  });
});

describe('errors that are not InputErrors', () => {
  const exploding = "export default { prompts: 'prompts', get tools() { throw new TypeError('the tools getter exploded'); } };\n";

  test('print one line without a stack trace; PROMPT_CONTRACT_DEBUG=1 adds the stack', () =>
    withDemo((demo) => {
      demo.write('exploding.config.mjs', exploding);
      const quiet = cli(['check', '--config', 'exploding.config.mjs'], { cwd: demo.dir });
      expect(quiet.code).toBe(2);
      expect(quiet.stderr).toBe('prompt-contract: could not run: the tools getter exploded (an internal error of prompt-contract: please report it, with the stack trace that PROMPT_CONTRACT_DEBUG=1 prints)\n');
      const debug = cli(['check', '--config', 'exploding.config.mjs'], { cwd: demo.dir, env: { PROMPT_CONTRACT_DEBUG: '1' } });
      expect(debug.code).toBe(2);
      expect(debug.stderr).toContain('TypeError: the tools getter exploded');
      expect(debug.stderr).toMatch(stack);
    }));

  test('an InputError shows its stack only under PROMPT_CONTRACT_DEBUG=1', () => {
    const quiet = cli(['render', 'nope']);
    expect(quiet.stderr).not.toMatch(stack);
    const debug = cli(['render', 'nope'], { env: { PROMPT_CONTRACT_DEBUG: '1' } });
    expect(debug.code).toBe(2);
    expect(debug.stderr).toMatch(/^prompt-contract: Unknown prompt `nope`/);
    expect(debug.stderr).toMatch(stack);
  });
});
