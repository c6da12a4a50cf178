/**
 * Where each line of a tool's description is written in the file a person edits: a finding
 * about an example inside a description points at the line that holds the example, not at
 * the tool's first line.
 */
import { LineIndex } from '../util/lines.js';
import type { LineColumn } from './types.js';

/** Only lines that can hold a call (JSON, a tag, a call's parentheses) are looked for: the others are never pointed at. */
const MAY_HOLD_A_CALL = /[{[<(]/;
/** Shorter lines are too common to find by their text. */
const MIN_LINE_TEXT = 3;

/**
 * The place of each line of the JSON string that starts at `start` (its opening quote) in
 * `text`. JSON writes a line break inside a string as `\n`, so every line of the value sits
 * on the string's own line, at the column after the escape.
 */
export function jsonStringLines(text: string, start: number, lines: LineIndex): Map<number, LineColumn> {
  const out = new Map<number, LineColumn>();
  if (text[start] !== '"') return out;
  const place = (offset: number): LineColumn => {
    const { line, column } = lines.at(offset);
    return [line, column];
  };
  out.set(0, place(start + 1));
  let k = 0;
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '"') break;
    if (c !== '\\') continue;
    const next = text[i + 1];
    if (next === 'n' || (next === 'u' && text.slice(i + 2, i + 6).toLowerCase() === '000a')) {
      i += next === 'n' ? 1 : 5;
      out.set(++k, place(i + 1));
    } else i++;
  }
  return out;
}

/**
 * Finds the lines of a string value in the source text that writes it (a module, a YAML
 * file), through the escapes of its literal: both sides are compared without backslashes,
 * so `\\s` in a template literal, `\"` in a quoted string and a raw `\s` in YAML all match
 * the value's `\s`. The text is prepared once per file and searched with `indexOf`.
 */
export class TextSearch {
  private readonly bare: string;
  /** The offset in the source of each character of `bare`. */
  private readonly offsets: Int32Array;

  constructor(
    readonly raw: string,
    readonly lines: LineIndex,
  ) {
    const offsets = new Int32Array(raw.length);
    const parts: string[] = [];
    let n = 0;
    let from = 0;
    for (let i = raw.indexOf('\\'); i >= 0; i = raw.indexOf('\\', i + 1)) {
      for (let j = from; j < i; j++) offsets[n++] = j;
      parts.push(raw.slice(from, i));
      from = i + 1;
    }
    for (let j = from; j < raw.length; j++) offsets[n++] = j;
    parts.push(raw.slice(from));
    this.bare = parts.join('');
    this.offsets = offsets;
  }

  /**
   * The place of each line of `value` that can hold a call (or of every line), searching forward from the
   * source offset `from`, line after line, as the text is written in order. A line not
   * found has no place; the caller points at the description as a whole then.
   */
  textLines(value: string, from = 0, everyLine = false): Map<number, LineColumn> {
    const out = new Map<number, LineColumn>();
    const start = this.bareOffset(from);
    let cursor = start;
    value.split('\n').forEach((line, k) => {
      const needle = line.trim().replaceAll('\\', '');
      if (needle.length < MIN_LINE_TEXT || (!everyLine && !MAY_HOLD_A_CALL.test(needle))) return;
      let at = this.bare.indexOf(needle, cursor);
      if (at < 0 && cursor > start) at = this.bare.indexOf(needle, start);
      if (at < 0) return;
      cursor = at + 1;
      const { line: l, column } = this.lines.at(this.offsets[at]!);
      // Where the line's text begins in the value: a finding's column inside the line counts from its first character.
      out.set(k, [l, column - (line.length - line.trimStart().length)]);
    });
    return out;
  }

  /** The first character of `bare` at or after the source offset `offset`. */
  private bareOffset(offset: number): number {
    let lo = 0;
    let hi = this.bare.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.offsets[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** The place of each line of `value` in `raw` from `from` (see TextSearch), for one value; several values of one file share a TextSearch. */
export function findTextLines(raw: string, value: string, from: number, lines: LineIndex): Map<number, LineColumn> {
  return new TextSearch(raw, lines).textLines(value, from);
}

/**
 * The descriptions inside an input schema, by the JSON Pointer of the node they describe
 * (`/properties/address/properties/city`): each parameter's wording, sent to the model with
 * the tool. Properties and array items are followed, to a bounded depth.
 */
export function parameterDescriptions(schema: unknown): Array<{ pointer: string; name: string; text: string }> {
  const out: Array<{ pointer: string; name: string; text: string }> = [];
  const walk = (node: unknown, pointer: string, name: string, depth: number): void => {
    if (depth > 32 || typeof node !== 'object' || node === null || Array.isArray(node)) return;
    const n = node as Record<string, unknown>;
    if (pointer !== '' && typeof n.description === 'string' && Object.hasOwn(n, 'description')) out.push({ pointer, name, text: n.description });
    const props = Object.hasOwn(n, 'properties') ? n.properties : undefined;
    if (typeof props === 'object' && props !== null && !Array.isArray(props)) {
      for (const [key, child] of Object.entries(props)) walk(child, `${pointer}/properties/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, name === '' ? key : `${name}.${key}`, depth + 1);
    }
    if (Object.hasOwn(n, 'items')) walk(n.items, `${pointer}/items`, name, depth + 1);
  };
  walk(schema, '', '', 0);
  return out;
}
