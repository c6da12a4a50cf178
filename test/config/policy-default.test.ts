import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliInProcess, JestBatch, type Demo, type JestBatchRun } from '../cli/helpers.js';

// `prompt-contract.policy.yaml` beside the config is read without a `policy` key, by `check` and
// by the Jest suite alike (both load the config through loadConfig), and the compat findings'
// advice names that file. The Jest projects share one run (see JestBatch); `check` runs in this
// process (see cliInProcess).

const tighten = (demo: Demo): void =>
  demo.edit('prompts/tools/index.ts', 'amount_cents: z.number().int().min(1).max(100_000)', 'amount_cents: z.number().int().min(1).max(80_000)');

const accept = 'ignore:\n  - rule: compat/maximum-decreased\n    tool: create_refund\n    path: /amount_cents\n    reason: Refunds above £800 go to a human from now on.\n';

let batch: JestBatch;
/** The break, and the policy file beside the config that accepts it; no `policy` key. */
let beside: Demo;
/** The same break with no policy file at all. */
let without: Demo;
/** The policy file beside the config accepts the break, but the config names another file, which does not. */
let named: Demo;
let run: JestBatchRun;
let checks: Record<'beside' | 'without' | 'named', { code: number; stdout: string; stderr: string }>;

beforeAll(async () => {
  batch = new JestBatch('policy-default');
  beside = batch.project('beside');
  without = batch.project('without');
  named = batch.project('named');
  for (const demo of [beside, without, named]) tighten(demo);
  writeFileSync(join(beside.dir, 'prompt-contract.policy.yaml'), accept);
  writeFileSync(join(named.dir, 'prompt-contract.policy.yaml'), accept);
  writeFileSync(join(named.dir, 'decisions.yaml'), 'ignore: []\n');
  named.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  policy: 'decisions.yaml',");
  // `check` first: it writes nothing, and the Jest run below rewrites the accepted baseline.
  checks = {
    beside: await cliInProcess(['check', '--format', 'json'], { cwd: beside.dir }),
    without: await cliInProcess(['check', '--format', 'json'], { cwd: without.dir }),
    named: await cliInProcess(['check', '--format', 'json'], { cwd: named.dir }),
  };
  run = await batch.run([beside, without, named], ['--ci=false', '-u'], { CI: '' });
}, 300_000);
afterAll(() => batch?.remove());

const ruleIds = (stdout: string): string[] => (JSON.parse(stdout) as { diagnostics: Array<{ ruleId: string }> }).diagnostics.map((d) => d.ruleId);
const breakOf = (stdout: string): { fix?: string; message: string } | undefined =>
  (JSON.parse(stdout) as { diagnostics: Array<{ ruleId: string; fix?: string; message: string }> }).diagnostics.find((d) => d.ruleId === 'compat/maximum-decreased');

test('check applies the ignore entry of prompt-contract.policy.yaml beside the config, with no `policy` key', () => {
  expect(checks.without.code).toBe(1);
  expect(ruleIds(checks.without.stdout)).toContain('compat/maximum-decreased');
  expect(ruleIds(checks.beside.stdout)).not.toContain('compat/maximum-decreased');
  // What is left is the tools snapshot, which the accepted change leaves to rewrite with `-u`.
  expect(ruleIds(checks.beside.stdout).filter((id) => !id.startsWith('snapshot/'))).toEqual([]);
});

test('an explicit `policy` wins over the file beside the config', () => {
  expect(checks.named.code).toBe(1);
  expect(ruleIds(checks.named.stdout)).toContain('compat/maximum-decreased');
});

test('the advice names the policy file the run reads', () => {
  const withoutFix = JSON.stringify(breakOf(checks.without.stdout));
  expect(withoutFix).toContain('`prompt-contract.policy.yaml` beside the config');
  const namedFix = JSON.stringify(breakOf(checks.named.stdout));
  expect(namedFix).toContain('`decisions.yaml`');
  expect(namedFix).not.toContain('prompt-contract.policy.yaml');
});

test('the Jest suite applies the same file: the break is accepted and the baseline rewritten', () => {
  const accepted = run.of(beside);
  expect(accepted.code).toBe(0);
  expect(beside.read('snapshots/tools.json')).toContain('"maximum": 80000');
  // The file is the run's policy: its entries are checked for use at the end, as a configured one's are.
  expect(accepted.tests.map((t) => t.title)).toContain('every policy ignore entry still matches a finding');

  const refused = run.of(without);
  expect(refused.code).toBe(1);
  expect(refused.out).toContain('compat/maximum-decreased');
  expect(refused.out).toContain('`prompt-contract.policy.yaml` beside the config');
  expect(without.read('snapshots/tools.json')).not.toContain('"maximum": 80000');

  expect(run.of(named).code).toBe(1);
});
