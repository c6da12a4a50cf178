import type { JsonSchema, JsonSchemaObject } from '../tools/types.js';
import { isRecord } from '../util/values.js';
import { getAt } from './pointer.js';

/**
 * The fragment of a `$ref` into the same document, percent-decoded: a JSON Pointer
 * (`/$defs/x`), `''` for `#`, or an anchor name. Undefined for a ref into another
 * document, or one whose escapes do not decode.
 */
export function localRefFragment(ref: string): string | undefined {
  if (!ref.startsWith('#')) return undefined;
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
}

/**
 * A local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, any `#/...` pointer) resolved against
 * its document root, with the pointer of the target. Remote and anchor refs, and pointers to
 * anything but a schema, give undefined: callers treat them as unknown rather than guess.
 * One step only: a target that is itself a `$ref` is the caller's to follow, and to stop
 * following when it cycles.
 */
export function resolveLocalRef(root: JsonSchemaObject, ref: string): { schema: JsonSchema; pointer: string } | undefined {
  const pointer = localRefFragment(ref);
  if (pointer === undefined || (pointer !== '' && !pointer.startsWith('/'))) return undefined;
  const target = getAt(root, pointer);
  return typeof target === 'boolean' || isRecord(target) ? { schema: target, pointer } : undefined;
}
