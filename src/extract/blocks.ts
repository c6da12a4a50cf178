/**
 * A line scanner for the part of CommonMark block structure the extractor reads: fenced code
 * (where it starts and ends, its info string, its body without container prefixes) and block
 * quotes, inside any nesting of block quotes and list items. Building a syntax tree for a
 * whole prompt costs two orders of magnitude more than this, and extraction needs none of it.
 *
 * It follows micromark (what remark runs), including where micromark decides positions in its
 * own way:
 * - a fence closed because its container ended keeps the line ending before the next line
 *   only when that line opens a container (or a sibling list item), not when it is a lazy line;
 * - a line that continues some containers but not all (a lazy line) continues an open
 *   paragraph unless it starts a block (ATX heading, fence, thematic break, HTML block,
 *   list item or quote); a block it starts closes the containers it did not continue, except
 *   an HTML block of type 7, which micromark leaves inside them;
 * - micromark moves a container's end back over trailing line endings and indentation: a
 *   quote closed by a new container (or by the end of the text) ends on that line only when
 *   the line continued a quote first, or when what was cut short (a fence, an HTML block of
 *   type 1-5) holds the line ending before it; a quote closed by a sibling list item or a
 *   lazy line ends on the line before.
 *
 * One construct still needs the parser: a setext underline under a paragraph that may be only
 * link reference definitions. The scanner then stops and reports the last line start at which
 * nothing was open before it; the caller parses from there (see `blockStructure`).
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

/**
 * Where a scan stopped short: `offset` is the start of the last line (1-based `line`) at which
 * no container and no block was open, before the line at `at` that the scanner cannot read.
 * The fences and quotes reported with it all end before `offset`.
 */
export interface ScanStop {
  offset: number;
  line: number;
  at: number;
}

export interface ScanResult extends ScannedBlocks {
  stop?: ScanStop;
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
  /** The bullet, or the delimiter of an ordered item: a later item with the same one continues the list. */
  marker: string;
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
  /**
   * Body lines taken whole (outside any container, not indented), not yet in `parts`: from
   * `runFrom` (the line ending before the first of them) to `runTo` (the end of the last), one
   * stretch of the text; `runFrom` is -1 when there are none.
   */
  runFrom: number;
  runTo: number;
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
  /** Where the first character after the whitespace is, as the last `indent()` found it. */
  at = 0;
  s = '';

  /** Starts on line `s`, from its first column: one cursor serves every line of a scan. */
  reset(s: string): this {
    this.s = s;
    this.pos = 0;
    this.col = 0;
    this.partial = 0;
    this.at = 0;
    return this;
  }

  /** Columns of whitespace from here; where the first other character is goes in `at` (no object a call: it runs several times a line). */
  indent(): number {
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
    this.at = i;
    return cols;
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
    const cols = this.indent();
    this.advance(cols);
  }

  /** The rest of the line; a tab consumed in part leaves spaces. */
  rest(): string {
    return this.partial > 0 ? ' '.repeat(this.partial) + this.s.slice(this.pos + 1) : this.s.slice(this.pos);
  }

  /** Where the rest of the line starts in the line: past a tab consumed in part, whose columns left are blank. */
  private restAt(): number {
    return this.pos + (this.partial > 0 ? 1 : 0);
  }

  /** Whether the rest of the line holds only spaces and tabs (`/^[ \t]*$/` of `rest()`, without making it). */
  restBlank(): boolean {
    for (let i = this.restAt(); i < this.s.length; i++) {
      const c = this.s.charCodeAt(i);
      if (c !== 32 && c !== 9) return false;
    }
    return true;
  }

  /** Whether the rest of the line, past spaces and tabs, starts with `[` (`/^[ \t]*\[/` of `rest()`). */
  restOpensBracket(): boolean {
    let i = this.restAt();
    while (i < this.s.length && (this.s.charCodeAt(i) === 32 || this.s.charCodeAt(i) === 9)) i++;
    return this.s.charCodeAt(i) === 91;
  }
}

const lineBreak = /\r\n|\r|\n/g;
const blankRe = /^[ \t]*$/;

const thematicBreak = { '*': /^(?:\*[ \t]*){3,}$/, '-': /^(?:-[ \t]*){3,}$/, _: /^(?:_[ \t]*){3,}$/ };

