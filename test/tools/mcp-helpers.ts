import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { repo, stableScratch } from '../cli/helpers.js';

/** Our test server (test/fixtures/mcp-servers/server.mjs): what it does is set by its environment. */
export const testServer = join(repo, 'test', 'fixtures', 'mcp-servers', 'server.mjs');

/** The bin script of an installed reference server, started with `node` (never `npx`, which could download). */
export function serverBin(pkg: string): string {
  const require = createRequire(join(repo, 'package.json'));
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
  return join(dirname(manifest), Object.values(bin)[0]!);
}

/** The `mcpServer(...)` options of a server started with this Node over stdio. */
export function stdio(script: string, options: { args?: string[]; env?: Record<string, string>; timeoutMs?: number } = {}): Record<string, unknown> {
  return { command: process.execPath, args: [script, ...(options.args ?? [])], ...(options.env ? { env: options.env } : {}), ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) };
}

export interface McpProject {
  dir: string;
  /** The config's text, and the line of its `mcpServer(` call. */
  config: string;
  serverLine: number;
  file(name: string): string;
  remove(): void;
}

/**
 * A scratch project (a `stableScratch` folder inside the repository, so `prompt-contract`
 * resolves to this package) whose `tools` are one local tool and MCP servers, in a
 * TypeScript config. `rules`, `providers` and `recorded` go into the config as given; `serverLine` is the first server's.
 */
export function mcpProject(name: string, server: Record<string, unknown> | Array<Record<string, unknown>>, options: { rules?: Record<string, string>; local?: boolean; providers?: string[]; alone?: boolean; recorded?: string[] } = {}): McpProject {
  const scratch = stableScratch(name);
  const dir = scratch.dir;
  mkdirSync(join(dir, 'prompts'), { recursive: true });
  const local = options.local === false ? '' : "    { name: 'local_note', description: 'Saves a note.', input_schema: { type: 'object', properties: { text: { type: 'string' } } } },\n";
  const config = [
    "import { defineConfig, mcpServer } from 'prompt-contract';",
    '',
    'export default defineConfig({',
    "  prompts: 'prompts',",
    // `alone`: the server is `tools` itself, not an entry of a list.
    ...(options.alone
      ? [`  tools: mcpServer(${JSON.stringify(server)}),`]
      : ['  tools: [', `${local}${(Array.isArray(server) ? server : [server]).map((one) => `    mcpServer(${JSON.stringify(one)}),`).join('\n')}`, '  ],']),
    ...(options.rules ? [`  rules: ${JSON.stringify(options.rules)},`] : []),
    ...(options.providers ? [`  providers: ${JSON.stringify(options.providers)},`] : []),
    ...(options.recorded ? [`  recorded: ${JSON.stringify(options.recorded)},`] : []),
    '});',
    '',
  ].join('\n');
  writeFileSync(join(dir, 'prompt-contract.config.ts'), config);
  const serverLine = config.split('\n').findIndex((l) => l.includes('mcpServer(')) + 1;
  return { dir, config, serverLine, file: (f) => join(dir, f), remove: scratch.remove };
}

/** Process ids a test server wrote to its pid file. */
export function pidsIn(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map(Number);
}

/** Whether a process is still running (a zombie no parent has reaped yet has ended). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Waits until `check` holds, up to `ms`. */
export async function waitFor(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}
