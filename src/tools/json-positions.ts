import { joinPointer } from '../schema/pointer.js';

/** Where one JSON value starts, and where its key starts when it is an object member. */
export interface JsonNodePosition {
  /** Offset of the value's first character. */
  start: number;
  /** Offset of the member's key (its opening quote): the line a person edits. */
  keyStart?: number;
}

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const QUOTE = 34;
const BACKSLASH = 92;

interface Frame {
  array: boolean;
  pointer: string;
  index: number;
  key: string | undefined;
  keyStart: number;
}

/**
 * The position of every value of a JSON text, by JSON Pointer. One linear pass with an
 * explicit stack (no recursion, so no depth limit); the text must already have passed
 * `JSON.parse`, which is what tells a malformed file apart. A duplicated key answers with
 * its last occurrence, the one `JSON.parse` keeps.
 */
export function jsonPositions(text: string): Map<string, JsonNodePosition> {
  const out = new Map<string, JsonNodePosition>();
  const stack: Frame[] = [];
  const n = text.length;
  let i = 0;

  const skipSpace = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === SPACE || c === LF || c === CR || c === TAB) i++;
      else break;
    }
  };
  /** Reads the string at `i` (its opening quote) and returns its value; `i` ends after the closing quote. */
  const readString = (): string => {
    const start = i++;
    let escaped = false;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === BACKSLASH) {
        escaped = true;
        i += 2;
      } else if (c === QUOTE) break;
      else i++;
    }
    i++;
    return escaped ? (JSON.parse(text.slice(start, i)) as string) : text.slice(start + 1, i - 1);
  };
  const afterValue = (): void => {
    const top = stack[stack.length - 1];
    if (top === undefined) return;
    if (top.array) top.index++;
    else top.key = undefined;
  };

  while (true) {
    skipSpace();
    if (i >= n) break;
    const c = text[i]!;
    const top = stack[stack.length - 1];
    if (c === ',') {
      i++;
      continue;
    }
    if (c === '}' || c === ']') {
      stack.pop();
      i++;
      afterValue();
      continue;
    }
    if (top !== undefined && !top.array && top.key === undefined) {
      // A member's key, then its colon.
      top.keyStart = i;
      top.key = readString();
      skipSpace();
      i++;
      continue;
    }
    const pointer = top === undefined ? '' : top.array ? joinPointer(top.pointer, top.index) : joinPointer(top.pointer, top.key!);
    out.set(pointer, top === undefined || top.array ? { start: i } : { start: i, keyStart: top.keyStart });
    if (c === '{' || c === '[') {
      stack.push({ array: c === '[', pointer, index: 0, key: undefined, keyStart: 0 });
      i++;
      continue;
    }
    if (c === '"') readString();
    else {
      // A number, `true`, `false` or `null`: up to the next delimiter.
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 44 || d === 93 || d === 125 || d === SPACE || d === LF || d === CR || d === TAB) break;
        i++;
      }
    }
    afterValue();
    if (top === undefined) break;
  }
  return out;
}
