// The judgement of a PostgreSQL role, from catalogue rows alone: no server. Each kind of
// privilege the reader refuses has its own case here, so dropping one from the analysis fails
// a test on any machine, not only where a PostgreSQL server runs.
import { describe, expect, test } from '@jest/globals';
import { refusals, revokeStatements, type Catalogue, type DefinerRow, type FunctionRow, type RoleReach, type RoleRow } from '../../src/sources/postgres-roles.js';

const role = (name: string, attributes: Partial<Omit<RoleRow, 'name'>> = {}): RoleRow => ({ name, super: false, replication: false, createrole: false, ...attributes });
const fn = (signature: string, grantees = ['PUBLIC']): FunctionRow => {
  const [, schema, name] = /^(\w+)\.(\w+)\(/.exec(signature)!;
  return { signature, schema: schema!, name: name!, grantees };
};
const definer = (signature: string, owner: string, grantees = ['PUBLIC']): DefinerRow => ({ signature, owner, grantees });

/** The README's role: `reader_login`, a member of `reader`, as the catalogue shows it, plus `extra`. */
function catalogue(extra: Partial<Omit<RoleReach, 'name'>> & { owners?: RoleReach[]; serverVersion?: number; walLevel?: string } = {}): Catalogue {
  return {
    serverVersion: extra.serverVersion ?? 150004,
    walLevel: extra.walLevel ?? 'replica',
    session: 'reader_login',
    current: 'reader_login',
    reach: { roles: [role('reader_login'), ...(extra.roles ?? [])], functions: extra.functions ?? [], definers: extra.definers ?? [] },
    owners: extra.owners ?? [],
  };
}
const reasons = (c: Catalogue) => refusals(c).map((r) => r.reason);
const owner = (name: string, reach: Partial<Omit<RoleReach, 'name'>> = {}): RoleReach => ({ name, roles: [role(name)], functions: [], definers: [], ...reach });

describe('the role itself', () => {
  test("the README's role, a member of its NOLOGIN reader role, is accepted", () => {
    expect(refusals(catalogue())).toEqual([]);
  });

  test.each([
    ['a superuser', { super: true }, ['is a superuser']],
    ['REPLICATION', { replication: true }, ['has REPLICATION']],
    ['CREATEROLE', { createrole: true }, ['has CREATEROLE']],
  ])('%s is refused', (_, attributes, expected) => {
    expect(reasons({ ...catalogue(), reach: { roles: [role('reader_login', attributes)], functions: [], definers: [] } })).toEqual(expected);
  });

  test('the role it acts as counts as much as the one it logs in as', () => {
    const c = { ...catalogue({ roles: [role('app_admin', { createrole: true })] }), current: 'app_admin' };
    expect(reasons(c)).toEqual(['has CREATEROLE']);
  });
});

describe('the roles it is a member of', () => {
  test.each(['pg_write_server_files', 'pg_execute_server_program', 'pg_read_server_files', 'pg_signal_backend'])('`%s` is refused', (name) => {
    expect(reasons(catalogue({ roles: [role(name)] }))).toEqual([`is a member of \`${name}\``]);
  });

  test.each([
    ['a superuser role', { super: true }, 'is a member of `admins`, which is a superuser'],
    ['a REPLICATION role', { replication: true }, 'is a member of `admins`, which has REPLICATION'],
    ['a CREATEROLE role', { createrole: true }, 'is a member of `admins`, which has CREATEROLE'],
  ])('%s is refused', (_, attributes, expected) => {
    expect(reasons(catalogue({ roles: [role('admins', attributes)] }))).toEqual([expected]);
  });

  test.each(['pg_monitor', 'pg_read_all_data', 'pg_read_all_stats', 'pg_database_owner', 'pg_checkpoint'])('`%s` reaches nothing outside the transaction and is accepted', (name) => {
    expect(refusals(catalogue({ roles: [role(name)] }))).toEqual([]);
  });
});

describe('the functions it may execute', () => {
  test.each(['pg_catalog.pg_stat_reset()', 'pg_catalog.lo_export(oid, text)', 'pg_catalog.lo_import(text)', 'pg_catalog.pg_reload_conf()', 'pg_catalog.pg_file_write(text, text, boolean)'])(
    '`%s`, granted to the role, is refused with a REVOKE from it',
    (signature) => {
      const refused = refusals(catalogue({ functions: [fn(signature, ['reader_login'])] }));
      expect(refused.map((r) => r.reason)).toEqual([`can run \`${signature}\``]);
      expect(revokeStatements(refused)).toEqual([`REVOKE EXECUTE ON FUNCTION ${signature} FROM reader_login;`]);
    },
  );

  test('granted to PUBLIC, a function guarded by EXECUTE alone is refused from PostgreSQL 11 on, and not before, when it checked for a superuser itself', () => {
    const granted = { functions: [fn('pg_catalog.lo_export(oid, text)')] };
    expect(reasons(catalogue({ ...granted, serverVersion: 110000 }))).toEqual(['can run `pg_catalog.lo_export(oid, text)`']);
    expect(reasons(catalogue({ ...granted, serverVersion: 100023 }))).toEqual([]);
    expect(reasons(catalogue({ functions: [fn('pg_catalog.lo_export(oid, text)', ['reader'])], serverVersion: 100023 }))).toEqual(['can run `pg_catalog.lo_export(oid, text)`']);
  });

  test('dblink, in whatever schema, is refused however it is granted, and one REVOKE names every function', () => {
    const functions = [fn('public.dblink_exec(text, text)'), fn('ext.dblink(text, text)'), fn('public.dblink_connect(text)'), fn('public.dblink_connect_u(text)', ['reader'])];
    const refused = refusals(catalogue({ functions, serverVersion: 90600 }));
    expect(refused.map((r) => r.reason)).toEqual(functions.map((f) => `can run \`${f.signature}\``));
    expect(revokeStatements(refused)).toEqual([
      'REVOKE EXECUTE ON FUNCTION public.dblink_exec(text, text), ext.dblink(text, text), public.dblink_connect(text) FROM PUBLIC;',
      'REVOKE EXECUTE ON FUNCTION public.dblink_connect_u(text) FROM reader;',
    ]);
  });

  test("a function of the same name outside pg_catalog is the user's own, not the server's", () => {
    expect(refusals(catalogue({ functions: [fn('public.pg_stat_reset()')] }))).toEqual([]);
  });
});

describe('SECURITY DEFINER functions of other roles', () => {
  const logEvent = definer('public.log_event()', 'postgres');

  test('owned by a superuser: refused, naming the function and its owner, with the REVOKE from PUBLIC', () => {
    const refused = refusals(catalogue({ definers: [logEvent], owners: [owner('postgres', { roles: [role('postgres', { super: true })] })] }));
    expect(refused.map((r) => r.reason)).toEqual(['can run `public.log_event()`, a SECURITY DEFINER function owned by `postgres`, which is a superuser']);
    expect(revokeStatements(refused)).toEqual(['REVOKE EXECUTE ON FUNCTION public.log_event() FROM PUBLIC;']);
  });

  test.each([
    ['REPLICATION', owner('ops', { roles: [role('ops', { replication: true })] }), 'which has REPLICATION'],
    ['CREATEROLE', owner('ops', { roles: [role('ops', { createrole: true })] }), 'which has CREATEROLE'],
    ['membership of pg_signal_backend', owner('ops', { roles: [role('ops'), role('pg_signal_backend')] }), 'which is a member of `pg_signal_backend`'],
    ['membership of pg_write_server_files', owner('ops', { roles: [role('ops'), role('pg_write_server_files')] }), 'which is a member of `pg_write_server_files`'],
    ['EXECUTE on pg_stat_reset()', owner('ops', { functions: [fn('pg_catalog.pg_stat_reset()', ['ops'])] }), 'which can run `pg_catalog.pg_stat_reset()`'],
    ['dblink', owner('ops', { functions: [fn('public.dblink_exec(text, text)')] }), 'which can run `public.dblink_exec(text, text)`'],
  ])('owned by a role with %s: refused', (_, ops, why) => {
    const refused = reasons(catalogue({ definers: [definer('public.log_event()', 'ops')], owners: [ops] }));
    expect(refused).toEqual([`can run \`public.log_event()\`, a SECURITY DEFINER function owned by \`ops\`, ${why}`]);
  });

  test('owned by a role that can only do what the reader can: accepted', () => {
    expect(refusals(catalogue({ definers: [definer('public.log_event()', 'app_owner')], owners: [owner('app_owner', { roles: [role('app_owner'), role('pg_read_all_data')] })] }))).toEqual([]);
  });

  test('one that leads to another: judged through the chain, revoked at the first step', () => {
    const c = catalogue({
      definers: [definer('public.log_event()', 'app_owner')],
      owners: [owner('app_owner', { definers: [definer('audit.write_log()', 'postgres', ['app_owner'])] }), owner('postgres', { roles: [role('postgres', { super: true })] })],
    });
    const refused = refusals(c);
    expect(refused.map((r) => r.reason)).toEqual([
      'can run `public.log_event()`, a SECURITY DEFINER function owned by `app_owner`, which can run `audit.write_log()`, a SECURITY DEFINER function owned by `postgres`, which is a superuser',
    ]);
    expect(revokeStatements(refused)).toEqual(['REVOKE EXECUTE ON FUNCTION public.log_event() FROM PUBLIC;']);
  });

  test('owners that lead to each other in a circle end, and are accepted when neither can do harm', () => {
    const c = catalogue({
      definers: [definer('public.a()', 'alpha')],
      owners: [owner('alpha', { definers: [definer('public.b()', 'beta')] }), owner('beta', { definers: [definer('public.a()', 'alpha')] })],
    });
    expect(refusals(c)).toEqual([]);
  });

  test('an owner the catalogue did not describe is not vouched for', () => {
    expect(reasons(catalogue({ definers: [logEvent] }))).toEqual(['can run `public.log_event()`, a SECURITY DEFINER function owned by `postgres`, which the server did not describe']);
  });

  test('its own SECURITY DEFINER functions are judged as the role itself', () => {
    expect(refusals(catalogue({ definers: [definer('public.mine()', 'reader_login')] }))).toEqual([]);
  });
});

// Issue #25 (hostile re-test): PUBLIC may run `pg_logical_emit_message` by default, and a
// non-transactional message is written from a read-only transaction. Under `wal_level =
// logical` every logical decoding consumer reads it, as the database's own; below, none can.
describe('logical decoding messages', () => {
  const emit = [fn('pg_catalog.pg_logical_emit_message(transactional boolean, prefix text, message text)'), fn('pg_catalog.pg_logical_emit_message(transactional boolean, prefix text, message bytea)')];

  test('are refused, with the REVOKE, where wal_level is logical', () => {
    const c = catalogue({ functions: emit, walLevel: 'logical' });
    expect(reasons(c)).toEqual(emit.map((f) => `can run \`${f.signature}\`, which writes a message every logical decoding consumer reads (\`wal_level\` is \`logical\`), even from a read-only transaction`));
    expect(revokeStatements(refusals(c))).toEqual([`REVOKE EXECUTE ON FUNCTION ${emit.map((f) => f.signature).join(', ')} FROM PUBLIC;`]);
  });

  test.each(['replica', 'minimal'])('are accepted where wal_level is %s: nothing can decode them', (walLevel) => {
    expect(refusals(catalogue({ functions: emit, walLevel }))).toEqual([]);
  });

  test('a function of that name outside pg_catalog is not the server one', () => {
    expect(refusals(catalogue({ functions: [fn('public.pg_logical_emit_message(text)')], walLevel: 'logical' }))).toEqual([]);
  });
});
