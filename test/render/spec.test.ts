import { readFileSync } from 'node:fs';
import { dump, load } from 'js-yaml';
import { loadPromptModule } from '../../src/render/module.js';
import { renderCase } from '../../src/render/render.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import { InputError } from '../../src/util/errors.js';
import { lookupOrder, scratch } from './helpers.js';

interface Spec {
  name: string;
  template: string;
  input: Record<string, unknown>;
  partials?: Record<string, string>;
  examples?: unknown[];
  examples_partial?: string;
  expect?: string;
  error?: { code: string; line: number };
}

const specs = load(readFileSync(new URL('./spec.yaml', import.meta.url), 'utf8')) as Spec[];
const registry = new Map(normalizeTools([lookupOrder]).map((t) => [t.name, t]));

/** Lays one spec out as a prompt module: frontmatter of 4 lines, so template line N is file line N + 4. */
function layout(spec: Spec): string {
  const frontmatter = ['---', 'tools: [lookup_order]', spec.examples ? `examples: { file: examples.yaml, partial: ${spec.examples_partial} }` : 'description: spec', '---'];
  const files: Record<string, string> = {
    'prompts/p.prompt': `${frontmatter.join('\n')}\n${spec.template}`,
    'prompts/cases/p.yaml': dump({ prompt: 'p', cases: { only: { input: spec.input } } }),
  };
  for (const [name, body] of Object.entries(spec.partials ?? {})) files[`prompts/_${name}.prompt`] = body;
  if (spec.examples) files['prompts/examples.yaml'] = dump({ examples: spec.examples });
  return scratch(files);
}

describe('template spec corpus', () => {
  test.each(specs.map((s) => [s.name, s] as const))('%s', (_name, spec) => {
    const root = layout(spec);
    const run = () => renderCase(loadPromptModule('prompts', root), 'p', 'only', registry).text;
    if (spec.error) {
      let caught: unknown;
      try {
        run();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InputError);
      const e = caught as InputError;
      expect(e.code).toBe(spec.error.code);
      expect(e.line).toBe(spec.error.line + 4);
      expect(e.file).toMatch(/p\.prompt$/);
    } else {
      expect(run()).toBe(spec.expect);
    }
  });
});
