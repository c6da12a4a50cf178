import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeTools } from '../../src/tools/normalize.js';
import type { ToolSpec } from '../../src/tools/types.js';

export const here = dirname(fileURLToPath(import.meta.url));
export const fixturesDir = join(here, 'fixtures');
export const repoRoot = join(here, '..', '..');
export const acceptanceDir = join(repoRoot, 'test', 'fixtures', 'acceptance');

export interface Fixture {
  name: string;
  dir: string;
  input: string;
  tools?: ToolSpec[];
}

export function fixtures(): Fixture[] {
  return readdirSync(fixturesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => {
      const dir = join(fixturesDir, d.name);
      const fixture: Fixture = { name: d.name, dir, input: readFileSync(join(dir, 'input.md'), 'utf8') };
      const toolsFile = join(dir, 'tools.json');
      if (existsSync(toolsFile)) fixture.tools = normalizeTools(JSON.parse(readFileSync(toolsFile, 'utf8')), 'tools.json');
      return fixture;
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A file from the vendored acceptance corpus (test/fixtures/acceptance); a missing file fails the test, it never skips it. */
export function acceptance(path: string): string {
  const file = join(acceptanceDir, path);
  if (!existsSync(file)) throw new Error(`Acceptance data missing: ${file} (the vendored corpus, see test/fixtures/acceptance/PROVENANCE.md)`);
  return readFileSync(file, 'utf8');
}
