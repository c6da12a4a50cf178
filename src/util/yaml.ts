import { constructFromEvents, EVENT_ID, getScalarValue, parseEvents, SCALAR_STYLE, YAMLException, type Event } from 'js-yaml';
import { InputError } from './errors.js';
import { readRegularFileSync } from './files.js';
import { LineIndex } from './lines.js';

/** Where one YAML node starts, and where its children start, keyed like the loaded value. */
export interface YamlNodePosition {
  /** Offset of the node's value. */
  start: number;
  /** Offset of the key, when the node is a mapping value: the line a person edits. */
  keyStart?: number;
  children?: Map<string | number, YamlNodePosition>;
}

/** A YAML document loaded with js-yaml, with a position for every node of the value. */
export interface YamlDocument {
  file: string;
  text: string;
  value: unknown;
  root: YamlNodePosition | undefined;
  lines: LineIndex;
}

interface Frame {
  node: YamlNodePosition;
  kind: 'map' | 'seq' | 'doc';
  key: { value: string; start: number } | undefined;
  index: number;
}

/** Rebuilds the node tree's start offsets from js-yaml's event stream (js-yaml's values carry no positions). */
function positions(text: string, events: Event[]): YamlNodePosition | undefined {
  const docFrame: Frame = { node: { start: 0, children: new Map() }, kind: 'doc', key: undefined, index: 0 };
  const stack: Frame[] = [];
  const attach = (node: YamlNodePosition, scalarKey?: string): boolean => {
    const top = stack[stack.length - 1];
    if (!top) return false;
    if (top.kind === 'map') {
      if (top.key === undefined) {
        top.key = { value: scalarKey ?? `[key ${top.index++}]`, start: node.start };
        return scalarKey === undefined; // a complex key still opens a frame
      }
      node.keyStart = top.key.start;
      top.node.children!.set(top.key.value, node);
      top.key = undefined;
    } else top.node.children!.set(top.index++, node);
    return true;
  };
  for (const event of events) {
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        if (stack.length === 0) stack.push(docFrame);
        else stack.push({ node: { start: 0, children: new Map() }, kind: 'doc', key: undefined, index: 0 });
        break;
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE: {
        const node: YamlNodePosition = { start: event.start, children: new Map() };
        attach(node);
        stack.push({ node, kind: event.type === EVENT_ID.MAPPING ? 'map' : 'seq', key: undefined, index: 0 });
        break;
      }
      case EVENT_ID.SCALAR: {
        const node: YamlNodePosition = { start: event.valueStart };
        const top = stack[stack.length - 1];
        if (top?.kind === 'map' && top.key === undefined) {
          // A quoted key starts at its quote: the column a person sees the key at.
          const quoted = event.style === SCALAR_STYLE.SINGLE_QUOTED || event.style === SCALAR_STYLE.DOUBLE_QUOTED;
          attach(quoted ? { start: event.valueStart - 1 } : node, getScalarValue(text, event));
        } else attach(node);
        break;
      }
      case EVENT_ID.ALIAS:
        attach({ start: event.anchorStart });
        break;
      case EVENT_ID.POP:
        stack.pop();
        break;
      default:
        break;
    }
  }
  return docFrame.node.children!.get(0);
}

/**
 * How many nodes aliases may add to a document when expanded: far beyond any real reuse of
 * an example or a parameter list, far below a "billion laughs" (nine levels of ten aliases
 * each, a billion strings once printed or walked).
 */
export const MAX_ALIAS_EXPANSION = 100_000;

/**
 * How many characters of scalar text (keys and values, as written in the file) aliases may
 * add to a document when expanded: 16 MiB, four times what one render may make
 * (`DEFAULT_MAX_RENDERED_BYTES`, 4 MiB), so no real reuse comes near it. The node count alone
 * lets a 1 MB file alias a 1,000,000-character value 5,000 times: 5 GB once printed, which
 * ran Node out of memory (a crash, not an error) when a template rendered it.
 */
export const MAX_ALIAS_EXPANSION_CHARS = 16 * 1024 * 1024;

/** `.`, `+`, `-`, a digit or `<`: the only first characters of the values `checkPlainScalar` refuses; every other scalar is passed at a glance. */
const mayNeedCheck = (first: number): boolean => first === 46 || first === 43 || first === 45 || first === 60 || (first >= 48 && first <= 57);

