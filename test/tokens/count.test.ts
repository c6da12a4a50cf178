import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { encode as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import fc from 'fast-check';
import { runs } from '../helpers/runs.js';
import { countRenderedCase, formatTokenLine, normalizeTools, parseSnapshotTokens, type RenderedCase } from '../../src/index.js';

// The counts are gpt-tokenizer's own for OpenAI's encodings: each figure here is compared with
// the encoding's token list, never written down. Special-token text is counted as the ordinary
// text an API reads it as.

const strings = [
  'You are Ada, the refund assistant of Northwind Homeware.',
  '```tool_call\n{"name": "create_refund", "arguments": {"order_id": "A-1042", "amount_cents": 4200}}\n```',
  'Grüße aus Köln — ¿qué tal? 東京の天気は晴れです。 🚀🚀',
  'A literal <|endoftext|> and <|im_start|> in a prompt are plain text.',
  '',
  // Lines, counted one by one and kept: the cut must never change the count.
  '# Rules\n\nBe brief.\n\n\nAsk first.\n\n  Indented.\n\n/path after a break.\n\nEnd.\n\n42 items.\n\n',
  'x.\n\n/usr\n\nÉtude\n\n\u0301accent\n\n日本\n\n',
];

const tools = normalizeTools([{ name: 'lookup_order', description: 'Find an order by its id.', input_schema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } }]);
const rendered = (text: string, withTools = false): RenderedCase => ({ prompt: 'p', case: 'c', text, tools: withTools ? tools : [], sourceMap: [] as never });
const plain = { disallowedSpecial: new Set<string>() };

test.each(strings.map((s) => [s]))('o200k_base and cl100k_base counts are the encodings\' own: %j', (text) => {
  for (const [name, encode] of [['o200k_base', o200k], ['cl100k_base', cl100k]] as const) {
    const count = countRenderedCase(rendered(text), { setting: name, name, from: 'config' });
    expect(count).toEqual({ prompt: encode(text, plain).length, tools: 0, total: encode(text, plain).length, tokenizer: name, exact: true });
  }
});

test('tools count as the compact JSON of the request: OpenAI\'s shape for its encodings, Anthropic\'s for its estimate', () => {
  const openAi = JSON.stringify([{ type: 'function', function: { name: 'lookup_order', description: 'Find an order by its id.', parameters: tools[0]!.inputSchema } }]);
  const anthropic = JSON.stringify([{ name: 'lookup_order', description: 'Find an order by its id.', input_schema: tools[0]!.inputSchema }]);
  expect(countRenderedCase(rendered('Hi', true), { setting: 'cl100k_base', name: 'cl100k_base', from: 'config' }).tools).toBe(cl100k(openAi).length);
  const estimate = countRenderedCase(rendered('Hi', true), { setting: 'anthropic-estimate', name: 'anthropic-estimate', from: 'model' });
  expect(estimate).toMatchObject({ tools: o200k(anthropic).length, exact: false, note: 'o200k_base count; Anthropic publishes no tokenizer for current models' });
});

test('tools counted for one shape are not reused for another under the same tokenizer name', () => {
  const anthropic = JSON.stringify([{ name: 'lookup_order', description: 'Find an order by its id.', input_schema: tools[0]!.inputSchema }]);
  // Two hand-made settings with one name: the count kept for the first must not answer the second.
  countRenderedCase(rendered('Hi', true), { setting: 'o200k_base', name: 'shared-name', from: 'config' });
  expect(countRenderedCase(rendered('Hi', true), { setting: 'anthropic-estimate', name: 'shared-name', from: 'config' }).tools).toBe(o200k(anthropic).length);
});

test('the header line reads back as the count it states, an estimate with what it was counted from', () => {
  const exact = countRenderedCase(rendered(strings[0]!, true));
  expect(exact.tokenizer).toBe('o200k_base');
  const estimate = countRenderedCase(rendered(strings[2]!, true), { setting: 'gemini-estimate', name: 'gemini-estimate', from: 'shape' });
  for (const count of [exact, estimate]) {
    const snapshot = `prompt-contract snapshot 2\nprompt: p\ncase: c\n${formatTokenLine(count)}\n\nbody\n`;
    expect(parseSnapshotTokens(snapshot)).toEqual(count);
  }
  expect(formatTokenLine(estimate)).toMatch(/^tokens: prompt \d+ \+ tools \d+ = \d+ \(gemini-estimate, estimate: o200k_base count; .+\)$/);
  // No line in the header (a snapshot from before counts), or one only in the body: no count.
  expect(parseSnapshotTokens('prompt-contract snapshot 2\nprompt: p\ncase: c\n\ntokens: prompt 1 + tools 2 = 3 (o200k_base, exact)\n')).toBeUndefined();
});

// Texts where a cut after the line breaks would change the count (each found by counting both parts
// apart): punctuation's piece takes a slash after line breaks in o200k, and the line-break piece
// takes the white space of a line holding nothing else.
test.each([':\n/', '.\n\n//', ':\n\n/*', 'x\n  \ny', 'x\n\n \n\n{'])('a cut that would change the count is not made: %j', (text) => {
  for (const [name, encode] of [['o200k_base', o200k], ['cl100k_base', cl100k]] as const) {
    expect(countRenderedCase(rendered(text), { setting: name, name, from: 'config' }).prompt).toBe(encode(text, plain).length);
  }
});

test('a text cut into paragraphs and lines counts as the whole text, whatever surrounds the breaks', () => {
  // Indents and paragraph breaks are where the counter cuts: plain spaces before text, and the white space it must not cut before.
  const pieces = fc.constantFrom('\n', '\n\n', '\n\n\n', '\r\n', '\r', ' \n', '\n ', '\n  ', '\n\n  ', ' ', '  ', '    ', '\u00a0', '.', '-', '`', '#', '{', '"', ':', '/', '(', "'s", 'word', 'Word', 'ÉTÉ', '日本', '42', '1234', '\t', '\u0301', '🚀', '<|endoftext|>');
  fc.assert(
    fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
      const text = parts.join('');
      for (const [name, encode] of [['o200k_base', o200k], ['cl100k_base', cl100k]] as const) {
        // Twice: the second count reads the kept paragraphs.
        for (let i = 0; i < 2; i++) expect(countRenderedCase(rendered(text), { setting: name, name, from: 'config' }).prompt).toBe(encode(text, plain).length);
      }
    }),
    { numRuns: runs(1000) },
  );
});
