import { describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importOptional, missingPackage, optionalPackages, requireBeside, requireOptional } from '../src/util/optional.js';

// The packages only some configs need are optional peers; scripts/pack-test.mjs installs the
// package without them and sees these messages for real. Here: the wording, and that the
// packages this repository develops with still load.

describe('optional packages', () => {
  test('package.json declares each as an optional peer and keeps it for development', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, Record<string, unknown>>;
    for (const name of Object.keys(optionalPackages)) {
      expect({ name, peer: pkg.peerDependencies?.[name] !== undefined, optional: (pkg.peerDependenciesMeta?.[name] as { optional?: boolean } | undefined)?.optional }).toEqual({ name, peer: true, optional: true });
      expect({ name, dependency: pkg.dependencies?.[name] }).toEqual({ name, dependency: undefined });
      expect({ name, dev: pkg.devDependencies?.[name] !== undefined }).toEqual({ name, dev: true });
    }
  });

  test('a missing one names what needs it and the command that installs it', () => {
    const sqlite = missingPackage('better-sqlite3', 'Persisted source `conversations`');
    expect(sqlite.code).toBe('config/missing-dependency');
    expect(sqlite.message).toBe('Persisted source `conversations` reads SQLite, which needs the optional package `better-sqlite3`, not installed: npm i -D better-sqlite3');
    expect(missingPackage('typescript', 'The config').message).toContain('npm i -D ts-json-schema-generator typescript');
  });

  test('installed ones load through the same door', async () => {
    expect(typeof (await importOptional<{ default: { Client: unknown } }>('pg', 'x')).default.Client).toBe('function');
    expect(requireOptional<{ version: string }>('typescript/package.json', 'x').version).toMatch(/^\d+\./);
  });

  test("TypeScript is the generator's own copy when the project's is another major (TypeScript 7 has no compiler API it can use)", () => {
    const dirs: string[] = [];
    // A project's node_modules, each in a folder of its own (Node caches what it resolved from a folder).
    const project = (own: boolean, generator = true): string => {
      const dir = mkdtempSync(join(tmpdir(), 'pc-beside-'));
      dirs.push(dir);
      const pkg = (at: string, name: string, version: string) => {
        mkdirSync(at, { recursive: true });
        writeFileSync(join(at, 'package.json'), JSON.stringify({ name, version, main: 'index.js' }));
        writeFileSync(join(at, 'index.js'), `module.exports = { version: ${JSON.stringify(version)} };`);
      };
      pkg(join(dir, 'node_modules', 'typescript'), 'typescript', '7.0.2');
      if (generator) pkg(join(dir, 'node_modules', 'ts-json-schema-generator'), 'ts-json-schema-generator', '2.4.0');
      if (generator && own) pkg(join(dir, 'node_modules', 'ts-json-schema-generator', 'node_modules', 'typescript'), 'typescript', '5.9.3');
      return pathToFileURL(join(dir, 'node_modules', 'prompt-contract', 'dist', 'index.js')).href;
    };
    try {
      const nested = project(true);
      expect(requireBeside<{ version: string }>('typescript', 'ts-json-schema-generator', 'x', nested).version).toBe('5.9.3');
      expect(requireBeside<{ version: string }>('typescript/package.json', 'ts-json-schema-generator', 'x', nested).version).toBe('5.9.3');
      // Deduplicated (no copy of its own): the project's.
      expect(requireBeside<{ version: string }>('typescript', 'ts-json-schema-generator', 'x', project(false)).version).toBe('7.0.2');
      // The generator missing: the install command, not a stack trace.
      expect(() => requireBeside('typescript', 'ts-json-schema-generator', 'The config', project(false, false))).toThrow(/needs the optional packages `ts-json-schema-generator` and `typescript`, not installed/);
    } finally {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
