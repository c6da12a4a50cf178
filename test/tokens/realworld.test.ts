// The counter cuts texts into paragraphs and lines and keeps each piece's count; the cuts are
// tested on random and named texts (count.test.ts). Here they meet real prompts: every prompt text of the
// real-world extraction corpora (test/fixtures/realworld*, from public repositories; see their
// PROVENANCE.md), with their indents, tabs, CRLF, code and non-Latin text. Each count must be
// the encoding's own, read whole, and stay so when the kept pieces are read back in other texts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { encode as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countRenderedCase, type RenderedCase } from '../../src/index.js';
import { sample } from '../helpers/runs.js';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
const texts = ['realworld', 'realworld-unseen'].flatMap((corpus) =>
  readdirSync(join(fixtures, corpus), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => readdirSync(join(fixtures, corpus, entry.name)).filter((file) => file.endsWith('.txt')).map((file) => ({ name: `${corpus}/${entry.name}/${file}`, text: readFileSync(join(fixtures, corpus, entry.name, file), 'utf8') }))),
);
const rendered = (text: string): RenderedCase => ({ prompt: 'p', case: 'c', text, tools: [], sourceMap: [] as never });
const plain = { disallowedSpecial: new Set<string>() };
const encodings = [['o200k_base', o200k], ['cl100k_base', cl100k]] as const;

test('the corpora hold real prompts, some with the indents and paragraph breaks the counter cuts at', () => {
  expect(texts.length).toBeGreaterThan(100);
  expect(texts.filter((t) => /\n\n {2,}\S/.test(t.text)).length).toBeGreaterThan(5);
  expect(texts.filter((t) => t.text.includes('\r\n')).length + texts.filter((t) => t.text.includes('\t')).length).toBeGreaterThan(0);
});

test('every real prompt counts as its encoding reads it whole, and again from the kept pieces, and inside other prompts', () => {
  const wrong: string[] = [];
  for (const [name, encode] of encodings) {
    const count = (text: string): number => countRenderedCase(rendered(text), { setting: name, name, from: 'config' }).prompt;
    // Every text in `npm test`; every third in `npm run test:fast` (see `sample`), each still joined with the one after it.
    for (const i of sample([...texts.keys()])) {
      const { name: file, text } = texts[i]!;
      const whole = encode(text, plain).length;
      // First read, then read again (every piece is kept by now).
      for (const got of [count(text), count(text)]) if (got !== whole) wrong.push(`${name} ${file}: ${got}, expected ${whole}`);
      // Kept pieces of this prompt read back after a paragraph of the next one, and the two joined.
      const next = texts[(i + 1) % texts.length]!.text;
      for (const joined of [`${next.slice(0, 200)}\n\n${text}`, `${text}\n\n${next}`]) {
        const [got, expected] = [count(joined), encode(joined, plain).length];
        if (got !== expected) wrong.push(`${name} ${file} joined: ${got}, expected ${expected}`);
      }
    }
  }
  expect(wrong).toEqual([]);
});
