/**
 * dotprompt's behaviour on the path users run (`loadPromptModule` + `renderCase`), one test a
 * rule: what used to differ from dotprompt there, and the errors that stop a render, each at
 * its file and line.
 */
import { loadPromptModule } from '../../src/render/module.js';
import { renderCase } from '../../src/render/render.js';
import { promptSchema } from '../../src/render/prompt-schemas.js';
import { InputError } from '../../src/util/errors.js';
import { scratch, thrown } from './helpers.js';
import { messagesOf, renderThroughCase } from './user-path.js';

const text = (template: string, input: Record<string, unknown> = {}, context?: Record<string, unknown>): string =>
  renderThroughCase({ template, input, ...(context ? { context } : {}) }).text;

/** The error of rendering `template`, which must be an InputError. */
const failure = (template: string, input: Record<string, unknown> = {}): InputError => thrown(() => renderThroughCase({ template, input }));

describe('the body after a frontmatter is trimmed, as dotprompt trims it', () => {
  test('the last message keeps no final newline; a body without a frontmatter is left as written', () => {
    expect(text('---\nmodel: m\n---\nHello {{name}}\n', { name: 'Ana' })).toBe('Hello Ana');
    expect(text('---\nmodel: m\n---\n\n\n  Hello\n\n')).toBe('Hello');
    expect(text('Hello\n')).toBe('Hello\n');
  });

  test('lines after trimmed blank lines are still the file lines', () => {
    const error = failure('---\nmodel: m\n---\n\n\nHi {{name}}\n');
    expect(error).toMatchObject({ code: 'render/missing-variable', file: 'prompts/p.prompt', line: 6, column: 6 });
  });
});

describe('the data a template sees is what the prompt declares', () => {
  test('`examples` and `retrieved` are not added to a prompt that declares neither', () => {
    expect(text('{{json this}}', { a: 1 })).toBe('{"a":1}');
    // Nor are they reserved there: a case may give inputs of those names.
    expect(text('{{examples}} {{retrieved}}', { examples: 'e', retrieved: 'r' })).toBe('e r');
  });

  test('a prompt that declares examples still gets them, and the name stays reserved there', () => {
    const files = {
      'prompts/p.prompt': '---\nexamples: { file: ex.yaml, partial: ex }\n---\n{{#each examples}}{{> ex}}{{/each}}',
      'prompts/_ex.prompt': '[{{q}}]',
      'prompts/ex.yaml': 'examples:\n  - q: one\n  - q: two\n',
      'prompts/cases/p.yaml': 'prompt: p\ncases:\n  c: { input: {} }\n  d: { input: { examples: [] } }\n',
    };
    const module = loadPromptModule('prompts', scratch(files));
    expect(renderCase(module, 'p', 'c', new Map()).text).toBe('[one][two]');
    expect(thrown(() => renderCase(module, 'p', 'd', new Map())).message).toMatch(/Input `examples` is reserved/);
  });

  test('`@metadata.prompt` is the prompt metadata, `@metadata.messages` the history', () => {
    const out = renderThroughCase({
      template: '---\nmodel: vertexai/gemini-2.5-flash\nconfig: { temperature: 0.5 }\n---\n{{@metadata.prompt.model}} {{@metadata.prompt.config.temperature}} {{#each @metadata.messages}}{{this.role}} {{/each}}',
      messages: [{ role: 'user', content: [{ text: 'hi' }] }],
    });
    expect(messagesOf(out).at(-1)).toEqual({ role: 'user', content: [{ text: 'vertexai/gemini-2.5-flash 0.5 user ' }] });
  });

  test('a case gives `@state`, `@auth` and other data variables', () => {
    expect(text('{{@state.step}} {{@auth.uid}} {{@tenant}}', {}, { state: { step: 2 }, auth: { uid: 'u' }, tenant: 'acme' })).toBe('2 u acme');
  });

  test('a case may not give a data variable the renderer fills, nor one twice', () => {
    const bad = (caseYaml: string): InputError =>
      thrown(() => loadPromptModule('prompts', scratch({ 'prompts/p.prompt': 'x', 'prompts/cases/p.yaml': `prompt: p\ncases:\n  c:\n${caseYaml}` })));
    expect(bad('    context: { prompt: x }\n')).toMatchObject({ code: 'config/invalid', file: 'prompts/cases/p.yaml', line: 4 });
    expect(bad('    state: { a: 1 }\n    context: { state: {} }\n')).toMatchObject({ code: 'config/duplicate', line: 4 });
    expect(bad('    context: [1]\n')).toMatchObject({ code: 'config/invalid', line: 4 });
  });

  test('a data variable the case does not give is a missing variable at its line', () => {
    expect(failure('a\n{{@state.count}}')).toMatchObject({ code: 'render/missing-variable', line: 2 });
  });
});

