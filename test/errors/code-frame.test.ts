import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeFrame, codeFrameFor } from '../../src/util/code-frame.js';
import { InputError } from '../../src/util/errors.js';

const text = ['---', 'description: x', '---', 'Intro', 'Data: {{json name}}}', 'Bye', 'End'].join('\n');

describe('codeFrame', () => {
  test('two lines of context, the line marked, a caret under the column', () => {
    expect(codeFrame(text, 5, 20)).toBe([
      '  3 | ---',
      '  4 | Intro',
      '> 5 | Data: {{json name}}}',
      '    |                    ^',
      '  6 | Bye',
      '  7 | End',
    ].join('\n'));
  });

  test('context is an option; line numbers are right-aligned; no column, no caret', () => {
    const long = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(codeFrame(long, 10, undefined, { context: 1 })).toBe(['   9 | line 9', '> 10 | line 10', '  11 | line 11'].join('\n'));
    expect(codeFrame(long, 1, 1, { context: 0 })).toBe(['> 1 | line 1', '    | ^'].join('\n'));
  });

  test('tabs stay tabs under the line, so the caret lines up in any tab width', () => {
    expect(codeFrame('\tx = {{y}', 1, 7, { context: 0 })).toBe(['> 1 | \tx = {{y}', '    | \t     ^'].join('\n'));
  });

  test('CRLF and lone CR end lines; control characters cannot reach the terminal', () => {
    expect(codeFrame('a\r\nb\rc\x1b[31md', 3, 2, { context: 0 })).toBe(['> 3 | c\uFFFD[31md', '    |  ^'].join('\n'));
  });

  test('a line outside the text gives an empty frame', () => {
    expect(codeFrame(text, 0)).toBe('');
    expect(codeFrame(text, 99, 1)).toBe('');
  });

  test('a very long line shows a window around the column', () => {
    const line = `${'a'.repeat(500)}X${'b'.repeat(500)}`;
    const frame = codeFrame(line, 1, 501).split('\n');
    expect(frame[0]!.length).toBeLessThan(200);
    expect(frame[0]).toContain('…');
    // The caret sits under the X.
    expect(frame[0]![frame[1]!.indexOf('^')]).toBe('X');
  });
});

describe('codeFrameFor', () => {
  const dir = mkdtempSync(join(tmpdir(), 'prompt-contract-frame-'));
  mkdirSync(join(dir, 'prompts'));
  writeFileSync(join(dir, 'prompts', 'p.prompt'), text);

  test('reads the file of the error and frames its line and column', () => {
    const error = new InputError('render/syntax', 'Unexpected `}}}`', { file: 'prompts/p.prompt', line: 5, column: 20 });
    expect(codeFrameFor(error, { cwd: dir })).toBe(codeFrame(text, 5, 20));
    expect(codeFrameFor(error, { cwd: dir, context: 0 })).toBe(['> 5 | Data: {{json name}}}', '    |                    ^'].join('\n'));
  });

  test("an error re-thrown without a place is framed at its cause's place", () => {
    const cause = new InputError('render/syntax', 'x', { file: 'prompts/p.prompt', line: 4 });
    const wrapped = new InputError(cause.code, cause.format(), {}, { cause });
    expect(codeFrameFor(wrapped, { cwd: dir, context: 0 })).toBe('> 4 | Intro');
  });

  test('no frame without a file and line, for a missing file, a directory, or a file over 4 MiB', () => {
    expect(codeFrameFor(new InputError('usage', 'x'), { cwd: dir })).toBeUndefined();
    expect(codeFrameFor(new InputError('usage', 'x', { file: 'prompts/p.prompt' }), { cwd: dir })).toBeUndefined();
    expect(codeFrameFor(new InputError('usage', 'x', { file: 'missing.prompt', line: 1 }), { cwd: dir })).toBeUndefined();
    expect(codeFrameFor(new InputError('usage', 'x', { file: 'prompts', line: 1 }), { cwd: dir })).toBeUndefined();
    writeFileSync(join(dir, 'big.txt'), 'x'.repeat(4 * 1024 * 1024 + 1));
    expect(codeFrameFor(new InputError('usage', 'x', { file: 'big.txt', line: 1 }), { cwd: dir })).toBeUndefined();
  });
});
