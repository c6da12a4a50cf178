import { execFileSync } from 'node:child_process';
import { cliInProcess as cli, withDemo, lineOf, report } from './helpers.js';

// Drifts between the schema and what it must agree with outside the prompt: the handler's
// own type, recorded calls, stored tool_use blocks, and the committed tools baseline.
// The CLI runs in this process (see cliInProcess).

const check = (dir: string, ...args: string[]) => cli(['check', '--format', 'json', ...args], { cwd: dir });

test('a required field added to the handler type only: handler/required-not-in-schema with both required sets', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/handlers/lookup-order.ts', '  include_items?: boolean;', '  include_items?: boolean;\n  /** Who asked, for the audit log. */\n  requested_by: string;');
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const hit = report(result).diagnostics.find((d) => d.ruleId === 'handler/required-not-in-schema');
    expect(hit).toBeDefined();
    expect(hit!.tool).toBe('lookup_order');
    expect(hit!.message).toContain('requested_by');
    expect(hit!.message).toContain('order_id');
    // Stored conversations replay into the handler: every stored lookup_order call now fails it.
    const replay = report(result).diagnostics.find((d) => d.ruleId === 'persisted/handler-rejects');
    expect(replay).toMatchObject({ tool: 'lookup_order' });
    expect(replay!.witnesses!.length).toBeGreaterThan(0);
  }));

test('the schema requiring more than the handler is not an error (subset, not equality)', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/handlers/lookup-order.ts', '  order_id: string;', '  order_id?: string;');
    const result = await check(demo.dir);
    const found = report(result).diagnostics.filter((d) => d.ruleId.startsWith('handler/'));
    expect(found.map((d) => [d.ruleId, d.severity])).toEqual([['handler/optional-in-handler', 'info']]);
    expect(result.code).toBe(0);
  }));

test('a tightened bound that recorded refunds exceed: recorded/invalid and compat/maximum-decreased, with witnesses', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/tools/index.ts', 'amount_cents: z.number().int().min(1).max(100_000)', 'amount_cents: z.number().int().min(1).max(50_000)');
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const diagnostics = report(result).diagnostics;
    const recorded = diagnostics.find((d) => d.ruleId === 'recorded/invalid' && d.tool === 'create_refund');
    expect(recorded).toBeDefined();
    expect(recorded!.instancePath).toBe('/amount_cents');
    expect(recorded!.witnesses!.every((w) => typeof w.value === 'number' && w.value > 50_000)).toBe(true);
    expect(recorded!.witnesses!.every((w) => /^call_\d{4}$/.test(w.id))).toBe(true);
    const compat = diagnostics.find((d) => d.ruleId === 'compat/maximum-decreased');
    expect(compat).toMatchObject({ tool: 'create_refund', instancePath: '/amount_cents' });
    expect(compat!.witnesses!.length).toBeGreaterThan(0);
    expect(compat!.message).toMatch(/no longer expressible/);
  }));

test('a new required field comes with the two-step advice', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/tools/index.ts', "note: z.string().max(500).optional(),", "note: z.string().max(500).optional(),\n      channel: z.enum(['chat', 'email']),");
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const hit = report(result).diagnostics.find((d) => d.ruleId === 'compat/required-added');
    expect(hit).toMatchObject({ tool: 'create_refund' });
    expect(JSON.stringify(hit)).toMatch(/optional/i);
  }));

test('a stored tool_use row the schema and handler reject: persisted/invalid and persisted/handler-rejects', () =>
  withDemo(async (demo) => {
    const bad = JSON.stringify({ role: 'assistant', content: [{ type: 'tool_use', id: 'toulu_bad', name: 'lookup_order', input: { order_id: 'A-1234', include_items: 'yes' } }] });
    demo.write('prompts/observed/conversations.sql', `${demo.read('prompts/observed/conversations.sql')}INSERT INTO messages VALUES ('msg_bad', 'conv_999', 'assistant', '2026-11-30T10:00:00Z', '${bad}');\n`);
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const diagnostics = report(result).diagnostics;
    for (const rule of ['persisted/invalid', 'persisted/handler-rejects']) {
      const hit = diagnostics.find((d) => d.ruleId === rule);
      expect(hit).toMatchObject({ tool: 'lookup_order', instancePath: '/include_items' });
      expect(hit!.witnesses).toEqual([expect.objectContaining({ id: 'msg_bad', value: 'yes' })]);
    }
  }));

test('a policy entry with a reason accepts a reviewed break; one without a reason cannot run', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/tools/index.ts', 'amount_cents: z.number().int().min(1).max(100_000)', 'amount_cents: z.number().int().min(1).max(95_000)');
    demo.edit('prompt-contract.config.ts', "  providers: ['anthropic', 'openai'],", "  providers: ['anthropic', 'openai'],\n  policy: 'prompt-contract.policy.yaml',");
    demo.write('prompt-contract.policy.yaml', 'ignore:\n  - rule: compat/maximum-decreased\n    tool: create_refund\n    path: /amount_cents\n    reason: Refunds above £950 go to a human since 2026-11; approved in review.\n');
    const accepted = await check(demo.dir);
    expect(report(accepted).diagnostics.filter((d) => d.ruleId.startsWith('compat/'))).toEqual([]);
    demo.write('prompt-contract.policy.yaml', 'ignore:\n  - rule: compat/maximum-decreased\n    tool: create_refund\n');
    const refused = await check(demo.dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/prompt-contract\.policy\.yaml:2:\d+: .*reason/);
  }));