/** The paragraph a line of prose opens: not one of link reference definitions, which start with `[`. */
const PROSE: Leaf = { kind: 'paragraph', definitions: false };
/** The paragraph a line starting with `[` opens: it may be link reference definitions. */
const MAYBE_DEFINITIONS: Leaf = { kind: 'paragraph', definitions: true };

/**
 * The characters a CommonMark block can start with, after at most three spaces: more space
 * (indented code), a quote, a heading, a fence, HTML, a setext underline or thematic break, a
 * list item, or a link reference definition (which a paragraph starting with `[` may be).
 */
const blockStart = new Uint8Array(128);
for (const c of ' \t>#`~<=-*_+[0123456789') blockStart[c.charCodeAt(0)] = 1;

/** Whether the line `text[ls, le)` starts, after at most three spaces, with a character no block starts with: it is prose. */
function proseAt(text: string, ls: number, le: number): boolean {
  let i = ls;
  while (i < ls + 3 && text.charCodeAt(i) === 32) i++;
  if (i >= le) return false;
  const c = text.charCodeAt(i);
  return c >= 128 || blockStart[c] !== 1;
}

/** Whether the line `text[ls, le)` holds only spaces and tabs. */
function blankAt(text: string, ls: number, le: number): boolean {
  for (let i = ls; i < le; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/**
 * The length of the list item marker at `at` of the line `s` (`-`, `+`, `*`, or one to nine
 * digits then `.` or `)`) followed by a space, a tab or the end of the line; 0 when there is none.
 * What `/^(?:[-+*]|(\d{1,9})([.)]))(?=[ \t]|$)/` matches, read without a match object.
 */
function listMarkerAt(s: string, at: number): number {
  const c = s.charCodeAt(at);
  let end: number;
  if (c === 45 || c === 43 || c === 42) end = at + 1;
  else {
    let i = at;
    while (i < s.length && i - at < 10 && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    const digits = i - at;
    if (digits === 0 || digits > 9 || (s.charCodeAt(i) !== 46 && s.charCodeAt(i) !== 41)) return 0;
    end = i + 1;
  }
  const next = s.charCodeAt(end);
  return end === s.length || next === 32 || next === 9 ? end - at : 0;
}

/** Whether the line `text[ls, le)` starts, after at most three spaces, with `char`: only such a line can close a fence of it. */
function mayCloseAt(text: string, ls: number, le: number, char: string): boolean {
  let i = ls;
  while (i < ls + 3 && text.charCodeAt(i) === 32) i++;
  return i < le && text[i] === char;
}

/** Moves a fence's run of whole lines into its parts. */
function flushRun(text: string, f: OpenFence): void {
  if (f.runFrom === -1) return;
  f.parts.push(text.slice(f.runFrom, f.runTo));
  f.runFrom = -1;
}

/** A fence's body: its parts without the line ending the first starts with and the one the last ends with. */
function fenceValue(parts: readonly string[]): string {
  const body = parts.length === 1 ? parts[0]! : parts.join('');
  let from = 0;
  if (body.charCodeAt(0) === 13) from = body.charCodeAt(1) === 10 ? 2 : 1;
  else if (body.charCodeAt(0) === 10) from = 1;
  let to = body.length;
  if (to > from && body.charCodeAt(to - 1) === 10) to -= to - 1 > from && body.charCodeAt(to - 2) === 13 ? 2 : 1;
  else if (to > from && body.charCodeAt(to - 1) === 13) to -= 1;
  return from === 0 && to === body.length ? body : body.slice(from, to);
}

/** Fences and block quotes of `text`, or `undefined` when some of it needs the full parser. */
export function scanBlocks(text: string): ScannedBlocks | undefined {
  const r = scanBlockRange(text, 0, 1);
  return r.stop ? undefined : { fences: r.fences, quotes: r.quotes };
}

/**
 * Fences and block quotes of `text` from offset `from` (the start of line `firstLine`, where
 * nothing is open) to the end, or to where the scan stopped (`stop`). Tests pass `stopAt` to
 * make the scan stop at the first line that starts there or later.
 */
export function scanBlockRange(text: string, from: number, firstLine: number, stopAt = Infinity): ScanResult {
  const fences: ScannedFence[] = [];
  const quotes: Array<{ start: number; end: number }> = [];
  const containers: Container[] = [];
  let leaf: Leaf = null;
  let lineNo = firstLine - 1;
  let ls = from;
  // The last line start at which nothing was open (kept as numbers: it moves on most lines).
  let resetOffset = from;
  let resetLine = firstLine;
  let resetFences = 0;
  let resetQuotes = 0;

  const done = (stop?: ScanStop): ScanResult => {
    fences.sort((a, b) => a.start - b.start);
    quotes.sort((a, b) => a.start - b.start);
    return stop ? { fences, quotes, stop } : { fences, quotes };
  };
  /** Give up on this line: report what lies before the last point where nothing was open. */
  const stopHere = (): ScanResult => {
    fences.length = resetFences;
    quotes.length = resetQuotes;
    return done({ offset: resetOffset, line: resetLine, at: ls });
  };

  const closeFence = (f: OpenFence, end: number, keepEol: boolean) => {
    flushRun(text, f);
    if (keepEol) f.parts.push(f.pendingEol);
    const value = fenceValue(f.parts);
    fences.push({ start: f.start, end, info: f.info, value: value.includes('\0') ? value.replace(/\0/g, '\uFFFD') : value, line: f.line });
  };
  /**
   * Close containers from `depth` on (and the leaf when it sits inside them). `flowClosed`: the
   * line opens a container or a sibling item, which ends the flow after the previous line's
   * line ending; otherwise the line is lazy and what it does not continue ends with the
   * previous line's content. Quotes end where `quoteEnd` says, else on their last line.
   */
  const closeFrom = (depth: number, lineStart: number, flowClosed: boolean, quoteEnd?: number) => {
    if (leaf && leaf.kind === 'fence') {
      if (leaf.depth > depth) {
        closeFence(leaf, flowClosed ? lineStart : leaf.end, flowClosed);
        leaf = null;
      }
    } else if (leaf && depth < containers.length) leaf = null;
    while (containers.length > depth) {
      const c = containers.pop()!;
      if (c.kind === 'quote') quotes.push({ start: c.start, end: quoteEnd ?? c.end });
    }
  };

  // The line's state that opening a container reads and moves on. Kept here, not in the loop, so
  // that the closure below is made once, not once a line with a context of its own.
  /** How many open containers the line continues. */
  let matched = 0;
  /** Containers open after what the line opened so far. */
  let depth = 0;
  /** Whether the line opened a container yet. */
  let opened = false;
  /** Whether a quote marker is among the prefixes the line continued, and where they end. */
  let quotePrefix = false;
  let prefixEnd = 0;
  const openContainer = (c: Container) => {
    if (!opened) {
      // An item like the one this line does not continue is the next item of its list:
      // micromark continues the list and closes what the old item held as on a lazy line.
      const next = containers[matched];
      const sibling = next !== undefined && next.kind === 'item' && c.kind === 'item' && next.marker === c.marker;
      // A fence or an HTML block of type 1-5 that the new container cuts short holds the line
      // ending before this line, and then the closed containers end on this line too.
      const heldEol = leaf !== null && (leaf.kind === 'fence' || (leaf.kind === 'html' && leaf.type <= 5));
      closeFrom(depth, ls, true, sibling || !(quotePrefix || heldEol) ? undefined : prefixEnd);
      opened = true;
    } else leaf = null;
    containers.push(c);
    depth = containers.length;
  };

  const cursor = new Cursor();
  // Lines end in `\n` alone unless the text holds a `\r`: then the regular expression finds each end.
  const lf = !text.includes('\r', from);
  while (ls <= text.length) {
    if (containers.length === 0 && leaf === null) {
      resetOffset = ls;
      resetLine = lineNo + 1;
      resetFences = fences.length;
      resetQuotes = quotes.length;
    }
    if (ls >= stopAt) return stopHere();
    let le: number;
    let eol: string;
    if (lf) {
      le = text.indexOf('\n', ls);
      eol = le === -1 ? '' : '\n';
      if (le === -1) le = text.length;
    } else {
      lineBreak.lastIndex = ls;
      const m = lineBreak.exec(text);
      le = m ? m.index : text.length;
      eol = m ? m[0] : '';
    }
    lineNo++;
    const atEof = eol === '';
    // Most lines of a prompt are prose outside any container: a line that starts (after at most
    // three spaces) with a character no block starts with opens a paragraph or continues one,
    // and a blank line ends it. Neither needs the line as a string.
    if (containers.length === 0 && (leaf === null || leaf.kind === 'paragraph')) {
      if (proseAt(text, ls, le)) {
        leaf ??= PROSE;
        ls = le + eol.length;
        if (atEof) break;
        continue;
      }
      if (blankAt(text, ls, le)) {
        leaf = null;
        ls = le + eol.length;
        if (atEof) break;
        continue;
      }
    }
    // Likewise the body of a fence outside any container, indented by nothing: a line that does
    // not start (after at most three spaces) with the fence's character cannot close it. Such
    // lines are one stretch of the text, taken in one piece when the fence needs its body.
    if (containers.length === 0 && leaf !== null && leaf.kind === 'fence' && leaf.indent === 0 && !(atEof && le === ls) && !mayCloseAt(text, ls, le, leaf.char)) {
      if (leaf.runFrom === -1) leaf.runFrom = ls - leaf.pendingEol.length;
      leaf.runTo = le;
      leaf.pendingEol = eol;
      leaf.end = le;
      ls = le + eol.length;
      if (atEof) break;
      continue;
    }
    const s = text.slice(ls, le);
    const cur = cursor.reset(s);

    // Which open containers this line continues.
    matched = 0;
    for (; matched < containers.length; matched++) {
      const c = containers[matched]!;
      if (c.kind === 'quote') {
        const cols = cur.indent();
        const at = cur.at;
        if (cols > 3 || s[at] !== '>') break;
        cur.advance(cols);
        cur.pos = at + 1;
        cur.col++;
        cur.partial = 0;
        if (s[cur.pos] === ' ' || s[cur.pos] === '\t') cur.advance(1);
      } else {
        const restBlank = cur.restBlank();
        if (restBlank) {
          c.furtherBlank = c.furtherBlank || c.initialBlank;
          cur.advance(c.size);
        } else {
          const cols = cur.indent();
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
    const blank = cur.restBlank();
    // A container that micromark closes where this line's continued prefixes end ends on this
    // line when a quote marker is among those prefixes; otherwise its end moves back over the
    // line ending (and whitespace) to the line before.
    quotePrefix = false;
    for (let i = 0; i < matched; i++) if (containers[i]!.kind === 'quote') quotePrefix = true;
    prefixEnd = ls + cur.pos + (cur.partial > 0 ? 1 : 0);

    if (atEof && blank && !allMatched && cur.rest() === '') {
      // The text ends right after the prefixes of the containers this line continues: micromark
      // closes everything where the text ends, without handing the flow a lazy line.
      closeFrom(matched, ls, false, quotePrefix ? prefixEnd : undefined);
      markQuotes(containers, le);
      break;
    }

    // A fence, HTML block or indented code in fully continued containers takes the line as it is.
    if (allMatched && leaf && leaf.kind === 'fence') {
      const f = leaf;
      const cols = cur.indent();
      const at = cur.at;
      if (cols <= 3) {
        let k = at;
        while (s[k] === f.char) k++;
        if (k - at >= f.length && blankRe.test(s.slice(k))) {
          flushRun(text, f);
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
      flushRun(text, f);
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
      if (blank || cur.indent() >= 4) {
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
    depth = matched;
    opened = false;
    let newLeaf: Leaf | 'keep' = 'keep';
    let itemBlank = false;
    /** Indented code on a lazy line: micromark ends it on that line. */
    let lazyCode = false;
    for (;;) {
      const cols = cur.indent();
      const at = cur.at;
      const c = s[at];
      if (cols >= 4) {
        if (at < s.length && !(paraOpen && !opened)) {
          if (!allMatched && !opened) lazyCode = true;
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
      // No block starts with any other character: the line's text is not needed (most lines in a container are prose).
      if (c === undefined || c.charCodeAt(0) >= 128 || blockStart[c.charCodeAt(0)] !== 1) break;
      const rest = s.slice(at);
      const canInterrupt = !(interrupt && !opened);
      if (c === '#' && /^#{1,6}(?:[ \t]|$)/.test(rest)) {
        newLeaf = null;
        break;
      }
      // Each test below needs its construct's first character: no regular expression runs without it.
      const fm = c === '`' || c === '~' ? /^(`{3,}|~{3,})(.*)$/.exec(rest) : null;
      if (fm && !(fm[1]![0] === '`' && fm[2]!.includes('`'))) {
        const info = /^[ \t]*([^ \t]*)/.exec(fm[2]!)![1]!;
        newLeaf = { kind: 'fence', char: fm[1]![0]!, length: fm[1]!.length, indent: cols, start: ls + at, line: lineNo, info, parts: [], runFrom: -1, runTo: -1, pendingEol: eol, end: le, depth: 0 };
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
      if (!canInterrupt && (c === '=' || c === '-') && /^(?:=+|-+)[ \t]*$/.test(rest)) {
        // Setext underline: the paragraph becomes a heading and ends here, unless it holds only
        // definitions: then `===` starts a paragraph, and `---` is a thematic break (which ends
        // the paragraph all the same). Telling definitions apart is the parser's job.
        if (leaf !== null && leaf.kind === 'paragraph' && leaf.definitions && !/^-{3}/.test(rest)) return stopHere();
        newLeaf = null;
        break;
      }
      if ((c === '*' || c === '-' || c === '_') && thematicBreak[c].test(rest)) {
        newLeaf = null;
        break;
      }
      const markerLength = listMarkerAt(s, at);
      if (markerLength > 0) {
        const ordered = c !== '-' && c !== '+' && c !== '*';
        const emptyItem = blankAt(s, at + markerLength, s.length);
        // micromark decides whether an item interrupts once per line, before the first new
        // container: an item after a new `>` on a paragraph's next line still counts as one.
        if ((interrupt || indentedOpen) && (emptyItem || (ordered && !(markerLength === 2 && c === '1')))) break;
        cur.advance(cols);
        cur.pos = at + markerLength;
        cur.col += markerLength;
        let size = cols + markerLength;
        if (emptyItem) size += 1;
        else {
          const spaces = cur.indent();
          if (spaces >= 5) {
            cur.advance(1);
            size += 1;
          } else {
            cur.advance(spaces);
            size += spaces;
          }
        }
        openContainer({ kind: 'item', size, initialBlank: emptyItem, furtherBlank: false, marker: ordered ? s[at + markerLength - 1]! : c });
        if (emptyItem) {
          itemBlank = true;
          break;
        }
        continue;
      }
      break;
    }

    if (!opened && !allMatched) {
      // A lazy line: it continues the containers' paragraph unless it starts a block.
      if (paraOpen && !blank) {
        if (newLeaf !== 'keep' && newLeaf !== null && newLeaf.kind === 'html' && newLeaf.type === 7 && !atEof) {
          // micromark tries an HTML block of type 7 as an interruption of the paragraph until
          // it has seen the next line, so the containers stay open around the block.
          leaf = newLeaf;
          markQuotes(containers, le);
          ls = le + eol.length;
          continue;
        }
        if (newLeaf === 'keep') {
          markQuotes(containers, le);
          ls = le + eol.length;
          if (atEof) break;
          continue;
        }
      }
      // What the line does not continue ends before it.
      closeFrom(matched, ls, false);
      if (lazyCode) newLeaf = null;
    }
    const contentBlank = cur.restBlank();
    if (newLeaf !== 'keep') {
      if (leaf && leaf.kind === 'fence') closeFence(leaf, leaf.end, false);
      leaf = newLeaf;
      if (leaf && leaf.kind === 'fence') leaf.depth = containers.length;
    } else if (contentBlank || itemBlank) {
      leaf = null;
    } else if (!paraOpen || opened || !allMatched) {
      leaf = cur.restOpensBracket() ? MAYBE_DEFINITIONS : PROSE;
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
  return done();
}

/** Every open quote now reaches the end of this line. */
function markQuotes(containers: Container[], end: number): void {
  for (const c of containers) if (c.kind === 'quote') c.end = end;
}
