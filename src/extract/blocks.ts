/**
 * A line scanner for the part of CommonMark block structure the extractor reads: fenced code
 * (where it starts and ends, its info string, its body without container prefixes) and block
 * quotes, inside any nesting of block quotes and list items. Building a syntax tree for a
 * whole prompt costs two orders of magnitude more than this, and extraction needs none of it.
 *
 * It follows micromark (what remark runs), including where micromark decides positions in its
 * own way: a fence closed because its container ended keeps the line ending before the next
 * line only when that line opens a new container, not when it is a lazy line.
 *
 * Constructs whose handling depends on subtle parser state (a lazy line that could start a
 * block, an HTML start on a lazy line) make the scanner give up and return `undefined`; the
 * caller then runs the full block parse. Realistic prompts rarely get there.
 */

/** What the scanner reports; offsets are 0-based into the text, `line` is 1-based. */
export interface ScannedFence {
  start: number;
  end: number;
  /** The raw info string's first word (before decoding escapes and references). */
  info: string;
  value: string;
  line: number;
}

export interface ScannedBlocks {
  fences: ScannedFence[];
  quotes: Array<{ start: number; end: number }>;
}

interface Quote {
  kind: 'quote';
  start: number;
  end: number;
}
interface Item {
  kind: 'item';
  /** Columns a continuation line must be indented by. */
  size: number;
  /** The item's first line was blank: a second blank line ends it. */
  initialBlank: boolean;
  furtherBlank: boolean;
}
type Container = Quote | Item;

interface OpenFence {
  kind: 'fence';
  char: string;
  length: number;
  indent: number;
  start: number;
  line: number;
  info: string;
  /** Body pieces: line endings and content, in order. */
  parts: string[];
  /** The line ending after the last fed line, added only if the fence outlives it. */
  pendingEol: string;
  end: number;
  /** How many containers the fence sits in. */
  depth: number;
}
/** `definitions`: the paragraph may be link reference definitions only, which no underline turns into a heading. */
type Leaf = OpenFence | { kind: 'paragraph'; definitions: boolean } | { kind: 'indented' } | { kind: 'html'; type: number } | null;

const rawHtml = /^<(?:script|pre|style|textarea)(?:[ \t>]|$)/i;
const blockNames = new Set(
  'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead title tr track ul'.split(' '),
);
const blockTag = /^<\/?([A-Za-z][A-Za-z0-9]*)(?:[ \t>]|\/>|$)/;
const attribute = String.raw`[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^ \t"'=<>\x60]+|'[^']*'|"[^"]*"))?`;
const completeTag = new RegExp(String.raw`^(?:<[A-Za-z][A-Za-z0-9-]*(?:${attribute})*[ \t]*\/?>|<\/[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$`);
const htmlEnds: Array<RegExp | null> = [null, /<\/(?:script|pre|style|textarea)>/i, /-->/, /\?>/, />/, /\]\]>/];

/** The HTML block type (1-7) a line starting with `<` opens, or 0. */
function htmlStart(rest: string): number {
  if (rawHtml.test(rest)) return 1;
  if (rest.startsWith('<!--')) return 2;
  if (rest.startsWith('<?')) return 3;
  if (/^<![A-Za-z]/.test(rest)) return 4;
  if (rest.startsWith('<![CDATA[')) return 5;
  const m = blockTag.exec(rest);
  if (m && blockNames.has(m[1]!.toLowerCase())) return 6;
  if (completeTag.test(rest)) return 7;
  return 0;
}

/** One line being consumed left to right, with tab stops of 4 as CommonMark counts them. */
class Cursor {
  pos = 0;
  col = 0;
  /** Columns left of a tab that a container prefix consumed only in part. */
  partial = 0;
  constructor(readonly s: string) {}

  /** Columns of whitespace from here, and where the first other character is. */
  indent(): { cols: number; at: number } {
    let cols = this.partial;
    let col = this.col + this.partial;
    let i = this.pos + (this.partial > 0 ? 1 : 0);
    for (; i < this.s.length; i++) {
      const c = this.s.charCodeAt(i);
      if (c === 32) {
        cols++;
        col++;
      } else if (c === 9) {
        const w = 4 - (col % 4);
        cols += w;
        col += w;
      } else break;
    }
    return { cols, at: i };
  }

