import { loadPromptModule, type PromptModule } from '../../src/render/module.js';
import { renderCase, renderDataItems } from '../../src/render/render.js';
import { normalizeTools } from '../../src/tools/normalize.js';
import { InputError } from '../../src/util/errors.js';
import { lookupOrder, scratch, thrown } from './helpers.js';

// Issue #11: an error that stops a run names the file, the line and column counted from the
// start of that file, and what was expected there in the words of a template author.

const registry = new Map(normalizeTools([lookupOrder]).map((t) => [t.name, t]));

/** Ten lines of frontmatter: body line N is file line N + 10. */
const frontmatter = [
  '---',
  'description: A prompt whose frontmatter is ten lines long.',
  'tools: [lookup_order]',
  'examples: { file: examples.yaml, partial: ex }',
  'input:',
  '  default:',
  '    locale: en-GB',
  '    flag: false',
  '# a comment line',
  '---',
].join('\n');

const base = {
  'prompts/_ex.prompt': 'Call: {{json call}}\n',
  'prompts/examples.yaml': 'examples:\n  - call: { name: lookup_order, arguments: { order_id: A-0001 } }\n',
  'prompts/cases/p.yaml': 'prompt: p\ncases:\n  one:\n    input: { name: Ana, customer: { name: Ana } }\n',
};

