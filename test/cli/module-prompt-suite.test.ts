// Issue #27: a prompt module in the Jest suite. The suite imports it with Jest's own loader
// (a `.prompt.ts` file through the project's transform), snapshots what it builds, and fails on
// a stale example in it, as `check` does.
import { afterAll, expect, test } from '@jest/globals';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addJestSuite, runJestAsync, stableScratch } from './helpers.js';

const scratch = stableScratch('module-prompt-suite');
const dir = join(scratch.dir, 'project');
afterAll(() => scratch.remove());

const tool = { name: 'lookup_order', description: 'Look an order up.', input_schema: { type: 'object', properties: { order_id: { type: 'string', pattern: '^A-\\d{4}$' } }, required: ['order_id'], additionalProperties: false } };
const module = (orderId: string) => `import { definePrompt } from 'prompt-contract';

export default definePrompt<{ user: string }>({
  tools: ['lookup_order'],
  render: async (input) => \`You help \${input.user}.\\n\\nExample:\\n<tool_call>{"name": "lookup_order", "arguments": {"order_id": "${orderId}"}}</tool_call>\\n\`,
});
`;

test("the suite renders a prompt module with Jest's loader, writes and compares its snapshot, and fails on a stale example in it", async () => {
  mkdirSync(join(dir, 'prompts', 'cases'), { recursive: true });
  mkdirSync(join(dir, 'snapshots'), { recursive: true });
  writeFileSync(join(dir, 'prompt-contract.config.json'), JSON.stringify({ prompts: 'prompts', snapshots: 'snapshots', tools: [tool] }));
  writeFileSync(join(dir, 'prompts', 'agent.prompt.ts'), module('A-1042'));
  writeFileSync(join(dir, 'prompts', 'cases', 'agent.yaml'), 'prompt: agent\ncases:\n  basic:\n    input:\n      user: Ada\n');
  addJestSuite(dir);
  // A local run with -u writes the snapshot (CI=false: not a CI run).
  const first = await runJestAsync(dir, ['-u'], { CI: 'false' });
  expect(first.out).not.toMatch(/✕/);
  expect(first.code).toBe(0);
  expect(readFileSync(join(dir, 'snapshots', 'agent', 'basic.txt'), 'utf8')).toContain('You help Ada.');
  const again = await runJestAsync(dir, [], { CI: 'true' });
  expect(again.code).toBe(0);
  writeFileSync(join(dir, 'prompts', 'agent.prompt.ts'), module('1042'));
  const stale = await runJestAsync(dir, [], { CI: 'true' });
  expect(stale.code).toBe(1);
  expect(stale.out).toContain('example/invalid-arguments');
  expect(stale.out).toContain('the text was built by code, in prompts/agent.prompt.ts');
}, 120_000);
