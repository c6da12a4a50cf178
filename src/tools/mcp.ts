/**
 * Tools read from a running MCP server (`tools/list`), through the official TypeScript SDK,
 * an optional peer dependency loaded only when a config names a server. The server is
 * started (stdio) or reached (streamable HTTP, loopback only: runs are offline), asked for
 * every page of its tools, and ended, on every path: success, failure, timeout, and a
 * SIGINT or SIGTERM that arrives meanwhile.
 */
import { InputError } from '../util/errors.js';
import { missingPackage } from '../util/optional.js';
import { isRecord } from '../util/values.js';

/** Where a config names a server: `mcpServer({ command, args, env })` or `mcpServer({ url })`. */
export interface McpServerOptions {
  /** The program that starts the server over stdio (`process.execPath`, `node`, `uvx`...). Give it or `url`. */
  command?: string;
  args?: string[];
  /** Variables for the server, besides the few every server inherits (`PATH`, `HOME`, ...). */
  env?: Record<string, string>;
  /** The folder the server starts in (the project root by default). */
  cwd?: string;
  /** A streamable HTTP endpoint on this machine (`http://127.0.0.1:3000/mcp`). Give it or `command`. */
  url?: string;
  /** Headers sent with each HTTP request. */
  headers?: Record<string, string>;
  /** How long starting the server and listing its tools may take, in ms (10 000 by default). */
  timeoutMs?: number;
}

/** What `mcpServer` returns: a place in `tools` that is filled with the server's tools when the project loads. */
export interface McpServerSource {
  readonly kind: 'mcp-server';
  readonly options: Readonly<McpServerOptions>;
}

// A registered symbol, not a module's own: the config may import this package's source
// (under Jest) while the CLI runs its build, and both copies must know a server when they see one.
const MARK = Symbol.for('prompt-contract.mcp-server');

export const DEFAULT_MCP_TIMEOUT_MS = 10_000;
/** Lines of the server's standard error kept for a failure's message. */
const STDERR_LINES = 20;
/** Pages of `tools/list` read at most: a server whose cursor never ends must not keep the run going. */
const MAX_PAGES = 1000;

/**
 * The tools of an MCP server, as `tools` in the config: `tools: mcpServer({...})`, or one
 * entry of a list beside tool definitions and other servers. Each tool keeps its `name`,
 * `description` and `inputSchema`; they are read again on every run, so a server that changes
 * a description is seen changed by the next run (in the tools baseline and the checks).
 */
export function mcpServer(options: McpServerOptions): McpServerSource {
  const source = { kind: 'mcp-server' as const, options: Object.freeze({ ...options }) };
  Object.defineProperty(source, MARK, { value: true });
  return Object.freeze(source);
}

export function isMcpServer(value: unknown): value is McpServerSource {
  return isRecord(value) && (value as Record<symbol, unknown>)[MARK] === true;
}

/** Where a server is named in the config, for messages. */
export interface McpPlace {
  file: string;
  line?: number;
  column?: number;
}

/** One tool as the server listed it. */
export interface McpListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

const fail = (place: McpPlace, message: string, cause?: unknown): InputError => new InputError('config/mcp-server', message, place, cause === undefined ? undefined : { cause });

/** The options as given, checked: what is wrong is said at the server's line in the config. */
function checked(options: unknown, place: McpPlace): McpServerOptions {
  if (!isRecord(options)) throw fail(place, 'Expected `mcpServer({ command, args, env })` or `mcpServer({ url })`, got no options');
  const known = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'timeoutMs'];
  const stray = Object.keys(options).find((k) => !known.includes(k));
  if (stray !== undefined) throw fail(place, `Unexpected key \`${stray}\` in \`mcpServer\`, expected ${known.map((k) => `\`${k}\``).join(', ')}`);
  const { command, args, env, cwd, url, headers, timeoutMs } = options;
  if ((command === undefined) === (url === undefined)) throw fail(place, 'Expected `mcpServer` to have one of `command` (a server started over stdio) or `url` (a streamable HTTP server on this machine)');
  if (command !== undefined && (typeof command !== 'string' || command === '')) throw fail(place, `Expected \`command\` in \`mcpServer\` to be a program to run, got ${JSON.stringify(command)}`);
  if (args !== undefined && !(Array.isArray(args) && args.every((a) => typeof a === 'string'))) throw fail(place, 'Expected `args` in `mcpServer` to be a list of strings');
  const strings = (value: unknown): boolean => isRecord(value) && Object.values(value).every((v) => typeof v === 'string');
  if (env !== undefined && !strings(env)) throw fail(place, 'Expected `env` in `mcpServer` to map variable names to strings');
  if (headers !== undefined && !strings(headers)) throw fail(place, 'Expected `headers` in `mcpServer` to map header names to strings');
  if (cwd !== undefined && typeof cwd !== 'string') throw fail(place, 'Expected `cwd` in `mcpServer` to be a folder path');
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && Number.isInteger(timeoutMs) && timeoutMs >= 1 && timeoutMs <= 2_147_483_647)) {
    throw fail(place, `Expected \`timeoutMs\` in \`mcpServer\` to be a whole number of milliseconds from 1 to 2147483647, got ${JSON.stringify(timeoutMs)}`);
  }
  if (url !== undefined) {
    if (typeof url !== 'string') throw fail(place, `Expected \`url\` in \`mcpServer\` to be a URL string, got ${JSON.stringify(url)}`);
    loopbackUrl(url, place);
  }
  return options as McpServerOptions;
}

