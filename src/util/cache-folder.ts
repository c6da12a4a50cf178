import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The environment variable that names another cache folder (CI caches keep it between jobs). */
export const CACHE_DIR_ENV = 'PROMPT_CONTRACT_CACHE_DIR';

/**
 * Where the caches of prompt-contract live: the folder `PROMPT_CONTRACT_CACHE_DIR` names, else
 * `node_modules/.cache/prompt-contract` of the nearest folder at or above `start` that has a
 * `node_modules` (as other build caches do). When there is none: `start`'s own, given
 * `orStart`, else undefined. Undefined too when that default is refused.
 *
 * The default is refused when it leads, through a symbolic link (`node_modules`, `.cache` or
 * the folder itself), to a place outside the folder that holds `node_modules`: the cache
 * would be read from there (a planted cache file could say a case was checked) and written
 * there, outside the project. The run then keeps no cache, saying so once; a folder the
 * user names in the environment is theirs to choose, and is used as named.
 */
export function cacheRoot(start: string, env: NodeJS.ProcessEnv = process.env, orStart = false): string | undefined {
  const named = env[CACHE_DIR_ENV];
  if (named) return resolve(start, named);
  const dir = withNodeModules(resolve(start)) ?? (orStart ? resolve(start) : undefined);
  if (dir === undefined) return undefined;
  const folder = join(dir, 'node_modules', '.cache', 'prompt-contract');
  const outside = leadsOutside(dir, folder);
  if (outside === undefined) return folder;
  warnOnce(folder, `prompt-contract: not using the cache folder \`${folder}\`: it leads to \`${outside}\`, outside \`${dir}\`; running without a cache (set ${CACHE_DIR_ENV} to keep the cache in a folder of your choice)\n`);
  return undefined;
}

/** The nearest folder at or above `dir` that has a `node_modules`. */
function withNodeModules(dir: string): string | undefined {
  for (; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The real path `folder` (or its deepest existing part) leads to, when that is outside `root`'s own real path; else undefined. */
function leadsOutside(root: string, folder: string): string | undefined {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return undefined;
  }
  // The deepest part that exists now: the rest is created below it, by mkdir, which follows no link it makes.
  let existing = folder;
  while (!present(existing) && existing !== root) existing = dirname(existing);
  let real: string;
  try {
    real = realpathSync(existing);
  } catch {
    // A dangling link: it leads nowhere that can be checked, so nowhere is written.
    return existing;
  }
  const rel = relative(realRoot, real);
  const inside = rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
  return inside ? undefined : real;
}

/** Something is at `path`, a dangling link included. */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Said once per process, though the package may be loaded twice in it (the ES modules and the CommonJS bundle). */
const warned: Set<string> = ((globalThis as Record<symbol, unknown>)[Symbol.for('prompt-contract.cache-folder-warnings')] ??= new Set<string>()) as Set<string>;

function warnOnce(key: string, text: string): void {
  if (warned.has(key)) return;
  warned.add(key);
  process.stderr.write(text);
}
