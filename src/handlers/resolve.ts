import { createHash } from 'node:crypto';
import path from 'node:path';
import { isZodSchema, zodToJsonSchema } from '../tools/normalize.js';
import type { HandlerRef, JsonSchemaObject } from '../tools/types.js';
import { InputError } from '../util/errors.js';
import { NotRegularFileError, readRegularFileSync, replaceFile } from '../util/files.js';
import { setOwn } from '../util/values.js';
import { cacheRoot } from '../util/cache-folder.js';
import { fileState, generatorVersion, TypeScriptSchemaReader } from './typescript.js';

export interface HandlerResolveOptions {
  /** Relative handler files resolve against it; default `process.cwd()`. */
  cwd?: string;
  /**
   * Where generated schemas of TypeScript handler types are kept between runs; default
   * `<cwd>/node_modules/.cache/prompt-contract/handlers`. `false` keeps them in memory only.
   */
  cacheDir?: string | false;
}

/** What the resolver did: how many schemas it generated and how many it answered from its caches (read by the cache tests). */
export interface HandlerCacheStats {
  /** Schemas produced by running the TypeScript generator. */
  generated: number;
  memoryHits: number;
  diskHits: number;
}

interface CacheEntry {
  key: string;
  schema: JsonSchemaObject;
  /** Every project file the schema depends on, relative to `cwd`, with the hash of its content when generated. */
  sources: Record<string, string>;
}

const hash = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** The bytes of a regular file; undefined when it cannot be read or is not one (a named pipe would block a plain read). */
function readText(file: string): Buffer | undefined {
  try {
    return readRegularFileSync(file, null);
  } catch {
    return undefined;
  }
}

/**
 * The `handlers` folder of the cache root (see cacheRoot): `PROMPT_CONTRACT_CACHE_DIR`, else
 * `node_modules/.cache/prompt-contract` in the nearest folder upwards that has a `node_modules`,
 * so a run from a subfolder of the project shares the project's cache (`cwd`'s own when there
 * is none). `false` (memory only) when the default leads outside the project.
 */
export function defaultCacheDir(cwd: string): string | false {
  const root = cacheRoot(cwd, process.env, true);
  return root === undefined ? false : path.join(root, 'handlers');
}

/**
 * Turns a `HandlerRef` into the JSON Schema of what the handler accepts. Synchronous:
 * the TypeScript generator is synchronous, and a warm cache costs one file read and hash.
 *
 * TypeScript types are generated with ts-json-schema-generator (about a second for a
 * cold file), so results are kept in memory and on disk, keyed by the file's content
 * hash, the type name and the generator and compiler versions. An entry also records the
 * hashes of the files the handler file imports, and is dropped when any of them changed.
 */
export class HandlerSchemaResolver {
  readonly #cwd: string;
  readonly #cacheDir: string | false;
  readonly #memory = new Map<string, CacheEntry>();
  readonly #reader = new TypeScriptSchemaReader();
  readonly #stats = { memoryHits: 0, diskHits: 0 };

  constructor(options: HandlerResolveOptions = {}) {
    this.#cwd = path.resolve(options.cwd ?? process.cwd());
    const dir = options.cacheDir ?? defaultCacheDir(this.#cwd);
    this.#cacheDir = dir === false ? false : path.resolve(this.#cwd, dir);
  }

  get stats(): HandlerCacheStats {
    return { generated: this.#reader.generated, ...this.#stats };
  }

  resolve(ref: HandlerRef): JsonSchemaObject {
    switch (ref.kind) {
      case 'json-schema':
        return ref.schema;
      case 'zod':
        if (!isZodSchema(ref.schema)) throw new InputError('handler/invalid-ref', 'A `zod` handler reference must hold a zod schema');
        // The handler parses what arrives with this schema, so what it accepts is the schema's input type:
        // a field with `.default()` may be left out by the model.
        return zodToJsonSchema(ref.schema);
      case 'typescript':
        return this.#typescript(ref.file, ref.type);
    }
  }

  #typescript(file: string, type: string): JsonSchemaObject {
    const absolute = path.resolve(this.#cwd, file);
    let content: Buffer;
    try {
      content = readRegularFileSync(absolute, null);
    } catch (error) {
      const why = error instanceof NotRegularFileError ? `: ${error.message}` : '';
      throw new InputError('handler/type-not-found', `Cannot read handler file \`${file}\` (looking for type \`${type}\`)${why}`, { file: absolute });
    }
    const contentHash = hash(content);
    const key = hash(JSON.stringify([3, generatorVersion(), path.relative(this.#cwd, absolute), type, contentHash]));

    const remembered = this.#memory.get(key);
    if (remembered && this.#fresh(remembered)) {
      this.#stats.memoryHits++;
      return structuredClone(remembered.schema);
    }
    const stored = this.#load(key);
    if (stored && this.#fresh(stored)) {
      this.#stats.diskHits++;
      this.#memory.set(key, stored);
      return structuredClone(stored.schema);
    }

    const { schema, sources } = this.#reader.read(absolute, file, type);
    const entry: CacheEntry = { key, schema, sources: {} };
    for (const [source, sourceHash] of sources) setOwn(entry.sources, path.relative(this.#cwd, source), sourceHash);
    // Only keep what was read from the content the key names; the file may have changed in between.
    if (sources.get(absolute) === contentHash) {
      this.#memory.set(key, entry);
      this.#store(entry);
    }
    return structuredClone(schema);
  }

  /** Whether every path the schema was read from is as it was: the same content, still a folder, or still nothing. */
  #fresh(entry: CacheEntry): boolean {
    for (const [source, expected] of Object.entries(entry.sources)) {
      if (fileState(path.resolve(this.#cwd, source)) !== expected) return false;
    }
    return true;
  }

  #load(key: string): CacheEntry | undefined {
    if (this.#cacheDir === false) return undefined;
    const text = readText(path.join(this.#cacheDir, `${key}.json`));
    if (text === undefined) return undefined;
    try {
      const entry = JSON.parse(text.toString('utf8')) as CacheEntry;
      return entry.key === key && typeof entry.schema === 'object' && typeof entry.sources === 'object' ? entry : undefined;
    } catch {
      // A torn or hand-edited cache file is regenerated, not reported.
      return undefined;
    }
  }

  #store(entry: CacheEntry): void {
    if (this.#cacheDir === false) return;
    try {
      // Write then rename, so a parallel Jest worker never reads half a file.
      replaceFile(path.join(this.#cacheDir, `${entry.key}.json`), JSON.stringify(entry));
    } catch {
      // A read-only checkout still works, only slower.
    }
  }
}

const shared = new Map<string, HandlerSchemaResolver>();

/**
 * The JSON Schema of what a handler accepts (synchronous). Resolvers are shared per
 * `cwd` and `cacheDir` for the life of the process, so each TypeScript type is generated
 * at most once per run.
 */
export function resolveHandlerSchema(ref: HandlerRef, options: HandlerResolveOptions = {}): JsonSchemaObject {
  const id = JSON.stringify([options.cwd ?? process.cwd(), options.cacheDir ?? null]);
  let resolver = shared.get(id);
  if (!resolver) shared.set(id, (resolver = new HandlerSchemaResolver(options)));
  return resolver.resolve(ref);
}
