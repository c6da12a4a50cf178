import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { loadProject } from '../../src/project.js';
import { cli, repo, report } from '../cli/helpers.js';
import { mcpProject, pidsIn, running, stdio, testServer, waitFor } from './mcp-helpers.js';

// `tools: [..., mcpServer({...})]` through the paths users run: the exported loadProject and
// the built CLI. A server that cannot give its tools stops the run (exit 2) at the config line
// of its `mcpServer(`, with the end of its standard error; every server started is ended,
// whatever happens (the test server writes its process id to a file, and each is looked for).

const bin = join(repo, 'dist', 'cli.js');

test('a list mixing a tool definition and a server: the server\'s tools follow the definition, every page of tools/list, with name, description and inputSchema, placed at the mcpServer line', async () => {
  const p = mcpProject('mcp-list', stdio(testServer, { env: { MCP_TEST_PAGE: '1', MCP_TEST_PID_FILE: 'pids' } }));
  try {
    const project = await loadProject({ cwd: p.dir, lazyModule: true });
    expect(project.tools.map((t) => t.name)).toEqual(['local_note', 'add', 'echo', 'get_time']);
    const echo = project.registry.get('echo')!;
    expect(echo.description).toBe('Echoes the message back.');
    expect(echo.inputSchema).toEqual({ type: 'object', properties: { message: { type: 'string', description: 'Text to echo' } }, required: ['message'] });
    expect(echo.origin).toMatchObject({ shape: 'mcp', file: 'prompt-contract.config.ts', line: p.serverLine });
    // Three pages, one server process, ended once listed.
    const pids = pidsIn(p.file('pids'));
    expect(pids).toHaveLength(1);
    expect(await waitFor(() => !running(pids[0]!))).toBe(true);
  } finally {
    p.remove();
  }
});

test('`tools: mcpServer(...)` alone: the server\'s tools are the tools', async () => {
  const p = mcpProject('mcp-alone', stdio(testServer), { alone: true });
  try {
    expect(p.config).toContain('  tools: mcpServer(');
    const project = await loadProject({ cwd: p.dir, lazyModule: true });
    expect(project.tools.map((t) => [t.name, t.origin.line])).toEqual([['add', p.serverLine], ['echo', p.serverLine], ['get_time', p.serverLine]]);
  } finally {
    p.remove();
  }
});

