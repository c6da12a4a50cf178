import { handlebars } from './handlebars-lib.js';
import { errorMessage, InputError } from '../util/errors.js';
import { LineIndex } from '../util/lines.js';
import { suggestName } from '../util/suggest.js';

/**
 * Template errors in plain words, at the file line and column where they are written.
 *
 * Handlebars reports a syntax error as its parser sees it ("Expecting 'CLOSE', 'ID', ...,
 * got 'CLOSE_UNESCAPED'"), on a line counted from the start of the template body, and an
 * unclosed block at the end of the text. Here a failed parse is run again on a private copy
 * of Handlebars' parser that keeps the position of the token it stopped at, and the
 * template's tags (its `{{...}}`, read with Handlebars' own lexer) say which block is open
 * where: the error is told at the tag that caused it, in the words a template author uses.
 */

/** Where a template body sits in its file: its path as shown, and the file line of its first character. */
export interface BodyPlace {
  file: string;
  body: string;
  bodyLine: number;
}

interface JisonLexer {
  setInput(input: string): void;
  lex(): number | string | undefined;
  yylloc: { range?: [number, number] };
  options: Record<string, unknown>;
  yy: unknown;
}

interface JisonParser {
  lexer: JisonLexer;
  yy: Record<string, unknown>;
  terminals_: Record<number, string>;
  parse(input: string): unknown;
}

/** Handlebars' parser, whose tables the lexer and parser below share. */
const parserOf = (): JisonParser => (handlebars() as unknown as { Parser: JisonParser }).Parser;

/** A lexer of our own over Handlebars' lexer tables, with character offsets; Handlebars' own is left untouched. */
function privateLexer(): JisonLexer {
  const shared = parserOf().lexer;
  const lexer = Object.create(shared) as JisonLexer;
  lexer.options = { ...shared.options, ranges: true };
  lexer.yy = {};
  return lexer;
}

interface Token {
  type: string;
  start: number;
  end: number;
}

const OPENS = new Set(['OPEN', 'OPEN_UNESCAPED', 'OPEN_BLOCK', 'OPEN_INVERSE', 'OPEN_INVERSE_CHAIN', 'OPEN_ENDBLOCK', 'OPEN_PARTIAL', 'OPEN_PARTIAL_BLOCK', 'OPEN_RAW_BLOCK']);
const CLOSES = new Set(['CLOSE', 'CLOSE_UNESCAPED', 'CLOSE_RAW_BLOCK']);
const WHOLE = new Set(['INVERSE', 'COMMENT', 'END_RAW_BLOCK']);
const BLOCK_OPENS = new Set(['OPEN_BLOCK', 'OPEN_INVERSE', 'OPEN_PARTIAL_BLOCK']);

/** One `{{...}}` of a template: its opening token, what is inside, and its closing token when it has one. */
interface Tag {
  open: Token;
  inner: Token[];
  close?: Token;
  /** The block or helper name: `each` in `{{#each examples}}` and in `{{/each}}`. */
  name?: string;
}

/** The tokens of a body, as Handlebars' lexer reads them; `stopped` is set when the lexer gave up there. */
function tokenize(body: string): { tokens: Token[]; stopped?: number } {
  const lexer = privateLexer();
  const { terminals_ } = parserOf();
  lexer.setInput(body);
  const tokens: Token[] = [];
  // Every token but the end consumes at least one character.
  for (let guard = 0; guard <= body.length + 1; guard++) {
    let symbol: number | string | undefined;
    try {
      symbol = lexer.lex();
    } catch {
      return { tokens, stopped: tokens.at(-1)?.end ?? 0 };
    }
    const type = typeof symbol === 'number' ? (terminals_[symbol] ?? String(symbol)) : String(symbol);
    if (symbol === 1 || type === 'EOF' || symbol === undefined) break;
    const range = lexer.yylloc.range ?? [0, 0];
    tokens.push({ type, start: range[0], end: range[1] });
  }
  return { tokens };
}

