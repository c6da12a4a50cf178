import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { extractToolCalls } from '../../src/extract/index.js';
import { fixtures } from './helpers.js';

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

describe('extractor properties', () => {
  test('fast and full modes agree on every fixture', () => {
    for (const fixture of fixtures()) sameInBothModes(fixture.input);
  });

  test('never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'binary' }), (text) => {
        extractToolCalls(text);
      }),
      { numRuns: 300 },
    );
  });

  test('never throws on markdown-like input, and both modes agree', () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        sameInBothModes(text);
      }),
      { numRuns: 600 },
    );
  });

  test('deep nesting is a finding, not a stack overflow', () => {
    const deep = `<tool_call>{"name": "a", "arguments": ${'['.repeat(20000)}</tool_call>\n\n[f(a=${'['.repeat(20000)})]\n\n${'> '.repeat(200)}x`;
    const result = extractToolCalls(deep);
    expect(result.examples).toEqual([]);
    expect(result.diagnostics.map((d) => d.ruleId)).toContain('example/unparseable');
  });
});
