// `check --workers N`: cases spread over worker threads (src/checks/cases.ts), each thread
// reading only the prompts of the groups it takes, give the findings one thread gives, in the
// same order; an error a worker meets stops the run as it would in one thread. The built CLI
// runs (the worker script exists only in dist/), concurrently: two cores. On a project this
// small the main thread would take every group before a worker starts, so the runs with
// threads leave every group to the workers (PROMPT_CONTRACT_TEST_WORKERS_ONLY) and print how
// many each took.
import { expect, test } from '@jest/globals';
import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { cliAsync, cliInProcess, report, withDemo, type CliResult } from './helpers.js';

const run = (dir: string, workers: number) =>
  cliAsync(['check', '--no-cache', '--format', 'json', '--workers', String(workers)], { cwd: dir, env: workers > 1 ? { PROMPT_CONTRACT_TEST_WORKERS_ONLY: '1', PROMPT_CONTRACT_THREAD_STATS: '1' } : {} });

/** Groups each thread took, from the PROMPT_CONTRACT_THREAD_STATS line: this thread's first. */
const withoutStats = (stderr: string): string => stderr.replace(/^prompt-contract threads:.*\n/m, '');
const taken = (stderr: string): number[] => /prompt-contract threads: ([\d +]+) of \d+ groups/.exec(stderr)![1]!.split(' + ').map(Number);

// Threads set by the flag, and by PROMPT_CONTRACT_WORKERS when the flag is not given; the flag wins.
test('three threads report what one thread reports, in the same order, drift in every prompt included', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
    demo.edit('prompts/examples/order_triage.yaml', 'reason: customer_request', 'reason: changed_my_mind');
    demo.edit('prompts/examples/status_chat.yaml', 'refund_id: RF-204511', 'refund_id: "204511"');
    demo.edit('snapshots/status_chat/first_message.txt', 'Priya', 'Pria');
    const args = ['check', '--no-cache', '--format', 'json'];
    const env = { PROMPT_CONTRACT_TEST_WORKERS_ONLY: '1', PROMPT_CONTRACT_THREAD_STATS: '1', PROMPT_CONTRACT_WORKERS: '3' };
    const [one, three, flag] = await Promise.all([run(demo.dir, 1), cliAsync(args, { cwd: demo.dir, env }), cliAsync([...args, '--workers', '2'], { cwd: demo.dir, env })]);
    expect(one.code).toBe(1);
    expect(three.code).toBe(one.code);
    expect(taken(three.stderr)).toHaveLength(3);
    expect(taken(flag.stderr)).toHaveLength(2);
    const findings = (r: typeof one) => report(r).diagnostics.filter((d) => !d.ruleId.startsWith('persisted/'));
    expect(findings(three)).toEqual(findings(one));
    expect({ code: flag.code, findings: findings(flag) }).toEqual({ code: one.code, findings: findings(one) });
    // The workers did the work: this thread took nothing.
    expect(taken(three.stderr)[0]).toBe(0);
    expect(taken(three.stderr).slice(1).reduce((a, b) => a + b)).toBeGreaterThan(0);
    // The drift of each prompt is there: the threads did every group.
    const files = new Set(findings(one).map((d) => d.file));
    for (const file of ['prompts/examples/refund_agent.yaml', 'prompts/examples/order_triage.yaml', 'prompts/examples/status_chat.yaml', 'snapshots/status_chat/first_message.txt']) expect(files).toContain(file);
  }));

test('a render error in a worker exits 2 with the place one thread names; of two, the one a single thread meets first', () =>
  withDemo(async (demo) => {
    // Two broken cases in two prompts: one thread stops at the first in check order (order_triage before refund_agent).
    demo.edit('prompts/cases/refund_agent.yaml', 'message: "Do you refund gift cards?"', 'messages: "Do you refund gift cards?"');
    demo.edit('prompts/cases/order_triage.yaml', 'order_id: A-2051', 'order_number: A-2051');
    const [one, three] = await Promise.all([run(demo.dir, 1), run(demo.dir, 3)]);
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/render\/missing-variable/);
    expect(one.stderr).toContain('order_triage');
    expect({ code: three.code, stderr: withoutStats(three.stderr) }).toEqual({ code: one.code, stderr: one.stderr });
  }));

