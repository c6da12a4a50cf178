import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { importOptional, missingPackage, optionalPackages, requireOptional } from '../src/util/optional.js';

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
});