/** Groups tokens into tags. A tag left open when the next one starts has no `close`. */
function tagsOf(body: string, tokens: Token[]): Tag[] {
  const tags: Tag[] = [];
  let current: Tag | undefined;
  for (const token of tokens) {
    if (OPENS.has(token.type) || WHOLE.has(token.type)) {
      current = { open: token, inner: [] };
      tags.push(current);
      if (WHOLE.has(token.type)) current = undefined;
      continue;
    }
    if (!current) continue;
    if (CLOSES.has(token.type)) {
      current.close = token;
      current = undefined;
    } else current.inner.push(token);
  }
  for (const tag of tags) {
    // The first path: `each`, `foo.bar`, `@root.x` (`{{#*inline "name"}}` closes with `{{/inline}}`).
    const path: string[] = [];
    let i = 0;
    if (tag.inner[0]?.type === 'DATA') path.push(body.slice(tag.inner[0].start, tag.inner[0].end)), i++;
    for (let wantId = true; i < tag.inner.length; i++, wantId = !wantId) {
      const token = tag.inner[i]!;
      if (token.type !== (wantId ? 'ID' : 'SEP')) break;
      path.push(body.slice(token.start, token.end));
    }
    if (path.length > 0 && path.at(-1) !== '.' && path.at(-1) !== '/') tag.name = path.join('');
  }
  return tags;
}

const isBlockOpen = (tag: Tag): boolean => BLOCK_OPENS.has(tag.open.type);
const isBlockClose = (tag: Tag): boolean => tag.open.type === 'OPEN_ENDBLOCK';

/** The first place the tags do not nest, and the blocks still open at the end. */
function nesting(tags: Tag[]): { stray?: Tag; mismatch?: { open: Tag; close: Tag }; open: Tag[] } {
  const stack: Tag[] = [];
  for (const tag of tags) {
    if (isBlockOpen(tag)) stack.push(tag);
    else if (isBlockClose(tag)) {
      const top = stack.pop();
      if (!top) return { stray: tag, open: stack };
      if (top.name !== tag.name) return { mismatch: { open: top, close: tag }, open: [...stack, top] };
    }
  }
  return { open: stack };
}

/** Text to quote in a message: one line at most, and not too long. */
function quoteText(text: string): string {
  const line = text.split('\n')[0]!.trimEnd();
  const short = line.length > 60 ? `${line.slice(0, 57)}...` : line;
  return short.includes('`') ? `"${short}"` : `\`${short}\``;
}

function tagText(body: string, tag: Tag): string {
  return body.slice(tag.open.start, tag.close ? tag.close.end : (tag.inner.at(-1)?.end ?? tag.open.end));
}

/** What a token is, in words. */
function describe(type: string | null, text: string): string {
  switch (type) {
    case 'EOF':
      return 'the end of the file';
    case 'CLOSE':
      return '`}}`';
    case 'CLOSE_UNESCAPED':
      return '`}}}`';
    case 'CLOSE_RAW_BLOCK':
      return '`}}}}`';
    case 'CLOSE_SEXPR':
      return '`)`';
    case 'OPEN_SEXPR':
      return '`(`';
    case 'EQUALS':
      return '`=`';
    case 'SEP':
      return `\`${text}\``;
    case 'ID':
      return `the name ${quoteText(text)}`;
    case 'STRING':
      return `the string ${quoteText(text)}`;
    case 'NUMBER':
      return `the number ${quoteText(text)}`;
    default:
      return text === '' ? 'nothing' : quoteText(text);
  }
}

const VALUE_TOKENS = ['ID', 'STRING', 'NUMBER', 'BOOLEAN', 'UNDEFINED', 'NULL', 'DATA', 'OPEN_SEXPR'];
const EXPECTED_WORDS: Record<string, string> = {
  CLOSE: '`}}`',
  CLOSE_UNESCAPED: '`}}}`',
  CLOSE_RAW_BLOCK: '`}}}}`',
  CLOSE_SEXPR: '`)`',
  EQUALS: '`=`',
  SEP: '`.`',
  OPEN_BLOCK_PARAMS: '`as |name|`',
  CLOSE_BLOCK_PARAMS: '`|`',
  EOF: 'the end of the file',
  OPEN_ENDBLOCK: 'a closing `{{/...}}`',
  INVERSE: '`{{else}}`',
  OPEN_INVERSE_CHAIN: '`{{else ...}}`',
};

