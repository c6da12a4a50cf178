import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readToolsFile } from '../../src/project.js';
import { loadPromptModule } from '../../src/render/module.js';
import { listCases, renderCase } from '../../src/render/render.js';
import { onCi } from '../../src/util/ci.js';

// Golden folders: fixtures/<name>/{prompts/, tools.json} -> expected/<prompt>.<case>.txt.
// Regenerated only with UPDATE_GOLDEN=1, and never under CI.
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const update = process.env.UPDATE_GOLDEN === '1' && !onCi();

describe.each(readdirSync(fixtures))('golden folder %s', (name) => {
  const root = join(fixtures, name);
  const tools = readToolsFile(join(root, 'tools.json'));
  const module = loadPromptModule('prompts', root);
  const registry = new Map(tools.map((t) => [t.name, t]));

  test.each(listCases(module).map((c) => [`${c.prompt}.${c.case}`, c] as const))('%s renders as expected', (_label, c) => {
    const text = renderCase(module, c.prompt, c.case, registry).text;
    const file = join(root, 'expected', `${c.prompt}.${c.case}.txt`);
    if (update) {
      // Regenerating: there is nothing to compare with; review the files with git diff.
      mkdirSync(join(root, 'expected'), { recursive: true });
      writeFileSync(file, text);
      return;
    }
    expect(existsSync(file)).toBe(true);
    expect(text).toBe(readFileSync(file, 'utf8'));
  });
});
