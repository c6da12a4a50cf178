// Issue #25, item 10: Jest never passes a run that did not check. A config that called
// `process.exit(0)` while it was loaded made `jest` exit 0 with no test run (the CLI exits 2,
// Vitest fails).
import { expect, test } from '@jest/globals';
import { addJestSuite, runJestAsync, stableDemoCopy } from '../cli/helpers.js';

// `process.reallyExit` is Node's last step of `process.exit`, past every `exit` listener: a
// config calling it with 0 ended Jest with 0 too.
test.each([
  ['process.exit', 0],
  ['process.exit', 1],
  ['process.reallyExit', 0],
])('a config that calls %s(%i) fails the Jest run, saying what ended it', async (call, code) => {
  const demo = stableDemoCopy(`jest-exit-${call.slice(8)}-${code}`);
  try {
    addJestSuite(demo.dir);
    // A broken case the run would have reported: the early exit used to hide it.
    demo.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
    demo.write('prompt-contract.config.ts', `${demo.read('prompt-contract.config.ts')}\n(${call} as (code: number) => void)(${code});\n`);
    const r = await runJestAsync(demo.dir, [], { CI: 'true' });
    expect(r.code).toBe(1);
    expect(r.out).toContain(`Cannot load the config: the config ended the process (\`${call}(${code})\`) while it was loaded; expected it to only export its settings (config/load-failed)`);
  } finally {
    demo.remove();
  }
}, 60_000);