/**
 * Values that would not reach a prompt or a tool call as written, refused at their place:
 * `.nan` and `.inf` (JSON has neither: they would be sent as `null`), an integer past 2^53
 * (rounded: `9007199254740993` would be sent as `...992`), and a merge key `<<` (YAML 1.1's,
 * which this reading does not apply: the key would be sent as `<<`).
 */
function checkPlainScalar(value: string, key: boolean, fail: (message: string) => never): void {
  if (key && value === '<<') fail('Unexpected merge key `<<`, which is not applied here (YAML 1.2 has no merge keys): the data would hold a key named `<<`; expected the keys written out');
  if (/^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/.test(value)) fail(`Unexpected \`${value}\`, a number JSON cannot hold (it would be sent as \`null\`); expected a finite number, or the text in quotes`);
  // Decimal, hexadecimal and octal (`0x20000000000001`, `0o400000000000000001`) integers, as YAML 1.2's core schema reads them.
  const integer = /^[-+]?[0-9]{16,}$/.test(value) ? Number(value) : /^0x[0-9a-fA-F]{14,}$/.test(value) ? Number(value) : /^0o[0-7]{18,}$/.test(value) ? parseInt(value.slice(2), 8) : undefined;
  if (integer !== undefined && !Number.isSafeInteger(integer)) fail(`Unexpected integer \`${value}\`, past what JSON numbers hold exactly (2^53; it would be sent as \`${integer}\`); expected it in quotes, as text`);
}

/**
 * Counts the nodes and the scalar characters each alias stands for, over the event stream,
 * before anything walks the loaded value: js-yaml shares aliased nodes, so loading is cheap,
 * but every walk, copy or `JSON.stringify` of the value expands them. Each anchor's size is
 * counted once, when its node closes, aliases inside it included, so the check is linear in
 * the file. Throws an InputError at the alias that takes the document past
 * `MAX_ALIAS_EXPANSION` nodes or `MAX_ALIAS_EXPANSION_CHARS` characters, or that refers to a
 * node containing it (a cycle, which no walk would finish).
 */
function checkAliases(text: string, events: readonly Event[], file: string): void {
  const sizes = new Map<string, number>();
  /** Characters of scalar text each anchor's node holds, aliases expanded (as written: escapes and indentation count, an upper bound of the value's length). */
  const lengths = new Map<string, number>();
  const open: Array<{ anchor: string | undefined; total: number; chars: number; mapping: boolean; children: number }> = [];
  /** Whether the node that starts now is a mapping key (every other child of a mapping, from the first). */
  const isKey = (): boolean => {
    const parent = open[open.length - 1];
    if (parent === undefined) return false;
    parent.children++;
    return parent.mapping && parent.children % 2 === 1;
  };
  const anchorOf = (start: number, end: number): string | undefined => (start >= 0 && end > start ? text.slice(start, end) : undefined);
  let total = 0; // nodes of the document so far, aliases expanded
  let added = 0; // nodes aliases added
  let chars = 0; // characters of scalar text of the document so far, aliases expanded
  let addedChars = 0; // characters aliases added
  const fail = (offset: number, message: string, code = 'config/yaml-aliases'): never => {
    const at = new LineIndex(text).at(offset);
    throw new InputError(code, message, { file, line: at.line, column: at.column });
  };
  for (const event of events) {
    switch (event.type) {
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE:
        isKey();
        total++;
        open.push({ anchor: anchorOf(event.anchorStart, event.anchorEnd), total, chars, mapping: event.type === EVENT_ID.MAPPING, children: 0 });
        break;
      case EVENT_ID.SCALAR: {
        const key = isKey();
        total++;
        const anchor = anchorOf(event.anchorStart, event.anchorEnd);
        chars += event.valueEnd - event.valueStart;
        if (anchor !== undefined) {
          sizes.set(anchor, 1);
          lengths.set(anchor, event.valueEnd - event.valueStart);
        }
        // Plain and untagged, or tagged as a number (`!!float .inf`, `!!int 9007199254740993`): read as YAML's numbers are.
        const tag = event.tagStart < 0 ? '' : text.slice(event.tagStart, event.tagEnd);
        const numeric = tag === '' ? event.style === SCALAR_STYLE.PLAIN : /^(?:!!|!<tag:yaml\.org,2002:)(?:float|int)>?$/.test(tag);
        if (numeric && mayNeedCheck(text.charCodeAt(event.valueStart))) {
          checkPlainScalar(text.slice(event.valueStart, event.valueEnd), key, (message) => fail(event.valueStart, message, 'config/yaml-value'));
        }
        break;
      }
      case EVENT_ID.POP: {
        const node = open.pop();
        if (node?.anchor !== undefined) {
          sizes.set(node.anchor, total - node.total + 1);
          lengths.set(node.anchor, chars - node.chars);
        }
        break;
      }
      case EVENT_ID.ALIAS: {
        isKey();
        const name = text.slice(event.anchorStart, event.anchorEnd);
        if (open.some((node) => node.anchor === name)) {
          fail(event.anchorStart - 1, `Alias \`*${name}\` refers to a node that contains it, which makes the value endless; expected an alias to a node defined before it`);
        }
        const size = sizes.get(name) ?? 1;
        total += size;
        added += size;
        if (added > MAX_ALIAS_EXPANSION) {
          fail(event.anchorStart - 1, `Alias \`*${name}\` takes the nodes added by aliases past ${MAX_ALIAS_EXPANSION.toLocaleString('en-US')} (an alias bomb); expected aliases that repeat small parts of the document`);
        }
        const length = lengths.get(name) ?? 0;
        chars += length;
        addedChars += length;
        if (addedChars > MAX_ALIAS_EXPANSION_CHARS) {
          fail(
            event.anchorStart - 1,
            `Alias \`*${name}\` repeats ${length.toLocaleString('en-US')} characters, which takes the text added by aliases past ${MAX_ALIAS_EXPANSION_CHARS.toLocaleString('en-US')} characters (an alias bomb); expected large values written out where they are needed, or fewer aliases to them`,
          );
        }
        break;
      }
      default:
        break;
    }
  }
}