/**
 * The URL, when it names this machine. A check runs offline: a server elsewhere could answer
 * differently from one run to the next for reasons no commit shows, and the run would need a network.
 */
export function loopbackUrl(text: string, place: McpPlace): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fail(place, `Unexpected \`url\` ${JSON.stringify(text)} in \`mcpServer\`, expected an http URL such as \`http://127.0.0.1:3000/mcp\``);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail(place, `Unexpected ${url.protocol} URL in \`mcpServer\`, expected http or https (streamable HTTP)`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::1' || host === '0:0:0:0:0:0:0:1';
  if (!loopback) {
    throw fail(place, `Unexpected host \`${url.hostname}\` in \`mcpServer\` url: checks run offline, so the server must run on this machine; expected localhost, 127.0.0.1 or [::1] (start the server in the test setup, or use \`command\` to start it over stdio)`);
  }
  return url;
}

// ---------------------------------------------------------------------------------------
// Servers started by this process, ended on every path. While one runs, SIGINT and SIGTERM
// end it first; were these handlers the only ones, the signal is then raised again, so the
// process ends as it would have (a shell sees 130 or 143). On `exit`, any left is killed.

const live = new Set<number>();
const onSignal = (signal: NodeJS.Signals): void => {
  const alone = process.listenerCount(signal) === 1;
  killAll('SIGTERM');
  untrackAll();
  if (alone) process.kill(process.pid, signal);
};
const listeners = { SIGINT: () => onSignal('SIGINT'), SIGTERM: () => onSignal('SIGTERM') };
const onExit = (): void => killAll('SIGKILL');

