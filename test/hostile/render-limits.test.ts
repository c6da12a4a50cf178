import { afterEach, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderDotprompt } from '../../src/render/dotprompt.js';
import { PromptEnvironment } from '../../src/render/handlebars.js';
import { InputError } from '../../src/util/errors.js';
import { cliInProcess } from '../cli/helpers.js';
import { scratchProject, type Scratch } from './render-project.js';

// Issue 25: a 1.5 KB cases file with `{{#each}}` nested three deep over a 400-item list made
// 64 million characters (2 GB) before anything looked at the size. And `../../a` above the
// outermost context said "Cannot read properties of undefined (reading 'a')", with no place.

let project: Scratch | undefined;
afterEach(() => project?.remove());

const bomb = '{{#each items}}\n{{#each @root.items}}\n{{#each @root.items}}{{this}} {{/each}}\n{{/each}}\n{{/each}}\n';
const items = Array.from({ length: 400 }, (_, i) => `item-${i}`);

/** Sets keys of the project's JSON config. */
function configure(p: Scratch, keys: Record<string, unknown>): void {
  const file = join(p.dir, 'prompt-contract.config.json');
  p.write('prompt-contract.config.json', JSON.stringify({ ...(JSON.parse(readFileSync(file, 'utf8')) as object), ...keys }));
}

function thrown(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('a render past its size limit', () => {
  test('stops early with `render/too-large` at the block that passed it, exit 2 (the default limit)', async () => {
    const cases = `prompt: bomb\ncases:\n  big:\n    input:\n      items: [${items.join(', ')}]\n`;
    expect(cases.length).toBeLessThan(6000);
    project = scratchProject({ 'prompts/bomb.prompt': `---\ndescription: three loops\n---\nIntro\n${bomb}`, 'prompts/cases/bomb.yaml': cases });
    const started = Date.now();
    const result = await project.check();
    // Stopped near the limit, not after building the whole text.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.code).toBe(2);
    // The innermost loop is the block that passes the limit: line 3 of the body, line 7 of the file.
    expect(result.stderr).toContain('prompts/bomb.prompt:7:1: Unexpected rendered text over 4194304 bytes: this block makes more text');
    expect(result.stderr).toContain('(render/too-large)');
  }, 30_000);

  test('`maxRenderedBytes` in the config sets the limit', async () => {
    project = scratchProject({ 'prompts/loop.prompt': 'Start\n{{#each items}}{{this}}\n{{/each}}', 'prompts/cases/loop.yaml': `prompt: loop\ncases:\n  many:\n    input:\n      items: [${items.slice(0, 100).join(', ')}]\n` });
    configure(project, { maxRenderedBytes: 200 });
    const result = await project.check();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('prompts/loop.prompt:2:1: Unexpected rendered text over 200 bytes');
    // `render` prints what `check` checks, under the same limit.
    const rendered = await cliInProcess(['render', 'loop', '--case', 'many'], { cwd: project.dir });
    expect(rendered.code).toBe(2);
    expect(rendered.stderr).toContain('prompts/loop.prompt:2:1: Unexpected rendered text over 200 bytes');
    configure(project, { maxRenderedBytes: 'big' });
    expect((await project.check()).stderr).toContain('Expected `maxRenderedBytes` to be a whole number of bytes, at least 1, got "big"');
  });

  test('a partial that includes another twice, ten deep, is stopped too', () => {
    const partials = new Map(Array.from({ length: 12 }, (_, i) => [`p${i}`, { file: `_p${i}.prompt`, body: i === 11 ? 'x'.repeat(100) : `{{> p${i + 1}}}{{> p${i + 1}}}`, bodyLine: 1 }]));
    const env = new PromptEnvironment(partials, new WeakMap());
    const error = thrown(() => env.render({ file: 't.prompt', body: '{{> p0}}', bodyLine: 1 }, {}, {}, { maxRenderedBytes: 10_000 }));
    expect(error.code).toBe('render/too-large');
  });

  test('`renderDotprompt` (the dotprompt API) is bounded too', () => {
    const source = `---\ninput:\n  default:\n    items: [${items.join(', ')}]\n---\n${bomb}`;
    const started = Date.now();
    expect(() => renderDotprompt(source)).toThrow(expect.objectContaining({ code: 'render/too-large', message: expect.stringContaining('over 4194304 bytes') }) as unknown as Error);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(renderDotprompt(source.replace(/items: \[.*\]/, 'items: [a, b]'), {}, { maxRenderedBytes: 100 }).messages[0]!.content[0]).toEqual({ text: 'a b \na b \na b \na b \n' });
  }, 30_000);

  test('a render under the limit is unchanged', () => {
    const env = new PromptEnvironment(new Map(), new WeakMap());
    const text = env.render({ file: 't.prompt', body: bomb, bodyLine: 1 }, { items: ['a', 'b'] }, {}, { maxRenderedBytes: 1000 }).text;
    expect(text).toBe('a b \na b \na b \na b \n');
  });

  test('text outside any block past the limit is caught at the end, at the template', () => {
    const env = new PromptEnvironment(new Map(), new WeakMap());
    const error = thrown(() => env.render({ file: 't.prompt', body: '{{a}}{{a}}{{a}}', bodyLine: 7 }, { a: 'é'.repeat(40) }, {}, { maxRenderedBytes: 200 }));
    // At the template's first line (after its frontmatter): a place an editor opens.
    expect(error).toMatchObject({ code: 'render/too-large', file: 't.prompt', line: 7 });
    expect(error.message).toContain('the template makes more text');
  });
});

describe('a `../` path above the outermost context', () => {
  const env = new PromptEnvironment(new Map(), new WeakMap());
  test.each([
    ['{{#with x}}\n  {{#if ../../a}}y{{/if}}\n{{/with}}', 2, 9],
    ['{{#with x}}\n{{json ../../a}}\n{{/with}}', 2, 8],
    ['{{#with x}}\n  {{../../a}}\n{{/with}}', 2, 5],
  ])('%j names the path and its place', (body, line, column) => {
    const error = thrown(() => env.render({ file: 't.prompt', body, bodyLine: 3 }, { x: { b: 1 }, a: 1 }));
    expect(error.message).not.toContain('Cannot read properties');
    expect(error).toMatchObject({ file: 't.prompt', line: line + 2, column });
    expect(error.message).toMatch(/^Unexpected path `\.\.\/\.\.\/a`: its 2 `\.\.\/` climb above the outermost context/);
  });
});

