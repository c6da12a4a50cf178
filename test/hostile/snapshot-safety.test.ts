import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { cliInProcess as cli, JestBatch, report, withDemo, type CliResult, type Demo, type JestBatchRun } from '../cli/helpers.js';

// Issue #10, item 2: `-u` only ever deletes or overwrites files prompt-contract wrote, and a
// snapshots folder it could not manage safely is refused before anything runs.
// The four projects that run `jest -u` share one Jest run (see JestBatch); what each test runs
// before and after it keeps its order. `check` runs in this process (see cliInProcess).

/** Every file under `dir` with its content (node_modules aside), to compare before and after a run. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(path);
      } else if (e.isFile()) out[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return out;
}

const notes = 'Meeting notes: the refund agent ships on Friday.\n';
const license = 'Copyright (c) a vendored library. Permission is hereby granted...\n';
// A user's own tools file, as another tool would have written it: not a baseline of ours.
const userTools = `${JSON.stringify([{ name: 'my_tool', description: 'Mine.', input_schema: { type: 'object', properties: {} } }], null, 2)}\n`;

let batch: JestBatch;
/** `snapshots: '.'`, and every file of the project before anything ran. */
let rootFolder: Demo;
let rootBefore: Record<string, string>;
/** A snapshots folder outside the project, and that folder. */
let absolute: Demo;
let outside: string;
/** A shared snapshots folder, and `check` before `-u`. */
let shared: Demo;
let sharedCheck: CliResult;
const tmp = 'snapshots/order_triage/cancellation.txt.4999999.tmp';
/** Foreign files where a snapshot and the baseline belong, and `check` before `-u`. */
let foreign: Demo;
let foreignCheck: CliResult;
const mine = 'My own notes about cancellations.\n';
/** `jest -u` over the four. */
let update: JestBatchRun;

beforeAll(async () => {
  batch = new JestBatch('snapshot-safety');

  rootFolder = batch.project('root-folder');
  rootFolder.edit('prompt-contract.config.ts', "snapshots: 'snapshots'", "snapshots: '.'");
  rootFolder.write('notes.txt', notes);
  rootFolder.write('LICENSE.txt', license);
  rootFolder.write('tools.json', userTools);
  rootBefore = tree(rootFolder.dir);

  outside = mkdtempSync(join(tmpdir(), 'pc-outside-'));
  writeFileSync(join(outside, 'keep.txt'), notes);
  writeFileSync(join(outside, 'tools.json'), userTools);
  absolute = batch.project('outside');
  // An absolute path such as /tmp: Jest with -u and every command that reads snapshots refuse it.
  absolute.edit('prompt-contract.config.ts', "snapshots: 'snapshots'", `snapshots: ${JSON.stringify(outside)}`);

  shared = batch.project('shared');
  shared.write('snapshots/notes.txt', notes);
  shared.write('snapshots/LICENSE.txt', license);
  shared.write('snapshots/refund_agent/README.md', '# Refund agent snapshots\n');
  shared.write('snapshots/.gitkeep', '');
  shared.write('snapshots/refund_agent/renamed.txt', shared.read('snapshots/refund_agent/legacy_order.txt'));
  // A write killed between writing its temporary file and the rename.
  shared.write(tmp, shared.read('snapshots/order_triage/cancellation.txt').slice(0, 300));
  // A local run: on CI an obsolete snapshot is an error (test/cli/drift.test.ts).
  sharedCheck = await cli(['check', '--format', 'json'], { cwd: shared.dir, env: { CI: 'false' } });

  foreign = batch.project('foreign');
  foreign.write('snapshots/tools.json', userTools);
  foreign.write('snapshots/order_triage/cancellation.txt', mine);
  foreignCheck = await cli(['check', '--format', 'json'], { cwd: foreign.dir });

  // Under -u Jest's exit code follows the failed tests alone, so each project's own is exact.
  update = await batch.run([rootFolder, absolute, shared, foreign], ['-u'], { CI: 'false' });
}, 300_000);
afterAll(() => {
  batch?.remove();
  if (outside) rmSync(outside, { recursive: true, force: true });
});

test("`snapshots: '.'` is refused: `jest -u` and `check` leave every file in the project root alone", async () => {
  const run = update.of(rootFolder);
  expect(run.code).toBe(1);
  expect(run.out).toContain('prompt-contract.config.ts: Unexpected `snapshots` folder `.`: it is the project root');
  expect(run.out).toContain('(config/snapshots-folder)');
  expect(tree(rootFolder.dir)).toEqual(rootBefore);

  const check = await cli(['check'], { cwd: rootFolder.dir });
  expect(check.code).toBe(2);
  expect(check.stderr).toMatch(/^prompt-contract: prompt-contract\.config\.ts: Unexpected `snapshots` folder `\.`: it is the project root.*\(config\/snapshots-folder\)\n$/);
  expect(tree(rootFolder.dir)).toEqual(rootBefore);
});