function killAll(signal: NodeJS.Signals): void {
  for (const pid of live) killQuietly(pid, signal);
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

function track(pid: number): void {
  if (live.size === 0) {
    process.on('SIGINT', listeners.SIGINT);
    process.on('SIGTERM', listeners.SIGTERM);
    process.on('exit', onExit);
  }
  live.add(pid);
}

function untrack(pid: number): void {
  if (!live.delete(pid) || live.size > 0) return;
  untrackAll();
}

function untrackAll(): void {
  live.clear();
  process.off('SIGINT', listeners.SIGINT);
  process.off('SIGTERM', listeners.SIGTERM);
  process.off('exit', onExit);
}

// ---------------------------------------------------------------------------------------

type Sdk = {
  Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client;
  StdioClientTransport: typeof import('@modelcontextprotocol/sdk/client/stdio.js').StdioClientTransport;
  StreamableHTTPClientTransport: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport;
  ListToolsResultSchema: typeof import('@modelcontextprotocol/sdk/types.js').ListToolsResultSchema;
};

const SDK = '@modelcontextprotocol/sdk';

/** The SDK, imported when a server is first listed; its absence is said at the server's line, with what to install. */
async function loadSdk(place: McpPlace): Promise<Sdk> {
  try {
    // One after the other: Jest's module loader fails imports that share modules when they run at once.
    const client = await import('@modelcontextprotocol/sdk/client/index.js');
    const stdio = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const http = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const types = await import('@modelcontextprotocol/sdk/types.js');
    return { Client: client.Client, StdioClientTransport: stdio.StdioClientTransport, StreamableHTTPClientTransport: http.StreamableHTTPClientTransport, ListToolsResultSchema: types.ListToolsResultSchema };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const missing = (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes(`'${SDK}`);
    if (!missing) throw new InputError('config/mcp-server', `Cannot load \`${SDK}\`, which \`mcpServer\` needs: ${(error as Error).message}`, place, { cause: error });
    // The wording every optional package has (src/util/optional.ts), at the server's line.
    const { message } = missingPackage(SDK, '`mcpServer`');
    throw new InputError('config/missing-dependency', message, place, { cause: error });
  }
}

/** The last lines a server wrote to standard error, kept while it runs. */
class Tail {
  #text = '';
  add(chunk: Buffer | string): void {
    // Bounded: a server that writes without end must not fill memory.
    this.#text = (this.#text + chunk.toString()).slice(-16_384);
  }
  get lines(): string[] {
    return this.#text.split(/\r?\n/).filter((l) => l.trim() !== '').slice(-STDERR_LINES);
  }
  /** `; its standard error ended with:\n  line...`, or nothing when it wrote none. */
  get shown(): string {
    const lines = this.lines;
    return lines.length === 0 ? '' : `; the server's standard error ended with:\n${lines.map((l) => `  ${l}`).join('\n')}`;
  }
}

/** What the server is, in messages: its command line or URL. */
export function serverLabel(options: Pick<McpServerOptions, 'command' | 'args' | 'url'>): string {
  if (options.url !== undefined) return options.url;
  const words = [options.command ?? '', ...(options.args ?? [])].map((w) => (/[\s"']/.test(w) ? JSON.stringify(w) : w));
  const text = words.join(' ');
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * The server's tools, every page of `tools/list`. Anything that keeps the list from being
 * read (the program cannot start, the server exits or answers what is not MCP, the time runs
 * out) is an InputError at the server's place, with the end of its standard error.
 */
export async function listMcpTools(source: McpServerSource, place: McpPlace, root: string): Promise<McpListedTool[]> {
  const options = checked(source.options, place);
  const sdk = await loadSdk(place);
  const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  const label = serverLabel(options);
  const tail = new Tail();
  const client = new sdk.Client({ name: 'prompt-contract', version: '0.1.0' }, { capabilities: {} });
  let transport: InstanceType<Sdk['StdioClientTransport']> | InstanceType<Sdk['StreamableHTTPClientTransport']>;
  if (options.command !== undefined) {
    const { resolve } = await import('node:path');
    transport = new sdk.StdioClientTransport({
      command: options.command,
      args: options.args ?? [],
      ...(options.env === undefined ? {} : { env: options.env }),
      cwd: options.cwd === undefined ? root : resolve(root, options.cwd),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => tail.add(chunk));
  } else {
    transport = new sdk.StreamableHTTPClientTransport(loopbackUrl(options.url!, place), options.headers === undefined ? {} : { requestInit: { headers: options.headers } });
  }
  // The first thing that goes wrong below the requests (a line that is not JSON-RPC, a lost pipe) ends the listing at once.
  let broken: ((error: Error) => void) | undefined;
  const brokenPromise = new Promise<never>((_, reject) => {
    broken = reject;
  });
  brokenPromise.catch(() => undefined);
  client.onerror = (error) => broken?.(error);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), timeoutMs);
  });
  timeout.catch(() => undefined);
  const bounded = <T>(work: Promise<T>): Promise<T> => Promise.race([work, timeout, brokenPromise]);
  let pid: number | undefined;
  try {
    const connecting = client.connect(transport, { timeout: timeoutMs });
    // Spawned as `connect` starts the transport, before its first await: tracked from then on.
    pid = 'pid' in transport ? (transport.pid ?? undefined) : undefined;
    if (pid !== undefined) track(pid);
    await bounded(connecting);
    const tools: McpListedTool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      if (page >= MAX_PAGES) throw fail(place, `MCP server \`${label}\` answered ${MAX_PAGES} pages of \`tools/list\` without an end; expected its \`nextCursor\` to run out`);
      const result = await bounded(client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, sdk.ListToolsResultSchema, { timeout: timeoutMs }));
      for (const tool of result.tools) {
        const listed: McpListedTool = { name: tool.name, inputSchema: tool.inputSchema as Record<string, unknown> };
        if (typeof tool.description === 'string') listed.description = tool.description;
        tools.push(listed);
      }
      cursor = result.nextCursor;
      if (cursor === undefined) break;
      if (seen.has(cursor)) throw fail(place, `MCP server \`${label}\` answered the \`tools/list\` cursor ${JSON.stringify(cursor)} twice; expected each page's \`nextCursor\` to lead on`);
      seen.add(cursor);
    }
    return tools;
  } catch (error) {
    // A server that failed or hangs is not asked to end politely first: the SDK would wait two seconds on it.
    if (pid !== undefined) killQuietly(pid, 'SIGTERM');
    if (error instanceof InputError) throw error;
    throw fail(place, `${failure(error, label, timeoutMs, options)}${tail.shown}`, error);
  } finally {
    clearTimeout(timer);
    await closeQuietly(client, transport, pid);
  }
}

class TimeoutError extends Error {}

/** Why listing failed, in words: the SDK's errors are about requests, a user's question is about the server. */
function failure(error: unknown, label: string, timeoutMs: number, options: McpServerOptions): string {
  const message = (error as Error).message ?? String(error);
  const code = (error as { code?: unknown }).code;
  if (error instanceof TimeoutError || /Request timed out/i.test(message)) {
    return `MCP server \`${label}\` did not list its tools within ${timeoutMs} ms; expected it to answer \`initialize\` and \`tools/list\` in time: check that it starts, or raise \`timeoutMs\` in \`mcpServer\``;
  }
  if (code === 'ENOENT' || code === 'EACCES') return `Cannot start MCP server \`${label}\`: ${message}; expected \`command\` to be a program on PATH or a path to one`;
  if (options.url !== undefined && /fetch failed|ECONNREFUSED|connect/i.test(message + String((error as { cause?: { message?: string } }).cause?.message ?? ''))) {
    return `Cannot reach MCP server at \`${label}\`: ${message}; expected a streamable HTTP server listening there (start it before the run)`;
  }
  if (/Connection closed/i.test(message)) return `MCP server \`${label}\` closed the connection before listing its tools (it exited, or ended its output); expected it to answer \`initialize\` and \`tools/list\``;
  if (error instanceof SyntaxError || /JSON|invalid_type|invalid_union|Unrecognized|Expected/i.test(message)) {
    return `MCP server \`${label}\` answered something that is not an MCP message (${oneLine(message)}); expected JSON-RPC on its standard output and nothing else (logs belong on standard error)`;
  }
  return `MCP server \`${label}\` could not list its tools: ${oneLine(message)}`;
}

const oneLine = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
};

