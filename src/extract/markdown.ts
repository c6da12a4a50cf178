/**
 * The block structure the extractor needs from markdown: fenced code blocks (wherever they
 * sit: lists, block quotes) and block quotes (whose `>` markers are not part of what a
 * tag holds). Inline markup is never needed. The fast path reads lines with a block scanner
 * that follows micromark; where the scanner cannot read a construct, micromark itself runs,
 * with inline constructs turned off, on the region around it only. Both give what the full
 * remark parse gives.
 */
import { createRequire } from 'node:module';
import type { fromMarkdown as FromMarkdown } from 'mdast-util-from-markdown';
import type remarkParseType from 'remark-parse';
import type { unified as Unified } from 'unified';
import { scanBlockRange, type ScanStop } from './blocks.js';

/** micromark, its mdast builder and remark: the fallback, loaded the first time a text needs it. */
interface MarkdownLibraries {
  fromMarkdown: typeof FromMarkdown;
  unified: typeof Unified;
  remarkParse: typeof remarkParseType;
}
let libraries: MarkdownLibraries | undefined;

/**
 * Loads the Markdown parser the extractor falls back on. The block scanner reads nearly every
 * prompt without it, and importing it costs more than the scan of most prompts, so it is
 * loaded when a text first needs it: with `require` (Node 20.19 and later load ES modules
 * that way). Jest's module system cannot `require` an ES module before Node 24.9; the Jest
 * integration calls this at the start of a suite, and a test that calls the extractor
 * directly can await it in `beforeAll`.
 */
export async function preloadMarkdown(): Promise<void> {
  if (libraries) return;
  // One at a time: they share modules, and Jest's ES module loader fails on parallel imports of one module.
  const { fromMarkdown } = await import('mdast-util-from-markdown');
  const { unified } = await import('unified');
  const remark = await import('remark-parse');
  libraries ??= { fromMarkdown, unified, remarkParse: remark.default };
}

function markdown(): MarkdownLibraries {
  if (libraries) return libraries;
  try {
    const load = createRequire(import.meta.url);
    libraries = {
      fromMarkdown: (load('mdast-util-from-markdown') as { fromMarkdown: typeof FromMarkdown }).fromMarkdown,
      unified: (load('unified') as { unified: typeof Unified }).unified,
      remarkParse: (load('remark-parse') as { default: typeof remarkParseType }).default,
    };
    return libraries;
  } catch (error) {
    throw new Error(
      'prompt-contract: this text needs the Markdown parser (micromark), and this module system cannot load an ES module synchronously (Jest before Node 24.9 cannot). ' +
        "Call `await preloadMarkdown()` (exported by 'prompt-contract') once before extracting, for example in `beforeAll`; the Jest `contractSuite` does it for you.",
      { cause: error },
    );
  }
}

export type ParseMode = 'fast' | 'full';

export interface Fence {
  /** 0-based offsets of the whole block, opening fence to closing fence (or the end of its container). */
  start: number;
  end: number;
  /** First word of the info string, lower-cased; '' when there is none. */
  lang: string;
  /** The body with container prefixes (`> `, list indentation) removed. */
  value: string;
  /** 1-based line of the opening fence. */
  line: number;
  closed: boolean;
}

export interface Structure {
  fences: Fence[];
  quotes: Array<{ start: number; end: number }>;
}

interface Point {
  line: number;
  offset?: number | undefined;
}
interface MdNode {
  type: string;
  lang?: string | null | undefined;
  value?: string;
  position?: { start: Point; end: Point } | undefined;
  children?: MdNode[];
}

// Inline constructs only: block structure, and the character escapes and references that
// decode a fence's info string, stay exactly as CommonMark has them.
const blockOnly = {
  disable: {
    null: ['attention', 'autolink', 'codeText', 'hardBreakEscape', 'htmlText', 'labelEnd', 'labelStartImage', 'labelStartLink'],
  },
};

/**
 * A fence's language as remark decodes it. Escapes and character references are rare in an
 * info string; for those, micromark reads a one-line fence with the same info word.
 */
function decodeLang(info: string): string {
  if (!/[\\&\0]/.test(info)) return info.toLowerCase();
  let lang = decoded.get(info);
  if (lang === undefined) {
    const root = markdown().fromMarkdown(`~~~ ${info}`, { extensions: [blockOnly] }) as unknown as MdNode;
    lang = (root.children?.[0]?.lang ?? '').toLowerCase();
    if (decoded.size >= 256) decoded.clear();
    decoded.set(info, lang);
  }
  return lang;
}
/** Info words decoded so far: a parse costs a millisecond or two, and prompts repeat them. */
const decoded = new Map<string, string>();

function parseTree(text: string, mode: ParseMode): MdNode {
  const { fromMarkdown, unified, remarkParse } = markdown();
  if (mode === 'full') return unified().use(remarkParse).parse(text) as unknown as MdNode;
  return fromMarkdown(text, { extensions: [blockOnly] }) as unknown as MdNode;
}

