/**
 * Anthropic's XML: `<function_calls><invoke name="x"><parameter name="a">1</parameter></invoke></function_calls>`
 * (with or without the `antml:` prefix), and the older form that names the tool in a child
 * element: `<invoke><tool_name>x</tool_name><parameters><a>1</a></parameters></invoke>`.
 * Parameter values are text, typed by the tool's schema as the API types them. MiniMax M2
 * writes the same `<invoke>` elements inside `<minimax:tool_call>`; its parsers trim values.
 */
import { skipWhitespace } from '../json.js';
import { defineNotation, prefiltered, type NotationContext, type ParsedCall } from '../notation.js';
import { coerceParameter } from '../coerce.js';
import { childElements, propertySchema, typedValue } from './xml.js';

interface Invoke {
  name: string;
  params: Array<[string, string]>;
}

const attrName = /\bname\s*=\s*(?:"([^"]*)"|'([^']*)')/;

type Invokes = { ok: true; invokes: Invoke[] } | { ok: false; message: string; name?: string };

function legacyInvoke(inner: string): Invoke | undefined {
  const name = /<tool_name>([^<]*)<\/tool_name>/.exec(inner);
  if (!name) return undefined;
  const params: Array<[string, string]> = [];
  const open = inner.indexOf('<parameters>');
  const close = inner.lastIndexOf('</parameters>');
  if (open !== -1 && close > open) {
    const children = childElements(inner.slice(open + '<parameters>'.length, close));
    if (children) for (const c of children) params.push([c.name, c.raw]);
  }
  return { name: name[1]!.trim(), params };
}

function parseInvokes(body: string): Invokes {
  const invokes: Invoke[] = [];
  const openRe = /<(?:antml:)?invoke\b([^>]*)>/g;
  const paramRe = /<(?:antml:)?parameter\b([^>]*)>/g;
  for (let m = openRe.exec(body); m; m = openRe.exec(body)) {
    const closeRe = /<\/(?:antml:)?invoke>/g;
    closeRe.lastIndex = openRe.lastIndex;
    const close = closeRe.exec(body);
    const nextRe = /<(?:antml:)?invoke\b/g;
    nextRe.lastIndex = openRe.lastIndex;
    const nextOpen = nextRe.exec(body);
    const nameMatch = attrName.exec(m[1]!);
    const shownName = nameMatch ? (nameMatch[1] ?? nameMatch[2]!) : undefined;
    if (!close || (nextOpen && nextOpen.index < close.index)) {
      return { ok: false, message: `Unclosed \`<invoke${shownName === undefined ? '' : ` name="${shownName}"`}>\`, expected \`</invoke>\``, ...(shownName === undefined ? {} : { name: shownName }) };
    }
    const inner = body.slice(openRe.lastIndex, close.index);
    if (shownName === undefined) {
      const legacy = legacyInvoke(inner);
      if (!legacy) return { ok: false, message: 'Unexpected `<invoke>` without a `name` attribute, expected `<invoke name="tool_name">`' };
      invokes.push(legacy);
      openRe.lastIndex = closeRe.lastIndex;
      continue;
    }
    const name = shownName;
    const params: Array<[string, string]> = [];
    paramRe.lastIndex = 0;
    for (let p = paramRe.exec(inner); p; p = paramRe.exec(inner)) {
      const pn = attrName.exec(p[1]!);
      if (!pn) return { ok: false, message: `Unexpected \`<parameter>\` without a \`name\` attribute in \`<invoke name="${name}">\`, expected \`<parameter name="...">\``, name };
      const paramName = pn[1] ?? pn[2]!;
      const pcRe = /<\/(?:antml:)?parameter>/g;
      pcRe.lastIndex = paramRe.lastIndex;
      const pc = pcRe.exec(inner);
      if (!pc) return { ok: false, message: `Unclosed \`<parameter name="${paramName}">\` in \`<invoke name="${name}">\`, expected \`</parameter>\``, name };
      params.push([paramName, inner.slice(paramRe.lastIndex, pc.index)]);
      paramRe.lastIndex = pcRe.lastIndex;
    }
    invokes.push({ name, params });
    openRe.lastIndex = closeRe.lastIndex;
  }
  return { ok: true, invokes };
}

