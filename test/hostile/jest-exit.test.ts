// Issue #25, item 10: Jest never passes a run that did not check. A config that called
// `process.exit(0)` while it was loaded made `jest` exit 0 with no test run (the CLI exits 2,
// Vitest fails).
import { expect, test } from '@jest/globals';
import { addJestSuite, runJestAsync, stableDemoCopy } from '../cli/helpers.js';

test.each([0, 1])('a config that calls process.exit(%i) fails the Jest run, saying what ended it', async (code) => {
  const demo = stableDemoCopy(`jest-exit-${code}`);
  try {
    addJestSuite(demo.dir);
    // A broken case the run would have reported: the early exit used to hide it.
    demo.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
    demo.write('prompt-contract.config.ts', `${demo.read('prompt-contract.config.ts')}\nprocess.exit(${code});\n`);
    const r = await runJestAsync(demo.dir, [], { CI: 'true' });
    expect(r.code).toBe(1);
    expect(r.out).toContain(`Cannot load the config: the config ended the process (\`process.exit(${code})\`) while it was loaded; expected it to only export its settings (config/load-failed)`);
  } finally {
    demo.remove();
  }
}, 60_000);
