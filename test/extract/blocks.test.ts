import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { scanBlocks } from '../../src/extract/blocks.js';
import { extractToolCalls } from '../../src/extract/index.js';
import { blockStructure, type Structure } from '../../src/extract/markdown.js';
import { fixtures } from './helpers.js';

/** 1-based line of an offset, counting CR, LF and CRLF as CommonMark does. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] !== '\n')) line++;
  return line;
}

// The extractor reads a quote only as the lines it covers (to blank its `>` markers), so quotes
// compare by first and last line; fences compare field by field.
function comparable(text: string, s: Structure): unknown {
  return { fences: s.fences, quotes: s.quotes.map((q) => [lineOf(text, q.start), lineOf(text, Math.max(q.start, q.end - 1))]).sort() };
}

function sameStructure(text: string): void {
  expect(comparable(text, blockStructure(text, 'fast'))).toEqual(comparable(text, blockStructure(text, 'full')));
  expect(extractToolCalls(text)).toEqual(extractToolCalls(text, { mode: 'full' }));
}

const line = (parts: string[]) => parts.join('');
const newline = fc.constantFrom('\n', '\r\n', '\r', '\n\n', '\n \n', '\n\t\n');
const prefix = fc.array(fc.constantFrom('> ', '>', '>\t', '- ', '* ', '+ ', '1. ', '2) ', '10. ', '-\t', '  ', '   ', '    ', '\t', ' \t', ''), { maxLength: 4 }).map(line);
const body = fc.constantFrom(
  '```', '````', '~~~', '~~~~', '```json', '``` tool_call', '```tool_call', '~~~ json extra', '```a`b', '``` j&amp;son', '``` \\json', '``` Tool_Call',
  '{"name": "a", "arguments": {"x": 1}}', '<tool_call>{"name": "t", "arguments": {}}</tool_call>', '<tool_call>', '</tool_call>',
  '<div>', '</div>', '<x>', '<x y="1">', '<!-- c', '-->', '<pre>', '</pre>', '<?php', '?>', '<![CDATA[', ']]>', '<!DOCTYPE html>',
  '---', '***', '* * *', '___', '===', '-', '=', '# heading', '####### no', 'text', 'more text', '', ' ', '[a]: /b', '\\```',
);
/** Lines of container prefixes and block-ish bodies: nested lists and quotes around fences, HTML, setext and thematic lines, lazy lines. */
const blockDoc = fc.array(fc.tuple(prefix, body, newline), { maxLength: 14 }).map((ls) => ls.map(([p, b, n]) => p + b + n).join(''));
/** The same, sometimes without the last line ending. */
const blockDocs = fc.tuple(blockDoc, fc.boolean()).map(([t, trim]) => (trim ? t.replace(/(?:\r\n|\r|\n)+$/, '') : t));

/** A realistic prompt: prose, lists, quotes, fences with calls in lists and quotes, Hermes tags. */
function realisticPrompt(blocks: number): string {
  const parts: string[] = ['# System\n\nYou are a helpful assistant with *tools*; never invent `arguments`.\n'];
  for (let i = 0; i < blocks; i++) {
    parts.push(`\n## Example ${i}\n\nWhen asked about item_${i}, call **tool_${i % 4}**; see [docs](https://example.com/${i}).\n`);
    parts.push('\n- First point.\n- Second, nested:\n  1. one\n  2. two\n     continued\n- Third.\n');
    parts.push(`\n> A quoted note about ${i}.\n> It continues, with <b>html</b>.\nand a lazy line.\n`);
    if (i % 3 === 0) parts.push(`\n\`\`\`tool_call\n{"name": "tool_${i % 4}", "arguments": {"n": ${i}}}\n\`\`\`\n`);
    else if (i % 3 === 1) parts.push(`\n1. In a list:\n\n   \`\`\`json\n   {"name": "tool_${i % 4}", "arguments": {"q": "a_${i}"}}\n   \`\`\`\n`);
    else parts.push(`\n> Quoted:\n>\n> ~~~json\n> {"name": "tool_${i % 4}", "arguments": {"id": ${i}}}\n> ~~~\n`);
    parts.push(`\n<tool_call>\n{"name": "tool_${i % 4}", "arguments": {"x": "y_${i}"}}\n</tool_call>\n`);
    if (i % 5 === 0) parts.push('\n```python\ndef f(x):\n\treturn x\n```\n\n---\n\nSetext\n======\n\n    indented code\n    ```not a fence\n');
  }
  return parts.join('');
}

describe('block scanner (the fast path) against remark', () => {
  test('agrees on every fixture, and reads each without falling back to the parser', () => {
    for (const fixture of fixtures()) {
      expect(scanBlocks(fixture.input)).toBeDefined();
      sameStructure(fixture.input);
    }
  });

  test('reads a realistic prompt itself, with the same result as remark', () => {
    const text = realisticPrompt(30);
    const scanned = scanBlocks(text);
    expect(scanned).toBeDefined();
    expect(scanned!.fences.length).toBeGreaterThan(30);
    sameStructure(text);
    sameStructure(text.replace(/\n/g, '\r\n'));
  });

  test.each([
    // An unclosed fence: the line ending before the next line belongs to it only when that line opens a container.
    ['- ```\n  a\n\nb'],
    ['- a\n- ```\n  x\n- b'],
    ['- ```\n  x\n> b'],
    ['> ```\n> x\nb'],
    ['> ```\n> a\n>\n'],
    ['> ```\n> x\n>'],
    ['```\na\n\n'],
    ['- ```\n  a\n'],
    ['> - ```\n>   x\n> > b'],
    // Closing fences, lengths, info strings with escapes and references, indented fence bodies.
    ['  ```json\n    {"a": 1}\n  {"b": 2}\n   ```\nafter'],
    ['````\n```\n````'],
    ['~~~ JS&amp;On\n~~~'],
    ['``` a`b\n```'],
    ['-\t```\n\t\tx\n  ```'],
    ['>\t```\n>\t\tx'],
    // Indented code and HTML blocks hide fences; paragraphs and indented code limit what interrupts them.
    ['    ```\n    a\n```b\n```'],
    ['<div>\n```\n</div>\n\n```\nx\n```'],
    ['<!-- a\n```\n-->\n```\nz'],
    ['    a\n\n10. ```\nb'],
    ['a\n10. ```\nb'],
    ['C\r\n> > 10. ~~~x'],
    ['a\n- \n```\nb'],
    ['a\n---\n```\nc\n```'],
    ['a\n=\n- ```'],
    ['[a]: /b\n  -\n10. * -\t>***'],
    ['1.  \n\n\t```\n2) ```\n'],
    ['> \t  \n>2)   >\t```'],
    // Lazy lines, and a text that ends inside container prefixes.
    ['> a\nb\n```\nc'],
    ['> a\n<x>\n```'],
    ['> > a\n>'],
    ['* >x\r\n  '],
  ])('%j', (text) => {
    sameStructure(text);
  });

  test('nested lists and quotes around fences, tabs, CRLF, HTML, setext and lazy lines', () => {
    fc.assert(fc.property(blockDocs, (text) => sameStructure(text)), { numRuns: 600 });
  });

  test('falls back rarely on those documents', () => {
    // Not a timing assertion: the scanner must read most documents itself, or the fast path is not one.
    const samples = fc.sample(blockDocs, { numRuns: 500, seed: 42 });
    const declined = samples.filter((t) => scanBlocks(t) === undefined).length;
    expect(declined).toBeLessThan(samples.length * 0.5);
  });
});
