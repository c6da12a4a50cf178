/** A plain object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A value as JSON for a message, cut to `max` characters with `...`; values JSON cannot
 * write (`undefined`) as `String(value)`. Pass `Infinity` to never cut.
 */
export function show(value: unknown, max = 40): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    // Nested deeper than the stack allows (a hostile log line): its start, as far as it is shown.
    if (!(error instanceof RangeError)) throw error;
    text = `${shallowJson(value, 64)}...`;
  }
  if (text === undefined) return String(value);
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** JSON of `value` down to `depth` levels, deeper values as `...`. */
function shallowJson(value: unknown, depth: number): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? String(value);
  if (depth === 0) return '...';
  if (Array.isArray(value)) return `[${value.map((v) => shallowJson(v, depth - 1)).join(',')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${shallowJson(v, depth - 1)}`).join(',')}}`;
}

/**
 * `target[key] = value` as an own data property, even for `__proto__` (which assignment
 * would turn into a change of prototype, dropping the key).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** `value[key]` when `value` is a plain object that has `key` as its own property, else undefined: never an inherited member (`constructor`, `toString`, `__proto__`). */
export function own(value: unknown, key: string): unknown {
  return isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/**
 * `value` with every object in it given the ordinary prototype: the same value when none lacks
 * it, else a copy of the objects on the way to those that do. A config can build a schema from
 * `Object.create(null)` objects, which JSON never yields; Ajv compares values with their
 * `valueOf` (`uniqueItems`, `enum`) and throws a TypeError on them.
 */
export function withObjectPrototypes(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(withObjectPrototypes);
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value);
  const children = entries.map(([, child]) => withObjectPrototypes(child));
  if (Object.getPrototypeOf(value) !== null && children.every((child, i) => child === entries[i]![1])) return value;
  const out: Record<string, unknown> = {};
  entries.forEach(([key], i) => setOwn(out, key, children[i]));
  return out;
}

/**
 * A value to show beside a finding (a witness's offending value): the value itself when it is
 * small, else a preview of its JSON, cut at 120 characters. A log line can hold a value nested
 * thousands deep or megabytes long; a finding repeats it in every report format.
 */
export function shownValue(value: unknown): unknown {
  let budget = 200;
  const small = (v: unknown, depth: number): boolean => {
    if (--budget < 0 || depth > 32) return false;
    if (typeof v === 'string') return v.length <= 200;
    if (typeof v !== 'object' || v === null) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (!small(child, depth + 1)) return false;
    return true;
  };
  return small(value, 0) ? value : show(value, 120);
}

/**
 * A text that tells apart every value a tool definition can carry, for a cache key: JSON
 * would write `Infinity`, `-Infinity`, `NaN` and an `undefined` in a list all as `null`, a Map
 * as `{}`, and throw on a bigint. Objects are written in their own key order (it is the order
 * they are sent in); a value met again inside itself is written as a cycle mark.
 */
export function exactKey(value: unknown): string {
  const parts: string[] = [];
  const stack = new Set<object>();
  const write = (v: unknown): void => {
    switch (typeof v) {
      case 'number':
        // `-0` is sent as `0`, and every other number as itself.
        parts.push(Number.isFinite(v) ? `n${v === 0 ? 0 : v}` : `n${String(v)}`);
        return;
      case 'string':
        parts.push(`s${JSON.stringify(v)}`);
        return;
      case 'bigint':
        parts.push(`b${v}`);
        return;
      case 'boolean':
        parts.push(v ? 't' : 'f');
        return;
      case 'undefined':
        parts.push('u');
        return;
      case 'symbol':
        parts.push(`y${String(v.description)}`);
        return;
      case 'function':
        parts.push(`F${v.name}:${String(v)}`);
        return;
    }
    if (v === null) {
      parts.push('z');
      return;
    }
    const o = v as object;
    if (stack.has(o)) {
      parts.push('cycle');
      return;
    }
    stack.add(o);
    if (Array.isArray(o)) {
      parts.push('[');
      for (const item of o) write(item);
      parts.push(']');
    } else if (o instanceof Map) {
      parts.push('M(');
      for (const [k, item] of o) {
        write(k);
        write(item);
      }
      parts.push(')');
    } else if (o instanceof Set) {
      parts.push('S(');
      for (const item of o) write(item);
      parts.push(')');
    } else if (o instanceof Date || o instanceof RegExp) {
      parts.push(`${o.constructor.name}(${String(o)})`);
    } else {
      parts.push('{');
      for (const key of Object.keys(o)) {
        parts.push(`k${JSON.stringify(key)}`);
        write((o as Record<string, unknown>)[key]);
      }
      parts.push('}');
    }
    stack.delete(o);
  };
  write(value);
  return parts.join(',');
}
