import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(repo, 'dist', 'cli.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real, built CLI binary (`npm test` builds it first). */
export function cli(args: string[], options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}): CliResult {
  const result = spawnSync(process.execPath, [bin, ...args], {
    // A run that should end but might not (a limit under test): killed after `timeout` ms, its code then -1.
    ...(options.timeout === undefined ? {} : { timeout: options.timeout, killSignal: 'SIGKILL' as const }),
    cwd: options.cwd ?? repo,
    input: options.input ?? '',
    encoding: 'utf8',
    // Hostile inputs make long reports: never cut the output (the default limit kills the child at 1 MiB).
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** Runs `command` without blocking: several can run at once, one per core. */
export function spawnAsync(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/** Runs the built CLI as `cli` does (standard input empty), without blocking: several can run at once. */
export function cliAsync(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return spawnAsync(process.execPath, [bin, ...args], { cwd: options.cwd ?? repo, env: { ...process.env, NO_COLOR: '1', ...options.env } });
}

let inProcessQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs the CLI inside this test process: `main` of src/cli.ts with the working directory, the
 * environment (`NO_COLOR=1` and `env`) and the captured standard output and error that `cli`
 * gives a spawned binary, and the exit code `main` resolves to (the binary sets it as its own).
 * Starting a process costs most of a small run; tests about the process itself (signals, pipes,
 * standard input, crashes) spawn the binary with `cli` instead. Calls run one at a time: the
 * working directory and the streams belong to the whole process.
 */
export function cliInProcess(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  const result = inProcessQueue.then(() => runInProcess(args, options));
  inProcessQueue = result.catch(() => undefined);
  return result;
}

async function runInProcess(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  const { main } = await import('../../src/cli-main.js');
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', ...options.env };
  const savedEnv = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  const setEnv = (values: NodeJS.ProcessEnv): void => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
  const stdout: string[] = [];
  const stderr: string[] = [];
  const capture = (into: string[]) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof process.stdout.write;
  const writeOut = process.stdout.write;
  const writeErr = process.stderr.write;
  const cwd = process.cwd();
  setEnv(env);
  process.chdir(options.cwd ?? repo);
  process.stdout.write = capture(stdout);
  process.stderr.write = capture(stderr);
  try {
    const code = await main(args);
    return { code, stdout: stdout.join(''), stderr: stderr.join('') };
  } finally {
    process.stdout.write = writeOut;
    process.stderr.write = writeErr;
    process.chdir(cwd);
    setEnv(savedEnv);
  }
}

const scratchRoot = join(repo, '.cache', 'cli-tests');

export type Demo = ReturnType<typeof demoCopy>;

/**
 * A copy of the demo project (config, prompts, snapshots) to break on purpose. It lives
 * inside the repository so that `import 'prompt-contract'` in the config resolves to this
 * package, as it would in a user's project that installed it. `at`: the folder to copy into
 * (made afresh); a new folder of its own by default.
 */
export function demoCopy(at?: string): { dir: string; edit(file: string, from: string | RegExp, to: string): void; read(file: string): string; write(file: string, text: string): void; remove(): void } {
  mkdirSync(scratchRoot, { recursive: true });
  let dir: string;
  if (at === undefined) dir = mkdtempSync(join(scratchRoot, 'demo-'));
  else {
    rmSync(at, { recursive: true, force: true });
    mkdirSync(at, { recursive: true });
    dir = at;
  }
  for (const entry of ['prompts', 'snapshots', 'prompt-contract.config.ts']) cpSync(join(repo, entry), join(dir, entry), { recursive: true });
  return {
    dir,
    read: (file) => readFileSync(join(dir, file), 'utf8'),
    write: (file, text) => writeFileSync(join(dir, file), text),
    edit(file, from, to) {
      const path = join(dir, file);
      const before = readFileSync(path, 'utf8');
      const after = before.replace(from, to);
      if (after === before) throw new Error(`edit did not change ${file}: ${String(from)} not found`);
      writeFileSync(path, after);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A scratch folder at a path that stays the same from one run of the tests to the next
 * (`.cache/cli-tests/NAME-0`; another slot while a live process holds that one), for projects
 * Jest runs: Jest's transform cache is keyed by the config, which holds the path. `remove`
 * frees the slot.
 */
export function stableScratch(name: string): { dir: string; remove(): void } {
  mkdirSync(scratchRoot, { recursive: true });
  const dir = claimSlot(join(scratchRoot, name));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A demo copy in a `stableScratch` folder (its `project` subfolder); `remove` frees the slot. */
export function stableDemoCopy(name: string): Demo {
  const scratch = stableScratch(name);
  return { ...demoCopy(join(scratch.dir, 'project')), remove: scratch.remove };
}

/** Runs `fn` on a fresh copy of the demo and removes the copy afterwards (once `fn`'s promise settles, if it returns one), pass or fail. */
export function withDemo<T>(fn: (demo: ReturnType<typeof demoCopy>) => T): T {
  const demo = demoCopy();
  let result: T;
  try {
    result = fn(demo);
  } catch (error) {
    demo.remove();
    throw error;
  }
  if (result instanceof Promise) return result.finally(() => demo.remove()) as T;
  demo.remove();
  return result;
}

/** 1-based line of the first line in `text` containing `needle` (after `from`, when given). */
export function lineOf(text: string, needle: string, from?: string): number {
  const start = from === undefined ? 0 : text.indexOf(from);
  const at = text.indexOf(needle, Math.max(start, 0));
  if (at === -1) throw new Error(`${needle} not found`);
  return text.slice(0, at).split('\n').length;
}

/**
 * Makes a demo copy a project with a Jest setup of its own: the contract suite in
 * `test/prompts.test.ts` and a `jest.config.json` that maps `prompt-contract` to this source.
 */
export function addJestSuite(dir: string): void {
  mkdirSync(join(dir, 'test'), { recursive: true });
  writeFileSync(join(dir, 'test', 'prompts.test.ts'), jestSuiteFile);
  writeFileSync(join(dir, 'jest.config.json'), JSON.stringify(jestConfig(dir, ['<rootDir>/test'])));
}

const jestSuiteFile = "import { contractSuite } from 'prompt-contract/jest';\n\nawait contractSuite();\n";

/** A user's Jest config for a TypeScript project, with `prompt-contract` mapped to this source. */
function jestConfig(rootDir: string, roots: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    rootDir,
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts'],
    roots,
    ...extra,
    moduleNameMapper: {
      '^prompt-contract$': join(repo, 'src/index.ts'),
      '^prompt-contract/jest$': join(repo, 'src/jest.ts'),
      '^(\\.{1,2}/.*)\\.js$': '$1',
    },
    transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: join(repo, 'tsconfig.json') }] },
  };
}

const jestBin = join(repo, 'node_modules/jest/bin/jest.js');

/** Runs Jest, as a user would, on a project made with `addJestSuite`. */
export function runJest(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): { code: number; out: string } {
  const result = spawnSync(process.execPath, jestArgs(join(dir, 'jest.config.json'), args), { cwd: dir, encoding: 'utf8', env: jestEnv(env) });
  return { code: result.status ?? -1, out: `${result.stdout}\n${result.stderr}` };
}

/** `runJest` without blocking: it can run beside another Jest run or CLI. */
export async function runJestAsync(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string }> {
  const result = await spawnAsync(process.execPath, jestArgs(join(dir, 'jest.config.json'), args), { cwd: dir, env: jestEnv(env) });
  return { code: result.code, out: `${result.stdout}\n${result.stderr}` };
}

const jestArgs = (config: string, args: string[]): string[] => ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', jestBin, '--config', config, ...args];
const jestEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env });

/** One project's share of a `JestBatch` run. */
export interface JestProjectRun {
  /** Jest's exit code had the project run alone: 1 when a test failed or the file could not run. */
  code: number;
  /** What Jest printed while the project's test file ran, then its results (its failures, in full). */
  out: string;
  /** Each test by title, with its status: `passed` or `failed`. */
  tests: Array<{ title: string; status: string; failureMessages: string[] }>;
}

export interface JestBatchRun {
  /** Jest's exit code for the whole run. */
  code: number;
  /** Everything Jest printed. */
  out: string;
  of(project: { dir: string }): JestProjectRun;
}

/**
 * Several demo projects, each with the contract suite in its own `test/prompts.test.ts` and its
 * own snapshots, run by one Jest process as a user runs Jest in each: starting Jest and compiling
 * this package's source for it cost several seconds a run, the suite of one project well under
 * one. A setup file moves each test file into its project's folder (where `jest` would have
 * started) and marks where its output begins; `--runInBand` keeps the output of one project
 * together, its results printed before the next begins. The batch folder keeps its name from
 * one run to the next (the transform cache is keyed by the config, whose paths it holds); a
 * second run of the same test file at the same time takes another slot.
 */
export class JestBatch {
  readonly root: string;
  readonly #config: string;
  #runs = 0;

  constructor(name: string) {
    this.root = stableScratch(`jest-${name}`).dir;
    writeFileSync(join(this.root, 'setup.mjs'), [
      "import { readFileSync } from 'node:fs';",
      "import { dirname } from 'node:path';",
      '// The project folder of this test file: `jest` started there in a real project.',
      'const project = dirname(dirname(expect.getState().testPath));',
      'process.chdir(project);',
      '// The variables this project\'s own Jest process would have had (the environment of this test file only).',
      `const own = process.env.${projectEnvVariable} ? JSON.parse(readFileSync(process.env.${projectEnvVariable}, 'utf8'))[project] : undefined;`,
      'if (own) Object.assign(process.env, own);',
      `process.stderr.write(\`\\n${batchMarker}\${project}>>>\\n\`);`,
      '',
    ].join('\n'));
    this.#config = join(this.root, 'jest.config.json');
    writeFileSync(this.#config, JSON.stringify(jestConfig(this.root, ['<rootDir>'], { setupFilesAfterEnv: ['<rootDir>/setup.mjs'] })));
  }

  /** A fresh demo copy in the batch, named `name`, with the contract suite (or `suite`, the test file's text). */
  project(name: string, suite: string = jestSuiteFile): Demo {
    const demo = demoCopy(join(this.root, name));
    mkdirSync(join(demo.dir, 'test'), { recursive: true });
    writeFileSync(join(demo.dir, 'test', 'prompts.test.ts'), suite);
    return demo;
  }

  /**
   * Runs Jest once over the test files of `projects`, with `args` and `env` as `runJest` takes
   * them. `projectEnv`: more variables for some projects alone, as if Jest had run each of them
   * with its own environment: set in `process.env` of its test file, before the file runs (what
   * the file and the code it imports read; not the Jest process's own, and not a child process's).
   */
  async run(projects: Array<{ dir: string }>, args: string[], env: NodeJS.ProcessEnv = {}, projectEnv: Array<[{ dir: string }, NodeJS.ProcessEnv]> = []): Promise<JestBatchRun> {
    const results = join(this.root, `results-${++this.#runs}.json`);
    const files = projects.map((p) => join(p.dir, 'test', 'prompts.test.ts'));
    const own: NodeJS.ProcessEnv = {};
    if (projectEnv.length > 0) {
      const file = join(this.root, `project-env-${this.#runs}.json`);
      writeFileSync(file, JSON.stringify(Object.fromEntries(projectEnv.map(([project, vars]) => [project.dir, vars]))));
      own[projectEnvVariable] = file;
    }
    const result = await spawnAsync(process.execPath, jestArgs(this.#config, ['--runInBand', '--json', '--outputFile', results, ...args, '--runTestsByPath', ...files]), { cwd: this.root, env: jestEnv({ ...env, ...own }) });
    const { code } = result;
    const out = `${result.stdout}\n${result.stderr}`;
    if (!existsSync(results)) throw new Error(`Jest wrote no results (exit ${code}):\n${out}`);
    const json = JSON.parse(readFileSync(results, 'utf8')) as { testResults: Array<{ name: string; status: string; assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }> };
    // The output of each project: from its marker to the next one (or to the run's summary).
    const segments = new Map<string, string>();
    for (const part of out.split(batchMarker).slice(1)) {
      const end = part.indexOf('>>>\n');
      const rest = part.slice(end + 4);
      const summary = rest.search(/^(Summary of all failing tests|Snapshot Summary|Test Suites: )/m);
      segments.set(part.slice(0, end), summary === -1 ? rest : rest.slice(0, summary));
    }
    const header = (dir: string): RegExp => new RegExp(`^(PASS|FAIL) ${relative(this.root, join(dir, 'test', 'prompts.test.ts')).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm');
    return {
      code,
      out,
      of(project) {
        const file = join(project.dir, 'test', 'prompts.test.ts');
        const result = json.testResults.find((r) => r.name === file);
        if (!result) throw new Error(`Jest did not run ${relative(repo, file)} (exit ${code}):\n${out}`);
        const own = segments.get(project.dir) ?? '';
        // Each project's results are printed after its tests and before the next project starts: check it.
        if (!header(project.dir).test(own) || files.some((f) => f !== file && header(dirname(dirname(f))).test(own))) {
          throw new Error(`The output of ${relative(repo, project.dir)} is not where it belongs:\n${out}`);
        }
        return {
          code: result.status === 'passed' ? 0 : 1,
          out: own,
          tests: result.assertionResults.map((a) => ({ title: a.title, status: a.status, failureMessages: a.failureMessages })),
        };
      },
    };
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

const batchMarker = '<<<prompt-contract test project ';
/** Names the file of a `JestBatch` run that holds the variables of each project (see `run`). */
const projectEnvVariable = 'PROMPT_CONTRACT_TEST_PROJECT_ENV';

/**
 * `base-0`, or the first of `base-1`, `base-2`... that no live process holds (this one included),
 * emptied. A slot is held by its `owner` folder, made atomically, holding a file named by the
 * holder's process id. The folder of a holder that has ended is renamed away (one process wins
 * the rename) and the slot taken; an `owner` folder still without its file is being made, unless
 * it is a minute old. Removing the slot folder frees it.
 */
function claimSlot(base: string): string {
  for (let slot = 0; ; slot++) {
    const dir = `${base}-${slot}`;
    const owner = join(dir, 'owner');
    mkdirSync(dir, { recursive: true });
    if (!lock(owner)) {
      let holder: string | undefined;
      let age = 0;
      try {
        holder = readdirSync(owner)[0];
        age = Date.now() - statSync(owner).mtimeMs;
      } catch {
        continue;
      }
      if (holder === undefined ? age < 60_000 : alive(Number(holder))) continue;
      try {
        renameSync(owner, `${owner}.ended-${process.pid}-${Date.now()}`);
      } catch {
        continue;
      }
      if (!lock(owner)) continue;
    }
    for (const entry of readdirSync(dir)) if (entry !== 'owner') rmSync(join(dir, entry), { recursive: true, force: true });
    return dir;
  }
}

function lock(owner: string): boolean {
  try {
    mkdirSync(owner);
  } catch {
    return false;
  }
  writeFileSync(join(owner, String(process.pid)), '');
  return true;
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface JsonReport {
  version: number;
  diagnostics: Array<{ ruleId: string; severity: string; message: string; file?: string; line?: number; column?: number; tool?: string; instancePath?: string; witnesses?: Array<{ id: string; value?: unknown }> }>;
  summary: { errors: number; warnings: number; infos: number };
}

export function report(result: CliResult): JsonReport {
  try {
    return JSON.parse(result.stdout) as JsonReport;
  } catch {
    throw new Error(`not JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
}
