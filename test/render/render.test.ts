import { readFileSync } from 'node:fs';
import { dump } from 'js-yaml';
import { loadPromptModule } from '../../src/render/module.js';
import { listCases, renderCase, renderDataItems } from '../../src/render/render.js';
import { locateInstance } from '../../src/render/source-map.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import { lookupOrder, scratch, thrown } from './helpers.js';

const registry = new Map(normalizeTools([lookupOrder]).map((t) => [t.name, t]));

/** 1-based line of the first line of `file` containing `needle`. */
function lineOf(text: string, needle: string, from = 0): number {
  const at = text.indexOf(needle, from);
  if (at === -1) throw new Error(`${needle} not found`);
  return text.slice(0, at).split('\n').length;
}

const base = {
  'prompts/p.prompt': '---\ntools: [lookup_order]\nexamples: { file: examples.yaml, partial: ex }\n---\nIntro line\n{{#each examples}}\n{{> ex this}}\n{{/each}}\nBye {{name}}\n',
  'prompts/_ex.prompt': '```tool_call\n{{json call indent=2}}\n```\n',
  'prompts/examples.yaml': 'examples:\n  - call:\n      name: lookup_order\n      arguments:\n        order_id: A-0001\n  - call:\n      name: lookup_order\n      arguments:\n        order_id: A-0002\n',
  'prompts/cases/p.yaml': 'prompt: p\ncases:\n  one:\n    input: { name: Ana }\n',
};

describe('source map', () => {
  const root = scratch(base);
  const module = loadPromptModule('prompts', root);
  const rendered = renderCase(module, 'p', 'one', registry);

  test('a rendered argument maps to the YAML line that holds it', () => {
    const offset = rendered.text.indexOf('"A-0002"');
    const loc = rendered.sourceMap.lookup(offset)!;
    expect(loc.kind).toBe('example');
    expect(loc.file).toBe('prompts/examples.yaml');
    expect(locateInstance(loc.origin!, '/order_id').line).toBe(lineOf(base['prompts/examples.yaml'], 'order_id: A-0002'));
  });

  test('template text maps to its template line, through partials', () => {
    const intro = rendered.sourceMap.lookup(rendered.text.indexOf('Bye'))!;
    expect(intro).toMatchObject({ kind: 'template', file: 'prompts/p.prompt', line: lineOf(base['prompts/p.prompt'], 'Bye') });
    const first = rendered.sourceMap.lookup(0)!;
    expect(first).toMatchObject({ kind: 'template', line: 5 });
  });

  test('every example and stub entry of the demo renders alone through its partial', () => {
    const demo = loadPromptModule('prompts');
    const tools = normalizeTools(JSON.parse(readFileSync('prompts/tools/lookup_order.schema.json', 'utf8')));
    const all = new Map([...demo.prompts.values()].flatMap((p) => p.tools).map((name) => [name, { ...tools[0]!, name }]));
    let expected = 0;
    for (const p of demo.prompts.values()) {
      expected += p.examples?.items.length ?? 0;
      for (const list of p.retrieval?.entries.values() ?? []) expected += list.length;
    }
    const items = [...demo.prompts.keys()].flatMap((p) => renderDataItems(demo, p, all));
    expect(items).toHaveLength(expected);
    expect(expected).toBeGreaterThan(8);
    for (const item of items) expect(item.sourceMap.regions.length).toBeGreaterThan(0);
  });

  test('the demo has at least two prompts with three cases each', () => {
    const cases = listCases(loadPromptModule('prompts'));
    const perPrompt = new Map<string, number>();
    for (const c of cases) perPrompt.set(c.prompt, (perPrompt.get(c.prompt) ?? 0) + 1);
    expect(perPrompt.size).toBeGreaterThanOrEqual(2);
    for (const n of perPrompt.values()) expect(n).toBeGreaterThanOrEqual(3);
  });
});

