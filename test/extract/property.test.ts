import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { scanBlocks } from '../../src/extract/blocks.js';
import { extractToolCalls } from '../../src/extract/index.js';
import { blockStructure, type Structure } from '../../src/extract/markdown.js';
import { fixtures } from './helpers.js';
import { runs } from '../helpers/runs.js';

function sameInBothModes(text: string): void {
  const fast = extractToolCalls(text);
  const full = extractToolCalls(text, { mode: 'full' });
  expect(fast).toEqual(full);
  for (const e of fast.examples) {
    expect(e.range.start).toBeGreaterThanOrEqual(0);
    expect(e.range.end).toBeLessThanOrEqual(text.length);
    expect(e.range.start).toBeLessThanOrEqual(e.range.end);
  }
}

const pieces = [
  '```', '````', '~~~', '```json', '```tool_call', '```text', '```python', '```markdown', '\n', '\r\n', '\n\n', '> ', '> > ', '- ', '1. ', '  ', '    ', '\t',
  '<tool_call>', '</tool_call>', '<function_calls>', '</function_calls>', '<invoke name="a">', '</invoke>', '<parameter name="p">', '</parameter>',
  '<function=f>', '</function>', '{"name": "a", "arguments": {"x": 1}}', '{"name": ', '"arguments"', '{', '}', '[', ']', '(', ')', '"', "'",
  '[f(a=1), g(b="x")]', '[f(', 'a=', 'True', 'None', '...', '$NAME', '<name>', '{{x}}', '_', '*', '**', '\\', '&amp;', 'text ',
  '{"type": "tool_use", "name": "t", "input": {}}', '{"tool_calls": [{"function": {"name": "f", "arguments": "{}"}}]}',
];

const markdownish = fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 6 })), { maxLength: 40 }).map((parts) => parts.join(''));

/** 1-based line of an offset, counting CR, LF and CRLF as CommonMark does. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] !== '\n')) line++;
  return line;
}

/** The block structure both modes must agree on: fences field by field, quotes by the lines they cover. */
function sameBlocks(text: string): void {
  const comparable = (s: Structure) => ({ fences: s.fences, quotes: s.quotes.map((q) => [lineOf(text, q.start), lineOf(text, Math.max(q.start, q.end - 1))]) });
  expect(comparable(blockStructure(text, 'fast'))).toEqual(comparable(blockStructure(text, 'full')));
}

// Markdown as prompt authors write it: lists and quotes running straight into headings, fences,
// thematic breaks, HTML and setext underlines, paragraphs taking lazy lines, few blank lines.
const containers = fc.constantFrom('', '', '', '', '- ', '* ', '+ ', '1. ', '2. ', '10) ', '> ', '>', '> - ', '- > ', '> > ', '  ', '   ', '    ', '  - ', '\t');
const tightLines = fc.constantFrom(
  'be kind', 'never guess an order id', 'lazy text', 'Rules', '## Details', '# Title', '### h ###', '#no',
  '```json', '```tool_call', '```', '~~~', '~~~tool_call', '````', '``` a`b', '  ```',
  '{"name": "a", "arguments": {"x": 1}}', '{"name": "b", "arguments": {}}', '[f(a=1)]',
  '---', '***', '- - -', '___', '===', '=', '--', '-', '*', '1.',
  '<div>', '</div>', '<x>', '<x y="1">', '<!-- note -->', '<!-- open', '-->', '<pre>', '</pre>',
  '<tool_call>{"name": "t", "arguments": {"q": 1}}</tool_call>', '<tool_call>', '</tool_call>',
  '[a]: /b', '    indented', '\tcode', '',
);
const tightDoc = fc
  .array(fc.tuple(containers, tightLines, fc.constantFrom('\n', '\n', '\n', '\n', '\r\n', '\n\n')), { minLength: 1, maxLength: 16 })
  .map((lines) => lines.map(([c, l, n]) => c + l + n).join(''));

describe('extractor properties', () => {
  test('fast and full modes agree on every fixture', () => {
    for (const fixture of fixtures()) sameInBothModes(fixture.input);
  });

  test('never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'binary' }), (text) => {
        extractToolCalls(text);
      }),
      { numRuns: runs(300) },
    );
  });

  test('never throws on markdown-like input, and both modes agree', () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        sameInBothModes(text);
      }),
      { numRuns: runs(600) },
    );
  });

  test('lists and quotes running into headings, fences, rules, HTML and underlines: both modes agree', () => {
    fc.assert(
      fc.property(tightDoc, (text) => {
        sameBlocks(text);
        sameInBothModes(text);
      }),
      { numRuns: runs(300) },
    );
  });

  test('the scanner reads such markdown itself, bar underlines under possible definitions', () => {
    // Not a timing assertion: falling back to the parser is what made these texts slow.
    const samples = fc.sample(tightDoc, { numRuns: runs(1000), seed: 7 });
    const declined = samples.filter((t) => scanBlocks(t) === undefined);
    expect(declined.length).toBeLessThan(samples.length * 0.05);
    for (const t of declined) expect(t).toContain('[a]: /b');
  });

  test('deep nesting is a finding, not a stack overflow', () => {
    const deep = `<tool_call>{"name": "a", "arguments": ${'['.repeat(20000)}</tool_call>\n\n[f(a=${'['.repeat(20000)})]\n\n${'> '.repeat(200)}x`;
    const result = extractToolCalls(deep);
    expect(result.examples).toEqual([]);
    expect(result.diagnostics.map((d) => d.ruleId)).toContain('example/unparseable');
  });
});