describe('named schemas', () => {
  test('`schemas/Name.json` or `.yaml` in the prompts folder is the schema `Name`', () => {
    const root = scratch({
      'prompts/p.prompt': '---\ninput:\n  schema:\n    who: Person\noutput:\n  schema: Reply\n---\nx',
      'prompts/schemas/Person.json': '{"type": "object", "properties": {"name": {"type": "string"}}}',
      'prompts/schemas/Reply.yaml': 'text: string\nmood?(enum): [calm, warm]\n',
      'prompts/cases/p.yaml': 'prompt: p\ncases:\n  c: { input: { who: { name: Ana } } }\n',
    });
    const module = loadPromptModule('prompts', root);
    expect([...module.schemas.keys()].sort()).toEqual(['Person', 'Reply']);
    expect(promptSchema(module.prompts.get('p')!, 'input').schema).toEqual({
      type: 'object',
      properties: { who: { type: 'object', properties: { name: { type: 'string' } } } },
      required: ['who'],
      additionalProperties: false,
    });
    // A named schema is taken as it is written, as dotprompt takes it (Picoschema is not expanded inside it).
    expect(renderCase(module, 'p', 'c', new Map()).outputSchema).toEqual({ text: 'string', 'mood?(enum)': ['calm', 'warm'] });
  });

  test('an unknown named schema, and a schema file that is no mapping, are errors at their file', () => {
    const unknown = scratch({ 'prompts/p.prompt': '---\noutput:\n  schema: Nope\n---\nx', 'prompts/cases/p.yaml': 'prompt: p\ncases:\n  c: { input: {} }\n' });
    expect(thrown(() => renderCase(loadPromptModule('prompts', unknown), 'p', 'c', new Map()))).toMatchObject({ file: 'prompts/p.prompt', message: expect.stringMatching(/`Nope`/) });
    const list = scratch({ 'prompts/p.prompt': 'x', 'prompts/schemas/Bad.yaml': '- a\n' });
    expect(thrown(() => loadPromptModule('prompts', list))).toMatchObject({ code: 'config/invalid', file: 'prompts/schemas/Bad.yaml', line: 1 });
  });
});

describe("dotprompt's helpers", () => {
  test('`{{role "tool"}}` makes a tool message; an unknown role is refused at its line', () => {
    expect(messagesOf(renderThroughCase({ template: '{{role "model"}}calling\n{{role "tool"}}{"ok": true}' }))).toEqual([
      { role: 'model', content: [{ text: 'calling\n' }] },
      { role: 'tool', content: [{ text: '{"ok": true}' }] },
    ]);
    expect(failure('a\nb {{role "assistant"}}x')).toMatchObject({ code: 'render/failed', file: 'prompts/p.prompt', line: 2, column: 3, message: expect.stringMatching(/Unexpected role "assistant"/) });
  });

  test('an empty media URL is a media part with an empty URL; a media without `url` is refused at its line', () => {
    expect(messagesOf(renderThroughCase({ template: '{{media url=""}}' }))).toEqual([{ role: 'user', content: [{ media: { url: '' } }] }]);
    expect(failure('x\n{{media contentType="image/png"}}')).toMatchObject({ code: 'render/failed', line: 2, message: expect.stringMatching(/no `url`/) });
  });

  test('a raw block renders as dotprompt renders it: nothing without the value, its text as written with it', () => {
    expect(text('a{{{{raw}}}} {{x}} {{{{/raw}}}}b')).toBe('ab');
    expect(text('a{{{{raw}}}} {{x}} {{{{/raw}}}}b', { raw: true })).toBe('a {{x}} b');
  });
});

describe('hostile templates are stopped with the file, the line and what was denied', () => {
  test.each([
    ['{{x.__proto__.constructor.name}}', '__proto__'],
    ['{{x.constructor.name}}', 'constructor'],
    ['{{#with x}}{{__proto__.constructor.name}}{{/with}}', '__proto__'],
  ])('%s', (tag, denied) => {
    const error = failure(`line one\n${tag}`, { x: {} });
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ file: 'prompts/p.prompt', line: 2 });
    expect(error.message).toContain(`\`${denied}\``);
    expect(error.message).toMatch(/inherits from JavaScript/);
  });

  test('a path through a missing value has its line, not a TypeError', () => {
    expect(failure('a\n{{a.b.c.d}}', { a: {} })).toMatchObject({ code: 'render/missing-variable', line: 2 });
  });
});

describe('renderDotprompt, the exported renderer of a source alone', () => {
  test('its errors name the file and the line', async () => {
    const { renderDotprompt } = await import('../../src/index.js');
    const at = (source: string): InputError => thrown(() => renderDotprompt(source, {}, { file: 'x.prompt' }));
    expect(at('---\nmodel: m\n---\n\nHello {{#if a}}\n')).toMatchObject({ code: 'render/syntax', file: 'x.prompt', line: 5 });
    expect(at('---\nmodel: m\n---\nok\n{{nope 1}}')).toMatchObject({ code: 'render/syntax', file: 'x.prompt', line: 5 });
    expect(at('---\nmodel: m\n  bad: [\n---\nx')).toMatchObject({ code: 'config/yaml-syntax', file: 'x.prompt' });
    expect(at('---\nmodel: m\n---\nok\n{{> missing}}')).toMatchObject({ code: 'render/failed', file: 'x.prompt', line: 4 });
    expect(renderDotprompt('---\nmodel: m\n---\nHi {{name}}\n', { input: { name: 'Ana' } }).messages).toEqual([{ role: 'user', content: [{ text: 'Hi Ana' }] }]);
  });
});
