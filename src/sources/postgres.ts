import { createRequire } from 'node:module';
import { connect as connectSocket } from 'node:net';
import type { Client, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { InputError } from '../util/errors.js';
import { importOptional } from '../util/optional.js';
import type { PostgresSource, Row } from './persisted.js';
import { refusals, revokeStatements, watchedFunctions, type Catalogue, type Refusal, type RoleReach } from './postgres-roles.js';
import { duration, timeoutMsOf } from './timeouts.js';

function messageOf(error: unknown): string {
  const e = error as { message?: unknown; code?: unknown; errors?: unknown };
  // Node reports a refused dual-stack connection as an AggregateError with an empty message.
  if (Array.isArray(e.errors) && e.errors.length > 0) return e.errors.map(messageOf).join('; ');
  const text = typeof e.message === 'string' && e.message !== '' ? e.message : typeof e.code === 'string' ? e.code : String(error);
  return text;
}

/** What every bad-query message ends with. */
const expectedQuery = 'expected one SELECT that returns a row id and a message JSON column';
const expectedUrl = 'expected a URL: `postgres://user:password@host:port/database`';

// ---------------------------------------------------------------------------------------------
// The connection string, and what of it a message may show.

/** Where a source connects, and what messages may say about it. */
interface Target {
  /** The connection string pg connects with. */
  url: string;
  /** For messages: `` `env:NAME` ``, or the string in backticks with every password replaced by `***`. */
  display: string;
  /** The password texts (as written, encoded, decoded), to scrub from driver and server messages. */
  secrets: string[];
}

/** libpq's keyword=value form (`host=db password=...`): starts with a keyword and `=`. */
const keywordForm = /^\s*[A-Za-z_][A-Za-z0-9_]*\s*=/;
/** A parameter that carries a secret: `password`, `sslpassword`, ... */
const secretKey = /pass/i;

/** The connection string, with `env:VARNAME` read from the environment. */
function connectionString(source: PostgresSource): string {
  if (!source.postgres.startsWith('env:')) return source.postgres;
  const name = source.postgres.slice(4);
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new InputError('persisted/unreachable', `Persisted source \`${source.name}\`: environment variable \`${name}\` is not set; expected a PostgreSQL connection string in it`);
  }
  return value;
}

/** keyword=value pairs as libpq reads them: a value is a word, or `'...'` with `\'` and `\\`. */
function keywordPairs(text: string): Array<{ key: string; value: string; start: number; end: number }> {
  const pairs: Array<{ key: string; value: string; start: number; end: number }> = [];
  const pair = /\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*/y;
  let i = 0;
  while (i < text.length) {
    pair.lastIndex = i;
    const m = pair.exec(text);
    if (!m) break;
    const start = pair.lastIndex;
    let value = '';
    let j = start;
    if (text[j] === "'") {
      j++;
      while (j < text.length && text[j] !== "'") {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        value += text[j++];
      }
      j++;
    } else {
      while (j < text.length && !/\s/.test(text[j]!)) {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        value += text[j++];
      }
    }
    pairs.push({ key: m[1]!, value, start, end: Math.min(j, text.length) });
    i = j;
  }
  return pairs;
}

/** The keyword=value string with each secret's value replaced by `***`. */
function maskKeywords(text: string): string {
  let out = '';
  let at = 0;
  for (const p of keywordPairs(text)) {
    if (!secretKey.test(p.key)) continue;
    out += `${text.slice(at, p.start)}***`;
    at = p.end;
  }
  return (out + text.slice(at)).trim();
}

/** Every way `value` may be written in a connection string or echoed in a message. */
function spellings(value: string): string[] {
  const out = new Set([value]);
  for (const encode of [encodeURIComponent, encodeURI]) {
    try {
      out.add(encode(value));
    } catch {
      // A lone surrogate: no encoded form to look for.
    }
  }
  return [...out].filter((s) => s !== '');
}

/**
 * Reads a source's connection string into what pg connects with and what a message may show.
 * The password is never shown, whichever way it is given: `user:password@`, a password that
 * itself holds `@`, `?password=` (and any parameter naming a password), or keyword=value
 * (which pg cannot read: refused here, masked).
 */