/**
 * The fences and quotes of a tree parsed from `text.slice(base)` (lines counted from `firstLine`),
 * limited to nodes that start before `limit` (an offset into the slice).
 */
function treeStructure(root: MdNode, text: string, base: number, firstLine: number, limit: number, into: Structure): void {
  const stack: MdNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start !== undefined && start >= limit) continue;
    if (node.type === 'code' && start !== undefined && end !== undefined && (text[base + start] === '`' || text[base + start] === '~')) {
      into.fences.push({
        start: base + start,
        end: base + end,
        lang: (node.lang ?? '').toLowerCase(),
        value: node.value ?? '',
        line: node.position!.start.line + firstLine - 1,
        closed: isClosed(text, base + start, base + end),
      });
    } else if (node.type === 'blockquote' && start !== undefined && end !== undefined) {
      into.quotes.push({ start: base + start, end: base + end });
    }
    if (node.children) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
}

const lineBreaks = /\r\n|\r|\n/g;
/** A line that starts at its first column with neither whitespace nor `>`. */
const flushLine = /(?:\r\n|\r(?!\n)|\n)(?=[^ \t>\r\n])/g;

/**
 * What the scanner could not read, parsed by micromark one region at a time: from where the
 * scanner last had nothing open (`stop.offset`) to the first line after it at which micromark
 * has nothing open either, so that the scan resumes there exactly as on a text of its own.
 *
 * Such a line starts with neither whitespace nor `>`: no quote and no list item continues on
 * it. It is a fresh start when, in the parse of the region up to and including that line (and
 * its line ending), every top-level block that starts before it also ends before it: no
 * paragraph took it as a lazy line or an underline, no fence or HTML block as content, no list
 * as its next item, and the last of them is no definition (definitions and the paragraph
 * after them are one block to micromark). One more condition: after a paragraph or indented
 * code, micromark reads the line as one that may interrupt a paragraph, which matters only
 * for a list item (an empty one, or one numbered other than 1, cannot); such a line must
 * follow some other block. Where the line is no fresh start the region grows, doubling, so the
 * parses cost linear time in all. Returns where the scan resumes, or `undefined` when the
 * region reached the end of the text.
 */
