import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { formatToolsBaseline } from '../../src/snapshot/format.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import { cliInProcess, type CliResult } from '../cli/helpers.js';

/** The one tool of these projects: `order_id` is required and shaped, so a stale call is seen. */
export const lookupOrder = {
  name: 'lookup_order',
  description: 'Look an order up by its id.',
  input_schema: { type: 'object', properties: { order_id: { type: 'string', pattern: '^A-\\d{4}$' } }, required: ['order_id'], additionalProperties: false },
};

/** A fenced call that no longer fits `lookup_order` (its argument was renamed). */
export const staleCall = '```tool_call\n{"name": "lookup_order", "arguments": {"order": "A-1042"}}\n```';

export interface Finding {
  ruleId: string;
  severity: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

export interface Scratch {
  /** The parent of the project folder, for links that leave the project. */
  outer: string;
  dir: string;
  write(file: string, text: string): string;
  check(args?: string[]): Promise<CliResult & { diagnostics: Finding[] }>;
  remove(): void;
}

/** A project with a JSON config (one tool, `prompts/`, `snapshots/`) in a fresh folder, and `files` written into it. */
export function scratchProject(files: Record<string, string> = {}): Scratch {
  const outer = mkdtempSync(join(tmpdir(), 'pc-render-'));
  const dir = join(outer, 'project');
  mkdirSync(join(dir, 'prompts'), { recursive: true });
  mkdirSync(join(dir, 'snapshots'), { recursive: true });
  const write = (file: string, text: string): string => {
    const path = join(dir, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  write('prompt-contract.config.json', JSON.stringify({ prompts: 'prompts', snapshots: 'snapshots', tools: [lookupOrder] }));
  // The committed tools baseline, so that its absence is not a finding of every run.
  write('snapshots/tools.json', formatToolsBaseline(normalizeTools([lookupOrder])));
  for (const [file, text] of Object.entries(files)) write(file, text);
  return {
    outer,
    dir,
    write,
    async check(args = []) {
      const result = await cliInProcess(['check', '--no-cache', '--format', 'json', ...args], { cwd: dir });
      let diagnostics: Finding[] = [];
      try {
        diagnostics = (JSON.parse(result.stdout) as { diagnostics: Finding[] }).diagnostics;
      } catch {
        diagnostics = [];
      }
      return { ...result, diagnostics };
    },
    remove: () => rmSync(outer, { recursive: true, force: true }),
  };
}