/** The parser's list of expected tokens, in words: "a name, a string, a number ... or `}}`". */
function expectedWords(expected: string[]): string {
  const words: string[] = [];
  const values = VALUE_TOKENS.filter((t) => expected.includes(t));
  if (values.length >= 3) words.push('a value (a name, a string, a number, `true`, `false`, `null`, an `@` variable or a `(helper ...)`)');
  else if (values.includes('ID')) words.push('a name');
  for (const t of expected) {
    if (VALUE_TOKENS.includes(t)) continue;
    const word = EXPECTED_WORDS[t];
    if (word && !words.includes(word)) words.push(word);
  }
  if (words.length === 0) return 'the rest of the tag';
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** What the parser stopped at: the token, where it is, and what it would have taken there. */
type Failure =
  | { kind: 'parse'; token: string | null; expected: string[]; start: number; end: number; message: string }
  | { kind: 'exception'; message: string; line?: number; column?: number };

/** Parses again on a private parser that keeps the position of the token the parse failed at. */
function diagnose(body: string, error: unknown): Failure {
  const shared = parserOf();
  const yy = Object.create(shared.yy) as Record<string, unknown>;
  const lexer = privateLexer();
  const parser = Object.create(shared) as JisonParser;
  parser.lexer = lexer;
  parser.yy = yy;
  let failure: Failure | undefined;
  yy.parseError = (message: string, hash?: { token?: string | null; expected?: string[] }) => {
    const range = lexer.yylloc.range ?? [0, 0];
    failure = { kind: 'parse', token: hash?.token ?? null, expected: (hash?.expected ?? []).map((e) => e.replace(/^'|'$/g, '')), start: range[0], end: range[1], message };
    throw new Error(message);
  };
  try {
    parser.parse(body);
  } catch (again) {
    if (failure) return failure;
    const e = again as { lineNumber?: unknown; column?: unknown };
    return { kind: 'exception', message: errorMessage(again), ...(typeof e.lineNumber === 'number' ? { line: e.lineNumber } : {}), ...(typeof e.column === 'number' ? { column: e.column } : {}) };
  }
  // The private parse passed where Handlebars' failed: report Handlebars' own message.
  return { kind: 'exception', message: errorMessage(error) };
}

/** Turns body offsets into file positions, and builds the error. */
class Place {
  readonly #lines: LineIndex;
  constructor(readonly source: BodyPlace) {
    this.#lines = new LineIndex(source.body);
  }

  at(offset: number): { line: number; column: number } {
    const at = this.#lines.at(Math.max(0, Math.min(offset, this.source.body.length)));
    return { line: at.line + this.source.bodyLine - 1, column: at.column };
  }

  /** A Handlebars `loc` (1-based body line, 0-based column) as a file position. */
  loc(line: number, column: number): { line: number; column: number } {
    return { line: line + this.source.bodyLine - 1, column: column + 1 };
  }

  /** The body offset of a Handlebars `loc` position. */
  offset(line: number, column: number): number {
    return this.#lines.lineStart(line) + column;
  }

  error(code: string, message: string, at: { line: number; column: number }, cause?: unknown): InputError {
    return new InputError(code, message, { file: this.source.file, line: at.line, column: at.column }, cause === undefined ? undefined : { cause });
  }
}

/** An unterminated `{{`: the tag has no `}}` before the next tag or the end of the file. */
function unterminated(body: string, tags: Tag[], tag: Tag, place: Place, cause: unknown): InputError {
  const next = tags[tags.indexOf(tag) + 1];
  const closer = tag.open.type === 'OPEN_UNESCAPED' ? '}}}' : tag.open.type === 'OPEN_RAW_BLOCK' ? '}}}}' : '}}';
  const where = next ? `before the next \`{{\` at line ${place.at(next.open.start).line}` : 'before the end of the file';
  return place.error('render/syntax', `Unterminated ${quoteText(tagText(body, tag))}: expected \`${closer}\` to close it ${where}`, place.at(tag.open.start), cause);
}

/** The tag a body offset falls in, if any. */
function tagAt(tags: Tag[], offset: number): Tag | undefined {
  let found: Tag | undefined;
  for (const tag of tags) {
    if (tag.open.start > offset) break;
    const end = tag.close?.end ?? Number.POSITIVE_INFINITY;
    if (offset < end || offset === tag.open.start) found = tag;
  }
  return found;
}

const opener = (body: string, tag: Tag): string => body.slice(tag.open.start, tag.open.end);

/**
 * The InputError for a template that does not parse: in words, at the file line and column
 * of the tag that causes it (the opening of an unclosed block, the `}}}` that ends a
 * `{{` tag, the `{{/...}}` that closes the wrong block).
 */
export function templateSyntaxError(source: BodyPlace, error: unknown): InputError {
  // Handlebars' lexer reads a name only before a space or a delimiter: at the very end of a
  // body (trimmed after its frontmatter, as dotprompt does) a name in an open tag would be an
  // unreadable character. Read with a line end after it, as the file has.
  const body = source.body === '' || /\s$/.test(source.body) ? source.body : `${source.body}\n`;
  const place = new Place(source);
  const failure = diagnose(body, error);
  const { tokens } = tokenize(body);
  const tags = tagsOf(body, tokens);
  const nest = nesting(tags);
  const syntax = (message: string, offset: number): InputError => place.error('render/syntax', message, place.at(offset), error);
  const blockTag = (tag: Tag): string => quoteText(tagText(body, tag));

  if (failure.kind === 'exception') {
    if (nest.mismatch) {
      const { open, close } = nest.mismatch;
      const at = place.at(open.open.start);
      return syntax(`${quoteText(tagText(body, close))} closes ${quoteText(tagText(body, open))}, opened at line ${at.line}; expected \`{{/${open.name ?? ''}}}\` before it`, close.open.start);
    }
    const message = failure.message.replace(/ - \d+:\d+$/, '');
    const at = failure.line === undefined ? place.at(0) : place.loc(failure.line, failure.column ?? 0);
    return place.error('render/syntax', `Template syntax error: ${message}`, at, error);
  }

  const { token, expected, start } = failure;
  const current = tagAt(tags, start);

  // The lexer gave up: an unclosed comment or raw block.
  if (token === null) {
    const comment = tags.find((t) => t.open.start >= start && /^\{\{~?!/.test(body.slice(t.open.start)));
    const commentAt = /\{\{~?!--/.exec(body.slice(start));
    if (comment || commentAt) {
      const offset = commentAt ? start + commentAt.index : comment!.open.start;
      return syntax('Unclosed comment `{{!--`: expected `--}}` to end it before the end of the file', offset);
    }
    const raw = [...tags].reverse().find((t) => t.open.type === 'OPEN_RAW_BLOCK');
    if (raw) return syntax(`Unclosed raw block ${quoteText(tagText(body, raw))}: expected \`{{{{/${raw.name ?? ''}}}}}\` before the end of the file`, raw.open.start);
    return syntax(`Unexpected text the template language cannot read: ${quoteText(body.slice(start, start + 20))}`, start);
  }

  // A new `{{` (or the end of the file) inside a tag: that tag is missing its `}}`.
  if (token === 'EOF' || OPENS.has(token) || WHOLE.has(token)) {
    const before = tags.filter((t) => t.open.start < start).at(-1);
    if (before && !before.close && !WHOLE.has(before.open.type)) return unterminated(body, tags, before, place, error);
  }

  if (token === 'EOF') {
    const innermost = nest.open.at(-1);
    if (innermost) {
      const others = nest.open.slice(0, -1).map((t) => `${blockTag(t)} at line ${place.at(t.open.start).line}`);
      const also = others.length === 0 ? '' : ` (also unclosed: ${others.join(', ')})`;
      return syntax(`Unclosed ${quoteText(tagText(body, innermost))} opened here; expected \`{{/${innermost.name ?? ''}}}\` before the end of the file${also}`, innermost.open.start);
    }
    return syntax(`Unexpected end of the file; expected ${expectedWords(expected)}`, start);
  }

  if (token === 'OPEN_ENDBLOCK' && current) {
    if (nest.stray === current || !nest.open.length) {
      const name = current.name ?? '';
      return syntax(`Unexpected ${quoteText(tagText(body, current))}: no block is open here; expected a \`{{#${name} ...}}\` before it, or remove it`, current.open.start);
    }
  }

  if ((token === 'INVERSE' || token === 'OPEN_INVERSE_CHAIN') && current) {
    const text = quoteText(tagText(body, current));
    const inside = nesting(tags.filter((t) => t.open.start < start)).open.at(-1);
    if (!inside) {
      return syntax(`Unexpected ${text} outside a block; expected it between a block's opening and closing tags, as in \`{{#if ready}}...{{else}}...{{/if}}\``, current.open.start);
    }
    return syntax(`Unexpected ${text}: ${blockTag(inside)}, opened at line ${place.at(inside.open.start).line}, already has its \`{{else}}\`; expected \`{{/${inside.name ?? ''}}}\` first, or \`{{else if ...}}\` to chain a condition`, current.open.start);
  }

  if (token === 'CLOSE_UNESCAPED' && current && current.open.type !== 'OPEN_UNESCAPED') {
    const intended = `${body.slice(current.open.start, start)}}}`;
    const spaced = `${body.slice(current.open.start, start)}~}} }`;
    return syntax(
      `Unexpected \`}}}\` closing ${quoteText(intended)}: a third \`}\` ends a triple-stash \`{{{...}}}\`; expected \`}}\` (for a literal \`}\` after the value, put a space before the brace: ${quoteText(spaced)}, where \`~\` removes that space)`,
      start,
    );
  }

  if (token === 'CLOSE' && current?.open.type === 'OPEN_UNESCAPED') {
    return syntax(`Unclosed triple-stash ${quoteText(tagText(body, current))}: \`{{{\` ends with \`}}}\`; expected \`}}}\` here (or \`{{...}}\`: escaping is off, the two print the same)`, start);
  }

  if (current && (current.open.type === 'OPEN_PARTIAL' || current.open.type === 'OPEN_PARTIAL_BLOCK') && current.inner.every((t) => t.start >= start)) {
    return syntax(`Expected a partial name after \`${opener(body, current).trim()}\` in ${quoteText(tagText(body, current))}: the name of a \`_name.prompt\` file, as in \`{{> tool_call_json this}}\``, start);
  }

  if (token === 'CLOSE' && current && current.inner.length === 0) {
    const open = opener(body, current).replace(/\s+$/, '');
    const what = current.open.type === 'OPEN' ? 'a variable or helper name' : current.open.type === 'OPEN_ENDBLOCK' ? 'the name of the block it closes' : 'a helper name';
    return syntax(`Empty \`${open}}}\`: expected ${what} between the braces`, current.open.start);
  }

  const found = body.slice(start, failure.end);
  const within = current ? ` in ${quoteText(tagText(body, current))}` : '';
  return syntax(`Unexpected ${describe(token, found)}${within}; expected ${expectedWords(expected)}`, start);
}

type AstNode = {
  type: string;
  loc?: { start: { line: number; column: number }; end: { line: number; column: number } };
  [key: string]: unknown;
};

/** Handlebars' own helpers, as `Handlebars.create().helpers` lists them (test/render/errors.test.ts compares). */
export const builtInHelpers: readonly string[] = ['blockHelperMissing', 'each', 'helperMissing', 'if', 'unless', 'log', 'lookup', 'with'];
/** Names every prompt module's Handlebars knows: its built-ins and dotprompt's `json`, `ifEquals`, `unlessEquals`, `role`, `history`, `media`, `section`. */
export const knownHelpers: ReadonlySet<string> = new Set([...builtInHelpers, 'json', 'ifEquals', 'unlessEquals', 'role', 'history', 'media', 'section']);
const listed = [...knownHelpers].filter((h) => h !== 'helperMissing' && h !== 'blockHelperMissing').sort();
/** How many arguments each helper takes, when the number is fixed. */
const arity: Record<string, number> = { json: 1, ifEquals: 2, unlessEquals: 2, each: 1, if: 1, unless: 1, with: 1, lookup: 2, role: 1, history: 0, media: 0, section: 1 };

/** Expressions one template (or partial) may hold: at the limit a check takes about 3 s and 370 MB, against a few hundred expressions in a large real prompt. */
export const MAX_TEMPLATE_EXPRESSIONS = 10_000;

/**
 * Checks what Handlebars only finds when a branch runs, or reports without a place: a call
 * of a helper that does not exist (`{{jsno value}}`, `{{customer.name x}}`), a helper given
 * the wrong number of arguments (`{{#each}}`, `{{json}}`), a partial given two contexts, a
 * decorator other than `inline`, and a template too large to compile. Prompt modules have a
 * fixed set of helpers and their data comes from YAML, which holds no functions, so each of
 * these fails whenever it runs.
 */
export function checkTemplate(program: { body: unknown[] }, source: BodyPlace): void {
  const place = new Place(source);
  const text = (node: AstNode): string => {
    if (!node.loc) return '';
    return source.body.slice(place.offset(node.loc.start.line, node.loc.start.column), place.offset(node.loc.end.line, node.loc.end.column));
  };
  const at = (node: AstNode): { line: number; column: number } => (node.loc ? place.loc(node.loc.start.line, node.loc.start.column) : place.at(0));
  let expressions = 0;
  const visit = (node: unknown, inside?: AstNode): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child, inside);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const n = node as AstNode;
    const statement = n.type === 'MustacheStatement' || n.type === 'BlockStatement' || n.type === 'SubExpression' || n.type === 'Decorator' || n.type === 'DecoratorBlock';
    if (statement || n.type === 'PartialStatement' || n.type === 'PartialBlockStatement') {
      // Handlebars compiles a template into one function: tens of thousands of expressions take gigabytes to compile.
      if (++expressions > MAX_TEMPLATE_EXPRESSIONS) {
        throw place.error('render/template-too-large', `Unexpected template of more than ${MAX_TEMPLATE_EXPRESSIONS.toLocaleString('en-US')} expressions (\`{{...}}\`), expected fewer: Handlebars compiles a template into one function, which this one would make too large to build; move repeated parts into partials, or data into examples, stubs and cases`, at(n));
      }
    }
    if (statement) check(n, inside ?? n);
    if (n.type === 'PartialStatement' || n.type === 'PartialBlockStatement') {
      const params = (n.params as AstNode[] | undefined) ?? [];
      if (params.length > 1) {
        throw place.error('render/syntax', `${quoteText(text(n))} passes ${params.length} contexts to a partial, which takes one; expected \`{{> name context}}\`, with more values as \`key=value\` pairs`, at(params[1]!));
      }
    }
    for (const key of ['path', 'params', 'hash', 'pairs', 'value', 'program', 'inverse', 'body', 'name']) {
      const child = n[key];
      // Inside a block's body, statements are shown on their own; a subexpression with its statement.
      if (child && typeof child === 'object') visit(child, key === 'program' || key === 'inverse' || key === 'body' ? undefined : statement && n.type !== 'SubExpression' ? n : inside);
    }
  };
  const check = (n: AstNode, statement: AstNode): void => {
    const path = n.path as AstNode & { original?: unknown; parts?: unknown[]; depth?: number; data?: boolean };
    const params = (n.params as AstNode[] | undefined) ?? [];
    const call = n.type === 'SubExpression' || params.length > 0 || n.hash !== undefined;
    const simple = path.type === 'PathExpression' && path.parts?.length === 1 && !path.data && path.depth === 0 && path.original === path.parts[0];
    const name = typeof path.original === 'string' ? path.original : text(path);
    // A block is shown by its opening tag.
    const whole = text(n.type === 'SubExpression' ? n : statement);
    const shown = quoteText(statement.type === 'BlockStatement' || statement.type === 'DecoratorBlock' ? whole.slice(0, whole.indexOf('}}') + 2 || undefined) : whole);
    if (n.type === 'Decorator' || n.type === 'DecoratorBlock') {
      if (name !== 'inline') throw place.error('render/syntax', `Unknown decorator \`${name}\` in ${shown}; expected \`{{#*inline "name"}}...{{/inline}}\`, the only decorator`, at(path));
      return;
    }
    if (simple && knownHelpers.has(name)) {
      const wanted = arity[name];
      if (wanted !== undefined && params.length !== wanted) {
        const args = wanted === 1 ? 'one argument' : `${wanted} arguments`;
        const example = { json: '`{{json value indent=2}}`', each: '`{{#each examples}}`', if: '`{{#if retrieved.length}}`', unless: '`{{#unless done}}`', with: '`{{#with customer}}`', lookup: '`{{lookup map key}}`', ifEquals: '`{{#ifEquals status "open"}}`', unlessEquals: '`{{#unlessEquals status "open"}}`', role: '`{{role "system"}}`', history: '`{{history}}`', media: '`{{media url=image}}`', section: '`{{section "output"}}`' }[name];
        throw place.error('render/syntax', `The helper \`${name}\` takes ${args}, got ${params.length} in ${shown}; expected ${example ?? `${wanted} arguments`}`, at(path));
      }
      return;
    }
    if (!call) return;
    // A guess for a misspelling, not for any short name (`foo` is not `log`).
    const guess = simple && name.length > 3 ? suggestName(name, listed) : undefined;
    const hint = guess ? `; did you mean \`${guess.name}\`?` : '';
    const print = n.type === 'MustacheStatement' && path.type === 'PathExpression' ? ` (to print \`${name}\`, write \`{{${name}}}\` without arguments)` : '';
    throw place.error(
      'render/unknown-helper',
      `Unknown helper \`${name}\` in ${shown}: a name followed by arguments calls a helper; expected one of ${listed.map((h) => `\`${h}\``).join(', ')}${print}${hint}`,
      at(path),
    );
  };
  visit(program.body);
}
