import { createRequire } from 'node:module';
import { InputError } from './errors.js';

/**
 * Packages that only some configs need. They are optional peer dependencies: a project that
 * only renders, extracts and validates installs none of them (no native build, no second
 * TypeScript). Each is loaded the first time a config uses it.
 */
export const optionalPackages = {
  '@modelcontextprotocol/sdk': "reads an MCP server's tools",
  'better-sqlite3': 'reads SQLite',
  pg: 'reads PostgreSQL',
  'ts-json-schema-generator': 'reads TypeScript handler types',
  typescript: 'reads TypeScript handler types',
} as const;

export type OptionalPackage = keyof typeof optionalPackages;

/** True when `error` says that `name` itself (not something it imports) cannot be found. */
function isMissing(error: unknown, name: string): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  if (typeof message !== 'string') return false;
  // "Cannot find package 'pg' imported from ..." (import) or "Cannot find module 'pg'" (require).
  return message.includes(`'${name}'`) || message.includes(`"${name}"`) || message.includes(`'${name}/`);
}

/** The could-not-run error for a missing optional package: what needs it, and the command that installs it. */
export function missingPackage(name: OptionalPackage, what: string, cause?: unknown): InputError {
  const typescript = name === 'ts-json-schema-generator' || name === 'typescript';
  const packages = typescript ? 'the optional packages `ts-json-schema-generator` and `typescript`' : `the optional package \`${name}\``;
  const install = typescript ? 'npm i -D ts-json-schema-generator typescript' : `npm i -D ${name}`;
  return new InputError('config/missing-dependency', `${what} ${optionalPackages[name]}, which needs ${packages}, not installed: ${install}`, {}, cause === undefined ? undefined : { cause });
}

/**
 * The package as `import(name)` gives it (its exports, and the whole as `default`), or an
 * InputError naming what needs it and how to install it. Each optional package ships
 * CommonJS, so it is required: Jest without VM modules has no `import()`.
 */
export async function importOptional<T>(name: OptionalPackage, what: string): Promise<T> {
  const mod = requireOptional<object>(name, what);
  return { ...mod, default: mod } as T;
}

/** `require(name)` from this package's folder, or the same InputError. */
export function requireOptional<T>(name: OptionalPackage | `${OptionalPackage}/package.json`, what: string): T {
  const require = createRequire(import.meta.url);
  const base = name.replace(/\/package\.json$/, '') as OptionalPackage;
  try {
    return require(name) as T;
  } catch (error) {
    if (isMissing(error, base)) throw missingPackage(base, what, error);
    throw error;
  }
}

/**
 * `require(name)` as `beside` requires it: the copy of `name` that package resolves, which is
 * its own dependency when the project's copy is another major. The same InputError when
 * either is missing. `origin`: where `beside` is looked up from (this package, by default).
 */
export function requireBeside<T>(name: OptionalPackage | `${OptionalPackage}/package.json`, beside: OptionalPackage, what: string, origin: string = import.meta.url): T {
  const base = name.replace(/\/package\.json$/, '') as OptionalPackage;
  let from: string;
  try {
    from = createRequire(origin).resolve(`${beside}/package.json`);
  } catch (error) {
    if (isMissing(error, beside)) throw missingPackage(beside, what, error);
    throw error;
  }
  try {
    return createRequire(from)(name) as T;
  } catch (error) {
    if (isMissing(error, base)) throw missingPackage(base, what, error);
    throw error;
  }
}