/** A call from tag-style parameters: each value typed by the tool's schema. */
export function typedCall(name: string, params: ReadonlyArray<readonly [string, string]>, context: NotationContext, verbatim = false): ParsedCall {
  const tool = context.tools.get(name);
  const args: Record<string, unknown> = {};
  for (const [k, v] of params) {
    // Anthropic's own format keeps a string parameter's text as written; the others trim it.
    const value = verbatim ? coerceParameter(v, propertySchema(tool?.inputSchema, k)) : typedValue(v, tool, k);
    Object.defineProperty(args, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return { name, arguments: args };
}

interface XmlMatch {
  start: number;
  end: number;
  where: string;
  bodyStart: number;
  bodyEnd: number;
  closed: boolean;
  /** The wrapper's closing tag, for messages. */
  close: string;
}

const wrapper = '(?:(?:antml:)?function_calls|minimax:tool_call)';

export const anthropicXmlNotation = defineNotation<XmlMatch>({
  name: 'anthropic-xml',
  description: '`<function_calls>` with `<invoke name>` and `<parameter name>` elements',
  // Every place opens with the wrapper tag: without its name in the text there is nothing to compile a search for.
  find: prefiltered((text) => text.includes('function_calls>') || text.includes('minimax:tool_call>'), function* (text) {
    const openRe = new RegExp(`<${wrapper}>`, 'g');
    const closeRe = new RegExp(`</${wrapper}>`, 'g');
    // The first close after the current tag, kept while tags open before it (see hermes.ts).
    let close: RegExpExecArray | null | undefined;
    for (let m = openRe.exec(text); m; m = openRe.exec(text)) {
      const at = m.index;
      const bodyStart = openRe.lastIndex;
      if (close === undefined || (close !== null && close.index < bodyStart)) {
        closeRe.lastIndex = bodyStart;
        close = closeRe.exec(text);
      }
      const reopenRe = new RegExp(`<${wrapper}>`, 'g');
      reopenRe.lastIndex = bodyStart;
      const reopen = reopenRe.exec(text);
      const where = `\`${m[0]}\` block`;
      const closeTag = `</${m[0].slice(1)}`;
      if (!close || (reopen && reopen.index < close.index)) {
        const k = skipWhitespace(text, bodyStart);
        if (/^<(?:antml:)?invoke\b/.test(text.slice(k, k + 16))) {
          const end = reopen ? reopen.index : text.length;
          yield { start: at, end, where, bodyStart, bodyEnd: end, closed: false, close: closeTag };
        }
        continue;
      }
      const end = close.index + close[0].length;
      yield { start: at, end, where, bodyStart, bodyEnd: close.index, closed: true, close: closeTag };
      openRe.lastIndex = end;
    }
  }),
  parse(match, context) {
    if (!match.closed) return { error: `Unclosed ${match.where}, expected \`${match.close}\` after the last \`</invoke>\`` };
    const body = context.text.slice(match.bodyStart, match.bodyEnd);
    if (!/\S/.test(body)) return [];
    const parsed = parseInvokes(body);
    if (!parsed.ok) return parsed.name === undefined ? { error: parsed.message } : { error: parsed.message, tool: parsed.name };
    if (parsed.invokes.length === 0) return { error: `Unexpected content in ${match.where}, expected \`<invoke name="tool_name">\` with \`<parameter name="...">value</parameter>\` inside` };
    const verbatim = !match.close.includes('minimax');
    return parsed.invokes.map((inv) => typedCall(inv.name, inv.params, context, verbatim));
  },
});