  /** Consume `n` columns of whitespace (fewer if the whitespace runs out). */
  advance(n: number): void {
    while (n > 0) {
      if (this.partial > 0) {
        const take = Math.min(n, this.partial);
        this.partial -= take;
        this.col += take;
        n -= take;
        if (this.partial === 0) this.pos++;
        continue;
      }
      const c = this.s.charCodeAt(this.pos);
      if (c === 32) {
        this.pos++;
        this.col++;
        n--;
      } else if (c === 9) {
        const w = 4 - (this.col % 4);
        if (n >= w) {
          this.pos++;
          this.col += w;
          n -= w;
        } else {
          this.partial = w - n;
          this.col += n;
          n = 0;
        }
      } else break;
    }
  }

  /** Skip all whitespace. */
  skipSpace(): void {
    const { cols } = this.indent();
    this.advance(cols);
  }

  /** The rest of the line; a tab consumed in part leaves spaces. */
  rest(): string {
    return this.partial > 0 ? ' '.repeat(this.partial) + this.s.slice(this.pos + 1) : this.s.slice(this.pos);
  }
}

const lineBreak = /\r\n|\r|\n/g;
const blankRe = /^[ \t]*$/;

/** Fences and block quotes of `text`, or `undefined` when the text needs the full parser. */
export function scanBlocks(text: string): ScannedBlocks | undefined {
  const fences: ScannedFence[] = [];
  const quotes: Array<{ start: number; end: number }> = [];
  const containers: Container[] = [];
  let leaf: Leaf = null;
  let declined = false;
  let lineNo = 0;
  let ls = 0;

  const closeFence = (f: OpenFence, end: number, keepEol: boolean) => {
    if (keepEol) f.parts.push(f.pendingEol);
    const value = f.parts.join('').replace(/^(?:\r?\n|\r)|(?:\r?\n|\r)$/g, '');
    fences.push({ start: f.start, end, info: f.info, value: value.includes('\0') ? value.replace(/\0/g, '\uFFFD') : value, line: f.line });
  };
  /** Close containers from `depth` on (and the leaf when it sits inside them). */
  const closeFrom = (depth: number, lineStart: number, byNewContainer: boolean) => {
    if (leaf && leaf.kind === 'fence') {
      if (leaf.depth > depth) {
        closeFence(leaf, byNewContainer ? lineStart : leaf.end, byNewContainer);
        leaf = null;
      }
    } else if (leaf && depth < containers.length) leaf = null;
    while (containers.length > depth) {
      const c = containers.pop()!;
      // Where micromark ends a quote that a new container closes depends on what the quote
      // holds and which containers continued; those texts go to the parser.
      if (c.kind === 'quote') {
        if (byNewContainer) declined = true;
        quotes.push({ start: c.start, end: c.end });
      }
    }
  };

  lineBreak.lastIndex = 0;
  while (ls <= text.length) {
    const m = lineBreak.exec(text);
    const le = m ? m.index : text.length;
    const eol = m ? m[0] : '';
    const s = text.slice(ls, le);
    lineNo++;
    const atEof = !m;
    const cur = new Cursor(s);

    // Which open containers this line continues.
    let matched = 0;
    for (; matched < containers.length; matched++) {
      const c = containers[matched]!;
      if (c.kind === 'quote') {
        const { cols, at } = cur.indent();
        if (cols > 3 || s[at] !== '>') break;
        cur.advance(cols);
        cur.pos = at + 1;
        cur.col++;
        cur.partial = 0;
        if (s[cur.pos] === ' ' || s[cur.pos] === '\t') cur.advance(1);
      } else {
        const restBlank = blankRe.test(cur.rest());
        if (restBlank) {
          c.furtherBlank = c.furtherBlank || c.initialBlank;
          cur.advance(c.size);
        } else {
          const { cols } = cur.indent();
          if (c.furtherBlank || cols < c.size) {
            c.furtherBlank = false;
            c.initialBlank = false;
            break;
          }
          c.initialBlank = false;
          cur.advance(c.size);
        }
      }
    }
    const allMatched = matched === containers.length;
    const blank = blankRe.test(cur.rest());
    // Text that ends inside the prefixes of some of its containers ends the others at a place
    // that depends on the prefixes; rare enough to leave to the parser.
    if (atEof && s !== '' && blank && !allMatched) return undefined;

    // A fence, HTML block or indented code in fully continued containers takes the line as it is.
    if (allMatched && leaf && leaf.kind === 'fence') {
      const f = leaf;
      const { cols, at } = cur.indent();
      if (cols <= 3) {
        let k = at;
        while (s[k] === f.char) k++;
        if (k - at >= f.length && blankRe.test(s.slice(k))) {
          f.parts.push(f.pendingEol);
          closeFence(f, le, false);
          leaf = null;
          markQuotes(containers, le);
          ls = le + eol.length;
          if (atEof) break;
          continue;
        }
      }
      if (atEof && cur.rest() === '' && lineNo > f.line) {
        // An empty last line is never handed to the flow: the fence ends after the line ending before it.
        closeFence(f, ls, true);
        markQuotes(containers, le);
        leaf = null;
        break;
      }
      cur.advance(f.indent);
      f.parts.push(f.pendingEol, cur.rest());
      f.pendingEol = eol;
      f.end = le;
      markQuotes(containers, le);
      ls = le + eol.length;
      if (atEof) break;
      continue;
    }
    if (allMatched && leaf && leaf.kind === 'html') {
      if (blank && leaf.type >= 6) leaf = null;
      else {
        const endRe = htmlEnds[leaf.type];
        if (endRe && endRe.test(cur.rest())) leaf = null;
        markQuotes(containers, le);
        ls = le + eol.length;
        if (atEof) break;
        continue;
      }
    }
    // micromark keeps indented code open across blank lines, and while it is open a list item
    // starts only as it could interrupt a paragraph.
    const indentedOpen = allMatched && leaf !== null && leaf.kind === 'indented';
    if (indentedOpen) {
      if (blank || cur.indent().cols >= 4) {
        markQuotes(containers, le);
        ls = le + eol.length;
        if (atEof) break;
        continue;
      }
      leaf = null;
    }

    const paraOpen = leaf !== null && leaf.kind === 'paragraph';
    const interrupt = allMatched && paraOpen;

    // New containers, then at most one leaf start.
    let depth = matched;
    let opened = false;
    const openContainer = (c: Container) => {
      if (!opened) {
        closeFrom(depth, ls, true);
        opened = true;
      } else leaf = null;
      containers.push(c);
      depth = containers.length;
    };
    let newLeaf: Leaf | 'keep' = 'keep';
    let itemBlank = false;
    for (;;) {
      const { cols, at } = cur.indent();
      const rest = s.slice(at);
      const c = s[at];
      if (cols >= 4) {
        if (at < s.length && !(paraOpen && !opened)) {
          // micromark keeps containers that such a line leaves on its stack for a while, which
          // changes what may interrupt on the next lines; leave those texts to the parser.
          if (!allMatched && !opened) return undefined;
          newLeaf = { kind: 'indented' };
        }
        break;
      }
      if (c === '>') {
        const start = ls + at;
        openContainer({ kind: 'quote', start, end: le });
        cur.advance(cols);
        cur.pos = at + 1;
        cur.col++;
        cur.partial = 0;
        if (s[cur.pos] === ' ' || s[cur.pos] === '\t') cur.advance(1);
        continue;
      }
      const canInterrupt = !(interrupt && !opened);
      if (c === '#' && /^#{1,6}(?:[ \t]|$)/.test(rest)) {
        newLeaf = null;
        break;
      }
      const fm = /^(`{3,}|~{3,})(.*)$/.exec(rest);
      if (fm && !(fm[1]![0] === '`' && fm[2]!.includes('`'))) {
        const info = /^[ \t]*([^ \t]*)/.exec(fm[2]!)![1]!;
        newLeaf = { kind: 'fence', char: fm[1]![0]!, length: fm[1]!.length, indent: cols, start: ls + at, line: lineNo, info, parts: [], pendingEol: eol, end: le, depth: 0 };
        break;
      }
      if (c === '<') {
        const type = htmlStart(rest);
        if (type > 0 && (type < 7 || canInterrupt)) {
          const endRe = htmlEnds[type];
          newLeaf = endRe && endRe.test(rest) ? null : { kind: 'html', type };
          break;
        }
      }
      if (!canInterrupt && /^(?:=+|-+)[ \t]*$/.test(rest)) {
        // Setext underline: the paragraph becomes a heading and ends here, unless it holds only
        // definitions; telling those apart is the parser's job.
        if (leaf !== null && leaf.kind === 'paragraph' && leaf.definitions) return undefined;
        newLeaf = null;
        break;
      }
      if ((c === '*' || c === '-' || c === '_') && new RegExp(`^(?:\\${c}[ \\t]*){3,}$`).test(rest)) {
        newLeaf = null;
        break;
      }
      const lm = /^(?:[-+*]|(\d{1,9})[.)])(?=[ \t]|$)/.exec(rest);
      if (lm) {
        const after = rest.slice(lm[0].length);
        const emptyItem = blankRe.test(after);
        // micromark decides whether an item interrupts once per line, before the first new
        // container: an item after a new `>` on a paragraph's next line still counts as one.
        if ((interrupt || indentedOpen) && (emptyItem || (lm[1] !== undefined && lm[1] !== '1'))) break;
        cur.advance(cols);
        cur.pos = at + lm[0].length;
        cur.col += lm[0].length;
        let size = cols + lm[0].length;
        if (emptyItem) size += 1;
        else {
          const spaces = cur.indent().cols;
          if (spaces >= 5) {
            cur.advance(1);
            size += 1;
          } else {
            cur.advance(spaces);
            size += spaces;
          }
        }
        openContainer({ kind: 'item', size, initialBlank: emptyItem, furtherBlank: false });
        if (emptyItem) {
          itemBlank = true;
          break;
        }
        continue;
      }
      break;
    }

    if (!opened && !allMatched) {
      if (paraOpen && !blank) {
        // A lazy line continues the paragraph unless it starts a block. Where micromark puts a
        // block started on a lazy line has corner cases (an HTML block lands inside the
        // quote), so those lines, and underline-like ones, go to the full parser.
        if (newLeaf !== 'keep' || /^[ \t]*(?:=+|-+)[ \t]*$/.test(cur.rest())) return undefined;
        markQuotes(containers, le);
        ls = le + eol.length;
        if (atEof) break;
        continue;
      }
      // Neither continued nor a new container: a lazy line, which closes what it does not continue.
      closeFrom(matched, ls, false);
    }
    if (declined) return undefined;
    const contentBlank = blankRe.test(cur.rest());
    // Where micromark ends the quotes that a last line of bare new container markers closes
    // depends on which marker it is; such an ending is rare enough to leave to the parser.
    if (atEof && opened && contentBlank) return undefined;
    if (newLeaf !== 'keep') {
      if (leaf && leaf.kind === 'fence') closeFence(leaf, leaf.end, false);
      leaf = newLeaf;
      if (leaf && leaf.kind === 'fence') leaf.depth = containers.length;
    } else if (contentBlank || itemBlank) {
      leaf = null;
    } else if (!paraOpen || opened || !allMatched) {
      leaf = { kind: 'paragraph', definitions: /^[ \t]*\[/.test(cur.rest()) };
    }
    markQuotes(containers, le);
    ls = le + eol.length;
    if (atEof) break;
  }

  // The end of the text closes everything still open.
  const openLeaf = leaf as Leaf;
  if (openLeaf && openLeaf.kind === 'fence') closeFence(openLeaf, openLeaf.end, false);
  while (containers.length > 0) {
    const c = containers.pop()!;
    if (c.kind === 'quote') quotes.push({ start: c.start, end: c.end });
  }
  fences.sort((a, b) => a.start - b.start);
  quotes.sort((a, b) => a.start - b.start);
  return { fences, quotes };
}

/** Every open quote now reaches the end of this line. */
function markQuotes(containers: Container[], end: number): void {
  for (const c of containers) if (c.kind === 'quote') c.end = end;
}
