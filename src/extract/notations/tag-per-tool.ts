/**
 * One element per tool, as Cline, Roo Code and similar agents prompt:
 * `<read_file>\n<path>src/a.ts</path>\n</read_file>`. Only elements named after a tool the
 * prompt is sent with count, so without tools nothing is read. Child elements are the
 * parameters, typed by the tool's schema; nested elements become objects, repeated ones arrays.
 */
import { defineNotation, prefiltered, type ParseResult } from '../notation.js';
import { typesOf } from '../coerce.js';
import { placeholderInCall } from '../placeholder.js';
import { childElements, elementValue, propertySchema, tagOfTool } from './xml.js';

function describesItself(name: string, raw: string): boolean {
  const t = raw.trim().toLowerCase();
  const words = name.toLowerCase().replace(/_/g, ' ');
  return (t.startsWith(`${words} `) || t.startsWith(`${name.toLowerCase()} `)) && t.split(/\s+/).length <= 10 && !t.includes('\n');
}

interface TagMatch {
  start: number;
  end: number;
  where: string;
  name: string;
  bodyStart: number;
  bodyEnd: number;
}

/** A name the tags of this notation can carry. */
const tagName = /^[A-Za-z_][\w-]*$/;

/**
 * The elements named after a tool, in text order: an opening tag, and the first closing tag of
 * the same name after it, with no second opening of that name between them. After an element,
 * the search goes on where it ends (an element inside it is part of it). Only the names of the
 * tools are searched for: a prompt holds many tags, and few are tools.
 */
export function* toolElements(text: string, tools: Iterable<string>): Generator<{ start: number; end: number; name: string; bodyStart: number; bodyEnd: number }> {
  const closes = new Map<string, number[]>();
  const opens: Array<{ at: number; name: string }> = [];
  for (const name of tools) {
    if (!tagName.test(name)) continue;
    const close = `</${name}>`;
    let i = text.indexOf(close);
    if (i === -1) continue;
    const list: number[] = [];
    for (; i !== -1; i = text.indexOf(close, i + close.length)) list.push(i);
    closes.set(name, list);
    const open = `<${name}>`;
    for (let j = text.indexOf(open); j !== -1; j = text.indexOf(open, j + open.length)) opens.push({ at: j, name });
  }
  if (opens.length === 0) return;
  opens.sort((a, b) => a.at - b.at);
  const next = new Map<string, number>();
  let from = 0;
  for (const { at, name } of opens) {
    if (at < from) continue;
    const bodyStart = at + name.length + 2;
    const list = closes.get(name)!;
    let k = next.get(name) ?? 0;
    while (k < list.length && list[k]! < bodyStart) k++;
    next.set(name, k);
    if (k >= list.length) continue;
    const close = list[k]!;
    // The element must not hold a second opening of itself: `<read_file>` in prose, then a real block.
    const reopen = text.indexOf(`<${name}>`, bodyStart);
    if (reopen !== -1 && reopen < close) continue;
    const end = close + name.length + 3;
    yield { start: at, end, name, bodyStart, bodyEnd: close };
    from = end;
  }
}

export const tagPerToolNotation = defineNotation<TagMatch>({
  name: 'tag-per-tool',
  description: 'an element named after a tool, with one child element per parameter (Cline, Roo Code)',
  // An element closes with `</name>`: without such a tag of a tool, no search for each tool's tags.
  find: prefiltered((text, context) => context.tools.size > 0 && tagOfTool(text, '</', context.tools), function* (text, context) {
    for (const e of toolElements(text, context.tools.keys())) yield { ...e, where: `\`<${e.name}>\` block` };
  }),
  parse(match, context): ParseResult {
    const body = context.text.slice(match.bodyStart, match.bodyEnd);
    const tool = context.tools.get(match.name);
    const children = /\S/.test(body) ? childElements(body) : [];
    // Text that is not parameter elements: a mention of the tag, or a description of it.
    if (!children) return undefined;
    // A block under a `Usage:` line shows the tool's format: empty values, or values that describe
    // the parameter (`<context>context to preload new task with</context>`), are not an example.
    const usage = /(?:^|\n)[ \t>*_#-]*usage:?[*_]*[ \t]*\r?\n(?:[ \t]*\r?\n)*[ \t]*$/i.test(context.text.slice(Math.max(0, match.start - 200), match.start));
    if (usage && (children.length === 0 || children.some((c) => !/\S/.test(c.raw)))) return [];
    // A value that opens with its parameter's name describes it: `<context>context to preload new task with</context>`.
    if (children.some((c) => describesItself(c.name, c.raw))) return [];
    const args: Record<string, unknown> = {};
    const repeated = new Set<string>();
    for (const c of children) {
      const schema = propertySchema(tool?.inputSchema, c.name);
      const types = typesOf(schema);
      // A string parameter holds its text as written, elements and all (Roo's `<follow_up><suggest>…</suggest></follow_up>`):
      // nested elements become an object only where the schema takes one.
      const v = types.has('string') && !types.has('object') && !types.has('array') ? c.raw.trim() : elementValue(c.raw, schema);
      if (!Object.hasOwn(args, c.name)) Object.defineProperty(args, c.name, { value: v, enumerable: true, writable: true, configurable: true });
      else if (repeated.has(c.name)) (args[c.name] as unknown[]).push(v);
      else {
        args[c.name] = [args[c.name], v];
        repeated.add(c.name);
      }
    }
    // Under `Usage:`, prose values (`File path here`) describe the format quietly; elsewhere they are reported.
    if (usage && placeholderInCall(match.name, args, { tools: context.tools, usage })) return [];
    return [{ name: match.name, arguments: args }];
  },
});
