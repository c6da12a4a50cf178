// A READ ONLY transaction does not stop side effects that outlive it: dblink opens a second,
// writable session; lo_export writes a file on the server; replication slots and statistics
// resets are not transactional. Only the role's own privileges stop those, so the reader
// refuses a role that has them, and a minimal role (the README's recipe) cannot do any of it.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPersistedCalls, type PostgresSource } from '../../src/sources/persisted.js';
import { InputError } from '../../src/util/errors.js';
import { demoCopy } from '../cli/helpers.js';
import { collect, describeWithPostgres, pgUrl, scratchDatabase, spawnCli, summary, uniqueName, type ScratchDatabase } from '../sources/helpers.js';

describeWithPostgres('a privileged role is refused before the query runs', () => {
  let db: ScratchDatabase;
  let reader: string;
  let fileDir: string;
  let largeObject: number;
  const slot = uniqueName('pc_slot');

  const source = (url: string, query: string, extra: Partial<PostgresSource> = {}): PostgresSource => ({ name: 'conversations-replica', postgres: url, query, ...extra });
  const rows = async () => Number((await db.admin.query<{ n: string }>('SELECT count(*) AS n FROM messages')).rows[0]!.n);
  const slots = async () => Number((await db.admin.query<{ n: string }>('SELECT count(*) AS n FROM pg_replication_slots WHERE slot_name = $1', [slot])).rows[0]!.n);
  const statsReset = async () => {
    await db.admin.query('SELECT pg_stat_clear_snapshot()');
    return String((await db.admin.query<{ t: Date | null }>('SELECT stats_reset AS t FROM pg_stat_database WHERE datname = current_database()')).rows[0]!.t);
  };
  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e);

  beforeAll(async () => {
    db = await scratchDatabase('pc_hostile_role');
    await db.admin.query("CREATE TABLE messages (id int PRIMARY KEY, message jsonb NOT NULL)");
    await db.admin.query(`INSERT INTO messages VALUES
      (1, '{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"lookup_order","input":{"order_id":"A-1"}}]}'),
      (2, '{"role":"user","content":"hi"}'),
      (3, '{"role":"assistant","content":[{"type":"tool_use","id":"toolu_3","name":"lookup_order","input":{"order_id":"A-3"}}]}')`);
    // Debian's postgresql package ships dblink; a server without it fails here, never skips.
    await db.admin.query('CREATE EXTENSION dblink');
    // As installed, PUBLIC may run dblink and the minimal role would be refused for it
    // (postgres-definer.test.ts); taken away, the role's own privileges are what is tested here.
    await db.admin.query("SELECT format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', p.oid::regprocedure) FROM pg_proc p WHERE p.proname LIKE 'dblink%'").then(async (r) => {
      for (const row of r.rows as Array<{ format: string }>) await db.admin.query(row.format);
    });
    largeObject = (await db.admin.query<{ oid: number }>("SELECT lo_from_bytea(0, 'exported by the query'::bytea) AS oid")).rows[0]!.oid;
    // A directory the server's user can write to: the export would land here.
    fileDir = mkdtempSync(join(tmpdir(), 'pc-lo-export-'));
    chmodSync(fileDir, 0o777);
    reader = (await db.reader(['messages'])).url;
  });

  afterAll(async () => {
    // Whatever a failing run left behind.
    await db?.admin.query('SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1', [slot]).catch(() => undefined);
    await db?.drop();
    if (fileDir) rmSync(fileDir, { recursive: true, force: true });
  });

  // Each query, and how to tell afterwards that it did nothing.
  const attacks: Array<[string, () => string, () => Promise<unknown>, unknown]> = [
    [
      'dblink_exec deleting a row through a second session',
      () => {
        const u = new URL(pgUrl!);
        return `SELECT dblink_exec('host=${u.hostname} port=${u.port} dbname=${db.name} user=postgres', 'DELETE FROM messages WHERE id = 1') AS id, '{}'::jsonb AS message`;
      },
      rows,
      3,
    ],
    ['lo_export writing a file on the server', () => `SELECT lo_export(${largeObject}, '${join(fileDir, 'exported')}') AS id, '{}'::jsonb AS message`, async () => existsSync(join(fileDir, 'exported')), false],
    ['pg_create_physical_replication_slot leaving a slot', () => `SELECT pg_create_physical_replication_slot('${slot}') AS id, '{}'::jsonb AS message`, slots, 0],
    ['pg_stat_reset resetting statistics', () => "SELECT pg_stat_reset() AS id, '{}'::jsonb AS message", statsReset, 'unchanged'],
  ];

  test.each(attacks)('%s: as the superuser it is refused with how to make a proper role, and nothing happens', async (_, query, observe, expected) => {
    const before = await observe();
    const error = await failure(collect(readPersistedCalls(source(db.url, query()))));
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/privileged-role' });
    expect((error as Error).message).toMatch(/^Persisted source `conversations-replica`: the role `postgres` .*is a superuser/);
    expect((error as Error).message).toContain('CREATE ROLE prompt_contract_reader NOLOGIN');
    expect(await observe()).toEqual(expected === 'unchanged' ? before : expected);
  });

  test.each(attacks)('%s: as a minimal role the query fails on its own privileges, and nothing happens', async (_, query, observe, expected) => {
    const before = await observe();
    const error = await failure(collect(readPersistedCalls(source(reader, query()))));
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/bad-query' });
    expect((error as Error).message).toMatch(/^Persisted source `conversations-replica`: the query failed in PostgreSQL \((permission denied|password is required|must be superuser or replication role)/);
    expect(await observe()).toEqual(expected === 'unchanged' ? before : expected);
  });

  test("the README's minimal role reads the conversations", async () => {
    const items = await collect(readPersistedCalls(source(reader, 'SELECT id, message FROM messages ORDER BY id')));
    expect(summary(items)).toEqual(['1:toolu_1:lookup_order', '3:toolu_3:lookup_order']);
  });

  // What makes a role privileged, granted to a role that is otherwise the minimal one.
  test.each([
    ['REPLICATION', ['ALTER ROLE %login% REPLICATION'], /has REPLICATION/],
    ['CREATEROLE', ['ALTER ROLE %login% CREATEROLE'], /has CREATEROLE/],
    ['membership of pg_write_server_files', ['GRANT pg_write_server_files TO %login%'], /is a member of `pg_write_server_files`/],
    ['membership of pg_execute_server_program', ['GRANT pg_execute_server_program TO %login%'], /is a member of `pg_execute_server_program`/],
    ['membership of pg_signal_backend, through its group role', ['GRANT pg_signal_backend TO %reader%'], /is a member of `pg_signal_backend`/],
    ['membership of pg_read_server_files', ['GRANT pg_read_server_files TO %login%'], /is a member of `pg_read_server_files`/],
    ['membership of a superuser role it can SET ROLE to', ['GRANT postgres TO %login%'], /is a member of `postgres`, which is a superuser/],
    ['EXECUTE on pg_stat_reset()', ['GRANT EXECUTE ON FUNCTION pg_stat_reset() TO %login%'], /can run `pg_catalog\.pg_stat_reset\(\)`.*REVOKE EXECUTE ON FUNCTION pg_catalog\.pg_stat_reset\(\) FROM pc_login_/],
    // Granted to PUBLIC in this database only, and taken back at once.
    ['EXECUTE on lo_export(), granted to PUBLIC', ['GRANT EXECUTE ON FUNCTION lo_export(oid, text) TO PUBLIC'], /can run `pg_catalog\.lo_export\(oid, text\)`.*REVOKE EXECUTE ON FUNCTION pg_catalog\.lo_export\(oid, text\) FROM PUBLIC;/, ['REVOKE EXECUTE ON FUNCTION lo_export(oid, text) FROM PUBLIC']],
  ])('a role with %s is refused', async (_, grants, reason, undo: string[] = []) => {
    const role = await db.reader(['messages'], grants);
    const error = await failure(collect(readPersistedCalls(source(role.url, 'SELECT id, message FROM messages'))));
    for (const statement of undo) await db.admin.query(statement);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/privileged-role' });
    expect((error as Error).message).toContain(`the role \`${role.login}\``);
    expect((error as Error).message).toMatch(reason);
  });

  test('REPLICATION: the slot query is refused and leaves no slot', async () => {
    const role = await db.reader(['messages'], ['ALTER ROLE %login% REPLICATION']);
    const error = await failure(collect(readPersistedCalls(source(role.url, `SELECT pg_create_physical_replication_slot('${slot}') AS id, '{}'::jsonb AS message`))));
    expect(error).toMatchObject({ code: 'persisted/privileged-role' });
    expect(await slots()).toBe(0);
  });

  test('BYPASSRLS only widens what is read, and is accepted', async () => {
    const role = await db.reader(['messages'], ['ALTER ROLE %login% BYPASSRLS']);
    expect(await collect(readPersistedCalls(source(role.url, 'SELECT id, message FROM messages WHERE id = 1')))).toHaveLength(1);
  });

  test('`dangerouslyAllowPrivilegedRole: true` lets a superuser run a plain SELECT; nothing short of `true` does', async () => {
    const query = 'SELECT id, message FROM messages ORDER BY id';
    expect(summary(await collect(readPersistedCalls(source(db.url, query, { dangerouslyAllowPrivilegedRole: true }))))).toEqual(['1:toolu_1:lookup_order', '3:toolu_3:lookup_order']);
    const loose = source(db.url, query, { dangerouslyAllowPrivilegedRole: 'yes' as unknown as boolean });
    expect(await failure(collect(readPersistedCalls(loose)))).toMatchObject({ code: 'persisted/privileged-role' });
  });

  test('`check` with a superuser source exits 2 naming the source, and the dblink DELETE never runs', async () => {
    const demo = demoCopy();
    try {
      const u = new URL(pgUrl!);
      const query = `SELECT dblink_exec('host=${u.hostname} port=${u.port} dbname=${db.name} user=postgres', 'DELETE FROM messages') AS id, '{}'::jsonb AS message`;
      demo.edit('prompt-contract.config.ts', 'persisted: [', `persisted: [\n    { name: 'pg-superuser', postgres: 'env:PC_HOSTILE_PG_URL', query: ${JSON.stringify(query)} },`);
      const result = await spawnCli(['check', '--format', 'json'], { cwd: demo.dir, env: { PC_HOSTILE_PG_URL: db.url } }).done;
      expect(result.stderr).toMatch(/Persisted source `pg-superuser`: the role `postgres` .*superuser.*\(persisted\/privileged-role\)/);
      expect(result.code).toBe(2);
      expect(await rows()).toBe(3);
    } finally {
      demo.remove();
    }
  }, 30_000);
});
