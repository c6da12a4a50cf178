import { readFileSync } from 'node:fs';
import { EVENT_ID, getScalarValue, load, parseEvents, YAMLException, type Event } from 'js-yaml';
import { InputError } from './errors.js';
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
        if (top?.kind === 'map' && top.key === undefined) attach(node, getScalarValue(text, event));
        else attach(node);
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

/** Parses YAML text; a syntax error becomes an InputError naming file, line and column. */
export function parseYaml(text: string, file: string): YamlDocument {
  try {
    const value = load(text, { filename: file });
    const root = positions(text, parseEvents(text, { filename: file }));
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

/** Reads and parses a YAML file; an unreadable file is an InputError too. */
export function readYaml(file: string, displayName = file): YamlDocument {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError('config/unreadable', `Cannot read file: ${(error as Error).message}`, { file: displayName }, { cause: error });
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
