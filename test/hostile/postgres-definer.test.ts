// A SECURITY DEFINER function runs as its owner. Owned by a superuser and executable by PUBLIC
// (the default for a new function), it lets the README's SELECT-only role reset statistics,
// write server files or open a writable dblink session, none of which a READ ONLY transaction
// stops. The reader looks for such functions, and for dblink, before the query runs, and
// refuses with the REVOKE that takes them out of reach.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPersistedCalls, type PostgresSource } from '../../src/sources/persisted.js';
import { InputError } from '../../src/util/errors.js';
import { collect, describeWithPostgres, pgUrl, scratchDatabase, summary, type ScratchDatabase } from '../sources/helpers.js';

describeWithPostgres('SECURITY DEFINER functions and dblink within reach of the role', () => {
  let db: ScratchDatabase;
  let reader: { url: string; login: string; reader: string };
  let fileDir: string;
  let largeObject: number;

  const source = (query: string, extra: Partial<PostgresSource> = {}): PostgresSource => ({ name: 'conversations-replica', postgres: reader.url, query, ...extra });
  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e);
  const rows = async () => Number((await db.admin.query<{ n: string }>('SELECT count(*) AS n FROM messages')).rows[0]!.n);
  const statsReset = async () => {
    await db.admin.query('SELECT pg_stat_clear_snapshot()');
    return String((await db.admin.query<{ t: Date | null }>('SELECT stats_reset AS t FROM pg_stat_database WHERE datname = current_database()')).rows[0]!.t);
  };
  const exported = () => join(fileDir, 'exported');
  const revokesIn = (message: string) => message.match(/REVOKE EXECUTE ON FUNCTION [^;]+;/g) ?? [];

  beforeAll(async () => {
    db = await scratchDatabase('pc_hostile_definer');
    await db.admin.query('CREATE TABLE messages (id int PRIMARY KEY, message jsonb NOT NULL)');
    await db.admin.query(`INSERT INTO messages VALUES
      (1, '{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"lookup_order","input":{"order_id":"A-1"}}]}'),
      (2, '{"role":"user","content":"hi"}'),
      (3, '{"role":"assistant","content":[{"type":"tool_use","id":"toolu_3","name":"lookup_order","input":{"order_id":"A-3"}}]}')`);
    // dblink in a schema of its own, taken from PUBLIC the way the refusal says (its own test below shows the refusal).
    await db.admin.query('CREATE SCHEMA dblink_ext');
    await db.admin.query('CREATE EXTENSION dblink SCHEMA dblink_ext');
    await db.admin.query('REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA dblink_ext FROM PUBLIC');
    largeObject = (await db.admin.query<{ oid: number }>("SELECT lo_from_bytea(0, 'exported by a definer'::bytea) AS oid")).rows[0]!.oid;
    fileDir = mkdtempSync(join(tmpdir(), 'pc-definer-'));
    chmodSync(fileDir, 0o777);
    const u = new URL(pgUrl!);
    // Created by the superuser, so owned by it; EXECUTE goes to PUBLIC, as for any new function.
    await db.admin.query('CREATE FUNCTION public.log_event_reset() RETURNS int LANGUAGE sql SECURITY DEFINER AS $$ SELECT pg_stat_reset(); SELECT 1 $$');
    await db.admin.query(`CREATE FUNCTION public.log_event_export() RETURNS int LANGUAGE sql SECURITY DEFINER AS $$ SELECT lo_export(${largeObject}, '${exported()}') $$`);
    await db.admin.query(
      `CREATE FUNCTION public.log_event_dblink() RETURNS text LANGUAGE sql SECURITY DEFINER AS $$ SELECT dblink_ext.dblink_exec('host=${u.hostname} port=${u.port} dbname=${db.name} user=postgres', 'DELETE FROM messages WHERE id = 1') $$`,
    );
    reader = await db.reader(['messages']);
  });

  afterAll(async () => {
    await db?.drop();
    if (fileDir) rmSync(fileDir, { recursive: true, force: true });
  });

  // Each function, and how to tell afterwards that it did nothing.
  const attacks: Array<[string, string, () => Promise<unknown>]> = [
    ['pg_stat_reset()', 'public.log_event_reset()', statsReset],
    ['lo_export(), writing a server file', 'public.log_event_export()', async () => existsSync(exported())],
    ['dblink_exec(), deleting through a second session', 'public.log_event_dblink()', rows],
  ];

  test.each(attacks)('a superuser-owned definer calling %s: the README role is refused before it runs, naming it with the REVOKE from PUBLIC', async (_, fn, observe) => {
    const before = await observe();
    const error = await failure(collect(readPersistedCalls(source(`SELECT ${fn} AS id, '{}'::jsonb AS message`))));
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'persisted/privileged-role' });
    const message = (error as Error).message;
    expect(message).toMatch(new RegExp(`^Persisted source \`conversations-replica\`: the role \`${reader.login}\` that the connection logs in as `));
    expect(message).toContain(`can run \`${fn}\`, a SECURITY DEFINER function owned by \`postgres\`, which is a superuser`);
    expect(revokesIn(message)).toEqual(['REVOKE EXECUTE ON FUNCTION public.log_event_dblink(), public.log_event_export(), public.log_event_reset() FROM PUBLIC;']);
    // Its own privileges are not the problem: no new role is asked for.
    expect(message).not.toContain('CREATE ROLE');
    expect(await observe()).toEqual(before);
  });

  test('after the REVOKE the refusal gives, the README role reads, and calling a definer fails on its own privileges', async () => {
    const error = await failure(collect(readPersistedCalls(source('SELECT id, message FROM messages ORDER BY id'))));
    const revokes = revokesIn((error as Error).message);
    expect(revokes).toHaveLength(1);
    try {
      for (const revoke of revokes) await db.admin.query(revoke);
      expect(summary(await collect(readPersistedCalls(source('SELECT id, message FROM messages ORDER BY id'))))).toEqual(['1:toolu_1:lookup_order', '3:toolu_3:lookup_order']);
      for (const [, fn, observe] of attacks) {
        const before = await observe();
        const refused = await failure(collect(readPersistedCalls(source(`SELECT ${fn} AS id, '{}'::jsonb AS message`))));
        expect(refused).toMatchObject({ code: 'persisted/bad-query', message: expect.stringContaining(`permission denied for function ${fn.replace(/^public\.|\(\)$/g, '')}`) });
        expect(await observe()).toEqual(before);
      }
    } finally {
      await db.admin.query('GRANT EXECUTE ON FUNCTION public.log_event_reset(), public.log_event_export(), public.log_event_dblink() TO PUBLIC');
    }
  });

  test('`dangerouslyAllowPrivilegedRole: true` reads despite them', async () => {
    const items = await collect(readPersistedCalls(source('SELECT id, message FROM messages ORDER BY id', { dangerouslyAllowPrivilegedRole: true })));
    expect(summary(items)).toEqual(['1:toolu_1:lookup_order', '3:toolu_3:lookup_order']);
  });

  describeWithPostgres('owners other than a superuser', () => {
    const revokeDefiners = 'REVOKE EXECUTE ON FUNCTION public.log_event_reset(), public.log_event_export(), public.log_event_dblink() FROM PUBLIC';
    beforeAll(() => db.admin.query(revokeDefiners));
    afterAll(() => db.admin.query('GRANT EXECUTE ON FUNCTION public.log_event_reset(), public.log_event_export(), public.log_event_dblink() TO PUBLIC'));

    test('owned by a member of pg_signal_backend: refused, naming why', async () => {
      const ops = await db.reader([], ['GRANT pg_signal_backend TO %reader%']);
      await db.admin.query(`CREATE FUNCTION public.stop_others() RETURNS int LANGUAGE sql SECURITY DEFINER AS $$ SELECT 1 $$`);
      await db.admin.query(`ALTER FUNCTION public.stop_others() OWNER TO ${ops.reader}`);
      try {
        const error = await failure(collect(readPersistedCalls(source('SELECT id, message FROM messages'))));
        expect(error).toMatchObject({ code: 'persisted/privileged-role' });
        expect((error as Error).message).toContain(`can run \`public.stop_others()\`, a SECURITY DEFINER function owned by \`${ops.reader}\`, which is a member of \`pg_signal_backend\``);
      } finally {
        await db.admin.query('DROP FUNCTION public.stop_others()');
      }
    });

    test('one that leads to a superuser-owned one: refused through the chain, the REVOKE at its first step', async () => {
      const middle = await db.reader([]);
      await db.admin.query(`GRANT EXECUTE ON FUNCTION public.log_event_reset() TO ${middle.reader}`);
      await db.admin.query('CREATE FUNCTION public.log_via_middle() RETURNS int LANGUAGE sql SECURITY DEFINER AS $$ SELECT public.log_event_reset() $$');
      await db.admin.query(`ALTER FUNCTION public.log_via_middle() OWNER TO ${middle.reader}`);
      const before = await statsReset();
      try {
        const error = await failure(collect(readPersistedCalls(source("SELECT public.log_via_middle() AS id, '{}'::jsonb AS message"))));
        expect(error).toMatchObject({ code: 'persisted/privileged-role' });
        const message = (error as Error).message;
        expect(message).toContain(
          `can run \`public.log_via_middle()\`, a SECURITY DEFINER function owned by \`${middle.reader}\`, which can run \`public.log_event_reset()\`, a SECURITY DEFINER function owned by \`postgres\`, which is a superuser`,
        );
        expect(revokesIn(message)).toEqual(['REVOKE EXECUTE ON FUNCTION public.log_via_middle() FROM PUBLIC;']);
        expect(await statsReset()).toEqual(before);
      } finally {
        await db.admin.query('DROP FUNCTION public.log_via_middle()');
        await db.admin.query(`REVOKE EXECUTE ON FUNCTION public.log_event_reset() FROM ${middle.reader}`);
      }
    });

    test('owned by a role that can only do what the reader can: accepted, and it runs', async () => {
      const plain = await db.reader(['messages']);
      await db.admin.query('CREATE FUNCTION public.message_count() RETURNS bigint LANGUAGE sql SECURITY DEFINER AS $$ SELECT count(*) FROM public.messages $$');
      await db.admin.query(`ALTER FUNCTION public.message_count() OWNER TO ${plain.reader}`);
      try {
        const items = await collect(readPersistedCalls(source('SELECT id, message FROM messages WHERE id = (SELECT public.message_count())')));
        expect(summary(items)).toEqual(['3:toolu_3:lookup_order']);
      } finally {
        await db.admin.query('DROP FUNCTION public.message_count()');
      }
    });

    test('dblink as installed, executable by PUBLIC: the README role is refused; after the REVOKE it gives, it reads', async () => {
      await db.admin.query('GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA dblink_ext TO PUBLIC');
      try {
        const error = await failure(collect(readPersistedCalls(source('SELECT id, message FROM messages ORDER BY id'))));
        expect(error).toMatchObject({ code: 'persisted/privileged-role' });
        const message = (error as Error).message;
        expect(message).toContain('can run `dblink_ext.dblink(text)`');
        const revokes = revokesIn(message);
        expect(revokes).toHaveLength(1);
        expect(revokes[0]).toMatch(/^REVOKE EXECUTE ON FUNCTION dblink_ext\.dblink\(text\), .*dblink_ext\.dblink_exec\(text, text\).* FROM PUBLIC;$/);
        await db.admin.query(revokes[0]!);
        expect(summary(await collect(readPersistedCalls(source('SELECT id, message FROM messages ORDER BY id'))))).toEqual(['1:toolu_1:lookup_order', '3:toolu_3:lookup_order']);
      } finally {
        await db.admin.query('REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA dblink_ext FROM PUBLIC');
      }
    });
  });
});
