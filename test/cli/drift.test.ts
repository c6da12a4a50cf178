import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cli as spawnCli, cliInProcess as cli, withDemo, lineOf, report } from './helpers.js';

// Each test makes one kind of drift in a copy of the demo and expects `check` to exit 1
// with the rule id at the file and line a person must edit. `check` runs in this process (see
// cliInProcess); the untouched demo is checked by the built binary, end to end.

const check = (dir: string, env: NodeJS.ProcessEnv = {}) => cli(['check', '--format', 'json'], { cwd: dir, env });

test('the untouched demo checks clean', () =>
  withDemo((demo) => {
    const result = spawnCli(['check', '--format', 'json'], { cwd: demo.dir });
    expect(report(result).diagnostics).toEqual([]);
    expect(result.code).toBe(0);
  }));

test('a required argument removed from a YAML example: example/invalid-arguments at the example', () =>
  withDemo(async (demo) => {
    const file = 'prompts/examples/refund_agent.yaml';
    // The second example's create_refund loses its `reason`.
    demo.edit(file, /(amount_cents: 12999\n)\s+reason: not_delivered\n/, '$1');
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const hits = report(result).diagnostics.filter((d) => d.ruleId === 'example/invalid-arguments');
    expect(hits.length).toBeGreaterThan(0);
    for (const d of hits) {
      expect(d.file).toBe(file);
      expect(d.tool).toBe('create_refund');
    }
    // The finding points into the example that lost the field, not at the template.
    const text = demo.read(file);
    const lines = hits.map((d) => d.line);
    expect(lines.every((l) => l! >= lineOf(text, 'title: A legacy order') && l! < lineOf(text, 'title: A refund over the limit'))).toBe(true);
  }));

test('an argument value out of bounds points at the argument line', () =>
  withDemo(async (demo) => {
    const file = 'prompts/examples/refund_agent.yaml';
    demo.edit(file, 'amount_cents: 4200', 'amount_cents: 420000');
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const hit = report(result).diagnostics.find((d) => d.ruleId === 'example/invalid-arguments');
    expect(hit).toMatchObject({ file, line: lineOf(demo.read(file), 'amount_cents: 420000'), instancePath: '/amount_cents', tool: 'create_refund' });
  }));

test('a tool renamed in a retrieval stub: example/unknown-tool at the stub entry, with a did-you-mean', () =>
  withDemo(async (demo) => {
    const file = 'prompts/stubs/help_center.yaml';
    demo.edit(file, 'name: issue_store_credit', 'name: issue_credit');
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const hit = report(result).diagnostics.find((d) => d.ruleId === 'example/unknown-tool');
    expect(hit).toBeDefined();
    expect(hit!.file).toBe(file);
    expect(hit!.line).toBeGreaterThanOrEqual(lineOf(demo.read(file), 'id: HC-118'));
    expect(hit!.line).toBeLessThanOrEqual(lineOf(demo.read(file), 'name: issue_credit'));
    expect(hit!.message).toContain('issue_store_credit');
  }));

test('broken JSON in a template example: example/unparseable at the template line', () =>
  withDemo(async (demo) => {
    const file = 'prompts/order_triage.prompt';
    demo.edit(file, 'Orders that have shipped', 'Broken example:\n<tool_call>\n{"name": "escalate_to_human", "arguments": {"reason": "other",}\n</tool_call>\n\nOrders that have shipped');
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const hit = report(result).diagnostics.find((d) => d.ruleId === 'example/unparseable');
    expect(hit).toMatchObject({ file, line: lineOf(demo.read(file), '<tool_call>\n{"name": "escalate_to_human"') });
  }));

test('a placeholder left in a partial: example/placeholder at the partial line', () =>
  withDemo(async (demo) => {
    const file = 'prompts/partials/_tool_call_json.prompt';
    demo.edit(file, 'Customer: {{user}}\n', 'Customer: {{user}}\n\n```tool_call\n{"name": "$FUNCTION_NAME", "arguments": {}}\n```\n');
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const hits = report(result).diagnostics.filter((d) => d.ruleId === 'example/placeholder');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]).toMatchObject({ file, line: lineOf(demo.read(file), '```tool_call') });
  }));

test('a wording change in a tool description fails as an outdated snapshot with a line diff', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/tools/descriptions.yaml', 'Amount to refund in cents, e.g. 4200 for £42.00.', 'Amount to refund, in cents.');
    const result = await cli(['check'], { cwd: demo.dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('snapshot/outdated');
    expect(result.stdout).toMatch(/^\s*-\s+Amount to refund in cents, e\.g\. 4200 for £42\.00\.$/m);
    expect(result.stdout).toMatch(/^\s*\+\s+Amount to refund, in cents\.$/m);
  }));

test('bad input exits 2 with file, line and column, and writes nothing', () =>
  withDemo(async (demo) => {
    const file = 'prompts/cases/refund_agent.yaml';
    demo.edit(file, 'retrieval: legacy_orders', 'retrieval: [legacy_orders');
    const before = readdirSync(join(demo.dir, 'snapshots'), { recursive: true }).sort();
    const result = await check(demo.dir);
    expect(result.code).toBe(2);
    expect(report(result).diagnostics).toEqual([expect.objectContaining({ ruleId: 'config/yaml-syntax', file, line: expect.any(Number), column: expect.any(Number) })]);
    expect(result.stderr).toMatch(new RegExp(`^prompt-contract: ${file.replaceAll('.', '\\.')}:\\d+:\\d+: YAML syntax error`));
    expect(readdirSync(join(demo.dir, 'snapshots'), { recursive: true }).sort()).toEqual(before);
  }));