function resolveTarget(source: PostgresSource, parseConnectionString: ParseConnectionString): Target {
  const fromEnv = source.postgres.startsWith('env:');
  const url = connectionString(source);
  const named = fromEnv ? `the connection string in \`${source.postgres}\`` : 'the connection string';
  if (keywordForm.test(url)) {
    const shown = fromEnv ? '' : ` \`${maskKeywords(url)}\``;
    throw new InputError('persisted/unreachable', `Persisted source \`${source.name}\`: ${named}${shown} is in keyword=value form, which the PostgreSQL driver (pg) does not read; ${expectedUrl}`);
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = parseConnectionString(url);
  } catch (error) {
    // Not shown: a string that does not parse cannot be masked reliably.
    throw new InputError('persisted/unreachable', `Persisted source \`${source.name}\`: ${named} cannot be read (${messageOf(error)}); ${expectedUrl}`, {}, { cause: error });
  }
  const secrets = Object.entries(parsed)
    .filter(([key, value]) => secretKey.test(key) && typeof value === 'string' && value !== '')
    .flatMap(([, value]) => spellings(value as string))
    .sort((a, b) => b.length - a.length);
  return { url, secrets, display: fromEnv ? `\`${source.postgres}\`` : `\`${secrets.length === 0 ? url : maskUrl(url, parsed)}\`` };
}

/** A URL connection string with its password and password parameters replaced by `***`. */
function maskUrl(url: string, parsed: Record<string, unknown>): string {
  // pg-connection-string encodes spaces and stray `%` before parsing; the same here.
  const text = / |%[^a-f0-9]|%[a-f0-9][^a-f0-9]/i.test(url) ? encodeURI(url).replace(/%25(\d\d)/g, '%$1') : url;
  try {
    const u = new URL(text);
    if (u.password !== '') u.password = '***';
    for (const key of [...new Set(u.searchParams.keys())]) if (secretKey.test(key)) u.searchParams.set(key, '***');
    return u.toString();
  } catch {
    // Only what was parsed, password left out (`socket://user:pw@/dir`, an empty host).
    const protocol = /^([a-z][a-z0-9+.-]*:)/i.exec(url)?.[1] ?? 'postgres:';
    const user = typeof parsed.user === 'string' && parsed.user !== '' ? encodeURIComponent(parsed.user) : '';
    const host = typeof parsed.host === 'string' ? parsed.host : '';
    const port = typeof parsed.port === 'string' && parsed.port !== '' ? `:${parsed.port}` : '';
    const database = typeof parsed.database === 'string' ? parsed.database : '';
    return `${protocol}//${user}:***@${host}${port}/${database}`;
  }
}

/** `text` with every spelling of the password replaced: driver and server messages may echo parts of the string. */
function scrub(text: string, target: Target | undefined): string {
  let out = text;
  // Very short passwords would mangle ordinary words; they are kept out of displays by construction.
  for (const secret of target?.secrets ?? []) if (secret.length >= 4) out = out.split(secret).join('***');
  return out;
}

function unreachable(source: PostgresSource, target: Target, error: unknown): InputError {
  return new InputError(
    'persisted/unreachable',
    scrub(`Persisted source \`${source.name}\`: cannot connect to PostgreSQL at ${target.display} (${messageOf(error)}); expected a reachable server and database`, target),
    {},
    { cause: error },
  );
}

// ---------------------------------------------------------------------------------------------
// One statement.

/** A character that continues an identifier: it makes `E'`, `$tag$` part of a name instead. */
const identifierChar = /[A-Za-z0-9_$\u0080-\uffff]/;
/** The opening delimiter of a dollar-quoted string: `$$` or `$tag$` (a tag never starts with a digit). */
const dollarQuote = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;

