// openPromptModule: the prompt module a case worker reads one prompt at a time, given each
// prompt's cases files as the main thread read them. Each prompt it reads is the prompt
// loadPromptModule reads (same cases in the same order, examples, stubs, and the same
// rendering), and it reads nothing it was not asked for. loadPromptModule's `only` tells a
// cases file's prompt from its text without parsing it, unless the text leaves room for doubt.
import { describe, expect, test } from '@jest/globals';
import { casesFilesOf, loadPromptModule, openPromptModule, type PromptModule } from '../../src/render/module.js';
import { listCases, renderCase, renderDataItems } from '../../src/render/render.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import { lookupOrder, scratch, thrown } from './helpers.js';

const registry = new Map(normalizeTools([lookupOrder]).map((t) => [t.name, t]));

const prompt = (n: string): string => `---\ntools: [lookup_order]\nexamples: { file: ${n}.examples.yaml, partial: ex }\nretrieval: { file: ${n}.stubs.yaml, partial: doc }\n---\n${n} says hi to {{name}}\n{{#each examples}}\n{{> ex this}}\n{{/each}}\n{{#each retrieved}}{{> doc this}}{{/each}}\n`;
const examples = (n: string): string => `examples:\n  - call:\n      name: lookup_order\n      arguments:\n        order_id: ${n}-0001\n`;
const stubs = (n: string): string => `stubs:\n  k:\n    - text: ${n} policy\n`;

const files: Record<string, string> = {
  'prompts/_ex.prompt': '```tool_call\n{{json call indent=2}}\n```\n',
  'prompts/_doc.prompt': '> {{text}}\n',
  'prompts/cases/a.yaml': 'prompt: a\ncases:\n  one:\n    input: { name: Ana }\n    retrieval: k\n',
  // Flow style: the prompt it names cannot be read without parsing it.
  'prompts/cases/b.yaml': '{prompt: b, cases: {two: {input: {name: Bo}}, three: {input: {name: Cy}, retrieval: k}}}\n',
  'prompts/cases/c-more.yaml': '{prompt: c, cases: {four: {input: {name: Di}}}}\n',
  'prompts/cases/c.yaml': 'prompt: c\ncases:\n  five:\n    input: { name: Ed }\n',
};
for (const n of ['a', 'b', 'c']) {
  files[`prompts/${n}.prompt`] = prompt(n);
  files[`prompts/${n}.examples.yaml`] = examples(n);
  files[`prompts/${n}.stubs.yaml`] = stubs(n);
}

/** What renders from a prompt of a module: its cases, then its curated items. */
const rendersOf = (module: PromptModule, name: string): unknown[] => [
  ...[...module.prompts.get(name)!.cases.keys()].map((c) => renderCase(module, name, c, registry).text),
  ...renderDataItems(module, name, registry).map((item) => item.text),
];

describe('openPromptModule', () => {
  const root = scratch(files);
  const whole = loadPromptModule('prompts', root);

  test('reads only the prompts asked for, and each as the whole module has it', () => {
    const lazy = openPromptModule('prompts', root, casesFilesOf(whole, root));
    expect([...lazy.module.prompts.keys()]).toEqual([]);
    expect([...lazy.module.partials.keys()].sort()).toEqual(['doc', 'ex']);
    lazy.ensure('c');
    lazy.ensure('a');
    lazy.ensure('c');
    expect([...lazy.module.prompts.keys()]).toEqual(['c', 'a']);
    for (const name of ['a', 'c']) {
      const [mine, theirs] = [lazy.module.prompts.get(name)!, whole.prompts.get(name)!];
      expect([...mine.cases.keys()]).toEqual([...theirs.cases.keys()]);
      expect(mine.examples?.items.map((i) => i.value)).toEqual(theirs.examples?.items.map((i) => i.value));
      expect(rendersOf(lazy.module, name)).toEqual(rendersOf(whole, name));
    }
    // c's cases come from both of its files, the plainly written one and the flow-style one.
    expect([...lazy.module.prompts.get('c')!.cases.keys()].sort()).toEqual(['five', 'four']);
  });

  test('every prompt read one at a time gives the cases of the whole module, once each', () => {
    const lazy = openPromptModule('prompts', root, casesFilesOf(whole, root));
    for (const name of ['b', 'c', 'a']) lazy.ensure(name);
    const cases = (m: PromptModule) => listCases(m).map((c) => `${c.prompt}/${c.case}`);
    expect(cases(lazy.module)).toEqual(cases(whole));
    expect(cases(whole)).toEqual(['a/one', 'b/three', 'b/two', 'c/five', 'c/four']);
  });

  test('a prompt that is not there is an error naming the folder', () => {
    const lazy = openPromptModule('prompts', root, casesFilesOf(whole, root));
    const error = thrown(() => lazy.ensure('nope'));
    expect(error).toMatchObject({ code: 'render/unknown-prompt' });
    expect(error.message).toContain('`nope`');
  });

  test('a cases file the main thread did not give for a prompt is not read for it', () => {
    const lazy = openPromptModule('prompts', root, new Map([['c', []]]));
    lazy.ensure('c');
    expect([...lazy.module.prompts.get('c')!.cases.keys()]).toEqual([]);
  });
});

// (`__proto__.prompt` is a partial, `_proto__`: a leading underscore makes one.)
test('prompts named like the properties every object has keep their cases files', () => {
  const names = ['constructor', 'toString', 'hasOwnProperty', 'valueOf'];
  const tree: Record<string, string> = {};
  for (const n of names) {
    tree[`prompts/${n}.prompt`] = `${n} {{name}}\n`;
    tree[`prompts/cases/${n}.yaml`] = `prompt: ${JSON.stringify(n)}\ncases:\n  one:\n    input: { name: Ana }\n`;
  }
  const root = scratch(tree);
  const whole = loadPromptModule('prompts', root);
  const files = casesFilesOf(whole, root);
  expect([...files.keys()].sort()).toEqual([...names].sort());
  // As a worker gets them: copied to another thread, then made a map again.
  const lazy = openPromptModule('prompts', root, new Map(structuredClone([...files])));
  for (const n of names) {
    lazy.ensure(n);
    expect(renderCase(lazy.module, n, 'one', registry).text).toBe(`${n} Ana\n`);
  }
});

describe("loadPromptModule's `only`", () => {
  test('a prompt name continued on the next line is read as YAML reads it', () => {
    // `prompt: foo` followed by an indented line is the plain scalar `foo bar`, the name of another prompt.
    const root = scratch({
      'prompts/foo.prompt': 'Foo {{name}}\n',
      'prompts/foo bar.prompt': 'Foo bar {{name}}\n',
      'prompts/cases/one.yaml': 'prompt: foo\n  bar\ncases:\n  one:\n    input: { name: Ana }\n',
      'prompts/cases/two.yaml': 'prompt: foo # the short one\ncases:\n  two:\n    input: { name: Bo }\n',
    });
    const whole = loadPromptModule('prompts', root);
    expect(listCases(whole)).toEqual([{ prompt: 'foo', case: 'two' }, { prompt: 'foo bar', case: 'one' }]);
    expect(listCases(loadPromptModule('prompts', root, new Set(['foo bar'])))).toEqual([{ prompt: 'foo bar', case: 'one' }]);
    expect(listCases(loadPromptModule('prompts', root, new Set(['foo'])))).toEqual([{ prompt: 'foo', case: 'two' }]);
  });
});
