import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { loadProject } from '../../src/project.js';
import { parameterDescriptions } from '../../src/tools/text-places.js';
import { cli, report } from '../cli/helpers.js';
import { mcpProject, serverBin, stdio } from './mcp-helpers.js';

// The reference servers `@modelcontextprotocol/server-everything` and
// `@modelcontextprotocol/server-filesystem` (devDependencies), started with `node` on their bin
// scripts, as a project's tools: what prompt-contract reads is what the SDK's own client lists,
// and the tool-poisoning lint raises no false alarm on them (the count is printed).

const everything = stdio(serverBin('@modelcontextprotocol/server-everything'), { args: ['stdio'], timeoutMs: 20_000 });

/** The tools a server lists, read with the SDK's client directly, for comparison. */
async function listDirectly(options: { command: string; args: string[] }): Promise<Array<{ name: string; description?: string; inputSchema: unknown }>> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ ...options, stderr: 'pipe' }));
  try {
    const out: Array<{ name: string; description?: string; inputSchema: unknown }> = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      out.push(...page.tools.map((t) => ({ name: t.name, ...(t.description === undefined ? {} : { description: t.description }), inputSchema: t.inputSchema })));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return out;
  } finally {
    await client.close();
  }
}

test('the everything and filesystem servers: their tools as listed, beside a local tool; check runs the provider lint and the poisoning lint on them with no false alarm', async () => {
  const p = mcpProject('mcp-real', [everything, { ...stdio(serverBin('@modelcontextprotocol/server-filesystem'), { timeoutMs: 20_000 }), args: [serverBin('@modelcontextprotocol/server-filesystem'), 'files'] }], { rules: { 'snapshot/missing': 'off' }, providers: ['mcp'] });
  try {
    mkdirSync(join(p.dir, 'files'));
    writeFileSync(join(p.dir, 'files', 'a.txt'), 'a\n');
    const project = await loadProject({ cwd: p.dir, lazyModule: true });
    const direct = [...(await listDirectly(everything as { command: string; args: string[] })), ...(await listDirectly({ command: process.execPath, args: [serverBin('@modelcontextprotocol/server-filesystem'), join(p.dir, 'files')] }))];
    expect(direct.length).toBeGreaterThan(10);
    expect(project.tools.map((t) => t.name)).toEqual(['local_note', ...direct.map((t) => t.name)]);
    for (const t of direct) {
      const mine = project.registry.get(t.name)!;
      expect({ name: mine.name, description: mine.description, inputSchema: mine.inputSchema }).toEqual({ name: t.name, description: t.description, inputSchema: t.inputSchema });
    }
    const result = cli(['check', '--no-cache', '--format', 'json'], { cwd: p.dir });
    const found = report(result).diagnostics;
    const alarms = found.filter((d) => d.ruleId.startsWith('tools/'));
    const descriptions = project.tools.slice(1).reduce((n, t) => n + (t.description === undefined ? 0 : 1) + parameterDescriptions(t.inputSchema).length, 0);
    process.stderr.write(`tool-poisoning lint on the everything and filesystem servers: ${alarms.length} false alarms over ${descriptions} descriptions of ${direct.length} tools\n`);
    // Whatever the `mcp` profile finds, no finding is about loading, and none is a poisoning alarm.
    expect(found.filter((d) => !d.ruleId.startsWith('provider/'))).toEqual([]);
    expect(result.code).toBe(found.some((d) => d.severity === 'error') ? 1 : 0);
  } finally {
    p.remove();
  }
}, 120_000);

/** A free port on the loopback interface. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

test('the everything server over streamable HTTP on a loopback port: the same tools as over stdio', async () => {
  const port = await freePort();
  const server = spawn(process.execPath, [serverBin('@modelcontextprotocol/server-everything'), 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  const p = mcpProject('mcp-http', { url: `http://127.0.0.1:${port}/mcp`, timeoutMs: 20_000 }, { local: false });
  try {
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      server.stderr.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('listening on port')) resolve();
      });
      server.once('exit', (code) => reject(new Error(`the server exited (${code}): ${seen}`)));
    });
    const overHttp = await loadProject({ cwd: p.dir, lazyModule: true });
    const overStdio = await listDirectly(everything as { command: string; args: string[] });
    expect(overHttp.tools.map((t) => t.name)).toEqual(overStdio.map((t) => t.name));
    expect(overHttp.registry.get('echo')?.description).toBe(overStdio.find((t) => t.name === 'echo')?.description);
    expect(overHttp.tools[0]!.origin).toMatchObject({ file: 'prompt-contract.config.ts', line: p.serverLine });
  } finally {
    server.kill();
    p.remove();
  }
}, 60_000);
