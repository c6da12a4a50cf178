import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { PromptEnvironment } from '../../src/render/handlebars.js';
import { InputError } from '../../src/util/errors.js';
import { scratchProject, type Scratch } from './render-project.js';

// Issue 25: `{{toString}}` and `{{lookup name "sub"}}` printed Handlebars' "Access has been
// denied to resolve the property ..." lines on the standard error (three a lookup, no file or
// line), and `{{name.constructor.name}}` was reported as "Missing template variable `name`:
// the case does not provide it" though the case gives `name`.

const written: string[] = [];
let spies: Array<{ mockRestore(): void }> = [];
beforeEach(() => {
  written.length = 0;
  const capture = (chunk: unknown): boolean => {
    written.push(String(chunk));
    return true;
  };
  spies = [
    jest.spyOn(process.stderr, 'write').mockImplementation(capture as typeof process.stderr.write),
    jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void written.push(args.join(' '))),
    jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void written.push(args.join(' '))),
    jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void written.push(args.join(' '))),
  ];
});
afterEach(() => {
  for (const spy of spies) spy.mockRestore();
});

const env = new PromptEnvironment(new Map(), new WeakMap());

function thrown(body: string, context: object): InputError {
  try {
    env.render({ file: 't.prompt', body, bodyLine: 3 }, context);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error(`expected ${body} to fail`);
}

describe('a template that reads a member values inherit', () => {
  test.each([
    ['Hello\n{{name.constructor.name}}', 'constructor', 'name.constructor.name', 4, 3],
    ['Hello\n{{#if name.constructor}}x{{/if}}', 'constructor', 'name.constructor', 4, 7],
  ])('%j names the member and its place, and prints nothing', (body, member, path, line, column) => {
    const error = thrown(body, { name: 'Ada', list: [{ a: 1 }] });
    expect(error.message).toContain(`Unexpected \`${member}\` in \`${path}\``);
    expect(error.message).not.toContain('the case does not provide it');
    expect(error).toMatchObject({ file: 't.prompt', line, column });
    expect(written.join('')).toBe('');
  });

  test.each([
    ['{{lookup name "sub"}}', 'sub', 'the string "Ada"'],
    ['{{lookup customer "constructor"}}', 'constructor', 'a mapping'],
    ['{{lookup list "toString"}}', 'toString', 'a list'],
  ])('%j names the member `lookup` was asked for', (body, member, what) => {
    const error = thrown(`Hi\n  ${body}`, { name: 'Ada', customer: { id: 1 }, list: [1] });
    expect(error.message).toBe(
      `Unexpected \`${member}\` read by \`lookup\` from ${what}: it is a member every such value inherits from JavaScript, not data of the case, and templates may not read inherited members; expected the name of a field the case gives`,
    );
    expect(error).toMatchObject({ file: 't.prompt', line: 4, column: 3 });
    expect(written.join('')).toBe('');
  });

  test.each([
    ['Hello\n{{toString}}', 'toString', 3],
    ['Hello\n{{#each list}}{{item.toString}}{{/each}}', 'toString', 17],
  ])('%j is a missing variable at its place that says why, with nothing on the standard error', (body, member, column) => {
    const error = thrown(body, { list: [{ item: { a: 1 } }] });
    expect(error).toMatchObject({ code: 'render/missing-variable', line: 4, column });
    expect(error.message).toMatch(new RegExp(`^Missing template variable \`${member}\`: the case does not provide it, and the member every value inherits from JavaScript under that name is not read in its place`));
    expect(written.join('')).toBe('');
  });

  test('own fields, list lengths and `lookup` of own fields still render', () => {
    const text = env.render({ file: 't.prompt', body: '{{name}} {{list.length}} {{lookup customer "id"}} {{lookup list 0}} {{#if customer.id}}yes{{/if}}', bodyLine: 1 }, { name: 'Ada', list: [7], customer: { id: 3 } }).text;
    expect(text).toBe('Ada 1 3 7 yes');
    expect(written.join('')).toBe('');
  });
});

describe('through the CLI', () => {
  let project: Scratch | undefined;
  afterEach(() => project?.remove());

  test('`check` refuses with the member named, exit 2, and no Handlebars lines', async () => {
    project = scratchProject({ 'prompts/agent.prompt': 'Hello {{lookup name "sub"}}\n', 'prompts/cases/agent.yaml': 'prompt: agent\ncases:\n  basic:\n    input:\n      name: Ada\n' });
    for (const spy of spies) spy.mockRestore();
    spies = [];
    const result = await project.check();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('prompts/agent.prompt:1:7: Unexpected `sub` read by `lookup` from the string "Ada"');
    expect(result.stderr).not.toContain('Access has been denied');
  });
});