/** Where `sql[index]` is, as `line L, column C` (1-based). */
function position(sql: string, index: number): string {
  const before = sql.slice(0, index).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/**
 * The source's query as the one statement to send: trimmed, without its one optional trailing
 * `;`. A `;` anywhere else outside string literals, quoted identifiers and comments would
 * start a second statement (`SELECT ...; COMMIT; DELETE ...`), so it is refused here, before
 * any connection. Lexes as PostgreSQL does with `standard_conforming_strings` on, which the
 * reader's connection sets: `'...'` and `"..."` with doubled quotes, `E'...'` with backslash
 * escapes, `$tag$...$tag$`, `--` and nested block comments.
 */
export function singleStatement(source: PostgresSource): string {
  const sql = source.query;
  let semicolon = -1;
  const refuse = (at: number) =>
    new InputError('persisted/bad-query', `Persisted source \`${source.name}\`: the query holds more than one statement (a \`;\` at ${position(sql, at)}); ${expectedQuery}`);
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const start = i;
    if (c === '-' && sql[i + 1] === '-') {
      const newline = sql.indexOf('\n', i);
      i = newline < 0 ? sql.length : newline + 1;
      continue; // a comment may follow the trailing `;`
    }
    if (c === '/' && sql[i + 1] === '*') {
      let depth = 1;
      i += 2;
      while (i < sql.length && depth > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') (depth++, (i += 2));
        else if (sql[i] === '*' && sql[i + 1] === '/') (depth--, (i += 2));
        else i++;
      }
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    // Anything else after a `;` is a second statement, and so is a second `;`.
    if (semicolon >= 0) throw refuse(semicolon);
    if (c === ';') {
      semicolon = i++;
      continue;
    }
    if (c === "'" || c === '"') {
      const escapes = c === "'" && /[eE]/.test(sql[i - 1] ?? '') && !identifierChar.test(sql[i - 2] ?? '');
      i++;
      while (i < sql.length) {
        if (escapes && sql[i] === '\\') i += 2;
        else if (sql[i] === c && sql[i + 1] === c) i += 2;
        else if (sql[i] === c) break;
        else i++;
      }
      i++;
      continue;
    }
    if (c === '$' && !identifierChar.test(sql[i - 1] ?? '')) {
      dollarQuote.lastIndex = i;
      const open = dollarQuote.exec(sql);
      if (open) {
        const close = sql.indexOf(open[0], i + open[0].length);
        i = close < 0 ? sql.length : close + open[0].length;
        continue;
      }
    }
    i = start + 1;
  }
  return (semicolon < 0 ? sql : sql.slice(0, semicolon)).trim();
}

// ---------------------------------------------------------------------------------------------
// Connections: read-only, with timeouts, checked for privileges, cancelled on SIGINT/SIGTERM.

/** What the server says the session's limits are, in milliseconds (0: none). */
interface Limits {
  statement: number;
  lock: number;
  idle: number;
}

/** SIGINT or SIGTERM, once it has interrupted the sessions. */
type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * One round trip before the query: who the session is, and what it can reach that a read-only
 * transaction does not stop, as catalogue rows for `refusals` (postgres-roles.ts) to judge:
 * - the roles it may act as (with SET ROLE or by inheritance) that carry an attribute or are
 *   predefined;
 * - the watched server functions it may execute, with the grantees it has them through;
 * - the SECURITY DEFINER functions of other roles it may execute, and, for each owner they
 *   lead to (and the owners those lead to), the same three things.
 * A superuser can do everything, so for one (the session or an owner) only its roles are
 * listed. The limits in force come along, and the server (PostgreSQL 14+) is asked to look
 * for a vanished client every 2 s during a long statement, so a reader killed outright does
 * not leave its query running.
 */
const inspection = `
WITH RECURSIVE
acting AS (
  SELECT r.oid FROM pg_roles r
  WHERE pg_has_role(session_user, r.oid, 'MEMBER') OR pg_has_role(current_user, r.oid, 'MEMBER')
),
super AS (SELECT EXISTS (SELECT 1 FROM acting a JOIN pg_roles r ON r.oid = a.oid WHERE r.rolsuper) AS yes),
reached(oid) AS (
  SELECT p.proowner FROM pg_proc p
  WHERE p.prosecdef AND NOT (SELECT yes FROM super)
    AND EXISTS (SELECT 1 FROM acting a WHERE has_function_privilege(a.oid, p.oid, 'EXECUTE'))
  UNION
  -- A superuser owner is refused for what it is; where its own functions lead adds nothing.
  SELECT p.proowner FROM reached o JOIN pg_roles ro ON ro.oid = o.oid AND NOT ro.rolsuper
  JOIN pg_proc p ON p.prosecdef AND has_function_privilege(o.oid, p.oid, 'EXECUTE')
),
membership(subject, member) AS (
  SELECT 0::oid, oid FROM acting
  UNION ALL
  SELECT o.oid, r.oid
  FROM (SELECT DISTINCT oid FROM reached WHERE oid NOT IN (SELECT oid FROM acting)) o
  JOIN pg_roles ro ON ro.oid = o.oid
  JOIN pg_roles r ON r.oid = o.oid OR (NOT ro.rolsuper AND pg_has_role(o.oid, r.oid, 'MEMBER'))
),
subjects AS (SELECT DISTINCT subject FROM membership),
callable AS (
  SELECT s.subject, p.proname, p.prosecdef, p.proowner, n.nspname, o.rolname AS owner,
    quote_ident(n.nspname) || '.' || quote_ident(p.proname) || '(' || pg_get_function_identity_arguments(p.oid) || ')' AS signature,
    ARRAY(
      SELECT DISTINCT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(g.rolname) END
      FROM aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a LEFT JOIN pg_roles g ON g.oid = a.grantee
      WHERE a.privilege_type = 'EXECUTE' AND (a.grantee = 0 OR a.grantee IN (SELECT m.member FROM membership m WHERE m.subject = s.subject))
      ORDER BY 1
    ) AS grantees
  FROM subjects s
  JOIN pg_proc p ON p.prosecdef OR p.proname = ANY($1::text[])
  JOIN pg_namespace n ON n.oid = p.pronamespace
  JOIN pg_roles o ON o.oid = p.proowner
  WHERE NOT (SELECT yes FROM super)
    AND NOT EXISTS (SELECT 1 FROM pg_roles su WHERE su.oid = s.subject AND su.rolsuper)
    AND EXISTS (SELECT 1 FROM membership m WHERE m.subject = s.subject AND has_function_privilege(m.member, p.oid, 'EXECUTE'))
),
reach AS (
  SELECT s.subject,
    (SELECT coalesce(json_agg(json_build_object('name', r.rolname, 'super', r.rolsuper, 'replication', r.rolreplication, 'createrole', r.rolcreaterole) ORDER BY r.rolname), '[]'::json)
       FROM membership m JOIN pg_roles r ON r.oid = m.member
       WHERE m.subject = s.subject
         AND (r.rolsuper OR r.rolreplication OR r.rolcreaterole OR r.rolname LIKE 'pg\\_%' OR r.oid = s.subject
              OR (s.subject = 0 AND r.rolname IN (session_user, current_user)))) AS roles,
    (SELECT coalesce(json_agg(json_build_object('signature', c.signature, 'schema', c.nspname, 'name', c.proname, 'grantees', c.grantees) ORDER BY c.signature), '[]'::json)
       FROM callable c WHERE c.subject = s.subject AND c.proname = ANY($1::text[])) AS functions,
    (SELECT coalesce(json_agg(json_build_object('signature', c.signature, 'owner', c.owner, 'grantees', c.grantees) ORDER BY c.signature), '[]'::json)
       FROM callable c
       WHERE c.subject = s.subject AND c.prosecdef AND c.proowner NOT IN (SELECT m.member FROM membership m WHERE m.subject = s.subject)) AS definers
  FROM subjects s
)
SELECT
  session_user::text AS session_role,
  current_user::text AS current_role,
  current_setting('server_version_num')::int AS server_version,
  current_setting('wal_level') AS wal_level,
  (SELECT setting FROM pg_settings WHERE name = 'statement_timeout') AS statement_timeout,
  (SELECT setting FROM pg_settings WHERE name = 'lock_timeout') AS lock_timeout,
  (SELECT setting FROM pg_settings WHERE name = 'idle_in_transaction_session_timeout') AS idle_timeout,
  (SELECT json_build_object('roles', x.roles, 'functions', x.functions, 'definers', x.definers) FROM reach x WHERE x.subject = 0) AS reach,
  (SELECT coalesce(json_agg(json_build_object('name', r.rolname, 'roles', x.roles, 'functions', x.functions, 'definers', x.definers) ORDER BY r.rolname), '[]'::json)
     FROM reach x JOIN pg_roles r ON r.oid = x.subject WHERE x.subject <> 0) AS owners,
  (SELECT set_config(name, '2000', false) FROM pg_settings WHERE name = 'client_connection_check_interval') AS check_interval`;

interface Inspection {
  session_role: string;
  current_role: string;
  server_version: number;
  wal_level: string;
  statement_timeout: string | null;
  lock_timeout: string | null;
  idle_timeout: string | null;
  reach: Omit<RoleReach, 'name'> | null;
  owners: RoleReach[];
}

/** The inspection's rows as `refusals` takes them. */
function catalogueOf(found: Inspection): Catalogue {
  return {
    serverVersion: found.server_version,
    walLevel: found.wal_level,
    session: found.session_role,
    current: found.current_role,
    reach: found.reach ?? { roles: [], functions: [], definers: [] },
    owners: found.owners,
  };
}

/** The recipe for a role that can read the conversations and nothing else. */
const readerRecipe =
  "CREATE ROLE prompt_contract_reader NOLOGIN; GRANT SELECT ON <the conversation tables> TO prompt_contract_reader; CREATE ROLE prompt_contract LOGIN PASSWORD '<secret>' IN ROLE prompt_contract_reader;";

function privilegedRole(source: PostgresSource, found: Inspection, refused: Refusal[]): InputError {
  const who = found.current_role === found.session_role ? `\`${found.session_role}\`` : `\`${found.session_role}\` (acting as \`${found.current_role}\`)`;
  const reasons = refused.map((r) => r.reason);
  const listed = reasons.length > 4 ? [...reasons.slice(0, 4), `${reasons.length - 4} more`] : reasons;
  const fixes: string[] = [];
  // A reason without a REVOKE is the role itself: only another role takes it away.
  if (refused.some((r) => r.revoke === undefined)) fixes.push(`a role that can only read, made with: ${readerRecipe}`);
  // Every function is named here, even when the list of reasons stops at four.
  const revokes = revokeStatements(refused);
  if (revokes.length > 0) fixes.push(`no function within its reach that acts outside the transaction: run, as the functions' owner or a superuser, ${revokes.join(' ')}`);
  return new InputError(
    'persisted/privileged-role',
    `Persisted source \`${source.name}\`: the role ${who} that the connection logs in as ${listed.join(', ')}, so its query could write outside the read-only transaction (through dblink, \`lo_export\`, replication slots, statistics resets, signals to other sessions, or a SECURITY DEFINER function doing one of those as its owner); expected ${fixes.join('; and ')} (on a throwaway database, \`dangerouslyAllowPrivilegedRole: true\` on the source accepts the risk)`,
  );
}

/** The `-c` settings every reader connection starts with. */
function limitOptions(timeoutMs: number): string {
  return `-c statement_timeout=${timeoutMs} -c lock_timeout=${Math.max(1, Math.floor(timeoutMs / 2))} -c idle_in_transaction_session_timeout=${timeoutMs}`;
}

/**
 * The driver's connection settings: every transaction on the connection is read-only by
 * default, so one begun after a COMMIT that slipped through still cannot write. Options the
 * connection string sets itself are kept: pg lets the string's `options` replace the
 * config's, so they are merged here, and for the server the last `-c` of a setting wins. The
 * default limits go before the string's options (which may change them), a source's own
 * `timeoutMs` after (it has the last word), read-only after everything.
 */
function connectionConfig(url: string, limits: string, explicit: boolean): { connectionString: string; options: string } {
  const readOnly = '-c default_transaction_read_only=on -c standard_conforming_strings=on';
  const ours = (theirs: string | null) => [explicit ? '' : limits, theirs ?? '', explicit ? limits : '', readOnly].filter((o) => o !== '').join(' ');
  if (!/^postgres(ql)?:\/\//i.test(url)) return { connectionString: url, options: ours(null) };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { connectionString: url, options: ours(null) };
  }
  const theirs = parsed.searchParams.get('options');
  if (theirs === null) return { connectionString: url, options: ours(null) };
  parsed.searchParams.delete('options');
  return { connectionString: parsed.toString(), options: ours(theirs) };
}

/**
 * Asks the server to cancel whatever the session is running: the protocol's CancelRequest,
 * on a connection of its own that needs no login. Never rejects; gives up after 3 s.
 */
function cancelOnServer(client: Client): Promise<void> {
  const { processID, secretKey, host, port } = client as unknown as { processID: number | null; secretKey: number | null; host: string; port: number };
  if (typeof processID !== 'number' || typeof secretKey !== 'number') return Promise.resolve();
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(80877102, 4); // the CancelRequest code
  packet.writeInt32BE(processID, 8);
  packet.writeInt32BE(secretKey, 12);
  return new Promise((resolve) => {
    const socket = host.startsWith('/') ? connectSocket(`${host}/.s.PGSQL.${port}`) : connectSocket(port, host);
    const timer = setTimeout(() => socket.destroy(), 3000);
    socket.once('connect', () => socket.end(packet));
    socket.once('error', () => socket.destroy());
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** An open connection inside a read-only transaction. */
class Session {
  readonly client: Client;
  readonly source: PostgresSource;
  readonly target: Target;
  limits: Limits;
  /** The signal that interrupted this session, if one did. */
  interrupted: StopSignal | undefined;
  /** The server did not answer within its own statement timeout plus a margin. */
  noAnswer = false;
  /** The first error the connection emitted between queries (the server ending the session). */
  lastError: unknown;
  /** How long the last statement ran, in milliseconds, until it answered or failed. */
  lastElapsed = 0;
  /** A query in flight, and when it was sent. */
  #running: { promise: Promise<unknown>; since: number } | undefined;
  #closing: Promise<void> | undefined;

  constructor(client: Client, source: PostgresSource, target: Target, limits: Limits) {
    this.client = client;
    this.source = source;
    this.target = target;
    this.limits = limits;
  }

  /**
   * Sends one statement with the extended query protocol, which runs exactly one statement:
   * the server refuses a string that holds several. (The simple protocol, pg's default for a
   * query without parameters, would run them all.) Should the server not answer within its
   * statement timeout and 5 s more (a network gone silent, a query that turned its timeout
   * off), the statement is cancelled and the connection dropped.
   */
  async query<R extends QueryResultRow = Row>(text: string, values: unknown[] = []): Promise<QueryResult<R>> {
    // `queryMode` is not in @types/pg yet; pg reads it (lib/query.js, requiresPreparation).
    const config: QueryConfig & { queryMode: 'extended' } = { text, values, queryMode: 'extended' };
    const promise = this.client.query<R>(config);
    const running = { promise, since: Date.now() };
    this.#running = running;
    let timer: NodeJS.Timeout | undefined;
    try {
      if (this.limits.statement <= 0) return await promise;
      const silence = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          this.noAnswer = true;
          promise.catch(() => undefined);
          void cancelOnServer(this.client).then(() => this.#drop());
          reject(new Error(`no answer within ${duration(this.limits.statement + 5000)}`));
        }, this.limits.statement + 5000);
      });
      return await Promise.race([promise, silence]);
    } finally {
      clearTimeout(timer);
      this.lastElapsed = Date.now() - running.since;
      if (this.#running === running) this.#running = undefined;
    }
  }

  #drop(): void {
    (this.client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  }

  /**
   * Releases the connection, whatever state it is in: a statement still running is cancelled
   * on the server first (ending the connection alone would leave it running there), then the
   * connection ends, or is dropped if it does not end within 2 s. Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      untrack(this);
      const running = this.#running;
      // Interrupted, the connection may be running a statement sent by `withReadOnlyPostgres`'s caller.
      if (running !== undefined || this.interrupted !== undefined) await cancelOnServer(this.client);
      if (running !== undefined) {
        // The cancelled statement answers with an error; wait for it (briefly) so the goodbye is clean.
        await Promise.race([running.promise.catch(() => undefined), sleep(1000)]);
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.client.end().catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)))]);
      clearTimeout(timer);
      this.#drop();
    })();
    return this.#closing;
  }
}

/** A wait that does not itself keep the process alive: it only bounds waiting for something else. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

// While a session is open, SIGINT and SIGTERM cancel its statement on the server and close it.
// Were these handlers the only ones, the signal would have ended the process: once the
// sessions are closed the handlers are removed and the signal raised again, so the process
// ends as it would have (a shell sees 130 or 143). When the host program listens too, the
// process is left to it: the read fails with `persisted/interrupted`. The handlers exist only
// while a session is open, so a library user's process is otherwise left as it was.

const open = new Set<Session>();
let stopping: StopSignal | undefined;
const listeners = { SIGINT: () => onSignal('SIGINT'), SIGTERM: () => onSignal('SIGTERM') };

function track(session: Session): void {
  if (open.size === 0) {
    process.on('SIGINT', listeners.SIGINT);
    process.on('SIGTERM', listeners.SIGTERM);
  }
  open.add(session);
}

function untrack(session: Session): void {
  if (!open.delete(session) || open.size > 0) return;
  process.off('SIGINT', listeners.SIGINT);
  process.off('SIGTERM', listeners.SIGTERM);
  stopping = undefined;
}

function onSignal(signal: StopSignal): void {
  const alone = process.listenerCount(signal) === 1;
  const reraise = () => {
    if (!alone) return;
    process.off('SIGINT', listeners.SIGINT);
    process.off('SIGTERM', listeners.SIGTERM);
    process.kill(process.pid, signal);
  };
  // A second signal while the first is being handled: stop waiting for the server.
  if (stopping !== undefined) return reraise();
  stopping = signal;
  const sessions = [...open];
  for (const session of sessions) session.interrupted ??= signal;
  void Promise.race([Promise.allSettled(sessions.map((s) => s.close())), sleep(5000)]).then(reraise);
}

// ---------------------------------------------------------------------------------------------
// Errors, told apart.

// SQLSTATE classes that mean the connection or the server went away, not that the SQL was wrong.
const lostConnection = /^(08|57P|53)/;

function sqlstate(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

function failed(session: Session, error: unknown): InputError {
  if (error instanceof InputError) return error;
  const { source, target, limits } = session;
  const name = `Persisted source \`${source.name}\``;
  const make = (code: string, message: string) => new InputError(code, scrub(message, target), {}, { cause: error });
  if (session.interrupted !== undefined) {
    return make('persisted/interrupted', `${name}: interrupted by ${session.interrupted} while the query ran; the query was cancelled on the server and the connection closed`);
  }
  if (session.noAnswer) {
    return make(
      'persisted/timeout',
      `${name}: no answer from PostgreSQL at ${target.display} within ${duration(limits.statement + 5000)}, its \`statement_timeout\` and 5 s more; expected the server to answer: check the network, or raise \`timeoutMs\``,
    );
  }
  // The server ending an idle session arrives as an event between queries; the next query only says the connection broke.
  const code = sqlstate(error) ?? sqlstate(session.lastError);
  const cause = sqlstate(error) === undefined && sqlstate(session.lastError) !== undefined ? session.lastError : error;
  if (code === '25P03') {
    return make(
      'persisted/timeout',
      `${name}: the server ended the session after its transaction sat idle for longer than ${duration(limits.idle)} between two batches (\`idle_in_transaction_session_timeout\`, ${messageOf(cause)}); expected the rows to be fetched as they are read: raise \`timeoutMs\`, or consume the calls faster`,
    );
  }
  if (code === '55P03') {
    return make(
      'persisted/timeout',
      `${name}: the query waited longer than ${duration(limits.lock)} for a lock held by another session (\`lock_timeout\`, half of \`timeoutMs\`; ${messageOf(cause)}); expected the tables free to read: raise \`timeoutMs\`, or read when nothing holds them (a migration, \`VACUUM FULL\`)`,
    );
  }
  // 57014 is also a cancel from elsewhere (an administrator's pg_cancel_backend): only one that came as the statement timeout ran out is a timeout.
  if (code === '57014' && limits.statement > 0 && session.lastElapsed >= limits.statement - 50) {
    return make(
      'persisted/timeout',
      `${name}: the query ran longer than ${duration(limits.statement)}, its \`statement_timeout\`, and was cancelled on the server (${messageOf(cause)}); expected each batch of rows within the source's \`timeoutMs\`: raise \`timeoutMs\`, or make the query cheaper (\`LIMIT\`, \`TABLESAMPLE\`, an index)`,
    );
  }
  if (code === undefined || lostConnection.test(code) || code === '57014') return unreachable(source, target, cause);
  return make('persisted/bad-query', `${name}: the query failed in PostgreSQL (${messageOf(error)}); ${expectedQuery}`);
}

type ParseConnectionString = (url: string) => Record<string, unknown>;

/**
 * pg, an optional peer dependency, and the connection-string parser it reads URLs with,
 * loaded on demand: only a configured PostgreSQL source needs them. The parser is pg's own
 * dependency, so it is resolved from pg's folder, not this package's.
 */
async function loadDriver(source: PostgresSource): Promise<{ pg: (typeof import('pg'))['default']; parse: ParseConnectionString }> {
  const { default: pg } = await importOptional<typeof import('pg')>('pg', `Persisted source \`${source.name}\``);
  const fromPg = createRequire(createRequire(import.meta.url).resolve('pg'));
  const { parse } = fromPg('pg-connection-string') as { parse: ParseConnectionString };
  return { pg, parse };
}

async function openSession(source: PostgresSource): Promise<Session> {
  const timeoutMs = timeoutMsOf(source);
  const { pg, parse } = await loadDriver(source);
  const target = resolveTarget(source, parse);
  let client: Client;
  try {
    client = new pg.Client({ ...connectionConfig(target.url, limitOptions(timeoutMs), source.timeoutMs !== undefined), connectionTimeoutMillis: 10_000, keepAlive: true, application_name: 'prompt-contract' });
  } catch (error) {
    throw unreachable(source, target, error);
  }
  const configured: Limits = { statement: timeoutMs, lock: Math.max(1, Math.floor(timeoutMs / 2)), idle: timeoutMs };
  const session = new Session(client, source, target, configured);
  // A dropped connection is emitted as an event; without a listener it would crash the process. The next query reports it.
  // The first one says why (the server's FATAL message); the socket closing follows it.
  client.on('error', (error) => (session.lastError ??= error));
  // However the connection ends, its signal handling ends with it.
  client.on('end', () => untrack(session));
  try {
    await client.connect();
  } catch (error) {
    await session.close();
    throw unreachable(source, target, error);
  }
  try {
    let found: Inspection | undefined;
    try {
      found = (await session.query<Inspection & QueryResultRow>(inspection, [watchedFunctions])).rows[0];
    } catch (error) {
      const code = sqlstate(error);
      if (code === undefined || lostConnection.test(code)) throw error;
      if (source.dangerouslyAllowPrivilegedRole !== true) {
        throw new InputError(
          'persisted/privileged-role',
          scrub(`Persisted source \`${source.name}\`: cannot tell what the role the connection logs in as may do (${messageOf(error)}); expected a PostgreSQL server that answers \`pg_has_role\`, \`has_function_privilege\` and \`aclexplode\``, target),
          {},
          { cause: error },
        );
      }
    }
    if (found !== undefined) {
      const ms = (setting: string | null, fallback: number) => (setting === null || !/^\d+$/.test(setting) ? fallback : Number(setting));
      session.limits = { statement: ms(found.statement_timeout, configured.statement), lock: ms(found.lock_timeout, configured.lock), idle: ms(found.idle_timeout, configured.idle) };
      const refused = refusals(catalogueOf(found));
      if (refused.length > 0 && source.dangerouslyAllowPrivilegedRole !== true) throw privilegedRole(source, found, refused);
    }
    await session.query('BEGIN TRANSACTION READ ONLY');
  } catch (error) {
    const reported = failed(session, error);
    await session.close();
    throw reported;
  }
  track(session);
  return session;
}

/**
 * Runs `fn` with a connection to the source inside a `READ ONLY` transaction, then releases
 * the connection whatever happens. The reader reads through this, so any statement, even one
 * hidden in the user's query, that tries to write fails. The connection has the source's
 * timeouts, and a role that could write outside the transaction is refused before `fn` runs.
 */
export async function withReadOnlyPostgres<T>(source: PostgresSource, fn: (client: Client) => Promise<T>): Promise<T> {
  const session = await openSession(source);
  try {
    return await fn(session.client);
  } finally {
    await session.close();
  }
}

/** Streams the rows of a PostgreSQL source's query through a server-side cursor, a batch per round trip. */
export async function* postgresRows(source: PostgresSource): AsyncGenerator<Row, void, undefined> {
  const batch = Math.max(1, Math.floor(source.batchSize ?? 1000));
  const sql = singleStatement(source);
  const session = await openSession(source);
  try {
    try {
      await session.query(`DECLARE prompt_contract_rows NO SCROLL CURSOR FOR ${sql}`);
    } catch (error) {
      throw failed(session, error);
    }
    const fetch = `FETCH FORWARD ${batch} FROM prompt_contract_rows`;
    for (;;) {
      let rows: Row[];
      try {
        rows = (await session.query(fetch)).rows;
      } catch (error) {
        throw failed(session, error);
      }
      for (const row of rows) yield row;
      if (rows.length < batch) break;
    }
  } finally {
    await session.close();
  }
}
