import { existsSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InputError } from './errors.js';

/** One thing a folder walk found that is not a folder it entered. */
export interface WalkEntry {
  /** The path as reached from the walked folder (through any link), not the link's target. */
  path: string;
  name: string;
  /**
   * `file`: a regular file, or a link to one inside the project; `link`: a symbolic link the
   * walk was told not to follow; `other`: a socket, a named pipe, a device, a broken link.
   */
  kind: 'file' | 'link' | 'other';
}

export interface WalkOptions {
  /**
   * Folders a followed link may lead into (the project root). The walked folder itself is
   * always allowed, wherever it is. A link elsewhere is refused.
   */
  within: readonly string[];
  /** Symbolic links are followed (the default), or returned as `link` entries, never entered. */
  followLinks?: boolean;
  /** Names not looked at, folders not entered (`.git`, `node_modules`). */
  skip?: (name: string) => boolean;
  /** A path as shown to people. */
  display?: (path: string) => string;
  /** What the walked folder is, for messages (`the prompts folder`). */
  what?: string;
}

/** Whether `path` is `base` or lies below it (both absolute). */
export const inside = (base: string, path: string): boolean => {
  const rel = relative(base, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

export function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Every entry under `dir`, sorted by name in each folder, with the folders it holds entered.
 * A symbolic link to a folder is entered like a folder when it resolves inside `within` (or
 * the walked folder), so `prompts/cases` linked to a shared folder is read, not skipped; a
 * link that leads elsewhere, or back into a folder the walk is inside (a loop), is an
 * InputError naming it: a run that silently read less than the user laid out would pass.
 */
export function walkFolder(dir: string, options: WalkOptions): WalkEntry[] {
  const display = options.display ?? ((p: string) => p);
  const realDir = realOrSelf(dir);
  const allowed = [realDir, ...options.within.map(realOrSelf)];
  const out: WalkEntry[] = [];
  const refuse = (path: string, why: string): never => {
    throw new InputError('config/unreadable', `Unexpected symbolic link \`${display(path)}\` in ${options.what ?? 'a folder prompt-contract reads'}: ${why}`, { file: display(path) });
  };
  // The real paths of the folders the walk is inside: a link to one of them is a loop.
  const visit = (folder: string, chain: readonly string[]): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (options.skip?.(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        visit(path, [...chain, realOrSelf(path)]);
        continue;
      }
      if (!entry.isSymbolicLink()) {
        out.push({ path, name: entry.name, kind: entry.isFile() ? 'file' : 'other' });
        continue;
      }
      if (options.followLinks === false) {
        out.push({ path, name: entry.name, kind: 'link' });
        continue;
      }
      let target: ReturnType<typeof statSync>;
      let real: string;
      try {
        target = statSync(path);
        real = realpathSync(path);
      } catch (error) {
        // A link to nothing (or to itself) would drop what it stood for in silence: a cases folder gone, its snapshots then obsolete.
        const why = (error as NodeJS.ErrnoException).code === 'ELOOP' ? 'it leads back to itself' : 'it leads to nothing (its target does not exist)';
        return refuse(path, `${why}; expected a link to a folder or file inside the project, or no link`);
      }
      if (!allowed.some((base) => inside(base, real))) {
        refuse(path, `it leads to \`${real}\`, outside the project \`${allowed[1] ?? allowed[0]}\`; expected a link to a folder or file inside the project (copy the files in, or link from inside the project)`);
      }
      if (target.isDirectory()) {
        if (chain.includes(real)) refuse(path, `it leads back to \`${display(real)}\`, a folder it is inside, so the walk would never end; expected a link to a folder outside its own path`);
        visit(path, [...chain, real]);
      } else out.push({ path, name: entry.name, kind: target.isFile() ? 'file' : 'other' });
    }
  };
  visit(dir, [realDir]);
  return out;
}

/** Names a config file of prompt-contract may have (see `configFileNames` in src/config). */
const configFile = /^prompt-contract\.config\.(?:ts|mts|cts|mjs|cjs|js|json)$/;

/**
 * The project a folder belongs to, when the caller does not say: the nearest folder at or
 * above it that holds a prompt-contract config file; else `cwd` when the folder is inside it;
 * else the folder itself.
 */
export function projectRootOf(folder: string, cwd = process.cwd()): string {
  const start = resolve(cwd, folder);
  for (let d = start; ; d = dirname(d)) {
    try {
      if (readdirSync(d).some((name) => configFile.test(name))) return d;
    } catch {
      // An unreadable folder on the way up holds no config we could use.
    }
    if (dirname(d) === d) break;
  }
  return existsSync(cwd) && inside(resolve(cwd), start) ? resolve(cwd) : start;
}
