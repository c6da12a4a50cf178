// JSON Pointer (RFC 6901): the one place that knows how reference tokens are escaped.
import { isRecord } from '../util/values.js';

/** One reference token, escaped (`~` -> `~0`, `/` -> `~1`). */
export function escapeSegment(segment: string | number): string {
  const text = String(segment);
  // Most tokens have nothing to escape: skip the two replaces (recorded calls join millions).
  return text.includes('~') || text.includes('/') ? text.replace(/~/g, '~0').replace(/\//g, '~1') : text;
}

/** One reference token, unescaped; `~1` first, so that `~01` stays `~1`. */
export function unescapeSegment(segment: string): string {
  return segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment;
}

/** `base` with each segment appended as an escaped reference token. */
export function joinPointer(base: string, ...segments: ReadonlyArray<string | number>): string {
  let pointer = base;
  for (const segment of segments) pointer += `/${escapeSegment(segment)}`;
  return pointer;
}

/** The unescaped reference tokens of a pointer; `''` (the whole document) has none. */
export function splitPointer(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeSegment);
}

/** The value at a pointer (own properties and array indices only), or undefined. */
export function getAt(value: unknown, pointer: string): unknown {
  let node = value;
  for (const key of splitPointer(pointer)) {
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isRecord(node)) node = Object.hasOwn(node, key) ? node[key] : undefined;
    else return undefined;
  }
  return node;
}
