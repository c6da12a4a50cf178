import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliInProcess, JestBatch, report, type CliResult, type demoCopy, type JestBatchRun, type JsonReport } from './helpers.js';

// The CLI and the Jest suite are two doors to the same checks: over the same drifted project,
// `check` and `contractSuite` must report the same findings, each at the same file and line.

type Finding = string;

function findings(diagnostics: JsonReport['diagnostics']): Finding[] {
  return [...new Set(diagnostics.map((d) => `${d.ruleId} ${d.file ?? '-'}:${d.line ?? '-'}`))].sort();
}

interface Drift {
  name: string;
  /** Breaks the copy. */
  apply(demo: ReturnType<typeof demoCopy>): void;
  /** Rule ids the drift must produce (the comparison then checks the rest agree). */
  expect: string[];
  /** Titles of the suite's tests that must fail on it. */
  failing: string[];
}

const drifts: Drift[] = [
  {
    name: 'a stale key in descriptions.yaml',
    apply: (demo) => demo.edit('prompts/tools/descriptions.yaml', 'lookup_order:\n', 'lookup_orders:\n  description: A tool that no longer exists.\nlookup_order:\n'),
    expect: ['config/unknown-description-target'],
    failing: ['the config, tools and tool descriptions load cleanly'],
  },
  {
    name: 'a stale curated example that several cases render',
    apply: (demo) => demo.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000'),
    expect: ['example/invalid-arguments'],
    failing: ['every curated example and retrieval-stub entry fits the current schemas'],
  },
  {
    name: 'a stale example written in a template',
    apply: (demo) => demo.edit('prompts/refund_agent.prompt', 'You are', '<tool_call>\n{"name": "lookup_order", "arguments": {"order_id": "Z-1"}}\n</tool_call>\nYou are'),
    expect: ['example/invalid-arguments', 'snapshot/outdated'],
    failing: ['refund_agent / legacy_order: snapshot and tool-call examples', 'refund_agent / standard_refund: snapshot and tool-call examples'],
  },
  {
    name: 'a handler that requires a field the schema does not, and stored calls it would reject',
    apply: (demo) => demo.edit('prompts/handlers/lookup-order.ts', '  include_items?: boolean;', '  include_items?: boolean;\n  requested_by: string;'),
    expect: ['handler/required-not-in-schema', 'persisted/handler-rejects'],
    failing: ['handler argument types agree with the tool schemas', 'persisted tool_use blocks in `support-conversations` fit the schemas and handlers'],
  },
  {
    name: 'a property name providers warn about, and a policy entry that matches nothing (warnings and infos)',
    apply: (demo) => {
      demo.edit('prompts/tools/index.ts', "note: z.string().max(500).optional(),", "note: z.string().max(500).optional(),\n      'gift card?': z.string().optional(),");
      demo.write('policy.yaml', 'ignore:\n  - rule: compat/enum-value-removed\n    tool: cancel_order\n    reason: Kept for a migration that has since finished.\n');
      demo.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  policy: 'policy.yaml',");
    },
    expect: ['provider/property-name-invalid', 'compat/unused-ignore'],
    failing: ['refund_agent / standard_refund: snapshot and tool-call examples'],
  },
  {
    name: 'a reworded template and an obsolete snapshot',
    apply: (demo) => {
      demo.edit('prompts/refund_agent.prompt', 'You are', 'You are, as always,');
      demo.write('snapshots/refund_agent/retired_case.txt', demo.read('snapshots/refund_agent/legacy_order.txt'));
    },
    expect: ['snapshot/outdated', 'snapshot/obsolete'],
    failing: ['refund_agent / legacy_order: snapshot and tool-call examples', 'the snapshots folder holds only current snapshots'],
  },
  {
    name: 'a tightened bound with recorded calls as witnesses, and a recorded call the schema rejects',
    apply: (demo) => {
      demo.edit('prompts/tools/index.ts', 'amount_cents: z.number().int().min(1).max(100_000)', 'amount_cents: z.number().int().min(1).max(1_000)');
      const file = join(demo.dir, 'prompts/observed/recorded_calls.jsonl');
      writeFileSync(file, `${readFileSync(file, 'utf8')}{"id":"call_bad","name":"lookup_order","arguments":{"order_id":"Z-1"}}\n`);
    },
    expect: ['compat/maximum-decreased', 'recorded/invalid', 'snapshot/outdated'],
    failing: ['tool definitions keep backward compatibility with the baseline snapshots/tools.json', 'recorded tool calls fit the current schemas'],
  },
];

// Each drift is a project of its own; one Jest process runs the suites of all of them (with
// --ci, as each would run alone), while `check` runs on each project beside it, in this process
// (see cliInProcess).
const suite = "import { contractSuite } from 'prompt-contract/jest';\n\nawait contractSuite({ report: 'jest-report.json' });\n";
let batch: JestBatch;
const projects: Array<ReturnType<typeof demoCopy>> = [];
const fromCli: CliResult[] = [];
let jest: JestBatchRun;

beforeAll(async () => {
  batch = new JestBatch('agreement');
  for (const [i, drift] of drifts.entries()) {
    const demo = batch.project(`drift-${i + 1}`, suite);
    drift.apply(demo);
    projects.push(demo);
  }
  const running = batch.run(projects, ['--ci'], { CI: 'true' });
  for (const demo of projects) fromCli.push(await cliInProcess(['check', '--format', 'json'], { cwd: demo.dir }));
  jest = await running;
}, 300_000);
afterAll(() => batch?.remove());

describe('check and the Jest suite report the same findings', () => {
  for (const [i, drift] of drifts.entries()) {
    test(drift.name, () => {
      const demo = projects[i]!;
      const run = jest.of(demo);
      expect(run.code).toBe(1);
      const fromJest = JSON.parse(readFileSync(join(demo.dir, 'jest-report.json'), 'utf8')) as JsonReport;

      const cliReport = report(fromCli[i]!);
      const cliFindings = findings(cliReport.diagnostics);
      for (const rule of drift.expect) expect(cliFindings.some((f) => f.startsWith(`${rule} `))).toBe(true);
      expect(findings(fromJest.diagnostics)).toEqual(cliFindings);
      for (const title of drift.failing) expect({ title, failed: run.out.includes(`› ${title}`) }).toEqual({ title, failed: true });
      // Every finding the CLI reports is in Jest's output: errors in a failure, the rest printed.
      for (const d of cliReport.diagnostics.filter((x) => x.ruleId !== 'snapshot/outdated')) {
        expect({ rule: d.ruleId, shown: run.out.includes(d.ruleId) }).toEqual({ rule: d.ruleId, shown: true });
      }
    });
  }
});
