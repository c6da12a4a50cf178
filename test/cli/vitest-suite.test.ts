import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { demoCopy, repo, stableScratch, type Demo } from './helpers.js';

// prompt-contract/vitest: the same suite and the same snapshot semantics as under Jest.

interface ProjectRun {
  /** Vitest's exit code had the project run alone: 1 when a test failed or the file could not run. */
  code: number;
  /** What Vitest printed while the project's file ran, then the failures of its tests, in full. */
  out: string;
}

const marker = '<<<prompt-contract test project ';

/**
 * Runs Vitest once over the projects in `root` (each a demo copy with its suite in
 * `test/prompts.test.mjs`), one file at a time: a setup file moves each into its project's folder,
 * where `vitest run` would have started, and marks where its output begins. Starting Vitest and
 * transforming this package for it cost more than the suite of one project.
 */
function vitest(root: string, projects: Demo[], args: string[], env: NodeJS.ProcessEnv): { code: number; out: string; of(project: Demo): ProjectRun } {
  const results = join(root, 'results.json');
  // Standard output and error into one file, in the order they were written.
  const log = join(root, 'output.txt');
  const fd = openSync(log, 'w');
  let r: ReturnType<typeof spawnSync>;
  try {
    r = spawnSync(process.execPath, [join(repo, 'node_modules/vitest/vitest.mjs'), 'run', ...projects.map((p) => relative(root, join(p.dir, 'test', 'prompts.test.mjs'))), '--root', root, '--reporter=default', '--reporter=json', `--outputFile.json=${results}`, ...args], {
      cwd: root,
      stdio: ['ignore', fd, fd],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    });
  } finally {
    closeSync(fd);
  }
  const out = readFileSync(log, "utf8");
  const code = r.status ?? -1;
  if (!existsSync(results)) throw new Error(`Vitest wrote no results (exit ${code}):\n${out}`);
  const json = JSON.parse(readFileSync(results, 'utf8')) as { testResults: Array<{ name: string; status: string }> };
  const ran = json.testResults.map((t) => t.name).sort();
  const asked = projects.map((p) => join(p.dir, 'test', 'prompts.test.mjs')).sort();
  if (JSON.stringify(ran) !== JSON.stringify(asked)) throw new Error(`Vitest ran ${ran.join(', ')}, not ${asked.join(', ')}:\n${out}`);
  const failedAt = out.search(/^⎯+ Failed Tests \d+ ⎯+$/m);
  const summaryAt = out.search(/^\s+(Snapshots|Test Files)\s/m);
  const progress = out.slice(0, failedAt !== -1 ? failedAt : summaryAt !== -1 ? summaryAt : out.length);
  const failures = failedAt === -1 ? '' : out.slice(failedAt, summaryAt > failedAt ? summaryAt : out.length);
  const segments = new Map<string, string>();
  for (const part of progress.split(marker).slice(1)) {
    const end = part.indexOf('>>>\n');
    segments.set(part.slice(0, end), part.slice(end + 4));
  }
  return {
    code,
    out,
    of(project) {
      const file = join(project.dir, 'test', 'prompts.test.mjs');
      const result = json.testResults.find((t) => t.name === file);
      if (!result) throw new Error(`Vitest did not run ${relative(repo, file)} (exit ${code}):\n${out}`);
      const name = relative(root, file);
      const own = segments.get(project.dir) ?? '';
      const others = projects.filter((p) => p !== project).map((p) => relative(root, join(p.dir, 'test', 'prompts.test.mjs')));
      if (!own.includes(` ${name} `) || others.some((o) => own.includes(` ${o} `))) throw new Error(`The output of ${name} is not where it belongs:\n${out}`);
      // Its failures: the blocks of the failure section headed by its file.
      const blocks = failures.split(/^(?= FAIL  )/m).filter((b) => b.startsWith(` FAIL  ${name} `));
      return { code: result.status === 'passed' ? 0 : 1, out: `${own}\n${blocks.join('')}` };
    },
  };
}

let root: { dir: string; remove(): void };
let snapshots: Demo;
let stale: Demo;
let line: number;
let ci: ReturnType<typeof vitest>;

