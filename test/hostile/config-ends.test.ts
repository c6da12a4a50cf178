// A config is code, and code of the config's can end the run or never finish loading. Neither
// may pass for a clean run: CI reads the exit code. A config computed by a promise is awaited.
import { expect, test } from '@jest/globals';
import { cli, withDemo } from '../cli/helpers.js';

const config = 'prompt-contract.config.ts';

test('a top-level await that never settles exits 2 saying so, not 13 in silence', () =>
  withDemo((demo) => {
    demo.write(config, `${demo.read(config)}\nawait new Promise(() => {});\n`);
    const r = cli(['check', '--no-cache'], { cwd: demo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/could not run: the run was left waiting on a promise that never settles, most likely a top-level `await` in the config/);
  }));

test.each([0, 1])('process.exit(%i) in the config is neither a pass nor findings: exit 2, saying the run did not finish', (exitCode) =>
  withDemo((demo) => {
    // A broken case the run would have reported: the early exit used to hide it with exit 0.
    demo.edit('prompts/cases/order_triage.yaml', 'order_id: A-2051', 'order_number: A-2051');
    demo.write(config, `${demo.read(config)}\nprocess.exit(${exitCode});\n`);
    const r = cli(['check', '--no-cache'], { cwd: demo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`could not run: the process was ended (\`process.exit(${exitCode})\`) before the run finished`);
  }));

test('a default export that is a promise is awaited; one that rejects is a load error naming the config', () =>
  withDemo((demo) => {
    const text = demo.read(config);
    demo.write(config, text.replace(/^export default defineConfig\(/m, 'export default Promise.resolve(defineConfig(').replace(/^\}\);$/m, '}));'));
    const ok = cli(['check', '--no-cache'], { cwd: demo.dir });
    expect({ code: ok.code, stderr: ok.stderr }).toEqual({ code: 0, stderr: '' });
    demo.write(config, text.replace(/^export default defineConfig\(/m, 'export default Promise.reject(new Error("no tools today"));\nexport const unused = defineConfig('));
    const r = cli(['check', '--no-cache'], { cwd: demo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/prompt-contract\.config\.ts: Cannot load the config: its default export is a promise that rejected: no tools today \(config\/load-failed\)/);
    expect(r.stderr).not.toMatch(/UnhandledPromiseRejection|\n\s+at /);
  }));

test("a config's hook that exits after the run cannot change its exit code: findings stay exit 1", () =>
  withDemo((demo) => {
    demo.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
    demo.write(config, `${demo.read(config)}\nprocess.on('beforeExit', () => process.exit(0));\nsetTimeout(() => process.exit(0), 5000).unref();\n`);
    const r = cli(['check', '--no-cache'], { cwd: demo.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/example\/invalid-arguments/);
  }));

// Issue #25 (hostile re-test): an `exit` listener of the config's runs after the CLI's own and
// set `process.exitCode = 0`; `process.reallyExit(0)` skips every listener. Both ended a run
// with an error finding with exit 0.
test.each([
  ["process.on('exit', () => { process.exitCode = 0; });", 1],
  ["process.on('exit', () => process.exit(0));", 1],
  ["process.prependListener('exit', () => { process.exitCode = 0; });", 1],
  ["process.reallyExit = () => {}; setTimeout(() => {}, 10);", 1],
])('after the run, %s cannot change its exit code', (hook, expected) =>
  withDemo((demo) => {
    demo.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
    demo.write(config, `${demo.read(config)}\n${hook}\n`);
    const r = cli(['check', '--no-cache'], { cwd: demo.dir });
    expect(r.code).toBe(expected);
    expect(r.stdout).toMatch(/example\/invalid-arguments/);
  }));

test('process.reallyExit(0) while the config loads is no pass: exit 2, saying the run did not finish', () =>
  withDemo((demo) => {
    demo.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
    demo.write(config, `${demo.read(config)}\n(process as unknown as { reallyExit(code: number): void }).reallyExit(0);\n`);
    const r = cli(['check', '--no-cache'], { cwd: demo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('could not run: the process was ended (`process.exit(0)`) before the run finished');
  }));
