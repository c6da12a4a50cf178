/**
 * Loads one CommonJS file with V8's code cache: the bytecode V8 compiled for it on the last
 * run, kept in the cache folder, so that a run starts without compiling the file again (Node
 * 20 has no compile cache of its own; `module.enableCompileCache` came in 22).
 *
 * The command line is one bundled file of two and a half megabytes (scripts/bundle.mjs);
 * compiling it, and the functions each run calls, is most of what a run on a small project
 * costs beyond Node's own start.
 *
 * A cache file is named by what V8's own check of it does not cover: V8 refuses data made by
 * another V8 or with other flags, and checks the source's length, not its text, so the name
 * carries the file's size, time and inode. Data V8 refuses is compiled anew and replaced. The
 * cache is a help, never a need: a cache that cannot be read or written is the same as none.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** A loaded file's exports, and `save()`: keeps the code cache, with what the run compiled since, when there was none or V8 refused it. */
export interface Loaded<T> {
  exports: T;
  /** Whether V8 took the code cache that was there. */
  cached: boolean;
  save(): void;
}

/** Cache files larger than this are not read: the bundle's cache is a few megabytes. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** The cache file's name for `file` as it is now, in this Node. */
function cacheName(file: string, stats: Stats): string {
  const key = createHash('sha256').update([process.version, process.arch, file, stats.size, stats.mtimeMs, stats.ino].join('\0')).digest('hex').slice(0, 24);
  return `${basename(file)}-${key}.v8`;
}

/** Reads a regular file of at most MAX_CACHE_BYTES, or undefined. */
function readCache(path: string): Buffer | undefined {
  try {
    const stats = statSync(path);
    if (!stats.isFile() || stats.size > MAX_CACHE_BYTES) return undefined;
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Writes beside itself and renames: a reader never sees half a cache file. Leaves the other cache files of the same source (older builds) out. */
function writeCache(folder: string, name: string, data: Buffer, source: string): void {
  try {
    mkdirSync(folder, { recursive: true });
    const temporary = join(folder, `.${name}.${process.pid}.tmp`);
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      writeSync(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, join(folder, name));
    for (const other of readdirSync(folder)) {
      if (other !== name && other.startsWith(`${basename(source)}-`) && other.endsWith('.v8')) rmSync(join(folder, other), { force: true });
    }
  } catch {
    // A cache that cannot be written is no cache; the run is unchanged.
  }
}

/**
 * Loads `file` (a CommonJS file) as `require` would, registered under its path so that a later
 * `require` of it (the config's `import ... from 'prompt-contract'`) gets this same instance;
 * with the code cache from `folder` when there is one.
 */
export function loadWithCodeCache<T>(file: string, folder: string | undefined): Loaded<T> {
  const stats = statSync(file);
  const source = readFileSync(file, 'utf8');
  const name = cacheName(file, stats);
  const cachedData = folder === undefined ? undefined : readCache(join(folder, name));
  const script = new Script(Module.wrap(source), { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  const loaded = new Module(file, undefined);
  loaded.filename = file;
  loaded.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  const cache = createRequire(file).cache;
  cache[file] = loaded;
  try {
    const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
    wrapper.call(loaded.exports, loaded.exports, createRequire(file), loaded, file, dirname(file));
  } catch (error) {
    delete cache[file];
    throw error;
  }
  loaded.loaded = true;
  const cached = cachedData !== undefined && !script.cachedDataRejected;
  return {
    exports: loaded.exports as T,
    cached,
    save: () => {
      if (folder === undefined || cached) return;
      writeCache(folder, name, script.createCachedData(), file);
    },
  };
}
