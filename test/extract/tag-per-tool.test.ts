// `toolElements` finds the elements named after a tool by searching for each tool's tags. It
// must find exactly what a scan of every tag in the text finds: that scan is written out here,
// as the reference, and both run on generated texts full of nested, unclosed and foreign tags.
import fc from 'fast-check';
import { toolElements } from '../../src/extract/notations/tag-per-tool.js';
import { runs } from '../helpers/runs.js';

function referenceScan(text: string, tools: ReadonlySet<string>): Array<{ start: number; end: number; name: string; bodyStart: number; bodyEnd: number }> {
  const out = [];
  const closes = new Map<string, number[]>();
  const closeTag = /<\/([A-Za-z_][\w-]*)>/g;
  for (let m = closeTag.exec(text); m; m = closeTag.exec(text)) {
    if (!tools.has(m[1]!)) continue;
    let list = closes.get(m[1]!);
    if (!list) closes.set(m[1]!, (list = []));
    list.push(m.index);
  }
  const openTag = /<([A-Za-z_][\w-]*)>/g;
  const next = new Map<string, number>();
  for (let m = openTag.exec(text); m; m = openTag.exec(text)) {
    const name = m[1]!;
    const list = closes.get(name);
    if (!list) continue;
    let k = next.get(name) ?? 0;
    while (k < list.length && list[k]! < openTag.lastIndex) k++;
    next.set(name, k);
    if (k >= list.length) continue;
    const close = list[k]!;
    const reopen = text.indexOf(`<${name}>`, openTag.lastIndex);
    if (reopen !== -1 && reopen < close) continue;
    const end = close + name.length + 3;
    out.push({ start: m.index, end, name, bodyStart: openTag.lastIndex, bodyEnd: close });
    openTag.lastIndex = end;
  }
  return out;
}

const names = ['read_file', 'a', 'ab', 'a-b', 'b', 'path', 'x.y', '1a', ''];
const piece = fc.oneof(
  fc.constantFrom(...names.flatMap((n) => [`<${n}>`, `</${n}>`])),
  fc.constantFrom('<', '>', '</', '<<', 'text ', '\n', '<a >', '<a/>', '<A>', '</A>', '<path>src/a.ts</path>', '<read_file>\n'),
  fc.string({ maxLength: 3 }),
);
const text = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));
const toolSet = fc.subarray(names).map((list) => new Set(list));

test('finds what a scan of every tag finds, in the same order', () => {
  fc.assert(
    fc.property(text, toolSet, (t, tools) => {
      expect([...toolElements(t, tools)]).toEqual(referenceScan(t, tools));
    }),
    { numRuns: runs(2000) },
  );
});

test('an element inside a tool\'s element is part of it; a reopened tag is prose', () => {
  const t = 'See <read_file> in prose. <read_file><path>a</path></read_file> then <write><read_file><path>b</path></read_file></write>';
  const found = [...toolElements(t, new Set(['read_file', 'write', 'path']))].map((e) => t.slice(e.start, e.end));
  expect(found).toEqual(['<read_file><path>a</path></read_file>', '<write><read_file><path>b</path></read_file></write>']);
});