/**
 * Parses YAML text; a syntax error becomes an InputError naming file, line and column, and
 * so does an alias bomb or a cyclic alias (see `checkAliases`). Line ends are normalized
 * first (`\r\n` and a lone `\r` become `\n`), so a file checked out with CRLF reads the same
 * as with LF.
 */
export function parseYaml(source: string, file: string): YamlDocument {
  const text = normalizeLineEnds(source);
  try {
    const events = parseEvents(text, { filename: file });
    checkAliases(text, events, file);
    // What js-yaml's `load` does, from the events already parsed: one parse, not two.
    const documents = constructFromEvents(events, { filename: file, source: text } as Parameters<typeof constructFromEvents>[1]);
    if (documents.length === 0) throw new YAMLException('expected a document, but the input is empty');
    if (documents.length > 1) throw new YAMLException('expected a single document in the stream, but found more');
    const value = documents[0];
    const root = positions(text, events);
    return { file, text, value, root, lines: new LineIndex(text) };
  } catch (error) {
    if (error instanceof YAMLException) {
      const mark = error.mark;
      throw new InputError('config/yaml-syntax', `YAML syntax error: ${error.reason}`, {
        file,
        line: mark ? mark.line + 1 : undefined,
        column: mark ? mark.column + 1 : undefined,
      }, { cause: error });
    }
    throw error;
  }
}

/** `\r\n` and a lone `\r` as `\n`: how a file checked out with `core.autocrlf=true` reads the same as the committed one. */
export function normalizeLineEnds(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** Reads and parses a YAML file; an unreadable file is an InputError too. */
export function readYaml(file: string, displayName = file): YamlDocument {
  let text: string;
  try {
    text = readRegularFileSync(file);
  } catch (error) {
    throw new InputError('config/unreadable', `Cannot read file (${(error as Error).message}); expected a regular YAML file`, { file: displayName }, { cause: error });
  }
  return parseYaml(text, displayName);
}

/**
 * The node at `path`, or the deepest ancestor that exists. A mapping value answers with
 * its key's offset: that is the line a person edits.
 */
export function locate(doc: YamlDocument, path: ReadonlyArray<string | number>, from: YamlNodePosition | undefined = doc.root): { line: number; column: number } | undefined {
  if (!from) return undefined;
  let node: YamlNodePosition = from;
  for (const key of path) {
    const child: YamlNodePosition | undefined = node.children?.get(key) ?? node.children?.get(String(key));
    if (!child) break;
    node = child;
  }
  return doc.lines.at(node.keyStart ?? node.start);
}