test('a snapshots folder outside the project is refused, whether absolute, through `..` or through a symbolic link', async () => {
  const demo = absolute;
  const run = update.of(demo);
  expect(run.code).toBe(1);
  expect(run.out).toContain('lies outside the project root');
  for (const args of [['check'], ['diff']]) {
    const result = await cli(args, { cwd: demo.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Unexpected \`snapshots\` folder \`${outside}\`: it lies outside the project root`);
    expect(result.stderr).toContain('(config/snapshots-folder)');
  }
  expect(tree(outside)).toEqual({ 'keep.txt': notes, 'tools.json': userTools });

  demo.edit('prompt-contract.config.ts', `snapshots: ${JSON.stringify(outside)}`, "snapshots: 'prompts/../../elsewhere'");
  const climbing = await cli(['check'], { cwd: demo.dir });
  expect(climbing.code).toBe(2);
  expect(climbing.stderr).toContain('lies outside the project root');

  // `snapshots` itself a link to a folder outside: resolved before it is judged.
  demo.edit('prompt-contract.config.ts', "snapshots: 'prompts/../../elsewhere'", "snapshots: 'snapshots'");
  rmSync(join(demo.dir, 'snapshots'), { recursive: true });
  symlinkSync(outside, join(demo.dir, 'snapshots'));
  const linked = await cli(['check'], { cwd: demo.dir });
  expect(linked.code).toBe(2);
  expect(linked.stderr).toContain(`(it resolves to \`${outside}\`): it lies outside the project root`);
  expect(tree(outside)).toEqual({ 'keep.txt': notes, 'tools.json': userTools });
});

test('in a shared snapshots folder, foreign files are reported and kept; -u removes only obsolete snapshots and interrupted writes', () => {
  const demo = shared;
  expect(sharedCheck.code).toBe(0);
  const found = report(sharedCheck).diagnostics.filter((d) => d.ruleId.startsWith('snapshot/')).map((d) => [d.ruleId, d.severity, d.file]);
  expect(found.sort()).toEqual([
    ['snapshot/foreign-file', 'warning', 'snapshots/LICENSE.txt'],
    ['snapshot/foreign-file', 'warning', 'snapshots/notes.txt'],
    ['snapshot/foreign-file', 'warning', 'snapshots/refund_agent/README.md'],
    ['snapshot/interrupted-write', 'warning', tmp],
    ['snapshot/obsolete', 'warning', 'snapshots/refund_agent/renamed.txt'],
  ]);

  const run = update.of(demo);
  expect(run.code).toBe(0);
  expect(run.out).toContain('prompt-contract did not write it, so it never overwrites or removes it');
  expect(run.out).toContain('snapshot/foreign-file');
  expect(run.out).toContain('snapshots/notes.txt');
  expect(demo.read('snapshots/notes.txt')).toBe(notes);
  expect(demo.read('snapshots/LICENSE.txt')).toBe(license);
  expect(demo.read('snapshots/refund_agent/README.md')).toBe('# Refund agent snapshots\n');
  expect(existsSync(join(demo.dir, 'snapshots/.gitkeep'))).toBe(true);
  expect(existsSync(join(demo.dir, 'snapshots/refund_agent/renamed.txt'))).toBe(false);
  expect(existsSync(join(demo.dir, tmp))).toBe(false);
  expect(existsSync(join(demo.dir, 'snapshots/order_triage/cancellation.txt'))).toBe(true);
});

test('a foreign file where a snapshot or the tools baseline belongs is never overwritten, and never read as the baseline', () => {
  const demo = foreign;
  expect(foreignCheck.code).toBe(1);
  const found = report(foreignCheck).diagnostics;
  const missing = found.filter((d) => d.ruleId === 'snapshot/missing').map((d) => [d.file, d.message]);
  expect(missing).toEqual(expect.arrayContaining([
    ['snapshots/order_triage/cancellation.txt', expect.stringContaining('snapshots/order_triage/cancellation.txt exists but was not written by prompt-contract (it lacks a first line `prompt-contract snapshot N`)')],
    ['snapshots/tools.json', expect.stringContaining('snapshots/tools.json exists but was not written by prompt-contract (it lacks a top-level `"prompt-contract"` key)')],
  ]));
  // The user's tools file is no baseline: nothing is measured against `my_tool`.
  expect(found.filter((d) => d.ruleId.startsWith('compat/'))).toEqual([]);
  expect(found.filter((d) => d.ruleId === 'snapshot/outdated')).toEqual([]);

  const run = update.of(demo);
  expect(run.code).toBe(1);
  expect(run.out).toContain('cannot be compared: snapshots/order_triage/cancellation.txt exists but was not written by prompt-contract');
  expect(run.out).toContain('snapshots/tools.json exists but was not written by prompt-contract');
  expect(demo.read('snapshots/tools.json')).toBe(userTools);
  expect(demo.read('snapshots/order_triage/cancellation.txt')).toBe(mine);
});

test('a case name that would climb out of the snapshots folder is refused, not written', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/cases/order_triage.yaml', '  cancellation:\n', '  "../../escape":\n');
    const check = await cli(['check'], { cwd: demo.dir });
    expect(check.code).toBe(2);
    expect(check.stderr).toContain('Unexpected case name "../../escape" of prompt `order_triage`: it holds a path separator, and it names a snapshot file');
    expect(existsSync(join(demo.dir, 'escape.txt'))).toBe(false);
  }));

test('a folder where a snapshot file belongs is a could-not-run error, without a stack trace', () =>
  withDemo(async (demo) => {
    const file = 'snapshots/order_triage/cancellation.txt';
    rmSync(join(demo.dir, file));
    // A directory in the snapshot's place (an unpacked archive, a stray mkdir).
    renameSync(join(demo.dir, 'snapshots/refund_agent'), join(demo.dir, file));
    const check = await cli(['check'], { cwd: demo.dir });
    expect(check.code).toBe(2);
    expect(check.stderr).toMatch(new RegExp(`^prompt-contract: ${file.replaceAll('.', '\\.')}: Cannot read the snapshot: it is a directory, not a regular file; expected a file prompt-contract wrote, or nothing`));
    expect(check.stderr).not.toMatch(/^\s+at /m);
  }));
