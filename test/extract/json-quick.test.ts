import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { readJson, readJsonSequence } from '../../src/extract/json.js';
import { runs } from '../helpers/runs.js';

// `readJson` hands a bracketed value to JSON.parse when it can; `{ offsets: true }` always takes
// the reader's own path. Both must give the same value, end and failure for every text.

/** Own keys with their values, recursively, so an own `__proto__` is compared like any key. */
function own(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(own);
  if (typeof value !== 'object' || value === null) return value;
  return { proto: Object.getPrototypeOf(value) === Object.prototype, keys: Object.getOwnPropertyNames(value).map((k) => [k, own((value as Record<string, unknown>)[k])]) };
}

const spaced = (json: string, pad: string) => json.replace(/([,:[\]{}])/g, `$1${pad}`);

describe('the quick path of the JSON reader', () => {
  test('reads every value as the reader does, with the same end, in prose and in sequences', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom('', ' ', '\n  ', '\t'), fc.constantFrom('', ' and then some prose.', '\n}'), (value, pad, after) => {
        const json = spaced(JSON.stringify(value), pad);
        const text = `Call: ${json}${after}`;
        const quick = readJson(text, 5);
        const slow = readJson(text, 5, { offsets: true });
        expect(quick.ok).toBe(slow.ok);
        if (quick.ok && slow.ok) {
          expect(quick.end).toBe(slow.end);
          expect(own(quick.value)).toEqual(own(slow.value));
        }
        const lines = `${json}\n${json}\n`;
        expect(own(readJsonSequence(lines))).toEqual(own(readJsonSequence(lines, { offsets: true })));
      }),
      { numRuns: runs(300) },
    );
  });

  test('keeps `__proto__` an own key and the last of duplicate keys, as the reader does', () => {
    const text = '{"__proto__": {"polluted": true}, "a": 1, "a": 2}';
    const quick = readJson(text);
    expect(quick.ok && own(quick.value)).toEqual(own((readJson(text, 0, { offsets: true }) as { value: unknown }).value));
    expect(quick.ok && Object.getOwnPropertyNames(quick.value)).toEqual(['__proto__', 'a']);
    expect(quick.ok && (quick.value as Record<string, unknown>).a).toBe(2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test.each([
    ['a trailing comma', '{"a": 1,}'],
    ['single quotes', "{'a': 1}"],
    ['an unclosed object', '{"a": [1, 2'],
    ['a raw line break in a string', '{"a": "x\ny"}'],
    ['nesting past the limit', `${'['.repeat(300)}${']'.repeat(300)}`],
    ['an ellipsis', '{"a": 1, ...}'],
  ])('fails on %s with the reader\'s own message', (_what, text) => {
    const quick = readJson(text);
    expect(quick).toEqual(readJson(text, 0, { offsets: true }));
    expect(readJsonSequence(text)).toEqual(readJsonSequence(text, { offsets: true }));
  });
});

describe('trailing commas, when the caller takes them', () => {
  test('a comma before `}` or `]` ends the value; without the option it is an error at the bracket', () => {
    for (const [text, value] of [
      ['{"a": 1,}', { a: 1 }],
      ['[1, 2, ]', [1, 2]],
      ['{"a": [{"b": true,},\n],\n} tail', { a: [{ b: true }] }],
    ] as const) {
      const read = readJson(text, 0, { trailingCommas: true });
      expect(read).toEqual({ ok: true, value, end: text.indexOf(' tail') === -1 ? text.length : text.indexOf(' tail') });
      const strict = readJson(text, 0);
      expect(strict.ok).toBe(false);
      if (!strict.ok) expect(['}', ']']).toContain(text[strict.offset]);
    }
  });

  test('still no empty members: `{,}`, `[1,,]` and a lone comma fail', () => {
    for (const text of ['{,}', '[1,,]', '[,]']) expect(readJson(text, 0, { trailingCommas: true }).ok).toBe(false);
  });
});
