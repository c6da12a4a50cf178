// What a PostgreSQL role can reach that a READ ONLY transaction does not stop, decided from
// catalogue rows alone: postgres.ts asks the server for them, this module judges them, so the
// judgement is tested without a server.

/** A role, with the attributes that let it act outside a transaction. */
export interface RoleRow {
  name: string;
  super: boolean;
  replication: boolean;
  createrole: boolean;
}

/**
 * A function a role may execute, and the grantees it may execute it through: `PUBLIC`, or a
 * role it is a member of (the names quoted as SQL identifiers), as a REVOKE would name them.
 */
export interface FunctionRow {
  /** Schema-qualified, with its argument types: `public.log_event()`. */
  signature: string;
  schema: string;
  name: string;
  grantees: string[];
}

/** A SECURITY DEFINER function a role may execute, owned by another role. */
export interface DefinerRow {
  signature: string;
  owner: string;
  grantees: string[];
}

/**
 * What one role may do, as the catalogue says. `roles`: the roles it is a member of (itself
 * included) that carry an attribute or are predefined (`pg_*`). `functions`: those among
 * `watchedFunctions` it may execute. `definers`: the SECURITY DEFINER functions of other
 * roles it may execute.
 */
export interface RoleReach {
  name: string;
  roles: RoleRow[];
  functions: FunctionRow[];
  definers: DefinerRow[];
}

/** The session's reach (the roles it logs in as and acts as) and that of every owner its definers lead to. */
export interface Catalogue {
  /** `server_version_num`: 150004 for 15.4. */
  serverVersion: number;
  /** `wal_level`: `minimal`, `replica` or `logical`. */
  walLevel: string;
  session: string;
  current: string;
  reach: Omit<RoleReach, 'name'>;
  owners: RoleReach[];
}

/** One reason to refuse, and when a REVOKE takes it away, what to revoke EXECUTE on and from whom. */
export interface Refusal {
  reason: string;
  revoke?: { signature: string; from: string[] };
}

/** Predefined roles whose members reach outside the database: server files and programs, other sessions. */
export const privilegedRoles: readonly string[] = ['pg_write_server_files', 'pg_execute_server_program', 'pg_read_server_files', 'pg_signal_backend'];

/**
 * Server functions whose only guard is EXECUTE (PostgreSQL 11 on; before, PUBLIC could run
 * them and each checked for a superuser itself) and whose effects outlive the transaction,
 * or read server files. adminpack's `pg_file_*` are among them.
 */
const executeGuarded: readonly string[] = [
  'lo_export',
  'lo_import',
  'pg_read_file',
  'pg_read_binary_file',
  'pg_stat_reset',
  'pg_stat_reset_shared',
  'pg_stat_reset_single_table_counters',
  'pg_stat_reset_single_function_counters',
  'pg_stat_reset_slru',
  'pg_stat_reset_replication_slot',
  'pg_stat_reset_subscription_stats',
  'pg_switch_wal',
  'pg_reload_conf',
  'pg_rotate_logfile',
  'pg_create_restore_point',
  'pg_promote',
  'pg_backup_start',
  'pg_backup_stop',
  'pg_start_backup',
  'pg_stop_backup',
  'pg_wal_replay_pause',
  'pg_wal_replay_resume',
  'pg_replication_origin_create',
  'pg_replication_origin_drop',
  'pg_replication_origin_advance',
  'pg_replication_origin_session_setup',
  'pg_file_write',
  'pg_file_rename',
  'pg_file_unlink',
  'pg_file_sync',
];

/**
 * Functions PUBLIC runs by default that write a record to the write-ahead log, outside the
 * transaction when asked (`transactional` false), which a read-only transaction allows. Under
 * `wal_level = logical`, logical decoding hands such a message to every consumer (a change
 * data capture pipeline reads it as the database's own): a write others read. Below it, no
 * decoder can exist, and the record is read by nobody.
 */
const logicalMessages: readonly string[] = ['pg_logical_emit_message'];

/** dblink's functions that open a connection of their own, outside the transaction, from a connection string. */
const connecting: readonly string[] = ['dblink', 'dblink_exec', 'dblink_connect', 'dblink_connect_u'];

/**
 * The function names the catalogue query looks for. Others that PUBLIC runs by default are
 * left out on purpose: the large-object writers (`lo_unlink`, `lo_put`, ...) are undone with
 * the transaction, and `pg_terminate_backend`, `pg_cancel_backend` and the replication-slot
 * functions check the caller's role themselves, which `privilegedRoles` and REPLICATION cover.
 */
export const watchedFunctions: readonly string[] = [...executeGuarded, ...connecting, ...logicalMessages];

