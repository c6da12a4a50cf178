import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { scanBlocks } from '../../src/extract/blocks.js';
import { extractToolCalls } from '../../src/extract/index.js';
import { blockStructure, scannedStructure, type Structure } from '../../src/extract/markdown.js';
import { fixtures } from './helpers.js';
import { runs } from '../helpers/runs.js';

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

  // Prompt authors let lists and quotes run straight into the next block. CommonMark: a lazy line
  // continues a paragraph only as paragraph text; a line that starts a block closes the
  // containers it does not continue. The scanner reads all of these itself.
  test.each([
    // Lists and quotes into ATX headings.
    ['- be kind\n## Details'],
    ['- be kind\n- be brief\n## Details\n```json\n{"name": "a", "arguments": {}}\n```'],
    ['> note\n# Heading\n> again'],
    ['1. a\n   b\n### c\n  - d\n#### e'],
    // Into fences (backtick and tilde, in and out of containers).
    ['> note\n```json\n{"name": "a", "arguments": {}}\n```'],
    ['> note\n~~~tool_call\n> x\n~~~'],
    ['- a\n```\nx\n```\n- b'],
    ['1. a\n2. b\n```tool_call\n{"name": "a", "arguments": {}}\n```'],
    ['> - a\n> b\n> ```json\n> {"x": 1}\n> ```\n## Notes\nc'],
    ['- a\n  - b\n  ```\n  x\n  ```\n- c'],
    ['* a\n  b\nlazy\n```json\n{}\n```'],
    ['> a\n```b`\nc'],
    // Into thematic breaks, and underline-like lines that are lazy paragraph text.
    ['> a\n---\n> b'],
    ['- a\n***\n- b'],
    ['- a\n---'],
    ['- a\n- - -'],
    ['> a\n==='],
    ['> a\n--\n> b'],
    ['- a\n===\n---'],
    ['a\n---\n- b\n==='],
    ['[a]: /b\n---\n```\nx\n```'],
    // Into HTML blocks: types 1-6 close the containers; type 7 interrupts a lazy paragraph
    // but stays inside them.
    ['> a\n<div>\nb\n\n```\nc\n```'],
    ['> a\n<!-- c -->\n> b'],
    ['- a\n<pre>\n```\n</pre>\n```\nx\n```'],
    ['> a\n<x>\n> b\n\n> ```\n> c'],
    ['> a\n<x>\nb'],
    ['> a\n<x>'],
    ['- a\n<x y="1">\n- b'],
    ['> > a\n> <x>\n> > b'],
    // Lazy lines: paragraph text, indented text, and indented code where no paragraph is open.
    ['> a\nb\n# c'],
    ['> a\n    b\n```\nc\n```'],
    ['> # a\n    b\n> - c'],
    ['> # a\n    b\n> 2. c'],
    ['- a\n-\n- b'],
    ['> a\n-\n```'],
    ['> a\n- b\n```\nc'],
    // Where a quote ends when a new container, a sibling item or the end of the text closes it.
    ['> > a\n> - b'],
    ['> > a\n>   - b\n```\nx'],
    ['- > a\n- b'],
    ['- > a\n  - b'],
    ['> - > a\n> - b'],
    ['1. > ~~~\n \t-\r'],
    ['> > q\n>'],
    ['- > q\n '],
    ['2) >\n '],
  ])('reads %j itself, as remark does', (text) => {
    expect(scanBlocks(text)).toBeDefined();
    sameStructure(text);
    sameStructure(text.replace(/\n/g, '\r\n'));
  });

  test.each([
    // An underline under what may be only link reference definitions: the parser tells. The
    // scanner stops; micromark parses the region around it, and the scanner resumes after it.
    ['[a]: /b\n==='],
    ['- x\n\n[a]: /b\n===\n\n> ```json\n> {"name": "a", "arguments": {}}\n> ```'],
    ['# h\n[a]: /b\n[c]: /d\n-\n```\nx\n```\n\n- a\n```json\n{}\n```'],
    ['    code\n\n[a]: /b\n==\n\n2) x\n\n```\ny\n```'],
    ['> x\n\n[a]: /b\n-\n```\ny\n```\n\nz'],
  ])('falls back on %j one region at a time, as remark does', (text) => {
    expect(scanBlocks(text)).toBeUndefined();
    sameStructure(text);
    sameStructure(text.replace(/\n/g, '\r\n'));
  });

  test('a fallback region ends where micromark has nothing open, wherever the scanner stops', () => {
    // Make the scanner stop at each line in turn: the regions micromark then parses, and the
    // scan after each, must give what the full parse gives.
    const text = realisticPrompt(2) + ['> a\n<x>\n> b', '- be kind\n## Details', '    code\n\n2) x', '- ```\n  a\n\n- b', '<pre>\n\nx\n</pre>\ny'].join('\n\n');
    const full = comparable(text, blockStructure(text, 'full'));
    for (let at = 0; at <= text.length; at = text.indexOf('\n', at) + 1 || text.length + 1) {
      expect(comparable(text, scannedStructure(text, [at]))).toEqual(full);
    }
  });

  test('nested lists and quotes around fences, tabs, CRLF, HTML, setext and lazy lines', () => {
    fc.assert(fc.property(blockDocs, (text) => sameStructure(text)), { numRuns: runs(600) });
  });

  test('a byte order mark in front: both modes read the blocks remark reads without it, at the same offsets', () => {
    // micromark drops the mark; the fast scanner saw it as text, so a fence or heading on line 1 was read differently.
    for (const text of ['```json\n{"name": "f", "arguments": {"x": 1}}\n```\n', '# T\n```json\n{"name": "f", "arguments": {"x": 1}}\n```\n', '> ```json\n> {"name": "f", "arguments": {"x": 1}}\n> ```\n']) {
      const marked = `\uFEFF${text}`;
      sameStructure(marked);
      const plain = extractToolCalls(text).examples;
      const read = extractToolCalls(marked).examples;
      expect(read.map((e) => e.notation)).toEqual(plain.map((e) => e.notation));
      expect(read.map((e) => [e.name, e.line, e.range.start])).toEqual(plain.map((e) => [e.name, e.line, e.range.start + 1]));
    }
    fc.assert(fc.property(blockDocs, (text) => sameStructure(`\uFEFF${text}`)), { numRuns: runs(300) });
  });

  test('falls back rarely on those documents', () => {
    // Not a timing assertion: the scanner must read nearly every document itself, or the fast
    // path is not one. What it leaves to the parser is an underline under possible definitions.
    const samples = fc.sample(blockDocs, { numRuns: runs(2000), seed: 42 });
    const declined = samples.filter((t) => scanBlocks(t) === undefined);
    expect(declined.length).toBeLessThan(samples.length * 0.02);
    for (const t of declined) expect(t).toMatch(/\[/);
  });

  test('with forced stops, the regions and the scan around them agree with remark', () => {
    const withStops = fc.tuple(blockDocs, fc.array(fc.nat(), { maxLength: 3 })).map(([t, ns]) => ({ text: t, stops: ns.map((n) => n % (t.length + 1)).sort((a, b) => a - b) }));
    fc.assert(
      fc.property(withStops, ({ text, stops }) => {
        expect(comparable(text, scannedStructure(text, stops))).toEqual(comparable(text, blockStructure(text, 'full')));
      }),
      { numRuns: runs(400) },
    );
  });
});
