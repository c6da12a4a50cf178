/** How a project's config reaches MCP servers: where each `mcpServer(...)` is written, and its tools placed there. */
import type { ResolvedConfig } from '../config/index.js';
import { readRegularFileSync } from '../util/files.js';
import { LineIndex } from '../util/lines.js';
import { expandMcpServers, isMcpServer, type McpPlace } from './mcp.js';
import type { ToolSpec } from './types.js';

/** Whether `tools` names a server, as itself or as an entry of its list (or wrongly, in a record). */
function namesServer(tools: unknown): boolean {
  if (isMcpServer(tools)) return true;
  if (Array.isArray(tools)) return tools.some(isMcpServer);
  return typeof tools === 'object' && tools !== null && Object.values(tools).some(isMcpServer);
}

/**
 * The config's tools with each server's listed tools in its place, and a function that gives
 * those tools the line where their server is named (findings about them point there).
 * Undefined when the config names no server.
 */
export async function serverTools(config: Pick<ResolvedConfig, 'tools' | 'file' | 'root'>, display: (path: string) => string): Promise<{ tools: unknown[]; place(tools: readonly ToolSpec[]): void } | undefined> {
  if (!namesServer(config.tools)) return undefined;
  const shown = display(config.file);
  let calls: Array<{ line: number; column: number }> = [];
  try {
    const text = readRegularFileSync(config.file);
    const lines = new LineIndex(text);
    // The n-th `mcpServer(` written in the config is taken to be the n-th server of `tools`; a server built in another module has no line.
    calls = [...text.matchAll(/\bmcpServer\s*\(/g)].map((m) => lines.at(m.index));
  } catch {
    calls = [];
  }
  const places = (index: number): McpPlace => {
    const at = calls[index];
    return at === undefined ? { file: shown } : { file: shown, line: at.line, column: at.column };
  };
  const expanded = await expandMcpServers(config.tools, places, config.root);
  if (expanded === undefined) return undefined;
  return {
    tools: expanded.tools,
    place(tools) {
      for (const tool of tools) {
        const from = tool.origin.index === undefined ? undefined : expanded.fromServer.get(tool.origin.index);
        if (from === undefined) continue;
        tool.origin.file = from.file;
        if (from.line !== undefined) {
          tool.origin.line = from.line;
          if (from.column !== undefined) tool.origin.column = from.column;
        }
      }
    },
  };
}