function parseRegion(text: string, stop: ScanStop, into: Structure): { offset: number; line: number } | undefined {
  const base = stop.offset;
  let from = stop.at;
  for (;;) {
    flushLine.lastIndex = from;
    const m = flushLine.exec(text);
    if (!m) {
      treeStructure(parseTree(text.slice(base), 'fast'), text, base, stop.line, Infinity, into);
      return undefined;
    }
    const next = m.index + m[0].length;
    lineBreaks.lastIndex = next;
    const after = lineBreaks.exec(text);
    // With the line's own line ending: what micromark decides at the end of the line can
    // depend on there being a next line.
    const root = parseTree(text.slice(base, after ? after.index + after[0].length : text.length), 'fast');
    const before = (root.children ?? []).filter((c) => (c.position?.start.offset ?? 0) < next - base);
    const last = before.at(-1);
    const interrupting = last !== undefined && (last.type === 'paragraph' || (last.type === 'code' && !/[`~]/.test(text[base + (last.position?.start.offset ?? 0)] ?? '')));
    const settled =
      before.every((c) => (c.position?.end.offset ?? Infinity) <= next - base) &&
      !(interrupting && /[-+*0-9]/.test(text[next]!)) &&
      last?.type !== 'definition';
    if (settled) {
      treeStructure(root, text, base, stop.line, next - base, into);
      let line = stop.line;
      lineBreaks.lastIndex = base;
      while (lineBreaks.exec(text) && lineBreaks.lastIndex <= next) line++;
      return { offset: next, line };
    }
    from = Math.max(next, base + 2 * (next - base));
  }
}

function isClosed(text: string, start: number, end: number): boolean {
  const open = /^(`{3,}|~{3,})/.exec(text.slice(start, start + 1000));
  if (!open) return false;
  const body = text.slice(start, end).replace(/[\r\n]+$/, '');
  const lastBreak = body.lastIndexOf('\n');
  if (lastBreak === -1) return false;
  const last = body.slice(lastBreak + 1).replace(/^[ \t>]*/, '').trimEnd();
  const marker = open[1]!;
  return last.length >= marker.length && last === marker[0]!.repeat(last.length);
}

/**
 * A fence marker followed on its line by a chat template's special token, as a rendered
 * transcript writes a turn's end: ```` ```<end_of_turn> ```` (Gemma), ```` ```<|im_end|> ````,
 * ```` ```<|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|>... ```` (Command R). CommonMark reads
 * no closing fence there, so the code block would run on to the end of the text and hide every
 * call after it; a model reads the turn as ended. The token and the rest of its line are read
 * as spaces (same length: offsets hold), so the marker closes the fence; a fence closed so ends
 * at its marker, and the rest of the line is read as the text after it (DeepSeek's template
 * starts the next call there).
 */
const fenceThenToken = /^([ \t]{0,3}(?:`{3,}|~{3,}))((?:<\|[^|\n]{1,64}\|>|<\uFF5C[^\uFF5C\n]{1,64}\uFF5C>|<\/?(?:end_of_turn|start_of_turn|eos|bos|s|eot)>).*)$/gm;

function withoutTokensAfterFences(text: string): { text: string; markerEnds: Map<number, number> } {
  // Where each rewritten line ends (its last character), and where its marker ends.
  const markerEnds = new Map<number, number>();
  const out = text.replace(fenceThenToken, (line: string, marker: string, rest: string, at: number) => {
    markerEnds.set(at + (line.endsWith('\r') ? line.length - 1 : line.length), at + marker.length);
    return marker + ' '.repeat(rest.length);
  });
  return { text: out, markerEnds };
}

/** Fences closed by a rewritten line end at its marker. */
function endAtMarkers(structure: Structure, text: string, markerEnds: ReadonlyMap<number, number>): Structure {
  for (const f of structure.fences) {
    // The fence's last line: its end, less the line break the range may include.
    let lineEnd = f.end;
    if (text[lineEnd - 1] === '\n') lineEnd--;
    if (text[lineEnd - 1] === '\r') lineEnd--;
    const markerEnd = markerEnds.get(lineEnd);
    if (markerEnd !== undefined && markerEnd > f.start) f.end = markerEnd;
  }
  return structure;
}

/**
 * Fences and block quotes of `text`. Texts without a fence marker or a block-quote line
 * skip the parse: they have neither.
 */
export function blockStructure(text: string, mode: ParseMode): Structure {
  const structure = structureOf(text, mode);
  if (structure.quotes.length > 0 && text.includes('>>>>>>>')) structure.quotes = structure.quotes.filter((q) => !onMergeMarker(text, q.start));
  return structure;
}

/**
 * Whether a quote opens on a merge marker line (`>>>>>>> REPLACE`, `>>>>>>> main`): CommonMark
 * reads it as seven nested quotes, but no prompt nests quotes seven deep, while edit formats
 * (Aider's SEARCH/REPLACE, Roo's `apply_diff`) and conflict examples write this line in their
 * bodies, which are verbatim: its `>` are text, not markers to blank.
 */
function onMergeMarker(text: string, start: number): boolean {
  const ls = text.lastIndexOf('\n', start - 1) + 1;
  let i = ls;
  while (i < ls + 3 && text[i] === ' ') i++;
  let run = i;
  while (text[run] === '>') run++;
  return run - i >= 7 && start >= ls && start < run && (run === text.length || /[ \t\r\n]/.test(text[run]!));
}

function structureOf(text: string, mode: ParseMode): Structure {
  // A byte order mark opens no block, and micromark drops it, which would move every offset of
  // the full parse by one: read it as the space it stands for, so offsets hold in both modes.
  if (text.charCodeAt(0) === 0xfeff) text = ` ${text.slice(1)}`;
  if (text.includes('```<') || text.includes('~~~<')) {
    const view = withoutTokensAfterFences(text);
    if (view.markerEnds.size > 0) return endAtMarkers(blockStructure(view.text, mode), text, view.markerEnds);
  }
  const structure: Structure = { fences: [], quotes: [] };
  if (mode === 'fast' && !text.includes('```') && !text.includes('~~~') && !/^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*>/m.test(text)) {
    return structure;
  }
  if (mode === 'full') {
    treeStructure(parseTree(text, 'full'), text, 0, 1, Infinity, structure);
    structure.fences.sort((a, b) => a.start - b.start);
    structure.quotes.sort((a, b) => a.start - b.start);
    return structure;
  }
  return scannedStructure(text);
}

/**
 * The fast path: the scanner reads the text; where it stops, micromark parses the smallest
 * region around the construct it could not read, and the scanner resumes after it. Tests pass
 * `stopAt` (ascending offsets) to make the scanner stop there and exercise the regions.
 */
export function scannedStructure(text: string, stopAt: readonly number[] = []): Structure {
  const structure: Structure = { fences: [], quotes: [] };
  let at: { offset: number; line: number } | undefined = { offset: 0, line: 1 };
  while (at) {
    const from = at.offset;
    const scanned = scanBlockRange(text, from, at.line, stopAt.find((o) => o > from));
    for (const f of scanned.fences) {
      structure.fences.push({ start: f.start, end: f.end, lang: decodeLang(f.info), value: f.value, line: f.line, closed: isClosed(text, f.start, f.end) });
    }
    for (const q of scanned.quotes) structure.quotes.push(q);
    at = scanned.stop ? parseRegion(text, scanned.stop, structure) : undefined;
  }
  structure.fences.sort((a, b) => a.start - b.start);
  structure.quotes.sort((a, b) => a.start - b.start);
  return structure;
}