/** Ends the session and the server: the SDK closes stdin, then sends SIGTERM, then SIGKILL, within about four seconds. */
async function closeQuietly(client: { close(): Promise<void> }, transport: { close(): Promise<void> }, pid: number | undefined): Promise<void> {
  try {
    await client.close();
  } catch {
    // Closing is best effort; the kill below is not.
  }
  try {
    await transport.close();
  } catch {
    // As above.
  }
  if (pid !== undefined) {
    killQuietly(pid, 'SIGKILL');
    untrack(pid);
  }
}

/**
 * The config's `tools` with every server replaced by the tools it lists, in place: a list
 * keeps its order, a lone server becomes its list. `places` says where each server is named
 * in the config (by its order there). Returns the list and, by index in it, the server each
 * listed tool came from; undefined when `tools` names no server.
 */
export async function expandMcpServers(tools: unknown, places: (index: number) => McpPlace, root: string): Promise<{ tools: unknown[]; fromServer: Map<number, McpPlace & { server: string }> } | undefined> {
  const entries = isMcpServer(tools) ? [tools] : Array.isArray(tools) && tools.some(isMcpServer) ? tools : undefined;
  if (entries === undefined) {
    if (isRecord(tools) && !Array.isArray(tools) && Object.values(tools).some(isMcpServer)) {
      throw fail(places(0), 'Unexpected `mcpServer(...)` as a value in a record of tools, expected it as `tools` itself or as an entry of a list: `tools: [...myTools, mcpServer({...})]`');
    }
    return undefined;
  }
  const out: unknown[] = [];
  const fromServer = new Map<number, McpPlace & { server: string }>();
  let server = 0;
  for (const entry of entries) {
    if (!isMcpServer(entry)) {
      out.push(entry);
      continue;
    }
    const place = places(server++);
    // One at a time: each is ended before the next starts, so no more than one runs.
    const listed = await listMcpTools(entry, place, root);
    const label = serverLabel(entry.options);
    for (const tool of listed) {
      fromServer.set(out.length, { ...place, server: label });
      out.push(tool);
    }
  }
  return { tools: out, fromServer };
}
