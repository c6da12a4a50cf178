import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { extractToolCalls } from '../../src/extract/index.js';
import { readJson } from '../../src/extract/json.js';
import { jsonNotation } from '../../src/extract/notations/json.js';
import { readPythonLiteral } from '../../src/extract/python.js';
import { looksLikeCall } from '../../src/shapes/calls.js';
import { hostileLength, runs } from '../helpers/runs.js';

// Text full of brackets that never close: each `{"` is a place a JSON value may start, and
// reading each to where it fails cost the length of the text a brace, so 56 KB took seconds.

/** The places `find` reports, read the slow way: every `{"` on its own. */
function eachOnItsOwn(text: string, paragraphEnd: (at: number) => number): Array<{ start: number; end: number; error?: string }> {
  const out: Array<{ start: number; end: number; error?: string }> = [];
  const trigger = /\[\s*\{\s*["']|\{\s*["']/g;
  let i = 0;
  while (i < text.length) {
    trigger.lastIndex = i;
    const m = trigger.exec(text);
    if (!m) break;
    const at = m.index;
    const read = readJson(text, at, { trailingCommas: true });
    if (read.ok) {
      out.push({ start: at, end: read.end });
      i = read.end;
      continue;
    }
    if (m[0].endsWith("'")) {
      const py = readPythonLiteral(text, at);
      if (py.ok) {
        out.push({ start: at, end: py.end });
        i = py.end;
        continue;
      }
    }
    const end = paragraphEnd(at);
    if (looksLikeCall(text.slice(at, Math.min(end, at + 4000)))) {
      out.push({ start: at, end, error: read.message });
      i = end;
    } else i = at + 1;
  }
  return out;
}

function found(text: string): Array<{ start: number; end: number; error?: string }> {
  const paragraphEnd = (at: number): number => {
    const blank = text.indexOf('\n\n', at);
    return blank === -1 ? text.length : blank;
  };
  const places = [...jsonNotation.find(text, { tools: new Map(), paragraphEnd })] as Array<{ start: number; end: number; error?: { message: string } }>;
  return places.map((p) => ({ start: p.start, end: p.end, ...(p.error ? { error: p.error.message } : {}) }));
}

describe('JSON in prose that never closes', () => {
  test('finds what reading each brace on its own finds', () => {
    const piece = fc.constantFrom('{"a": [', '{"name": "f", "arguments": {', '{"name": "f", "arguments": {"x": 1}}', '}', ']', '"x"', ',', ' ', '\n\n', "{'a': ", '1', ':', '{"b"');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        const paragraphEnd = (at: number): number => {
          const blank = text.indexOf('\n\n', at);
          return blank === -1 ? text.length : blank;
        };
        expect(found(text)).toEqual(eachOnItsOwn(text, paragraphEnd));
      }),
      { numRuns: runs(1500) },
    );
  });

  test('an unclosed call-shaped value is a finding to the end of its paragraph; the next paragraph is read afresh', () => {
    const text = `Data: {"items": [{"name": "lookup", "arguments": {"id": 1}}, {"more": [\n\nAnd {"name": "refund", "arguments": {"id": 2\n\n{"name": "cancel", "arguments": {"id": 3}}\n`;
    const { examples, diagnostics } = extractToolCalls(text);
    expect(examples.map((e) => [e.name, e.arguments, e.line])).toEqual([['cancel', { id: 3 }, 5]]);
    expect(diagnostics.map((d) => [d.ruleId, d.line, d.column])).toEqual([
      ['example/unparseable', 1, 7],
      ['example/unparseable', 3, 5],
    ]);
  });

  test('thousands of unclosed brackets, nested past the depth limit or not, leave the call after them found', () => {
    for (const open of ['{"a": [', '{"name": "f", "arguments": {"a": ']) {
      const text = `${open.repeat(20_000)}\n\nThen <tool_call>{"name": "lookup", "arguments": {"id": 3}}</tool_call>\n`;
      const { examples } = extractToolCalls(text);
      expect(examples.map((e) => [e.name, e.line])).toEqual([['lookup', 3]]);
    }
  });
});

describe('tags that never close', () => {
  const soup = (open: string, close: string, call: string) =>
    fc.array(fc.constantFrom(open, close, call, ' text ', '\n\n', '{', open + call, open + call + close), { maxLength: 30 }).map((parts) => parts.join(''));

  test.each([
    ['<tool_call>', '</tool_call>', '{"name": "f", "arguments": {"x": 1}}', 'hermes'],
    ['<function=f>', '</function>', '{"x": 1}', 'llama'],
    ['<function_calls>', '</function_calls>', '<invoke name="f"><parameter name="x">1</parameter></invoke>', 'anthropic-xml'],
  ])('%s: every tag is read as it was when each searched the rest of the text for its close', (open, close, call, notation) => {
    // The close a tag pairs with is the first one after it, unless another tag opens before that.
    const reference = (text: string): Array<[number, string]> => {
      const out: Array<[number, string]> = [];
      for (let at = text.indexOf(open); at !== -1; ) {
        const body = at + open.length;
        const c = text.indexOf(close, body);
        const reopen = text.indexOf(open, body);
        if (c === -1 || (reopen !== -1 && reopen < c)) {
          at = reopen;
          continue;
        }
        out.push([at, text.slice(body, c)]);
        at = text.indexOf(open, c + close.length);
      }
      return out;
    };
    fc.assert(
      fc.property(soup(open, close, call), (text) => {
        const found = extractToolCalls(text).examples.filter((e) => e.notation === notation).map((e) => e.range.start);
        const pairs = reference(text);
        // Examples stand only at tags that close; each closed tag holding the call (and space) gives one.
        expect(found.filter((at) => !pairs.some(([tag]) => tag === at))).toEqual([]);
        for (const [at] of pairs.filter(([, body]) => body.trim() === call)) expect(found).toContain(at);
      }),
      { numRuns: runs(500) },
    );
    // Thousands of tags without a close, then one closed call: found, and the unclosed ones with a call are findings.
    const text = `${open.repeat(20_000)}\n\n${open}${call}${close}\n`;
    const { examples } = extractToolCalls(text);
    expect(examples.map((e) => [e.name, e.line])).toEqual([['f', 3]]);
  });
});

describe('`<tool_call>` bodies that are no call', () => {
  test('one long word in the tags (a megabyte) is read in linear time: it names the tags, it holds no call', () => {
    // Splitting the word between a tool name and a `key=` cost its length for each split.
    const text = `<tool_call>${'a'.repeat(hostileLength(1_000_000))} </tool_call>`;
    expect(extractToolCalls(text)).toEqual({ examples: [], diagnostics: [] });
  });
});
