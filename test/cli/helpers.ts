import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(repo, 'dist', 'cli.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real, built CLI binary (`npm test` builds it first). */
export function cli(args: string[], options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}): CliResult {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? repo,
    input: options.input ?? '',
    encoding: 'utf8',
    // Hostile inputs make long reports: never cut the output (the default limit kills the child at 1 MiB).
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

const scratchRoot = join(repo, '.cache', 'cli-tests');

/**
 * A copy of the demo project (config, prompts, snapshots) to break on purpose. It lives
 * inside the repository so that `import 'prompt-contract'` in the config resolves to this
 * package, as it would in a user's project that installed it.
 */
export function demoCopy(): { dir: string; edit(file: string, from: string | RegExp, to: string): void; read(file: string): string; write(file: string, text: string): void; remove(): void } {
  mkdirSync(scratchRoot, { recursive: true });
  const dir = mkdtempSync(join(scratchRoot, 'demo-'));
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

/** Runs `fn` on a fresh copy of the demo and removes the copy afterwards, pass or fail. */
export function withDemo<T>(fn: (demo: ReturnType<typeof demoCopy>) => T): T {
  const demo = demoCopy();
  try {
    return fn(demo);
  } finally {
    demo.remove();
  }
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
  writeFileSync(join(dir, 'test', 'prompts.test.ts'), "import { contractSuite } from 'prompt-contract/jest';\n\nawait contractSuite();\n");
  writeFileSync(join(dir, 'jest.config.json'), JSON.stringify({
    rootDir: dir,
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts'],
    roots: ['<rootDir>/test'],
    moduleNameMapper: {
      '^prompt-contract$': join(repo, 'src/index.ts'),
      '^prompt-contract/jest$': join(repo, 'src/jest.ts'),
      '^(\\.{1,2}/.*)\\.js$': '$1',
    },
    transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: join(repo, 'tsconfig.json') }] },
  }));
}

/** Runs Jest, as a user would, on a project made with `addJestSuite`. */
export function runJest(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): { code: number; out: string } {
  const result = spawnSync(process.execPath, ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', join(repo, 'node_modules/jest/bin/jest.js'), '--config', join(dir, 'jest.config.json'), ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
  });
  return { code: result.status ?? -1, out: `${result.stdout}\n${result.stderr}` };
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
