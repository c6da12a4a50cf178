/**
 * FunctionGemma: `<start_function_call>call:get_weather{location:<escape>Paris<escape>,days:3}<end_function_call>`.
 * Keys are bare; a string value sits between two `<escape>` tokens; numbers, booleans and null
 * are bare; objects `{...}` and lists `[...]` nest with the same rules. A string value is typed
 * by the tool's schema where it has one (as the tag notations are). The tokens named in prose,
 * without `call:name{` after them, hold no call; a `declaration:` or `response:` is no call.
 */
import { coerceParameter } from '../coerce.js';
import { defineNotation, type ParseFailure } from '../notation.js';
import { tokenPairs, type TokenSpan } from './tokens.js';
import { propertySchema } from './xml.js';

/** A place between the notation's two tokens (`tokenPairs`). */
type GemmaMatch = TokenSpan;

const BEGIN = '<start_function_call>';
const END = '<end_function_call>';
const ESCAPE = '<escape>';
const WHERE = 'the `<start_function_call>` block';
const head = /^[ \t\r\n]*call:([A-Za-z_][\w.-]*)[ \t]*(?=\{)/;
/** Deeper than any real argument: nesting past it is refused rather than followed. */
const MAX_DEPTH = 64;

class Reader {
  i: number;
  constructor(
    readonly s: string,
    start: number,
  ) {
    this.i = start;
  }

  fail(message: string): never {
    throw Object.assign(new Error(message), { at: this.i });
  }

  value(depth: number): { value: unknown; escaped?: string } {
    const { s } = this;
    if (depth > MAX_DEPTH) this.fail(`Unexpected nesting deeper than ${MAX_DEPTH} levels in ${WHERE}, expected arguments a model writes`);
    if (s.startsWith(ESCAPE, this.i)) {
      const close = s.indexOf(ESCAPE, this.i + ESCAPE.length);
      if (close === -1) this.fail(`Unclosed \`${ESCAPE}\` string in ${WHERE}, expected a second \`${ESCAPE}\` after the text`);
      const text = s.slice(this.i + ESCAPE.length, close);
      this.i = close + ESCAPE.length;
      return { value: text, escaped: text };
    }
    if (s[this.i] === '{') return { value: this.object(depth + 1) };
    if (s[this.i] === '[') return { value: this.list(depth + 1) };
    const m = /^[^,{}[\]<]*/.exec(s.slice(this.i, this.i + 256))!;
    const token = m[0].trim();
    if (token === '') this.fail(`Unexpected ${s[this.i] === undefined ? 'end of the block' : `\`${s[this.i]}\``} in ${WHERE}, expected a value (\`${ESCAPE}text${ESCAPE}\`, a number, true, false, null, {...} or [...])`);
    this.i += m[0].length;
    if (/^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(token)) return { value: Number(token) };
    if (token === 'true' || token === 'false') return { value: token === 'true' };
    if (token === 'null') return { value: null };
    return { value: token };
  }

  object(depth: number, typed?: (key: string, raw: string) => unknown): Record<string, unknown> {
    const { s } = this;
    const out: Record<string, unknown> = {};
    this.i++; // `{`
    if (s[this.i] === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      const m = /^[ \t\r\n]*([^:{}[\],<\n]+?)[ \t]*:/.exec(s.slice(this.i, this.i + 256));
      if (!m) this.fail(`Unexpected ${s[this.i] === undefined ? 'end of the block' : `\`${s[this.i]}\``} in ${WHERE}, expected \`key:value\``);
      const key = m[1]!.trim();
      this.i += m[0].length;
      const { value, escaped } = this.value(depth);
      Object.defineProperty(out, key, { value: escaped !== undefined && typed ? typed(key, escaped) : value, enumerable: true, writable: true, configurable: true });
      if (s[this.i] === ',') this.i++;
      else if (s[this.i] === '}') {
        this.i++;
        return out;
      } else this.fail(`Unexpected ${s[this.i] === undefined ? 'end of the block' : `\`${s[this.i]}\``} after the value of \`${key}\` in ${WHERE}, expected \`,\` or \`}\``);
    }
  }

  list(depth: number): unknown[] {
    const { s } = this;
    const out: unknown[] = [];
    this.i++; // `[`
    if (s[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth).value);
      if (s[this.i] === ',') this.i++;
      else if (s[this.i] === ']') {
        this.i++;
        return out;
      } else this.fail(`Unexpected ${s[this.i] === undefined ? 'end of the block' : `\`${s[this.i]}\``} in a list in ${WHERE}, expected \`,\` or \`]\``);
    }
  }
}

export const functionGemmaNotation = defineNotation<GemmaMatch>({
  name: 'functiongemma',
  description: 'FunctionGemma: `<start_function_call>call:name{key:<escape>text<escape>,n:1}<end_function_call>`',
  *find(text, context) {
    if (!text.includes(BEGIN)) return;
    yield* tokenPairs(text, BEGIN, END, (bodyStart, next) => Math.min(context.paragraphEnd(bodyStart), next));
  },
  parse(match, context) {
    const body = context.text.slice(match.bodyStart, match.bodyEnd);
    const h = head.exec(body);
    if (!h) return undefined;
    const name = h[1]!;
    const schema = context.tools.get(name)?.inputSchema;
    const reader = new Reader(body, h[0].length);
    let args: Record<string, unknown>;
    try {
      args = reader.object(1, (key, raw) => coerceParameter(raw, propertySchema(schema, key)));
    } catch (error) {
      const failure: ParseFailure = { error: (error as Error).message, tool: name };
      const at = (error as { at?: number }).at;
      if (at !== undefined && at < body.length) failure.offset = match.bodyStart + at;
      return failure;
    }
    if (/\S/.test(body.slice(reader.i))) return { error: `Unexpected text after the arguments of \`${name}\` in ${WHERE}, expected \`${END}\``, offset: match.bodyStart + reader.i + (/\S/.exec(body.slice(reader.i))?.index ?? 0), tool: name };
    if (!match.closed) return { error: `Unclosed \`${BEGIN}\` block, expected \`${END}\` after the arguments of \`${name}\``, tool: name };
    return [{ name, arguments: args }];
  },
});