/** 1-based line and column of the first occurrence of `needle` in `text` (after `from`). */
function pos(text: string, needle: string, from = 0): { line: number; column: number } {
  const at = text.indexOf(needle, from);
  if (at === -1) throw new Error(`${needle} not found`);
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** The error of rendering case `one` of a prompt `p` whose body is `body`, after the ten-line frontmatter. */
function renderError(body: string, files: Record<string, string> = {}): { error: InputError; text: string } {
  const text = `${frontmatter}\n${body}`;
  const root = scratch({ ...base, 'prompts/p.prompt': text, ...files });
  return { error: thrown(() => renderCase(loadPromptModule('prompts', root), 'p', 'one', registry)), text };
}

describe('template syntax errors: at the tag, from the start of the file, in plain words', () => {
  test('an unclosed {{#each}} is reported where it opens, not at the end of the file', () => {
    const { error, text } = renderError('Intro\n{{#each examples}}\n{{> ex this}}\nBye {{name}}\n');
    expect(error).toMatchObject({ code: 'render/syntax', file: 'prompts/p.prompt', ...pos(text, '{{#each') });
    expect(error.line).toBe(12);
    expect(error.message).toBe('Unclosed `{{#each examples}}` opened here; expected `{{/each}}` before the end of the file');
  });

  test('of two unclosed blocks, the inner one is reported and the outer one named', () => {
    const { error, text } = renderError('{{#if name}}\nHi\n{{#each examples}}\n{{> ex this}}\n');
    expect(error).toMatchObject({ code: 'render/syntax', ...pos(text, '{{#each') });
    expect(error.message).toBe(`Unclosed \`{{#each examples}}\` opened here; expected \`{{/each}}\` before the end of the file (also unclosed: \`{{#if name}}\` at line ${pos(text, '{{#if').line})`);
  });

  test('a close of the wrong block is reported at that close, naming the open block and its line', () => {
    const { error, text } = renderError('Intro\n\n\n{{#each examples}}\n{{> ex this}}\n{{/if}}\n');
    expect(error).toMatchObject({ code: 'render/syntax', file: 'prompts/p.prompt', ...pos(text, '{{/if}}') });
    expect(error.message).toBe('`{{/if}}` closes `{{#each examples}}`, opened at line 14; expected `{{/each}}` before it');
  });

  test('a close with no block open is reported at that close', () => {
    const { error, text } = renderError('Intro\nBye {{name}}\n  {{/if}}\n');
    expect(error).toMatchObject({ code: 'render/syntax', ...pos(text, '{{/if}}') });
    expect(error.message).toBe('Unexpected `{{/if}}`: no block is open here; expected a `{{#if ...}}` before it, or remove it');
  });

  test('`}}}` after a `{{` is reported at the braces, with what to write instead', () => {
    const { error, text } = renderError('Intro\nData: {"name": {{json name}}}\n');
    expect(error).toMatchObject({ code: 'render/syntax', ...pos(text, '}}}') });
    expect(error.line).toBe(12);
    expect(error.message).toBe('Unexpected `}}}` closing `{{json name}}`: a third `}` ends a triple-stash `{{{...}}}`; expected `}}` (for a literal `}` after the value, put a space before the brace: `{{json name~}} }`, where `~` removes that space)');
    expect(error.message).not.toMatch(/CLOSE_UNESCAPED|Expecting/);
    // The suggested fix renders the brace right after the value.
    const fixed = scratch({ ...base, 'prompts/p.prompt': `${frontmatter}\nData: {"name": {{json name~}} }\n` });
    expect(renderCase(loadPromptModule('prompts', fixed), 'p', 'one', registry).text).toBe('Data: {"name": "Ana"}');
  });

  test('an unterminated `{{` is reported where it starts', () => {
    const atEnd = renderError('Intro\nHello {{name\nBye\n');
    expect(atEnd.error).toMatchObject({ code: 'render/syntax', ...pos(atEnd.text, '{{name') });
    expect(atEnd.error.message).toBe('Unterminated `{{name`: expected `}}` to close it before the end of the file');
    const beforeNext = renderError('Hello {{name\nBye {{name}}\n');
    expect(beforeNext.error).toMatchObject({ code: 'render/syntax', ...pos(beforeNext.text, '{{name') });
    expect(beforeNext.error.message).toBe(`Unterminated \`{{name\`: expected \`}}\` to close it before the next \`{{\` at line ${pos(beforeNext.text, 'Bye').line}`);
  });

  test('a partial tag without a name', () => {
    const { error, text } = renderError('Intro\n{{> }}\n');
    expect(error).toMatchObject({ code: 'render/syntax', line: pos(text, '{{>').line, column: pos(text, '{{>').column + 4 });
    expect(error.message).toBe('Expected a partial name after `{{>` in `{{> }}`: the name of a `_name.prompt` file, as in `{{> tool_call_json this}}`');
  });

  test('an empty `{{}}`, a `{{{` closed by `}}`, an `{{else}}` outside a block, an unclosed comment', () => {
    const empty = renderError('Intro {{}}\n');
    expect(empty.error).toMatchObject({ code: 'render/syntax', ...pos(empty.text, '{{}}') });
    expect(empty.error.message).toBe('Empty `{{}}`: expected a variable or helper name between the braces');
    const triple = renderError('Intro {{{name}} and more\n');
    expect(triple.error).toMatchObject({ code: 'render/syntax', ...pos(triple.text, '}} and') });
    expect(triple.error.message).toMatch(/^Unclosed triple-stash `\{\{\{name\}\}`: `\{\{\{` ends with `\}\}\}`; expected `\}\}\}` here/);
    const orphan = renderError('Intro\n{{else}}\n');
    expect(orphan.error).toMatchObject({ code: 'render/syntax', ...pos(orphan.text, '{{else}}') });
    expect(orphan.error.message).toMatch(/^Unexpected `\{\{else\}\}` outside a block; expected it between a block's opening and closing tags/);
    const comment = renderError('Intro\n  {{!-- a note that never ends\nBye\n');
    expect(comment.error).toMatchObject({ code: 'render/syntax', ...pos(comment.text, '{{!--') });
    expect(comment.error.message).toBe('Unclosed comment `{{!--`: expected `--}}` to end it before the end of the file');
  });

  test('a generic parse error names the token and what was expected in words', () => {
    const { error, text } = renderError('Intro {{json name indent=}}\n');
    expect(error).toMatchObject({ code: 'render/syntax', ...pos(text, '}}') });
    expect(error.message).toBe('Unexpected `}}` in `{{json name indent=}}`; expected a value (a name, a string, a number, `true`, `false`, `null`, an `@` variable or a `(helper ...)`)');
  });

  test('a syntax error in a partial is at its line in the partial file, after its own frontmatter', () => {
    const partial = '---\ndescription: one example\n---\nCall:\n{{#if call}}\n{{json call}}\n';
    const root = scratch({ ...base, 'prompts/p.prompt': `${frontmatter}\n{{#each examples}}{{> ex this}}{{/each}}\n`, 'prompts/_ex.prompt': partial });
    const error = thrown(() => loadPromptModule('prompts', root) && renderCase(loadPromptModule('prompts', root), 'p', 'one', registry));
    expect(error).toMatchObject({ code: 'render/syntax', file: 'prompts/_ex.prompt', line: 5, column: 1 });
    expect(error.message).toBe('Unclosed `{{#if call}}` opened here; expected `{{/if}}` before the end of the file');
  });
});

describe('helpers: checked when the template is read, not only in branches a case runs', () => {
  test('an unknown helper in a branch no case takes', () => {
    const { error, text } = renderError('Intro\n{{#if flag}}\n  {{jsno customer}}\n{{/if}}\n');
    expect(error).toMatchObject({ code: 'render/unknown-helper', file: 'prompts/p.prompt', line: 13, column: pos(text, 'jsno').column });
    expect(error.message).toBe('Unknown helper `jsno` in `{{jsno customer}}`: a name followed by arguments calls a helper; expected one of `each`, `history`, `if`, `ifEquals`, `json`, `log`, `lookup`, `media`, `role`, `section`, `unless`, `unlessEquals`, `with` (to print `jsno`, write `{{jsno}}` without arguments); did you mean `json`?');
  });

  test('a value called like a helper', () => {
    const { error, text } = renderError('Hi {{customer.name locale}}\n');
    expect(error).toMatchObject({ code: 'render/unknown-helper', ...pos(text, 'customer.name') });
    expect(error.message).toMatch(/^Unknown helper `customer\.name` in `\{\{customer\.name locale\}\}`/);
  });

  test('a helper without its argument', () => {
    const { error, text } = renderError('Intro\n{{#each}}\n{{/each}}\n');
    expect(error).toMatchObject({ code: 'render/syntax', line: 12, column: pos(text, 'each}}').column });
    expect(error.message).toBe('The helper `each` takes one argument, got 0 in `{{#each}}`; expected `{{#each examples}}`');
  });

  test('a partial given two contexts', () => {
    const { error, text } = renderError('{{#each examples}}{{> ex this name}}{{/each}}\n');
    expect(error).toMatchObject({ code: 'render/syntax', ...pos(text, 'name}}') });
    expect(error.message).toBe('`{{> ex this name}}` passes 2 contexts to a partial, which takes one; expected `{{> name context}}`, with more values as `key=value` pairs');
  });
});

describe('render-time errors: at the template line', () => {
  test('a field read from a string', () => {
    const { error, text } = renderError('Intro\nHi {{name.first}}\n');
    expect(error).toMatchObject({ code: 'render/missing-variable', ...pos(text, 'name.first') });
    expect(error.message).toMatch(/^Missing template variable `first`: it is read from the string "Ana", which has no fields; expected a mapping with `first` in the case/);
  });

  test('a computed partial name that finds no partial is placed at the `{{> (...)}}` that computed it', () => {
    const { error, text } = renderError('Intro\n\n{{#if name}}\n  {{> (lookup . "kind")}}\n{{/if}}\n');
    expect(error).toMatchObject({ code: 'render/unknown-partial', file: 'prompts/p.prompt', ...pos(text, '{{> (lookup') });
    expect(error.message).toMatch(/^Unknown partial: a computed partial name \(`\{\{> \(\.\.\.\)\}\}`\) came out `undefined`, expected the name of one of/);
  });

  test('an unknown partial in a prompt whose case data holds marker code points', () => {
    const files = { 'prompts/cases/p.yaml': 'prompt: p\ncases:\n  one:\n    input: { name: "\\uE001" }\n' };
    const { error, text } = renderError('Intro\n\n  {{> nope}}\n', files);
    expect(error).toMatchObject({ code: 'render/unknown-partial', file: 'prompts/p.prompt', ...pos(text, '{{> nope') });
  });
});

describe('unknown names: at the place the name is written', () => {
  const module = (): PromptModule => loadPromptModule('prompts', scratch({ ...base, 'prompts/p.prompt': `${frontmatter}\nHi {{name}}\n` }));

  test('a case file naming an unknown prompt points at the name', () => {
    const root = scratch({ ...base, 'prompts/p.prompt': `${frontmatter}\nHi\n`, 'prompts/cases/p.yaml': '# cases\nprompt:   q\ncases:\n  one:\n    input: {}\n' });
    const error = thrown(() => loadPromptModule('prompts', root));
    expect(error).toMatchObject({ code: 'render/unknown-prompt', file: 'prompts/cases/p.yaml', line: 2, column: 11 });
    expect(error.message).toBe('Unknown prompt `q`, expected one of `p` (the `.prompt` files in `prompts`); did you mean `p`?');
  });

  test('renderCase with an unknown prompt names the line of the call', () => {
    const m = module();
    const error = thrown(() => renderCase(m, 'nope', 'one', registry)); // the call
    expect(error.code).toBe('render/unknown-prompt');
    expect(error.file).toBe('test/render/errors.test.ts');
    const source = (new Error().stack ?? '').split('\n')[1] ?? '';
    const here = Number(/:(\d+):\d+\)?$/.exec(source)?.[1]);
    expect(error.line).toBe(here - 3);
    expect(error.column).toBeGreaterThan(1);
    expect(error.message).toMatch(/^Unknown prompt `nope`, expected one of `p` \(the `\.prompt` files in `[^`]*prompts`\)$/);
  });

  test('renderCase with an unknown case names the line of the call and the cases file', () => {
    const m = module();
    const error = thrown(() => renderCase(m, 'p', 'onee', registry)); // the call
    expect(error).toMatchObject({ code: 'render/unknown-case', file: 'test/render/errors.test.ts' });
    expect(error.line).toBeGreaterThan(1);
    expect(error.message).toBe('Unknown case `onee` for prompt `p`, expected one of `one` (in prompts/cases/p.yaml); did you mean `one`?');
  });

  test('an examples partial that does not exist points at its name in the frontmatter', () => {
    const text = `${frontmatter.replace('partial: ex', 'partial: exx')}\nHi\n`;
    const root = scratch({ ...base, 'prompts/p.prompt': text });
    const error = thrown(() => renderDataItems(loadPromptModule('prompts', root), 'p', registry));
    expect(error).toMatchObject({ code: 'render/unknown-partial', file: 'prompts/p.prompt', ...pos(text, 'exx') });
    expect(error.message).toBe('Unknown partial `exx`, expected one of `ex` (a partial is a file named _exx.prompt); did you mean `ex`?');
  });
});

describe('frontmatter', () => {
  test('a YAML error in the frontmatter is at its line and column in the .prompt file', () => {
    const text = '---\ndescription: x\ntools: [lookup_order,\ninput: {}\n---\nHi\n';
    const root = scratch({ ...base, 'prompts/p.prompt': text });
    const error = thrown(() => loadPromptModule('prompts', root));
    expect(error).toMatchObject({ code: 'config/yaml-syntax', file: 'prompts/p.prompt' });
    expect(error.line).toBeGreaterThanOrEqual(3);
    expect(error.line).toBeLessThanOrEqual(4);
    expect(error.message).toMatch(/^YAML syntax error in the frontmatter: /);
  });

  test('"end of the stream" is told as the closing `---`', () => {
    const text = '---\ndescription: x\ntools: [lookup_order\n---\nHi\n';
    const root = scratch({ ...base, 'prompts/p.prompt': text });
    const error = thrown(() => loadPromptModule('prompts', root));
    expect(error).toMatchObject({ code: 'config/yaml-syntax', file: 'prompts/p.prompt', line: 3 });
    expect(error.message).toContain('the closing `---` on line 4');
  });
});

test("the helper names a template may call without a finding include each of Handlebars' own", async () => {
  const { default: Handlebars } = await import('handlebars');
  const { builtInHelpers, knownHelpers } = await import('../../src/render/template-errors.js');
  // Written out so that loading the checks does not load Handlebars: a new Handlebars helper must be added there.
  expect([...builtInHelpers].sort()).toEqual(Object.keys(Handlebars.create().helpers).sort());
  for (const name of builtInHelpers) expect(knownHelpers.has(name)).toBe(true);
});

describe('partials that include each other', () => {
  test('with nothing to stop them: the include that closes the loop, and the chain, instead of a stack overflow', () => {
    const files = { 'prompts/_a.prompt': 'A\n{{> b}}\n', 'prompts/_b.prompt': 'B\nthen\n{{> a}}\n' };
    const { error } = renderError('Start {{> a}}\n', files);
    expect(error).toMatchObject({ code: 'render/failed', file: 'prompts/_b.prompt', line: 3, column: 1 });
    expect(error.message).toBe('Template failed to render: partials include each other without end (`a` includes `b` includes `a`), expected an `{{#if}}` or `{{#each}}` around the include that stops it');
  });

  test('a partial that includes itself for each child renders a tree as deep as its data', () => {
    const files = { 'prompts/_node.prompt': '{{name}}({{#each children}}{{> node this}}{{/each}})' };
    const root = scratch({
      ...base,
      ...files,
      'prompts/p.prompt': `${frontmatter}\n{{> node tree}}\n`,
      'prompts/cases/p.yaml': 'prompt: p\ncases:\n  one:\n    input: { name: Ana, tree: { name: r, children: [{ name: x, children: [{ name: y, children: [] }] }] } }\n',
    });
    expect(renderCase(loadPromptModule('prompts', root), 'p', 'one', registry).text).toContain('r(x(y()))');
  });
});

describe('an examples file that holds no `examples:` list', () => {
  const load = (examples: string) => thrown(() => loadPromptModule('prompts', scratch({ ...base, 'prompts/p.prompt': `${frontmatter}\nHi\n`, 'prompts/examples.yaml': examples })));

  test('a misspelt key is named, with the key it should be, at its line: the prompt does not quietly lose its examples', () => {
    const error = load('# examples for p\nexemples:\n  - call: { name: lookup_order, arguments: { order_id: A-0001 } }\n');
    expect(error).toMatchObject({ code: 'config/invalid', line: 2, column: 1 });
    expect(error.file).toMatch(/prompts\/examples\.yaml$/);
    expect(error.message).toBe('Missing `examples` in the examples file, expected the list of examples under it; found `exemples`; did you mean `examples` for `exemples`?');
  });

  test('a list at the top, or a scalar, is refused; `examples:` with nothing under it holds none', () => {
    expect(load('- call: { name: lookup_order, arguments: { order_id: A-0001 } }\n').message).toBe('Unexpected list at the top of the examples file, expected a mapping with the list under `examples:`');
    expect(load('just text\n').message).toContain('Unexpected "just text" as the examples file');
    const root = scratch({ ...base, 'prompts/p.prompt': `${frontmatter}\nHi\n`, 'prompts/examples.yaml': 'examples:\n' });
    expect(loadPromptModule('prompts', root).prompts.get('p')!.examples!.items).toEqual([]);
  });
});

test('frontmatter left open is named at its `---`, instead of the file rendering as a template without tools or cases', () => {
  const error = thrown(() => loadPromptModule('prompts', scratch({ ...base, 'prompts/p.prompt': '---\ndescription: A prompt\ntools: [lookup_order]\n\nHi {{name}}\n' })));
  expect(error).toMatchObject({ code: 'config/yaml-syntax', line: 1, column: 1, message: 'Unclosed frontmatter: the `---` on line 1 opens it, expected a line of `---` after its last key' });
  expect(error.file).toMatch(/p\.prompt$/);
  // A body that starts with a rule and prose is a body.
  const root = scratch({ 'prompts/p.prompt': '---\nHello there.\n' });
  expect(loadPromptModule('prompts', root).prompts.get('p')!.source.body).toBe('---\nHello there.\n');
});

describe('a template too large to compile', () => {
  test('more expressions than Handlebars can compile in bounded memory is refused at the first one over, before compiling', async () => {
    const { parseTemplate } = await import('../../src/render/handlebars.js');
    const { MAX_TEMPLATE_EXPRESSIONS } = await import('../../src/render/template-errors.js');
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i} {{#if ok}}x{{/if}}`).join('\n');
    expect(() => parseTemplate({ file: 'prompts/big.prompt', body: lines(MAX_TEMPLATE_EXPRESSIONS), bodyLine: 3 })).not.toThrow();
    const error = thrown(() => parseTemplate({ file: 'prompts/big.prompt', body: lines(MAX_TEMPLATE_EXPRESSIONS + 1), bodyLine: 3 }));
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'render/template-too-large', file: 'prompts/big.prompt', line: MAX_TEMPLATE_EXPRESSIONS + 3, column: 12 });
    expect((error as InputError).message).toContain('Unexpected template of more than 10,000 expressions');
  });
});

describe('case names: each names a snapshot file every checkout must hold', () => {
  test.each([
    ['a line break', 'first\nsecond', /it holds a control character/],
    ['a tab', 'a\tb', /it holds a control character/],
    ['a colon', 'edge:empty', /a character Windows does not allow in a file name/],
    ['a device name', 'COM1', /a name Windows reserves for a device/],
    ['a device name with an extension', 'nul.txt', /a name Windows reserves for a device/],
    ['a right-to-left override', 'invoice\u202Etxt.exe', /a bidirectional control character/],
    ['a trailing dot', 'final.', /ends in a space or a dot/],
    ['300 characters', 'x'.repeat(300), /it is 300 bytes long, past the 200/],
  ])('%s is refused at the case, before any snapshot is written', (_what, name, why) => {
    const root = scratch({ 'prompts/p.prompt': 'Hi\n', 'prompts/cases/p.yaml': `prompt: p\ncases:\n  ok: { input: {} }\n  ${JSON.stringify(name)}: { input: {} }\n` });
    const error = thrown(() => loadPromptModule('prompts', root));
    expect(error).toMatchObject({ code: 'config/invalid', line: 4, column: 3 });
    expect(error.message).toMatch(why);
    expect(error.message).toContain('expected a name of at most 200 bytes without control characters');
  });

  test('two names that differ only in case are one file on macOS and Windows: the second is refused', () => {
    const root = scratch({ 'prompts/p.prompt': 'Hi\n', 'prompts/cases/p.yaml': 'prompt: p\ncases:\n  Refund: { input: {} }\n  refund: { input: {} }\n' });
    const error = thrown(() => loadPromptModule('prompts', root));
    expect(error).toMatchObject({ code: 'config/duplicate', line: 4 });
    expect(error.message).toContain('Unexpected case `refund` beside `Refund` for prompt `p`: their snapshot files differ only in case');
  });

  test('names of letters, digits, spaces, dashes, dots and other scripts are fine', () => {
    const root = scratch({ 'prompts/p.prompt': 'Hi\n', 'prompts/cases/p.yaml': 'prompt: p\ncases:\n  legacy order v1.2: { input: {} }\n  ação-rápida: { input: {} }\n  注文_取消: { input: {} }\n  .hidden: { input: {} }\n' });
    expect([...loadPromptModule('prompts', root).prompts.get('p')!.cases.keys()]).toEqual(['legacy order v1.2', 'ação-rápida', '注文_取消', '.hidden']);
  });
});
