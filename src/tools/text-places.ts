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
 * The offset just past `needle` read at `i` in `raw`, the source text of a string literal
 * (JSON, JavaScript, YAML), or undefined when it is not there. An escaped character
 * (`\"`, `\\`, `` \` ``) matches the character it stands for.
 */
function matchAt(raw: string, i: number, needle: string): number | undefined {
  for (let j = 0; j < needle.length; j++) {
    const d = needle[j]!;
    if (raw[i] === d) {
      i++;
      continue;
    }
    if (raw[i] === '\\' && (raw[i + 1] === d || (d === '\t' && raw[i + 1] === 't'))) {
      i += 2;
      continue;
    }
    return undefined;
  }
  return i;
}

function find(raw: string, needle: string, from: number): number | undefined {
  for (let i = from; i < raw.length; i++) if (matchAt(raw, i, needle) !== undefined) return i;
  return undefined;
}

/**
 * The place of each line of `value` that can hold a call, found by its text in `raw` (a
 * module or YAML file that writes the string), searching forward from `from` line after
 * line, as the text is written in order. A line not found has no place; the caller points
 * at the description as a whole then.
 */
export function findTextLines(raw: string, value: string, from: number, lines: LineIndex): Map<number, LineColumn> {
  const out = new Map<number, LineColumn>();
  let cursor = from;
  value.split('\n').forEach((line, k) => {
    const needle = line.trim();
    if (needle.length < MIN_LINE_TEXT || !MAY_HOLD_A_CALL.test(needle)) return;
    const at = find(raw, needle, cursor) ?? (cursor > from ? find(raw, needle, from) : undefined);
    if (at === undefined) return;
    cursor = at + 1;
    const { line: l, column } = lines.at(at);
    // Where the line's text begins in the value: a finding's column inside the line counts from its first character.
    out.set(k, [l, column - (line.length - line.trimStart().length)]);
  });
  return out;
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
