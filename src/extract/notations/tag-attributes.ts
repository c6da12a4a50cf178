/**
 * An element named after a tool whose arguments are its attributes, as some agent prompts write
 * their calls: `<lookup_order order_id="A-1" />`, `<str_replace path="src/a.ts">…</str_replace>`.
 * Only the tools the prompt is sent with are looked for, as in `tag-per-tool`.
 *
 * - Attributes are arguments, typed by the tool's schema (`count="3"` is 3 for an integer).
 * - A body of child elements gives more arguments, one per element, as `tag-per-tool` reads them.
 * - A body of text is the value of the one parameter the schema leaves for it: the single string
 *   property not given as an attribute. It is kept as written, less the line break after the
 *   opening tag and the one before the closing tag. When the schema leaves no single string
 *   parameter, the element is reported rather than guessed at.
 *
 * An element without attributes (`<read_file>`) is `tag-per-tool`'s.
 */
import { coerceParameter, typesOf } from '../coerce.js';
import { defineNotation, prefiltered, type ParseResult } from '../notation.js';
import { childElements, elementValue, propertySchema, tagOfTool } from './xml.js';

interface AttrMatch {
  start: number;
  end: number;
  where: string;
  name: string;
  attrs: Array<[string, string]>;
  bodyStart: number;
  bodyEnd: number;
}

const tagName = /^[A-Za-z_][\w-]*$/;
/** One attribute, or the end of the tag; attributes may stand on several lines, never across a `<`. */
const attribute = /[ \t\r\n]+([A-Za-z_][\w:.-]*)[ \t]*=[ \t]*(?:"([^"<]*)"|'([^'<]*)')/y;
const tagEnd = /[ \t\r\n]*(\/?)>/y;

function decode(value: string): string {
  return value.replace(/&(?:quot|apos|lt|gt|amp);/g, (e) => ({ '&quot;': '"', '&apos;': "'", '&lt;': '<', '&gt;': '>', '&amp;': '&' })[e]!);
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A parameter's value from its text: as written where the schema says string, nested elements read only where it takes an object or array. */
function childValue(raw: string, schema: unknown): unknown {
  const types = typesOf(schema);
  return types.has('string') && !types.has('object') && !types.has('array') ? raw.trim() : elementValue(raw, schema);
}

export const tagAttributesNotation = defineNotation<AttrMatch>({
  name: 'tag-attributes',
  description: 'an element named after a tool with its arguments as attributes: `<lookup_order order_id="A-1" />`, a text body for the one string parameter left',
  // An element opens with `<name` and white space before its first attribute: without such a tag of a tool, no search for each tool's tags.
  find: prefiltered((text, context) => context.tools.size > 0 && tagOfTool(text, '<', context.tools), function* (text, context) {
    const found: AttrMatch[] = [];
    for (const name of context.tools.keys()) {
      if (!tagName.test(name)) continue;
      const open = `<${name}`;
      const close = `</${name}>`;
      // The next closing tag, searched for again only once passed: each is found once.
      let nextClose = -2;
      for (let at = text.indexOf(open); at !== -1; at = text.indexOf(open, at + open.length)) {
        const attrs: Array<[string, string]> = [];
        let i = at + open.length;
        for (;;) {
          attribute.lastIndex = i;
          const a = attribute.exec(text);
          if (!a) break;
          attrs.push([a[1]!, decode(a[2] ?? a[3]!)]);
          i = attribute.lastIndex;
        }
        if (attrs.length === 0) continue;
        tagEnd.lastIndex = i;
        const e = tagEnd.exec(text);
        if (!e) continue;
        const bodyStart = tagEnd.lastIndex;
        const where = `\`<${name} ...>\` element`;
        if (e[1] === '/') {
          found.push({ start: at, end: bodyStart, where, name, attrs, bodyStart, bodyEnd: bodyStart });
          continue;
        }
        if (nextClose !== -1 && nextClose < bodyStart) nextClose = text.indexOf(close, bodyStart);
        if (nextClose === -1) continue;
        found.push({ start: at, end: nextClose + close.length, where, name, attrs, bodyStart, bodyEnd: nextClose });
      }
    }
    found.sort((a, b) => a.start - b.start);
    yield* found;
  }),
  parse(match, context): ParseResult {
    const { name } = match;
    const schema = context.tools.get(name)?.inputSchema;
    const args: Record<string, unknown> = {};
    for (const [key, value] of match.attrs) setOwn(args, key, coerceParameter(value, propertySchema(schema, key)));
    const body = context.text.slice(match.bodyStart, match.bodyEnd);
    if (!/\S/.test(body)) return [{ name, arguments: args }];
    const children = childElements(body);
    if (children && children.length > 0) {
      for (const c of children) if (!Object.hasOwn(args, c.name)) setOwn(args, c.name, childValue(c.raw, propertySchema(schema, c.name)));
      return [{ name, arguments: args }];
    }
    // Text: the value of the one string parameter the attributes left.
    const props = isObject(schema?.properties) ? schema.properties : {};
    const left = Object.keys(props).filter((k) => !Object.hasOwn(args, k) && typesOf(props[k]).has('string'));
    if (left.length !== 1) {
      const why = left.length === 0 ? 'no string parameter is left for it' : `${left.length} string parameters are left (${left.map((k) => `\`${k}\``).join(', ')})`;
      return { error: `Unexpected text body, expected the arguments of \`${name}\` as attributes or child elements: ${why}`, offset: match.bodyStart, tool: name };
    }
    const value = body.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
    setOwn(args, left[0]!, value);
    return [{ name, arguments: args }];
  },
});
