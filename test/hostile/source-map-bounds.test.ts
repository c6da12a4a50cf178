import { afterEach, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PromptEnvironment } from '../../src/render/handlebars.js';
import { parseYaml } from '../../src/util/yaml.js';
import { scratchProject, staleCall, type Scratch } from './render-project.js';
import { runs } from '../helpers/runs.js';

// Issue 25: a finding in text a multi-line case input printed pointed past the end of the
// template (`prompts/notes.prompt:9:1` in a 6-line file), and GitHub annotations inherited it.

let project: Scratch | undefined;
afterEach(() => project?.remove());

/** The file's lines as people count them (a final line break starts none), written here apart from the code under test. */
function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

function lineCount(text: string): number {
  return linesOf(text).length;
}

describe('a finding in text a case input printed', () => {
  test('points at the input in the cases file, never past the end of the template', async () => {
    const prompt = '---\ndescription: notes\n---\nNotes for the agent:\n{{notes}}\nEnd.\n';
    const cases = `prompt: notes\ncases:\n  basic:\n    input:\n      notes: |\n        Look the order up first.\n${staleCall.split('\n').map((l) => `        ${l}`).join('\n')}\n        Then answer.\n`;
    project = scratchProject({ 'prompts/notes.prompt': prompt, 'prompts/cases/notes.yaml': cases });
    const result = await project.check(['--format', 'json']);
    const placed = result.diagnostics.filter((d) => d.ruleId.startsWith('example/'));
    expect(placed.length).toBeGreaterThan(0);
    for (const d of placed) {
      expect(d.file).toBe(join('prompts', 'cases', 'notes.yaml'));
      // The fence or the call's JSON, lines 7 and 8 of the cases file.
      expect([7, 8]).toContain(d.line);
    }
    for (const d of result.diagnostics) {
      if (d.file === undefined || d.line === undefined) continue;
      const text = readFileSync(join(project.dir, d.file), 'utf8');
      expect(d.line).toBeLessThanOrEqual(lineCount(text));
    }
  });
});

// Templates made of literal lines, expressions, blocks and an indented partial; inputs of any
// text, line breaks included. Every place the map gives is inside its file.
const word = fc.constantFrom('alpha', 'beta', 'gamma');
const literal = fc.stringMatching(/^[a-z ]{0,12}$/);
const piece: fc.Arbitrary<string> = fc.oneof(
  literal,
  fc.constant('\n'),
  word.map((w) => `{{${w}}}`),
  fc.constant('{{#each list}}- {{this}}\n{{/each}}'),
  fc.constant('{{#if alpha}}yes {{beta}}{{else}}no{{/if}}'),
  fc.constant('\n    {{> note}}\n'),
  fc.constant('{{#with obj}}{{inner}}{{/with}}'),
);
const template = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
const value = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '\t', 'é', '"', '#', ':'), maxLength: 30 });

describe('the source map', () => {
  test('gives only places inside their files, for every offset of any render', () => {
    fc.assert(
      fc.property(template, value, value, fc.array(value, { maxLength: 3 }), value, fc.boolean(), (body, alpha, beta, list, inner, block) => {
        const frontmatter = '---\ndescription: generated\n---\n';
        const fileText = `${frontmatter}${body}`;
        const partial = { file: 'prompts/_note.prompt', body: 'a note:\n{{gamma}}\nend', bodyLine: 1 };
        const partialText = partial.body;
        const input = { alpha, beta, gamma: beta, list, obj: { inner } };
        // The cases file writes the values in a block scalar or as quoted strings.
        const yamlValue = (v: string): string => (block && !/^\s|\s$|\t/.test(v) && v !== '' ? `|-\n${v.split('\n').map((l) => `        ${l}`).join('\n')}` : JSON.stringify(v));
        const casesText = `prompt: gen\ncases:\n  one:\n    input:\n      alpha: ${yamlValue(alpha)}\n      beta: ${yamlValue(beta)}\n      gamma: ${yamlValue(beta)}\n      list: [${list.map((v) => JSON.stringify(v)).join(', ')}]\n      obj:\n        inner: ${JSON.stringify(inner)}\n`;
        let doc;
        try {
          doc = parseYaml(casesText, 'prompts/cases/gen.yaml');
        } catch {
          return;
        }
        const parsed = doc.value as { cases: { one: { input: typeof input } } };
        const node = doc.root?.children?.get('cases')?.children?.get('one')?.children?.get('input');
        if (node === undefined) return;
        const env = new PromptEnvironment(new Map([['note', partial]]), new WeakMap());
        let rendered;
        try {
          rendered = env.render({ file: 'prompts/gen.prompt', body, bodyLine: 4 }, parsed.cases.one.input);
        } catch {
          return;
        }
        rendered.sourceMap.withInputs([{ doc, node, value: parsed.cases.one.input }]);
        const files: Record<string, string> = { 'prompts/gen.prompt': fileText, 'prompts/_note.prompt': partialText, 'prompts/cases/gen.yaml': casesText };
        for (let offset = 0; offset <= rendered.text.length; offset++) {
          const at = rendered.sourceMap.lookup(offset);
          if (at === undefined) continue;
          const text = files[at.file];
          expect(text).toBeDefined();
          const lines = linesOf(text!);
          expect(at.line).toBeGreaterThanOrEqual(1);
          expect(at.line).toBeLessThanOrEqual(lines.length);
          expect(at.column).toBeGreaterThanOrEqual(1);
          expect(at.column).toBeLessThanOrEqual(lines[at.line - 1]!.length + 1);
        }
      }),
      { numRuns: runs(300) },
    );
  });
});
