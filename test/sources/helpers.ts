import { describe, test } from '@jest/globals';
import pg from 'pg';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RecordedItem } from '../../src/sources/types.js';
import type { JsonSchemaObject } from '../../src/tools/types.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import { onCi } from '../../src/util/ci.js';

// Shared by the SQLite and PostgreSQL source tests: one seed, one set of tools, one reading of the results.
export const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
export const tools = normalizeTools(JSON.parse(readFileSync(fixture('tools.json'), 'utf8')));
export const handlerSchemas = new Map<string, JsonSchemaObject>([['create_refund', JSON.parse(readFileSync(fixture('create_refund.handler.json'), 'utf8')) as JsonSchemaObject]]);

export async function collect(items: AsyncIterable<RecordedItem>): Promise<RecordedItem[]> {
  const out: RecordedItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** `row:id:tool` per call, `corrupt@row` per unreadable row. */
export function summary(items: RecordedItem[]): string[] {
  return items.map((item) => ('corrupt' in item ? `corrupt@${item.where.row}` : `${item.where.row}:${item.id}:${item.name}`));
}

/** What reading fixtures/conversations.sql gives, whichever database holds it. */
export const seedReading = [
  '1:toolu_01:create_refund',
  '2:toolu_02:create_refund',
  '3#0:call_a:lookup_order',
  '3#1:call_b:create_refund',
  'corrupt@5',
  '6:toolu_06:create_refund',
  '7:toolu_07:escalate_to_humans',
  'corrupt@8',
];

// ---------------------------------------------------------------------------------------------
// PostgreSQL: the throwaway server of .ci/postgres.sh, and roles made for one test file.

/** The superuser connection string of the test server, when one is running. */
export const pgUrl = process.env.PROMPT_CONTRACT_PG_URL;
export const howToStart = 'start one with: eval "$(.ci/postgres.sh start)"';

/**
 * What the PostgreSQL tests do without a server: `fail` under CI (read as CI and Jest read it,
 * so `CI=false` is not CI), where they must run; `todo` elsewhere; nothing when there is one.
 */
export function withoutServer(env: NodeJS.ProcessEnv = process.env): 'fail' | 'todo' | undefined {
  if (env.PROMPT_CONTRACT_PG_URL) return undefined;
  return onCi(env) ? 'fail' : 'todo';
}

/**
 * `describe` for tests that need the server. Without one they are skipped, except under CI,
 * where a missing server is a failing test: the PostgreSQL tests must run there.
 */
export function describeWithPostgres(name: string, fn: () => void): void {
  const missing = withoutServer();
  if (missing === undefined) {
    describe(name, fn);
    return;
  }
  if (missing === 'fail') {
    test(`${name}: PostgreSQL is available under CI`, () => {
      throw new Error(`CI is set but PROMPT_CONTRACT_PG_URL is not; ${howToStart}`);
    });
    return;
  }
  test.todo(`${name}: set PROMPT_CONTRACT_PG_URL to run it (${howToStart})`);
}

/** A name no other test run uses: roles are global to the server, and runs may overlap. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** `url` with another user, password and (optionally) database. */
export function urlAs(url: string, user: string, password?: string, database?: string): string {
  const u = new URL(url);
  u.username = encodeURIComponent(user);
  u.password = password === undefined ? '' : encodeURIComponent(password);
  if (database !== undefined) u.pathname = `/${database}`;
  return u.toString();
}

/**
 * A database of its own for one test file, with a superuser connection to it. Roles made
 * through `role()` are dropped with it, so a run leaves nothing on the server.
 */
export interface ScratchDatabase {
  name: string;
  /** Superuser URL of the scratch database. */
  url: string;
  /** A superuser connection to it. */
  admin: pg.Client;
  /**
   * The recommended reader (see the README): a NOLOGIN role holding SELECT on `tables`, and a
   * LOGIN role in it. Returns the LOGIN role's URL. `extra` runs after, with `%login%` and
   * `%reader%` replaced by the role names, to give it more than it should have.
   */
  reader(tables: string[], extra?: string[]): Promise<{ url: string; login: string; reader: string }>;
  drop(): Promise<void>;
}

export async function scratchDatabase(prefix: string): Promise<ScratchDatabase> {
  const name = uniqueName(prefix);
  const server = new pg.Client({ connectionString: pgUrl });
  await server.connect();
  await server.query(`CREATE DATABASE ${name}`);
  const url = urlAs(pgUrl!, new URL(pgUrl!).username || 'postgres', decodeURIComponent(new URL(pgUrl!).password) || undefined, name);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const roles: string[] = [];
  return {
    name,
    url,
    admin,
    async reader(tables, extra = []) {
      const reader = uniqueName('pc_reader');
      const login = uniqueName('pc_login');
      const password = `pw-${login}`;
      roles.push(login, reader);
      // The README's recipe, word for word but for the names.
      await admin.query(`CREATE ROLE ${reader} NOLOGIN`);
      for (const table of tables) await admin.query(`GRANT SELECT ON ${table} TO ${reader}`);
      await admin.query(`CREATE ROLE ${login} LOGIN PASSWORD '${password}' IN ROLE ${reader}`);
      for (const statement of extra) await admin.query(statement.replaceAll('%login%', login).replaceAll('%reader%', reader));
      return { url: urlAs(url, login, password, name), login, reader };
    },
    async drop() {
      await admin.end().catch(() => undefined);
      await server.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      for (const role of roles) await server.query(`DROP ROLE IF EXISTS ${role}`);
      await server.end();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The real CLI, spawned without blocking, so a test can signal it or watch the server meanwhile.

export interface CliRun {
  child: ChildProcess;
  /**
   * Resolves when the process has exited, with what it printed. How long it took is not
   * given: tests assert on what a run did, and bench/ measures time.
   */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

const cliBin = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/**
 * The built CLI, not waited for. It is killed after `timeoutMs` (default 60 s): a bound for a
 * hang, generous on a loaded machine, never a check of speed.
 */
export function spawnCli(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): CliRun {
  const child = spawn(process.execPath, [cliBin, ...args], { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // A run that hangs is killed, so a failing test ends instead of holding Jest open.
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done };
}

/**
 * Polls `probe` until it returns true or `ms` pass; returns its last answer. A wait, not a
 * measure: give `ms` room for a loaded machine (it returns as soon as `probe` holds).
 */
export async function eventually(probe: () => Promise<boolean>, ms: number, every = 50): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}