test('a deleted snapshot is snapshot/missing; a stray one is snapshot/obsolete', () =>
  withDemo(async (demo) => {
    const legacy = demo.read('snapshots/refund_agent/legacy_order.txt');
    demo.write('snapshots/refund_agent/renamed_case.txt', legacy);
    rmSync(join(demo.dir, 'snapshots/refund_agent/legacy_order.txt'));
    const result = await check(demo.dir, { CI: 'false' });
    expect(result.code).toBe(1);
    const found = report(result).diagnostics.map((d) => [d.ruleId, d.severity, d.file]);
    expect(found).toEqual(expect.arrayContaining([
      ['snapshot/missing', 'error', 'snapshots/refund_agent/legacy_order.txt'],
      ['snapshot/obsolete', 'warning', 'snapshots/refund_agent/renamed_case.txt'],
    ]));
    // With only the stray one left: a warning locally, and on CI an error, as the test suite under --ci.
    demo.write('snapshots/refund_agent/legacy_order.txt', legacy);
    const local = await check(demo.dir, { CI: 'false' });
    expect(report(local).diagnostics.map((d) => [d.ruleId, d.severity])).toEqual([['snapshot/obsolete', 'warning']]);
    expect(local.code).toBe(0);
    const ci = await check(demo.dir, { CI: 'true' });
    expect(report(ci).diagnostics.map((d) => [d.ruleId, d.severity, d.file])).toEqual([['snapshot/obsolete', 'error', 'snapshots/refund_agent/renamed_case.txt']]);
    expect(ci.code).toBe(1);
  }));

test('a description for a parameter that no longer exists: config/unknown-description-target at its line', () =>
  withDemo(async (demo) => {
    const file = 'prompts/tools/descriptions.yaml';
    demo.edit(file, '    note: Optional note', '    memo: Optional note');
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const hit = report(result).diagnostics.find((d) => d.ruleId === 'config/unknown-description-target');
    expect(hit).toMatchObject({ file, line: lineOf(demo.read(file), 'memo: Optional note'), tool: 'create_refund' });
  }));

test('a stale structured few-shot call (an assistant turn from YAML): example/invalid-arguments at the YAML line', () =>
  withDemo(async (demo) => {
    const file = 'prompts/examples/status_chat.yaml';
    demo.edit(file, 'refund_id: RF-204511', 'refund_id: "204511"');
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const hits = report(result).diagnostics.filter((d) => d.ruleId === 'example/invalid-arguments');
    expect(hits.map((d) => [d.file, d.line, d.tool, d.instancePath])).toEqual([[file, lineOf(demo.read(file), 'refund_id: "204511"'), 'check_refund_status', '/refund_id']]);
  }));

test("a case input the prompt's Picoschema requires is missing or mistyped: render/invalid-input at the case", () =>
  withDemo(async (demo) => {
    const file = 'prompts/cases/status_chat.yaml';
    demo.edit(file, '      customer: Priya\n', '');
    demo.edit(file, 'customer: Tom', 'customer: 42');
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const hits = report(result).diagnostics.filter((d) => d.ruleId === 'render/invalid-input');
    const text = demo.read(file);
    expect(hits.map((d) => [d.file, d.line]).sort()).toEqual([
      // The missing one under the first case's `input:`, the mistyped one at its line.
      [file, lineOf(text, 'input:')],
      [file, lineOf(text, 'customer: 42')],
    ].sort());
  }));

test("a prompt's input.schema that is not Picoschema: render/invalid-input-schema at the prompt", () =>
  withDemo(async (demo) => {
    const file = 'prompts/status_chat.prompt';
    demo.edit(file, "customer: string, the customer's first name", "customer: strng, the customer's first name");
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const hit = report(result).diagnostics.find((d) => d.ruleId === 'render/invalid-input-schema');
    // At the field's own line in the frontmatter, not at the top of the file.
    expect(hit).toMatchObject({ file, line: lineOf(demo.read(file), 'customer: strng'), column: 5 });
    expect(hit!.message).toContain('strng');
  }));

test('a few-shot call whose result was left out: example/missing-result at the call, for the provider that rejects it', () =>
  withDemo(async (demo) => {
    const file = 'prompts/examples/status_chat.yaml';
    demo.edit(file, '        result: { status: shipped, carrier: DPD, eta: "2026-12-05" }\n', '');
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const hits = report(result).diagnostics.filter((d) => d.ruleId === 'example/missing-result');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]).toMatchObject({ file, tool: 'lookup_order', severity: 'error' });
    expect(hits[0]!.line).toBe(lineOf(demo.read(file), '- name: lookup_order'));
  }));

test('a stale call inside a stub entry\'s `body: |` is reported at its own line in the block, not at the entry', () =>
  withDemo(async (demo) => {
    const file = 'prompts/stubs/help_center.yaml';
    const call = '<tool_call>{"name": "create_refund", "arguments": {"order_id": "A-1042", "amount_cents": 4200, "reason": "lost"}}</tool_call>';
    demo.edit(file, '        Photos are welcome but not required for orders under £100.\n', `        Photos are welcome but not required for orders under £100.\n        Agents then write:\n          ${call}\n`);
    const result = await check(demo.dir);
    expect(result.code).toBe(1);
    const text = demo.read(file);
    const hits = report(result).diagnostics.filter((d) => d.ruleId === 'example/invalid-arguments' && d.file === file);
    expect(hits.length).toBeGreaterThan(0);
    // The call's line and column in the YAML file, where a person edits it.
    const line = lineOf(text, call);
    for (const d of hits) expect([d.line, d.column]).toEqual([line, 11]);
  }));
