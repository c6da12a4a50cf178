// `check --workers N`: cases spread over worker threads (src/checks/cases.ts), each thread
// loading only its prompts, give the findings one thread gives, in the same order; an error
// a worker meets stops the run as it would in one thread. The built CLI runs (the worker
// script exists only in dist/), concurrently: two cores.
import { expect, test } from '@jest/globals';
import { cliAsync, cliInProcess, report, withDemo } from './helpers.js';

const run = (dir: string, workers: number) => cliAsync(['check', '--no-cache', '--format', 'json', '--workers', String(workers)], { cwd: dir });

test('three threads report what one thread reports, in the same order, drift in every prompt included', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
    demo.edit('prompts/examples/order_triage.yaml', 'reason: customer_request', 'reason: changed_my_mind');
    demo.edit('prompts/examples/status_chat.yaml', 'refund_id: RF-204511', 'refund_id: "204511"');
    demo.edit('snapshots/status_chat/first_message.txt', 'Priya', 'Pria');
    const [one, three] = await Promise.all([run(demo.dir, 1), run(demo.dir, 3)]);
    expect(one.code).toBe(1);
    expect(three.code).toBe(one.code);
    const findings = (r: typeof one) => report(r).diagnostics.filter((d) => !d.ruleId.startsWith('persisted/'));
    expect(findings(three)).toEqual(findings(one));
    // The drift of each prompt is there: the threads did every share.
    const files = new Set(findings(one).map((d) => d.file));
    for (const file of ['prompts/examples/refund_agent.yaml', 'prompts/examples/order_triage.yaml', 'prompts/examples/status_chat.yaml', 'snapshots/status_chat/first_message.txt']) expect(files).toContain(file);
  }));

test('a render error in a worker\'s share exits 2 with the place one thread names', () =>
  withDemo(async (demo) => {
    // Prompts go to threads in name order: refund_agent's cases are the second thread's share.
    demo.edit('prompts/cases/refund_agent.yaml', 'message: "Do you refund gift cards?"', 'messages: "Do you refund gift cards?"');
    const [one, three] = await Promise.all([run(demo.dir, 1), run(demo.dir, 3)]);
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/render\/missing-variable/);
    expect({ code: three.code, stderr: three.stderr }).toEqual({ code: one.code, stderr: one.stderr });
  }));

// The count is read by `main`, which the binary runs as well: this one runs in this process (see cliInProcess).
test('a workers count that is not a whole number of at least 1 is a usage error', () =>
  withDemo(async (demo) => {
    for (const bad of ['0', '-1', 'two', '1.5']) {
      const r = await cliInProcess(['check', '--no-cache', '--format', 'json', '--workers', bad], { cwd: demo.dir });
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: expect.stringContaining('--workers') });
    }
  }));