function project(name: string): Demo {
  const demo = demoCopy(join(root.dir, name));
  mkdirSync(join(demo.dir, 'test'), { recursive: true });
  writeFileSync(join(demo.dir, 'test', 'prompts.test.mjs'), "import { contractSuite } from 'prompt-contract/vitest';\n\nawait contractSuite();\n");
  return demo;
}

beforeAll(() => {
  root = stableScratch('vitest-suite');
  writeFileSync(join(root.dir, 'setup.mjs'), [
    "import { dirname } from 'node:path';",
    "import { expect } from 'vitest';",
    '// The project folder of this test file: `vitest run` started there in a real project.',
    'const project = dirname(dirname(expect.getState().testPath));',
    'process.chdir(project);',
    `process.stderr.write(\`\\n${marker}\${project}>>>\\n\`);`,
    '',
  ].join('\n'));
  // Vitest transforms this package (it lies outside node_modules) in every run: its module cache
  // keeps the transformed files from one run to the next, keyed by their content.
  const moduleCache = join(repo, '.cache', 'cli-tests', 'vitest-module-cache');
  writeFileSync(join(root.dir, 'vitest.config.mjs'), `export default { test: { include: ['*/test/prompts.test.mjs'], setupFiles: ['./setup.mjs'], fileParallelism: false, experimental: { fsModuleCache: true, fsModuleCachePath: ${JSON.stringify(moduleCache)} } } };\n`);

  snapshots = project('snapshots');
  snapshots.write('snapshots/refund_agent/retired.txt', snapshots.read('snapshots/refund_agent/legacy_order.txt'));
  spawnSync('rm', [join(snapshots.dir, 'snapshots/refund_agent/legacy_order.txt')]);

  stale = project('stale');
  stale.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
  line = stale.read('prompts/examples/refund_agent.yaml').split('\n').findIndex((l) => l.includes('amount_cents: 420000')) + 1;

  // Both fail under CI, so Vitest's exit code for the run is each one's own as well. With `-u`:
  // on CI it must write nothing either (issue #25, item 19).
  ci = vitest(root.dir, [snapshots, stale], ['-u'], { CI: 'true' });
}, 300_000);
afterAll(() => root?.remove());

test('under CI nothing is written, not even with -u, and a missing or obsolete snapshot fails; -u writes and removes locally; then CI passes', () => {
  const missing = join(snapshots.dir, 'snapshots/refund_agent/legacy_order.txt');
  const obsolete = join(snapshots.dir, 'snapshots/refund_agent/retired.txt');
  const run = ci.of(snapshots);
  expect(ci.code).toBe(1);
  expect(run.code).toBe(1);
  // Vitest prints one error shared by both projects' tests once, under both names: read the whole run.
  expect(ci.out).toMatch(/FAIL {2}snapshots\/test\/prompts\.test\.mjs > .* > the config, tools and tool descriptions load cleanly\n(?: FAIL .*\n)*Error: Snapshots are not written on CI \(the `CI` environment variable is set\)/);
  expect(run.out).toContain('has no snapshot, and none was written');
  expect(run.out).toContain('snapshot/obsolete');
  expect(existsSync(missing)).toBe(false);
  expect(existsSync(obsolete)).toBe(true);

  // This project alone from here: the run's exit code and summary are its own.
  const update = vitest(root.dir, [snapshots], ['-u'], { CI: '' });
  expect(update.code).toBe(0);
  expect(update.out).toMatch(/Snapshots\s+1 written/);
  expect(existsSync(missing)).toBe(true);
  expect(existsSync(obsolete)).toBe(false);

  expect(vitest(root.dir, [snapshots], [], { CI: 'true' }).code).toBe(0);
}, 120_000);

test('a stale example fails the run, named at its YAML line', () => {
  const r = ci.of(stale);
  expect(r.code).toBe(1);
  expect(r.out).toContain('every curated example and retrieval-stub entry fits the current schemas');
  expect(r.out).toContain('prompts/examples/refund_agent.yaml');
  expect(r.out).toMatch(new RegExp(`\\n\\s+${line}:\\d+\\s+error`));
  expect(r.out).toContain('example/invalid-arguments');
});