test('custom notations (functions, which cannot be sent to a thread): each worker loads the config, with the same findings', () =>
  withDemo(async (demo) => {
    demo.edit('prompt-contract.config.ts', "import { defineConfig } from 'prompt-contract';", "import { defineConfig, defineNotation } from 'prompt-contract';\nconst house = defineNotation({ name: 'house-call', *find(text: string) { const re = /^CALL ([\\w.-]+) WITH (.*)$/gm; for (let m = re.exec(text); m; m = re.exec(text)) yield { start: m.index, end: m.index + m[0].length, name: m[1]!, json: m[2]! }; }, parse: (m: { name: string; json: string }) => [{ name: m.name, arguments: JSON.parse(m.json) }] });");
    demo.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  notations: [house],");
    demo.edit('prompts/order_triage.prompt', 'Orders that have shipped', 'House example:\nCALL escalate_to_human WITH {"reason": "not-a-reason"}\n\nOrders that have shipped');
    const [one, three] = await Promise.all([run(demo.dir, 1), run(demo.dir, 3)]);
    expect(one.code).toBe(1);
    const house = (r: typeof one) => report(r).diagnostics.filter((d) => d.file === 'prompts/order_triage.prompt' && d.ruleId === 'example/invalid-arguments');
    // Found in the template once, and in every rendered case that repeats it: the workers read the notation too.
    expect(house(one).length).toBeGreaterThan(0);
    expect(report(three).diagnostics).toEqual(report(one).diagnostics);
    expect(taken(three.stderr)[0]).toBe(0);
  }));

// The count is read by `main`, which the binary runs as well: this one runs in this process (see cliInProcess).
test('a workers count that is not a whole number of at least 1 is a usage error', () =>
  withDemo(async (demo) => {
    for (const bad of ['0', '-1', 'two', '1.5']) {
      const r = await cliInProcess(['check', '--no-cache', '--format', 'json', '--workers', bad], { cwd: demo.dir });
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: expect.stringContaining('--workers') });
    }
  }));

test('with --shard and with a warm cache, threads report what one thread reports', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
    const env = { PROMPT_CONTRACT_TEST_WORKERS_ONLY: '1', PROMPT_CONTRACT_THREAD_STATS: '1' };
    const json = (r: CliResult) => report(r).diagnostics;
    // The second shard: its cases do not start at the first case (test/cli/shard.test.ts covers every shard in one thread).
    const args = ['check', '--no-cache', '--format', 'json', '--shard', '2/2'];
    const [one, three] = await Promise.all([cliAsync([...args, '--workers', '1'], { cwd: demo.dir }), cliAsync([...args, '--workers', '3'], { cwd: demo.dir, env })]);
    expect(one.code).toBe(1);
    expect({ code: three.code, diagnostics: json(three) }).toEqual({ code: one.code, diagnostics: json(one) });
    // A cached run, then one example changed: the threads check only the cases that render it.
    // Files dated an hour back, as committed ones are: the cache does not trust a file changed
    // within two seconds of the run that stamped it (see `racy` in src/checks/cache.ts).
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const e of readdirSync(demo.dir, { recursive: true, withFileTypes: true })) if (e.isFile()) utimesSync(join(e.parentPath, e.name), hourAgo, hourAgo);
    const cached = ['check', '--format', 'json'];
    const first = await cliAsync([...cached, '--workers', '3'], { cwd: demo.dir, env });
    demo.edit('prompts/examples/order_triage.yaml', 'reason: customer_request', 'reason: changed_my_mind');
    const second = await cliAsync([...cached, '--workers', '3'], { cwd: demo.dir, env: { ...env, PROMPT_CONTRACT_CACHE_STATS: '1' } });
    const fresh = await cliAsync(['check', '--no-cache', '--format', 'json', '--workers', '1'], { cwd: demo.dir });
    expect(first.code).toBe(1);
    expect({ code: second.code, diagnostics: json(second) }).toEqual({ code: fresh.code, diagnostics: json(fresh) });
    expect(second.stderr).toMatch(/prompt-contract cache: [1-9]\d* of \d+ cases reused/);
  }));

// Where PROMPT_CONTRACT_WORKERS sets the threads is in the first test.
test('a PROMPT_CONTRACT_WORKERS that is not a whole number of at least 1 is refused', () =>
  withDemo(async (demo) => {
    const args = ['check', '--no-cache', '--format', 'json'];
    const bad = await cliInProcess(args, { cwd: demo.dir, env: { PROMPT_CONTRACT_WORKERS: 'many' } });
    expect({ code: bad.code, stderr: bad.stderr }).toEqual({ code: 2, stderr: expect.stringContaining('PROMPT_CONTRACT_WORKERS="many"') });
  }));
