// How deep a schema may nest. Every schema walker recurses, one call a level or more; a
// bound here keeps a hostile or generated schema from ending in a stack overflow.
import { escapeSegment } from './pointer.js';

/** Levels of JSON nesting (objects and arrays) a tool's schema may have. Real schemas use a few dozen. */
export const MAX_SCHEMA_DEPTH = 256;

interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | undefined;
  key: string | number | undefined;
}

function pointerOf(frame: Frame): string {
  const segments: string[] = [];
  for (let f: Frame | undefined = frame; f?.key !== undefined; f = f.parent) segments.push(escapeSegment(f.key));
  return segments.length === 0 ? '' : `/${segments.reverse().join('/')}`;
}

/**
 * The JSON Pointer of the first value nested deeper than `max` levels (the value itself is
 * level 1), or undefined. Iterative, so it is safe on any depth.
 */
export function tooDeepAt(value: unknown, max = MAX_SCHEMA_DEPTH): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const stack: Frame[] = [{ value, depth: 1, parent: undefined, key: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > max) return pointerOf(frame);
    const v = frame.value;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        if (typeof v[i] === 'object' && v[i] !== null) stack.push({ value: v[i], depth: frame.depth + 1, parent: frame, key: i });
      }
    } else {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i]!;
        if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: frame.depth + 1, parent: frame, key: k });
      }
    }
  }
  return undefined;
}

/** A long pointer cut to its start and end, so a message stays one readable line. */
export function shortPointer(pointer: string, max = 80): string {
  if (pointer.length <= max) return pointer;
  const head = pointer.slice(0, Math.floor(max * 0.6));
  const tail = pointer.slice(pointer.length - Math.floor(max * 0.3));
  const cut = (s: string, from: 'start' | 'end'): string => {
    // Cut at a segment boundary so no token is shown half.
    const i = from === 'start' ? s.lastIndexOf('/') : s.indexOf('/');
    return i <= 0 ? s : from === 'start' ? s.slice(0, i) : s.slice(i);
  };
  const segments = pointer.split('/').length - 1;
  return `${cut(head, 'start')}/…${cut(tail, 'end')} (${segments} segments)`;
}

/** "nests deeper than 256 levels at `/properties/a/…`": the shared wording of the bound. */
export function tooDeepMessage(pointer: string, max = MAX_SCHEMA_DEPTH): string {
  return `nests deeper than ${max} levels at \`${shortPointer(pointer)}\`; expected at most ${max} levels of JSON nesting (flatten the schema, or move repeated structure into \`$defs\`)`;
}

/** Raised by a schema walker that meets a schema deeper than it will walk; `pointer` is where. */
export class SchemaDepthError extends Error {
  override name = 'SchemaDepthError';
  readonly pointer: string;

  constructor(message: string, pointer: string) {
    super(message);
    this.pointer = pointer;
  }
}

/** True for the RangeError V8 throws when recursion runs out of stack. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack size/i.test(error.message);
}
