/** Small, linear readers for the XML-like tags prompts use: no entities, no attributes that matter. */
import type { ToolSpec } from '../../tools/types.js';
import { coerceParameter } from '../coerce.js';

export interface Element {
  name: string;
  /** The text between the tags, untouched. */
  raw: string;
  start: number;
  end: number;
}

const openTag = /<([A-Za-z_][\w.-]*)(?:\s[^<>]*)?>/y;

/** The closing tag matching the element opened just before `from`, counting nested elements of the same name. */
function closing(text: string, name: string, from: number): { index: number; end: number } | undefined {
  const close = `</${name}>`;
  let depth = 1;
  let i = from;
  for (;;) {
    const c = text.indexOf(close, i);
    if (c === -1) return undefined;
    // Same-name elements opened before this close nest.
    let o = text.indexOf(`<${name}`, i);
    while (o !== -1 && o < c) {
      const ch = text[o + name.length + 1];
      if (ch === '>' || ch === ' ') depth++;
      o = text.indexOf(`<${name}`, o + 1);
    }
    depth--;
    if (depth === 0) return { index: c, end: c + close.length };
    i = c + close.length;
  }
}

/**
 * The elements `text` is made of, in order, when it is nothing but elements and white space;
 * `undefined` when anything else stands between them.
 */
export function childElements(text: string): Element[] | undefined {
  const out: Element[] = [];
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) return out;
    openTag.lastIndex = i;
    const m = openTag.exec(text);
    if (!m || m[0].endsWith('/>')) return undefined;
    const name = m[1]!;
    const close = closing(text, name, openTag.lastIndex);
    if (!close) return undefined;
    out.push({ name, raw: text.slice(openTag.lastIndex, close.index), start: i, end: close.end });
    i = close.end;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function propertySchema(schema: unknown, key: string): unknown {
  if (!isObject(schema)) return undefined;
  const props = schema.properties;
  if (isObject(props) && Object.hasOwn(props, key)) return props[key];
  // An array of objects: a repeated element's fields are the items' properties.
  if (isObject(schema.items)) return propertySchema(schema.items, key);
  return undefined;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A tag's text as the value it stands for: nested elements become an object (repeated ones an array), text is typed by the schema. */
export function elementValue(raw: string, schema: unknown, depth = 0): unknown {
  const t = raw.trim();
  if (t.startsWith('<') && depth < 16) {
    const children = childElements(t);
    if (children && children.length > 0) {
      const out: Record<string, unknown> = {};
      const repeated = new Set<string>();
      for (const c of children) {
        const v = elementValue(c.raw, propertySchema(schema, c.name), depth + 1);
        if (!Object.hasOwn(out, c.name)) setOwn(out, c.name, v);
        else if (repeated.has(c.name)) (out[c.name] as unknown[]).push(v);
        else {
          setOwn(out, c.name, [out[c.name], v]);
          repeated.add(c.name);
        }
      }
      return out;
    }
  }
  return coerceParameter(t, schema);
}

/** A parameter's text, typed by the tool's schema for that parameter. */
export function typedValue(raw: string, tool: ToolSpec | undefined, key: string): unknown {
  return elementValue(raw, propertySchema(tool?.inputSchema, key));
}

/**
 * Whether `prefix` (`<`, `</`) stands in `text` right before a name of `tools` that ends there
 * (no name character follows): a tag of a tool may be in the text. One pass over the prefixes,
 * each name read once, instead of one search of the text for each tool.
 */
export function tagOfTool(text: string, prefix: string, tools: ReadonlyMap<string, unknown>): boolean {
  for (let i = text.indexOf(prefix); i !== -1; i = text.indexOf(prefix, i + prefix.length)) {
    const from = i + prefix.length;
    let j = from;
    while (j < text.length && isNameChar(text.charCodeAt(j))) j++;
    if (j > from && tools.has(text.slice(from, j))) return true;
  }
  return false;
}

/** `[\w-]`: what a tag name of a tool is made of. */
function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}
