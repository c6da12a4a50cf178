/**
 * gemini-cli's shorthand in its system prompt's examples: `[tool_call: name for key 'value']`,
 * one call a line, half call and half prose:
 *
 * - `[tool_call: read_file for absolute_path '/a/b.ts']`: `for`, then the parameter's name and
 *   its value; more pairs may follow, joined by `,` or `and` (`for pattern 'x' and path 'src'`);
 * - `[tool_call: run_shell_command for 'npm test']`: a value without a name goes to the tool's
 *   one required parameter (or its one parameter); when the tools are not known, or the schema
 *   names no single parameter, the call is read with no arguments and the value reported;
 * - values are quoted (`'...'`, `"..."`, backticks), a list of them (`['a', 'b']`), a number
 *   or `true`/`false`; whatever follows the last value is prose (`because ...`, `or use glob ...`);
 * - `[tool_call: write_file to create /a/b.ts with the test code]`: no `for`, the arguments are
 *   prose, and the call has none;
 * - `[tool_call: write_file or replace to apply ...]` offers two tools: not a call.
 *
 * Each call is placed at its `[tool_call:` line.
 */
import { coerceParameter } from '../coerce.js';
import { defineNotation, prefiltered, type NotationContext, type ParseResult } from '../notation.js';
import { propertySchema } from './xml.js';

interface BracketMatch {
  start: number;
  end: number;
  where: string;
  name: string;
  /** What follows the name, up to the closing bracket. */
  rest: string;
  restStart: number;
}

const OPEN = '[tool_call:';
const toolName = /^[ \t]*([A-Za-z_][\w.-]*)/;

/** The offset of the `]` that closes the bracket opened before `from`, on the same line; -1 when none. */
function closingBracket(text: string, from: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') return -1;
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '\\') i++;
    else if (c === "'" || c === '"' || c === '`') {
      // An apostrophe inside a word (`it's`) opens no string.
      if (c !== "'" || !/\w/.test(text[i - 1] ?? '')) quote = c;
    } else if (c === '[') depth++;
    else if (c === ']') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** One value at `i` in `s`: a quoted string, a list of values, a number or a boolean. */
function readValue(s: string, i: number): { value: unknown; end: number } | undefined {
  const c = s[i];
  if (c === "'" || c === '"' || c === '`') {
    let out = '';
    for (let j = i + 1; j < s.length; j++) {
      const d = s[j]!;
      if (d === '\\' && j + 1 < s.length) out += s[++j];
      else if (d === c) return { value: out, end: j + 1 };
      else out += d;
    }
    return undefined;
  }
  if (c === '[') {
    const items: unknown[] = [];
    let j = skipSpaces(s, i + 1);
    if (s[j] === ']') return { value: items, end: j + 1 };
    for (;;) {
      const item = readValue(s, j);
      if (!item) return undefined;
      items.push(item.value);
      j = skipSpaces(s, item.end);
      if (s[j] === ']') return { value: items, end: j + 1 };
      if (s[j] !== ',') return undefined;
      j = skipSpaces(s, j + 1);
    }
  }
  const m = /^(?:-?\d+(?:\.\d+)?|true|false)(?![\w.])/.exec(s.slice(i, i + 40));
  if (m) return { value: m[0] === 'true' ? true : m[0] === 'false' ? false : Number(m[0]), end: i + m[0].length };
  return undefined;
}

function skipSpaces(s: string, i: number): number {
  while (s[i] === ' ' || s[i] === '\t') i++;
  return i;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parameter an unnamed value goes to: the tool's one required parameter, or its one parameter. */
function soleParameter(context: NotationContext, name: string): string | undefined {
  const schema = context.tools.get(name)?.inputSchema;
  const props = isObject(schema?.properties) ? Object.keys(schema.properties) : [];
  const required = Array.isArray(schema?.required) ? schema.required.filter((k): k is string => typeof k === 'string' && props.includes(k)) : [];
  if (required.length === 1) return required[0];
  return props.length === 1 ? props[0] : undefined;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export const geminiCliNotation = defineNotation<BracketMatch>({
  name: 'gemini-cli',
  description: "gemini-cli's shorthand: `[tool_call: read_file for absolute_path '/a/b.ts']`",
  find: prefiltered((text) => text.includes(OPEN), function* (text) {
    for (let at = text.indexOf(OPEN); at !== -1; at = text.indexOf(OPEN, at + OPEN.length)) {
      const m = toolName.exec(text.slice(at + OPEN.length, at + OPEN.length + 80));
      if (!m) continue;
      const restStart = at + OPEN.length + m[0].length;
      const close = closingBracket(text, restStart);
      if (close === -1) continue;
      yield { start: at, end: close + 1, where: `\`[tool_call: ${m[1]} ...]\``, name: m[1]!, rest: text.slice(restStart, close), restStart };
      at = close + 1 - OPEN.length;
    }
  }),
  parse(match, context): ParseResult {
    const { name, rest } = match;
    const args: Record<string, unknown> = {};
    let i = skipSpaces(rest, 0);
    // Two tools offered (`write_file or replace to ...`): a choice described, not a call.
    if (/^or[ \t]+[A-Za-z_][\w.-]*/.test(rest.slice(i))) return [];
    if (!/^for[ \t]/.test(rest.slice(i))) return [{ name, arguments: args }];
    i = skipSpaces(rest, i + 3);
    const schema = context.tools.get(name)?.inputSchema;
    for (let first = true; ; first = false) {
      const key = /^([A-Za-z_]\w*)[ \t]+/.exec(rest.slice(i, i + 80));
      const valueAt = key ? i + key[0].length : i;
      const value = readValue(rest, valueAt);
      if (!value) {
        if (first) return { error: `Unexpected \`${rest.slice(i, i + 30).trim()}\` after \`for\` in ${match.where}, expected \`for name 'value'\` or a quoted value`, offset: match.restStart + i, tool: name };
        break;
      }
      let param = key?.[1];
      if (param === undefined) {
        param = soleParameter(context, name);
        if (param === undefined) {
          if (context.tools.size === 0) return [{ name, arguments: args }];
          return { error: `Unexpected value without a parameter name in ${match.where}, expected \`for name 'value'\`: \`${name}\` has no single parameter for it to go to`, offset: match.restStart + valueAt, tool: name };
        }
      }
      setOwn(args, param, typeof value.value === 'string' ? coerceParameter(value.value, propertySchema(schema, param)) : value.value);
      // More pairs: `, key 'value'` or `and key 'value'`; anything else is prose.
      const more = /^[ \t]*(?:,|and\b)[ \t]*/.exec(rest.slice(value.end, value.end + 10));
      if (!more) break;
      const k = value.end + more[0].length;
      if (!/^[A-Za-z_]\w*[ \t]+['"`[\d]/.test(rest.slice(k, k + 80))) break;
      i = k;
    }
    return [{ name, arguments: args }];
  },
});
