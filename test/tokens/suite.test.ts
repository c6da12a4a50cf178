import { parseSnapshotTokens } from '../../src/index.js';
import { JestBatch, type Demo, type JestBatchRun } from '../cli/helpers.js';

// The budget rules in the contract suite, as a user runs it with `-u`: updating the snapshots
// must not hide the growth in the same run, and a budget still fails the case. The projects
// share one Jest process (see JestBatch).

const policyText = (n: number): string =>
  Array.from({ length: n }, (_unused, i) => `Rule ${i + 1}: a refund for order class ${String.fromCharCode(65 + (i % 26))}-${1000 + i * 37} needs a photo of the damage, the receipt and a note from the courier.`).join('\n');
const file = 'snapshots/refund_agent/standard_refund.txt';

let batch: JestBatch;
let grew: Demo;
let over: Demo;
let excused: Demo;
let run: JestBatchRun;
let before: number;

function grow(demo: Demo): void {
  demo.edit('prompts/refund_agent.prompt', '## How to call tools', `${policyText(Math.ceil(before / 60))}\n\n## How to call tools`);
}

beforeAll(async () => {
  batch = new JestBatch('tokens-suite');
  grew = batch.project('grew');
  before = parseSnapshotTokens(grew.read(file))!.total;
  grow(grew);
  over = batch.project('over');
  over.edit('prompts/refund_agent.prompt', 'model: anthropic/claude-sonnet\n', `model: anthropic/claude-sonnet\nbudget: ${before - 1}\n`);
  excused = batch.project('excused');
  grow(excused);
  excused.write('policy.yaml', 'ignore:\n  - rule: budget/grew\n    reason: the refund rules are new and reviewed\n');
  excused.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  policy: 'policy.yaml',");
  run = await batch.run([grew, over, excused], ['--ci=false', '-u'], { CI: 'false' });
}, 300_000);
afterAll(() => batch?.remove());

test('-u writes the grown snapshot and still warns budget/grew in the same run, with both counts', () => {
  const result = run.of(grew);
  const after = parseSnapshotTokens(grew.read(file))!.total;
  expect(after).toBeGreaterThan(before * 1.1);
  expect(result.code).toBe(0);
  expect(result.out).toContain('budget/grew');
  expect(result.out).toContain(`\`refund_agent\` case \`standard_refund\` grew from ${before.toLocaleString('en-US')} to ${after.toLocaleString('en-US')} tokens`);
});

test('a case over its budget fails its test with budget/exceeded, under -u too', () => {
  const result = run.of(over);
  expect(result.code).toBe(1);
  const failed = result.tests.filter((t) => t.status === 'failed');
  expect(failed.map((t) => t.title)).toContain('refund_agent / standard_refund: snapshot and tool-call examples');
  expect(failed.flatMap((t) => t.failureMessages).join('\n')).toContain('budget/exceeded');
});

test('a policy entry with a reason accepts the growth', () => {
  const result = run.of(excused);
  expect(result.code).toBe(0);
  expect(result.out).not.toContain('budget/grew');
  expect(parseSnapshotTokens(excused.read(file))!.total).toBeGreaterThan(before * 1.1);
});