describe('{{json}} of an example or stub', () => {
  // Each example object's JSON is made once per indent and reused by every case (handlebars.ts).
  test('is the same JSON in every case, in each indent a template asks for, and maps to its YAML', () => {
    const root = scratch({
      ...base,
      'prompts/p.prompt': '---\ntools: [lookup_order]\nexamples: { file: examples.yaml, partial: ex }\n---\n{{#each examples}}\n{{> ex this}}\n{{/each}}\n{{#each examples}}\nflat: {{json call}}\n{{/each}}\nBye {{name}}\n',
      'prompts/cases/p.yaml': 'prompt: p\ncases:\n  one:\n    input: { name: Ana }\n  two:\n    input: { name: Bo }\n',
    });
    const module = loadPromptModule('prompts', root);
    const [one, two] = ['one', 'two'].map((name) => renderCase(module, 'p', name, registry));
    const calls = [{ name: 'lookup_order', arguments: { order_id: 'A-0001' } }, { name: 'lookup_order', arguments: { order_id: 'A-0002' } }];
    const expected = (name: string) => `${calls.map((c) => `\`\`\`tool_call\n${JSON.stringify(c, null, 2)}\n\`\`\`\n`).join('')}${calls.map((c) => `flat: ${JSON.stringify(c)}\n`).join('')}Bye ${name}`;
    expect(one!.text).toBe(expected('Ana'));
    expect(two!.text).toBe(expected('Bo'));
    const at = two!.text.lastIndexOf('"A-0002"');
    expect(two!.sourceMap.lookup(at)).toMatchObject({ kind: 'example', file: 'prompts/examples.yaml' });
  });
});

describe('a partial rendered for an example object', () => {
  // A partial that reads only its context is rendered once per example object and reused by
  // every case (handlebars.ts); one that reads anything else renders afresh for each case.
  test('shows each case its own case name and root inputs; one that reads only its item is the same in every case', () => {
    const root = scratch({
      ...base,
      'prompts/p.prompt': '---\ntools: [lookup_order]\nexamples: { file: examples.yaml, partial: own }\n---\n{{#each examples}}\n{{> own this}}\n{{> data this}}\n{{> rooted this}}\n{{> nested this}}\n{{/each}}\n{{#each examples}}\n    {{> own this}}\n{{/each}}\n',
      'prompts/_own.prompt': 'own {{#each call.arguments}}{{@key}}={{this}} {{@index}}{{/each}}\n',
      'prompts/_data.prompt': 'data {{@case}}\n',
      'prompts/_rooted.prompt': 'rooted {{@root.name}}\n',
      'prompts/_nested.prompt': 'nested {{> data this}}',
      'prompts/cases/p.yaml': 'prompt: p\ncases:\n  one:\n    input: { name: Ana }\n  two:\n    input: { name: Bo }\n',
    });
    const module = loadPromptModule('prompts', root);
    // The same partial on an indented line: the same example objects, each line indented there.
    const expected = (caseName: string, name: string) => ['A-0001', 'A-0002'].map((id) => `own order_id=${id} 0\ndata ${caseName}\nrooted ${name}\nnested data ${caseName}\n`).join('') + ['A-0001', 'A-0002'].map((id) => `    own order_id=${id} 0\n`).join('');
    // Each case twice, interleaved: a text remembered from one case must not reach the other.
    for (const [caseName, name] of [['one', 'Ana'], ['two', 'Bo'], ['one', 'Ana'], ['two', 'Bo']] as const) {
      expect(renderCase(module, 'p', caseName, registry).text).toBe(expected(caseName, name));
    }
  });
});

describe('bad input names file, line and what was expected', () => {
  test('YAML syntax error in an examples file', () => {
    const root = scratch({ ...base, 'prompts/examples.yaml': 'examples:\n  - call: { name: x,\n  - broken\n' });
    const e = thrown(() => loadPromptModule('prompts', root));
    expect(e.code).toBe('config/yaml-syntax');
    expect(e.file).toBe('prompts/examples.yaml');
    expect(e.line).toBeGreaterThanOrEqual(2);
    expect(e.column).toBeGreaterThan(0);
  });

  test('a case naming an unknown prompt', () => {
    const root = scratch({ ...base, 'prompts/cases/p.yaml': 'prompt: q\ncases:\n  one:\n    input: {}\n' });
    const e = thrown(() => loadPromptModule('prompts', root));
    expect(e).toMatchObject({ code: 'render/unknown-prompt', file: 'prompts/cases/p.yaml', line: 1 });
    expect(e.message).toContain('`p`');
  });

  test('a prompt naming an unknown tool points at the tools line', () => {
    const root = scratch({ ...base, 'prompts/p.prompt': base['prompts/p.prompt'].replace('tools: [lookup_order]', 'tools: [lookup_order, refund_it]') });
    const e = thrown(() => renderCase(loadPromptModule('prompts', root), 'p', 'one', registry));
    expect(e).toMatchObject({ code: 'render/unknown-tool', file: 'prompts/p.prompt', line: 2, column: 23 });
    expect(e.message).toContain('refund_it');
  });

  test('a case naming an unknown retrieval stub', () => {
    const root = scratch({
      ...base,
      'prompts/p.prompt': base['prompts/p.prompt'].replace('---\nIntro', 'retrieval: { file: stubs.yaml, partial: ex }\n---\nIntro'),
      'prompts/stubs.yaml': dump({ stubs: { some: [] } }),
      'prompts/cases/p.yaml': 'prompt: p\ncases:\n  one:\n    input: { name: Ana }\n    retrieval: other\n',
    });
    const e = thrown(() => loadPromptModule('prompts', root));
    expect(e).toMatchObject({ code: 'render/unknown-stub', file: 'prompts/cases/p.yaml', line: 5 });
  });

  test('a missing examples file: named at the frontmatter line that asks for it', () => {
    const text = base['prompts/p.prompt'].replace('examples.yaml', 'missing.yaml');
    const root = scratch({ ...base, 'prompts/p.prompt': text });
    const e = thrown(() => loadPromptModule('prompts', root));
    expect(e.code).toBe('config/unreadable');
    expect(e.file).toBe('prompts/p.prompt');
    expect(e.line).toBe(text.split('\n').findIndex((l) => l.includes('missing.yaml')) + 1);
    expect(e.message).toContain('Cannot find `examples.file` "missing.yaml"');
  });

  test('a missing template variable names the template line and column', () => {
    const root = scratch({ ...base, 'prompts/cases/p.yaml': 'prompt: p\ncases:\n  one:\n    input: {}\n' });
    const e = thrown(() => renderCase(loadPromptModule('prompts', root), 'p', 'one', registry));
    // Column of `name` inside `Bye {{name}}`.
    expect(e).toMatchObject({ code: 'render/missing-variable', file: 'prompts/p.prompt', line: 9, column: 7 });
  });

  test('an unknown partial used inside a partial names that partial file', () => {
    const root = scratch({ ...base, 'prompts/_ex.prompt': 'x\n{{> ghost}}\n' });
    const e = thrown(() => renderCase(loadPromptModule('prompts', root), 'p', 'one', registry));
    expect(e).toMatchObject({ code: 'render/unknown-partial', file: 'prompts/_ex.prompt', line: 2 });
  });
});