test.each([
  ['writes what is not JSON-RPC on stdout', 'garbage', { MCP_TEST_MODE: 'garbage' }, /answered something that is not an MCP message \(Unexpected token .*; expected JSON-RPC on its standard output/],
  ['exits before answering', 'crash', { MCP_TEST_MODE: 'crash' }, /closed the connection before listing its tools/],
  ['never answers', 'hang', { MCP_TEST_MODE: 'hang' }, /did not list its tools within 1500 ms; .* raise `timeoutMs`/],
])('a server that %s is a could-not-run error at its config line, with the last 20 lines of its stderr, and is ended', (_what, mode, env, message) => {
  const p = mcpProject(`mcp-${mode}`, stdio(testServer, { env: { ...env, MCP_TEST_PID_FILE: 'pids' }, timeoutMs: 1500 }));
  try {
    const result = cli(['check', '--no-cache'], { cwd: p.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain(`prompt-contract.config.ts:${p.serverLine}:`);
    expect(result.stderr).toContain('(config/mcp-server)');
    // The tail: the last lines the server wrote, not the first.
    const tail = mode === 'crash' ? ['fatal: cannot open the database', 'test server log line 25'] : ['test server log line 25', 'test server log line 6'];
    for (const line of tail) expect(result.stderr).toContain(line);
    expect(result.stderr).not.toMatch(/test server log line [1-5]\b/);
    const pids = pidsIn(p.file('pids'));
    expect(pids).toHaveLength(1);
    expect(running(pids[0]!)).toBe(false);
  } finally {
    p.remove();
  }
});

test('a program that does not exist is a could-not-run error naming it', () => {
  const p = mcpProject('mcp-enoent', { command: 'no-such-mcp-server-program' });
  try {
    const result = cli(['check', '--no-cache', '--format', 'json'], { cwd: p.dir });
    expect(result.code).toBe(2);
    expect(report(result).diagnostics).toEqual([expect.objectContaining({ ruleId: 'config/mcp-server', file: 'prompt-contract.config.ts', line: p.serverLine, message: expect.stringContaining('Cannot start MCP server `no-such-mcp-server-program`') })]);
  } finally {
    p.remove();
  }
});

test('a URL off this machine is refused before anything is sent; a loopback URL with nothing listening cannot be reached', () => {
  const far = mcpProject('mcp-far', { url: 'https://mcp.remote-tools.dev/mcp' });
  const near = mcpProject('mcp-near', { url: 'http://127.0.0.1:9/mcp', timeoutMs: 3000 });
  try {
    const refused = cli(['check', '--no-cache'], { cwd: far.dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`prompt-contract.config.ts:${far.serverLine}:`);
    expect(refused.stderr).toMatch(/Unexpected host `mcp\.remote-tools\.dev` in `mcpServer` url: checks run offline.*expected localhost, 127\.0\.0\.1 or \[::1\]/);
    const unreachable = cli(['check', '--no-cache'], { cwd: near.dir });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/Cannot reach MCP server at `http:\/\/127\.0\.0\.1:9\/mcp`/);
  } finally {
    far.remove();
    near.remove();
  }
});

test('without the SDK installed, a config that names a server is a could-not-run error naming the package to install, at the server line', () => {
  const p = mcpProject('mcp-no-sdk', stdio(testServer));
  try {
    // A resolve hook that finds no `@modelcontextprotocol/sdk`, as in a project that did not install it.
    const hook = join(repo, 'test', 'fixtures', 'mcp-servers', 'no-sdk.mjs');
    const result = cli(['check', '--no-cache'], { cwd: p.dir, env: { NODE_OPTIONS: `--import=${hook}` } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`prompt-contract.config.ts:${p.serverLine}:`);
    expect(result.stderr).toContain("`mcpServer` reads an MCP server's tools, which needs the optional package `@modelcontextprotocol/sdk`, not installed: npm i -D @modelcontextprotocol/sdk");
    expect(result.stderr).toContain('(config/missing-dependency)');
  } finally {
    p.remove();
  }
});

test('SIGINT while a server is being listed ends the server, and the CLI ends as a SIGINT ends it', async () => {
  const p = mcpProject('mcp-sigint', stdio(testServer, { env: { MCP_TEST_MODE: 'hang', MCP_TEST_PID_FILE: 'pids' }, timeoutMs: 60_000 }));
  try {
    const child = spawn(process.execPath, [bin, 'check', '--no-cache'], { cwd: p.dir, stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    expect(await waitFor(() => pidsIn(p.file('pids')).length === 1, 20_000)).toBe(true);
    const [server] = pidsIn(p.file('pids'));
    expect(running(server!)).toBe(true);
    child.kill('SIGINT');
    expect(await ended).toEqual({ code: null, signal: 'SIGINT' });
    expect(await waitFor(() => !running(server!))).toBe(true);
  } finally {
    p.remove();
  }
}, 40_000);

test.each([
  [{ comand: 'node' }, /Unexpected key `comand` in `mcpServer`, expected `command`/],
  [{ command: 'node', url: 'http://127.0.0.1:1/mcp' }, /Expected `mcpServer` to have one of `command` .* or `url`/],
  [{ command: 'node', timeoutMs: 0 }, /Expected `timeoutMs` in `mcpServer` to be a whole number of milliseconds from 1 to 2147483647, got 0/],
  [{ url: 'ftp://127.0.0.1/mcp' }, /Unexpected ftp: URL in `mcpServer`, expected http or https/],
])('options %j are refused before anything starts, at the mcpServer line', async (options, message) => {
  const p = mcpProject('mcp-options', options);
  try {
    await expect(loadProject({ cwd: p.dir, lazyModule: true })).rejects.toMatchObject({ code: 'config/mcp-server', file: 'prompt-contract.config.ts', line: p.serverLine, message: expect.stringMatching(message) });
  } finally {
    p.remove();
  }
});