test('--against compares the tools with the baseline committed at a git ref', () =>
  withDemo(async (demo) => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: demo.dir, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' } });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'baseline');
    // The working-tree baseline moves with the change (as after `jest -u`); the ref still has the old one.
    demo.edit('snapshots/tools.json', '"maximum": 100000', '"maximum": 60000');
    demo.edit('prompts/tools/index.ts', 'amount_cents: z.number().int().min(1).max(100_000)', 'amount_cents: z.number().int().min(1).max(60_000)');
    const workingTree = report(await check(demo.dir)).diagnostics.filter((d) => d.ruleId.startsWith('compat/'));
    expect(workingTree).toEqual([]);
    const againstHead = report(await check(demo.dir, '--against', 'HEAD')).diagnostics.filter((d) => d.ruleId.startsWith('compat/'));
    expect(againstHead.map((d) => d.ruleId)).toEqual(['compat/maximum-decreased']);
    const badRef = await check(demo.dir, '--against', 'no-such-ref');
    expect(badRef.code).toBe(2);
    expect(badRef.stderr).toContain('no-such-ref');
  }));

test('the demo fixtures look like production: about 3% legacy orders, refunds up to about 90,000 cents', () =>
  withDemo(async (demo) => {
    const lines = demo.read('prompts/observed/recorded_calls.jsonl').trim().split('\n').map((l) => JSON.parse(l) as { name: string; arguments: { order_id?: string; amount_cents?: number } });
    expect(lines.length).toBeGreaterThanOrEqual(300);
    const withOrder = lines.filter((l) => l.arguments.order_id);
    const legacy = withOrder.filter((l) => l.arguments.order_id!.startsWith('B-')).length / withOrder.length;
    expect(legacy).toBeGreaterThan(0.01);
    expect(legacy).toBeLessThan(0.06);
    const refunds = lines.filter((l) => l.name === 'create_refund').map((l) => l.arguments.amount_cents!);
    expect(Math.max(...refunds)).toBeGreaterThan(50_000);
    expect(Math.max(...refunds)).toBeLessThanOrEqual(100_000);
    expect(lineOf(demo.read('prompts/observed/conversations.sql'), 'tool_use')).toBeGreaterThan(0);
  }));

test('a stale example under a retrieval key no case uses is still caught', () =>
  withDemo(async (demo) => {
    const file = 'prompts/stubs/help_center.yaml';
    demo.edit(file, '  no_results: []', '  gift_cards:\n    - id: HC-410\n      title: Gift cards\n      body: Gift cards cannot be refunded.\n      resolution:\n        name: issue_store_credit\n        arguments:\n          customer_id: C-1\n          amount_cents: 500\n\n  no_results: []');
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const hit = report(result).diagnostics.find((d) => d.ruleId === 'example/invalid-arguments');
    expect(hit).toMatchObject({ file, line: lineOf(demo.read(file), 'customer_id: C-1\n'), instancePath: '/customer_id' });
  }));

test('clean tool changes are not flagged: wording, a loosened bound, a new optional parameter', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/tools/index.ts', 'amount_cents: z.number().int().min(1).max(50_000)', 'amount_cents: z.number().int().min(1).max(75_000)');
    demo.edit('prompts/tools/index.ts', 'limit: z.number().int().min(1).max(10).default(3),', 'limit: z.number().int().min(1).max(10).default(3),\n      include_archived: z.boolean().optional(),');
    demo.edit('prompts/tools/descriptions.yaml', 'Report where a refund is', 'Tell where a refund is');
    const found = report(await check(demo.dir)).diagnostics;
    expect(found.filter((d) => !d.ruleId.startsWith('snapshot/'))).toEqual([]);
    expect(found.length).toBeGreaterThan(0); // the snapshots show the change for review
  }));

test('an unreachable conversation store cannot run: exit 2 naming the source', () =>
  withDemo(async (demo) => {
    demo.edit('prompt-contract.config.ts', 'sqlite: demoConversationStore(),', "sqlite: 'missing/conversations.db',");
    const result = await check(demo.dir);
    expect(result.code).toBe(2);
    // The JSON report CI reads holds the one error; the message goes to stderr as well.
    expect(report(result).diagnostics.map((d) => d.ruleId)).toEqual(['persisted/unreachable']);
    expect(result.stderr).toContain('support-conversations');
    expect(result.stderr).toContain('persisted/unreachable');
  }));

test('diff without files compares the project with its committed baseline, with witnesses', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/tools/index.ts', 'amount_cents: z.number().int().min(1).max(100_000)', 'amount_cents: z.number().int().min(1).max(50_000)');
    const result = await cli(['diff', '--format', 'json'], { cwd: demo.dir });
    expect(result.code).toBe(1);
    const hit = report(result).diagnostics.find((d) => d.ruleId === 'compat/maximum-decreased');
    expect(hit!.witnesses!.map((w) => w.id)).toEqual(expect.arrayContaining(['call_0054']));
  }));

test('a missing template variable names the case that lacks it', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/cases/refund_agent.yaml', '      message: "Do you refund gift cards?"\n', '');
    const result = await check(demo.dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/prompts\/refund_agent\.prompt:\d+:\d+: Missing template variable `message`.*case `empty_retrieval` is defined at prompts\/cases\/refund_agent\.yaml:\d+/);
  }));
