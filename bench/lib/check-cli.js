// Running `node dist/cli.js check` in a generated project (bench/lib/project-gen.js): which of
// the newer flags the built CLI has, its cache folder, and the cache-statistics line.
//
// The interface assumed from `check` (being added to src/ while these benchmarks were written):
//   --no-cache        render and check every case, reading and writing no cache
//   --workers <n>     threads that render and check cases; the default uses every core
//   PROMPT_CONTRACT_CACHE_STATS=1   prints `prompt-contract cache: R of C cases reused` to stderr
//   the cache lives in node_modules/.cache/prompt-contract/ of the project (beside `handlers/`,
//   where the schemas of TypeScript handler types were already kept)
// A flag the CLI's `check --help` does not list is not passed, and the detail says so.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

let flags;

/** Which of `--no-cache` and `--workers` `node dist/cli.js check --help` lists. */
export function checkFlags(root) {
  if (flags) return flags;
  const r = spawnSync(process.execPath, [join(root, 'dist', 'cli.js'), 'check', '--help'], { encoding: 'utf8' });
  const help = `${r.stdout}${r.stderr}`;
  flags = { noCache: /--no-cache\b/.test(help), workers: /--workers\b/.test(help) };
  return flags;
}

/** Words for the detail about flags the CLI lacks. */
export function missingFlags(f) {
  const missing = [!f.noCache && '--no-cache', !f.workers && '--workers'].filter(Boolean);
  return missing.length === 0 ? '' : ` The built CLI's \`check --help\` does not list ${missing.join(' or ')}, so ${missing.length === 1 ? 'it was' : 'they were'} not passed.`;
}

/**
 * What counts as the check cache: every entry of node_modules/.cache/prompt-contract but
 * `handlers/` (the generated schemas of TypeScript handler types, which predate the check
 * cache; without them every "cold" run would measure the TypeScript compiler), and any other
 * folder of node_modules/.cache whose name starts with `prompt-contract`. Paths relative to the project.
 */
export function checkCacheEntries(project) {
  const cache = join(project, 'node_modules', '.cache');
  if (!existsSync(cache)) return [];
  const out = [];
  for (const name of readdirSync(cache)) {
    if (!name.startsWith('prompt-contract')) continue;
    if (name !== 'prompt-contract') out.push(join('node_modules', '.cache', name));
    else for (const inner of readdirSync(join(cache, name))) if (inner !== 'handlers') out.push(join('node_modules', '.cache', name, inner));
  }
  return out;
}

/** Empties the project's check cache (see checkCacheEntries); returns what it removed. */
export function clearCheckCache(project) {
  const removed = checkCacheEntries(project);
  for (const entry of removed) rmSync(join(project, entry), { recursive: true, force: true });
  return removed;
}

/** `{ reused, total }` from the stderr line `prompt-contract cache: R of C cases reused` (read loosely), or undefined. */
export function cacheStats(stderr) {
  const m = /prompt-contract cache\b[^\n]*?(\d+)\s+(?:of|\/)\s+(\d+)/i.exec(stderr ?? '');
  return m ? { reused: Number(m[1]), total: Number(m[2]) } : undefined;
}
