/**
 * The block structure the extractor needs from markdown: fenced code blocks (wherever they
 * sit: lists, block quotes) and block quotes (whose `>` markers are not part of what a
 * tag holds). Inline markup is never needed. The fast path reads lines with a block scanner
 * that follows micromark; where the scanner declines a text, micromark itself runs with
 * inline constructs turned off. Both give what the full remark parse gives.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { scanBlocks } from './blocks.js';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

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
  const root = fromMarkdown(`~~~ ${info}`, { extensions: [blockOnly] }) as unknown as MdNode;
  return (root.children?.[0]?.lang ?? '').toLowerCase();
}

function parseTree(text: string, mode: ParseMode): MdNode {
  if (mode === 'full') return unified().use(remarkParse).parse(text) as unknown as MdNode;
  return fromMarkdown(text, { extensions: [blockOnly] }) as unknown as MdNode;
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
 * Fences and block quotes of `text`. Texts without a fence marker or a block-quote line
 * skip the parse: they have neither.
 */
export function blockStructure(text: string, mode: ParseMode): Structure {
  const structure: Structure = { fences: [], quotes: [] };
  if (mode === 'fast' && !text.includes('```') && !text.includes('~~~') && !/^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*>/m.test(text)) {
    return structure;
  }
  if (mode === 'fast') {
    const scanned = scanBlocks(text);
    if (scanned) {
      for (const f of scanned.fences) {
        structure.fences.push({ start: f.start, end: f.end, lang: decodeLang(f.info), value: f.value, line: f.line, closed: isClosed(text, f.start, f.end) });
      }
      structure.quotes = scanned.quotes;
      return structure;
    }
  }
  const root = parseTree(text, mode);
  const stack: MdNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (node.type === 'code' && start !== undefined && end !== undefined && (text[start] === '`' || text[start] === '~')) {
      structure.fences.push({
        start,
        end,
        lang: (node.lang ?? '').toLowerCase(),
        value: node.value ?? '',
        line: node.position!.start.line,
        closed: isClosed(text, start, end),
      });
    } else if (node.type === 'blockquote' && start !== undefined && end !== undefined) {
      structure.quotes.push({ start, end });
    }
    if (node.children) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  structure.fences.sort((a, b) => a.start - b.start);
  return structure;
}