/** Whether running `f` escapes the transaction, on a server of `serverVersion` and `walLevel`. */
function escapes(f: FunctionRow, serverVersion: number, walLevel: string): boolean {
  if (connecting.includes(f.name)) return true;
  if (logicalMessages.includes(f.name)) return f.schema === 'pg_catalog' && walLevel === 'logical';
  if (f.schema !== 'pg_catalog' || !executeGuarded.includes(f.name)) return false;
  // Before 11, PUBLIC's EXECUTE was the default and the function refused non-superusers itself.
  return serverVersion >= 110000 || f.grantees.some((g) => g !== 'PUBLIC');
}

function revokeOf(signature: string, grantees: string[], fallback: string): NonNullable<Refusal['revoke']> {
  return { signature, from: grantees.length > 0 ? grantees : [fallback] };
}

/** The REVOKE statements that take the refusals' functions away, one per set of grantees. */
export function revokeStatements(refused: Refusal[]): string[] {
  const byGrantees = new Map<string, string[]>();
  for (const r of refused) {
    if (r.revoke === undefined) continue;
    const from = r.revoke.from.join(', ');
    byGrantees.set(from, [...(byGrantees.get(from) ?? []), r.revoke.signature]);
  }
  return [...byGrantees].map(([from, signatures]) => `REVOKE EXECUTE ON FUNCTION ${[...new Set(signatures)].join(', ')} FROM ${from};`);
}

/** `name` as an SQL identifier, quoted unless it is a plain lower-case one. */
function quoteIdent(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}

/** `what` of a role that is not the one judged: `which is a superuser and has REPLICATION`. */
function attributes(r: RoleRow): string[] {
  return [r.super && 'is a superuser', r.replication && 'has REPLICATION', r.createrole && 'has CREATEROLE'].filter((w): w is string => typeof w === 'string');
}

/**
 * Why a role (`own`: the names it logs in and acts as) could act outside a read-only
 * transaction, from its memberships and the functions it may execute. SECURITY DEFINER
 * functions run as their owner, so an owner is judged the same way, and so on down: `seen`
 * keeps a cycle of owners from looping.
 */
function judge(own: Set<string>, reach: Omit<RoleReach, 'name'>, catalogue: Catalogue, seen: Set<string>): Refusal[] {
  const self = reach.roles.filter((r) => own.has(r.name));
  // A superuser is a member of every role and runs every function: its own attribute says all.
  if (self.some((r) => r.super)) return [{ reason: 'is a superuser' }];
  const out: Refusal[] = [];
  for (const r of self) {
    if (r.replication) out.push({ reason: 'has REPLICATION' });
    if (r.createrole) out.push({ reason: 'has CREATEROLE' });
  }
  for (const r of reach.roles) {
    if (own.has(r.name)) continue;
    const what = attributes(r);
    if (what.length > 0) out.push({ reason: `is a member of \`${r.name}\`, which ${what.join(' and ')}` });
    else if (privilegedRoles.includes(r.name)) out.push({ reason: `is a member of \`${r.name}\`` });
  }
  // Granted through no ACL entry the query saw (an owner's implicit right): revoke from the role itself.
  const fallback = quoteIdent([...own][0]!);
  for (const f of reach.functions) {
    if (!escapes(f, catalogue.serverVersion, catalogue.walLevel)) continue;
    const why = logicalMessages.includes(f.name) ? ', which writes a message every logical decoding consumer reads (`wal_level` is `logical`), even from a read-only transaction' : '';
    out.push({ reason: `can run \`${f.signature}\`${why}`, revoke: revokeOf(f.signature, f.grantees, fallback) });
  }
  for (const d of reach.definers) {
    if (own.has(d.owner)) continue;
    const why = owner(d.owner, catalogue, seen);
    if (why === undefined) continue;
    out.push({ reason: `can run \`${d.signature}\`, a SECURITY DEFINER function owned by \`${d.owner}\`, which ${why}`, revoke: revokeOf(d.signature, d.grantees, fallback) });
  }
  return out;
}

/** Why the owner of a SECURITY DEFINER function could act outside the transaction (its first reason), or undefined. */
function owner(name: string, catalogue: Catalogue, seen: Set<string>): string | undefined {
  if (seen.has(name)) return undefined;
  const reach = catalogue.owners.find((o) => o.name === name);
  // An owner the query did not describe cannot be vouched for.
  if (reach === undefined) return 'the server did not describe';
  return judge(new Set([name]), reach, catalogue, new Set([...seen, name]))[0]?.reason;
}

/**
 * Why the session's role could act outside the read-only transaction its query runs in;
 * empty when it cannot. Pure: everything it knows is in `catalogue`.
 */
export function refusals(catalogue: Catalogue): Refusal[] {
  const own = new Set([catalogue.session, catalogue.current]);
  return judge(own, catalogue.reach, catalogue, own);
}
