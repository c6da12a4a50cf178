import { describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// A user's clone holds this repository and nothing beside it: no test, script or doc may
// reach into a folder next to the checkout. The needle is assembled so this file passes.
const root = fileURLToPath(new URL('../', import.meta.url));
// A parent folder followed by `shared`, joined by a slash, a backslash or as `path.join` arguments.
const outside = new RegExp(['\\.\\.', 'shared'].join(`(?:[\\\\/]|['"]\\s*,\\s*['"])`));
const roots = ['test', 'src', 'bench', 'scripts', 'prompts', '.ci', 'docs', 'README.md', 'package.json', 'jest.config.ts', 'prompt-contract.config.ts'];
const skip = new Set(['node_modules', 'dist', '.cache', '.git']);
// Generated, git-ignored data: the bench writes hundreds of megabytes there once it has run.
const skipPaths = new Set([join(root, 'bench', '.data')]);
const self = fileURLToPath(import.meta.url);

function files(path: string): string[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return [];
  }
  if (stat.isFile()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((e) => !skip.has(e.name) && !skipPaths.has(join(path, e.name)))
    .flatMap((e) => files(join(path, e.name)));
}

/** `file:line` for every line that names a folder beside the repository. */
function referencesOutside(paths: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of paths) {
    const text = readFileSync(file, 'utf8');
    if (!outside.test(text)) continue;
    text.split('\n').forEach((line, i) => {
      if (outside.test(line)) found.push(`${relative(root, file)}:${i + 1}`);
    });
  }
  return found;
}

describe('the repository stands alone', () => {
  // This file spells the needle out in its own probes.
  const all = roots.flatMap((r) => files(join(root, r))).filter((f) => f !== self);

  test('walks the tests, sources, scripts and docs', () => {
    expect(all.some((f) => f.endsWith(join('test', 'readme.test.ts')))).toBe(true);
    expect(all.some((f) => f.endsWith(join('acceptance', 'PROVENANCE.md')))).toBe(true);
  });

  test('no file refers to a folder beside the checkout', () => {
    expect(referencesOutside(all)).toEqual([]);
  });

  test('the check sees such a reference', () => {
    const probe = join(root, 'test', 'fixtures', 'acceptance', 'PROVENANCE.md');
    expect(referencesOutside([probe])).toEqual([]);
    expect(outside.test(`new URL('${['..', '..', '..', 'shared', 'acceptance'].join('/')}/', import.meta.url)`)).toBe(true);
    expect(outside.test(`join(repo, '..', '${'shared'}')`)).toBe(true);
    expect(outside.test(`join(repo, '..', 'sharedStuff')`)).toBe(true);
    expect(outside.test(`const shared = new Map(); // ../share`)).toBe(false);
  });
});
