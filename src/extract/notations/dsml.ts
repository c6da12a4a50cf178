/**
 * DeepSeek V3.2's DSML: the Anthropic-like elements of its chat template, each name prefixed
 * with the `｜DSML｜` token (full-width bars; some outputs carry ASCII `|DSML|`):
 * `<｜DSML｜function_calls>` holding `<｜DSML｜invoke name="get_weather">` elements, each holding
 * `<｜DSML｜parameter name="location" string="true">Paris</｜DSML｜parameter>`.
 *
 * `string="true"` marks a string written as it is, no quotes, no escapes; `string="false"` a
 * value written as JSON (numbers, booleans, arrays, objects). A parameter without the attribute
 * is typed by the tool's schema, as tag values are.
 *
 * The template's own format description (`<｜DSML｜invoke name="$FUNCTION_NAME">`, or a block
 * holding only `...`) is a placeholder, not a call. Each call is placed at its `invoke` line.
 */
import { readJson, skipWhitespace } from '../json.js';
import { coerceParameter } from '../coerce.js';
import { defineNotation, type ParsedCall, type ParseResult } from '../notation.js';
import { isPlaceholderTool } from '../placeholder.js';
import { propertySchema } from './xml.js';

interface DsmlMatch {
  start: number;
  end: number;
  where: string;
  bodyStart: number;
  bodyEnd: number;
  closed: boolean;
}

const BAR = '[｜|]DSML[｜|]';
const openBlock = new RegExp(`<${BAR}function_calls>`, 'g');
const closeBlock = new RegExp(`</${BAR}function_calls>`, 'g');
const openInvoke = new RegExp(`<${BAR}invoke\\b([^>\\n]*)>`, 'g');
const closeInvoke = new RegExp(`</${BAR}invoke>`, 'g');
const openParam = new RegExp(`<${BAR}parameter\\b([^>\\n]*)>`, 'g');
const closeParam = new RegExp(`</${BAR}parameter>`, 'g');

function attribute(attrs: string, key: string): string | undefined {
  const m = new RegExp(`\\b${key}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attrs);
  return m ? (m[1] ?? m[2]) : undefined;
}

/** The first match of a global regex at or after `from`. */
function nextAt(re: RegExp, text: string, from: number): RegExpExecArray | undefined {
  re.lastIndex = from;
  return re.exec(text) ?? undefined;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export const dsmlNotation = defineNotation<DsmlMatch>({
  name: 'dsml',
  description: 'DeepSeek V3.2 DSML: `<｜DSML｜function_calls>` with `<｜DSML｜invoke name>` and `<｜DSML｜parameter name string="true|false">`',
  *find(text, context) {
    // The first close after the current block's start, kept while blocks open before it: each close is searched for once.
    let close: RegExpExecArray | undefined | null = null;
    let from = 0;
    for (;;) {
      const m = nextAt(openBlock, text, from);
      if (!m) return;
      const bodyStart = m.index + m[0].length;
      const reopen = nextAt(openBlock, text, bodyStart);
      if (close === null || (close !== undefined && close.index < bodyStart)) close = nextAt(closeBlock, text, bodyStart);
      const where = `\`${m[0]}\` block`;
      if (close && (!reopen || close.index < reopen.index)) {
        from = close.index + close[0].length;
        yield { start: m.index, end: from, where, bodyStart, bodyEnd: close.index, closed: true };
      } else {
        const stop = Math.max(bodyStart, Math.min(reopen ? reopen.index : text.length, context.paragraphEnd(bodyStart)));
        from = stop;
        yield { start: m.index, end: stop, where, bodyStart, bodyEnd: stop, closed: false };
      }
    }
  },
  parse(match, context): ParseResult {
    const { bodyStart } = match;
    // Offsets below are into the body, and into each invoke's inside: every search stays within them.
    const body = context.text.slice(bodyStart, match.bodyEnd);
    const shown = body.trim();
    // The template's elided example: `<｜DSML｜function_calls>\n...\n</｜DSML｜function_calls>`.
    if (shown === '...' || shown === '…') return { error: `Unexpected \`${shown}\` in ${match.where}, expected \`<｜DSML｜invoke name="...">\``, placeholder: shown };
    if (shown === '') return [];
    // The block named in prose (`write a "<｜DSML｜function_calls>" block like the following`).
    if (!shown.startsWith('<')) return undefined;
    const calls: ParsedCall[] = [];
    let at = 0;
    for (let inv = nextAt(openInvoke, body, at); inv; inv = nextAt(openInvoke, body, at)) {
      const name = attribute(inv[1]!, 'name');
      if (name === undefined) return { error: `Unexpected \`${inv[0]}\` without a \`name\` attribute, expected \`<｜DSML｜invoke name="tool_name">\``, offset: bodyStart + inv.index };
      if (isPlaceholderTool(name, context.tools)) return { error: `Unexpected placeholder \`${name}\`, expected a tool name`, placeholder: name };
      const innerStart = inv.index + inv[0].length;
      const next = nextAt(openInvoke, body, innerStart);
      const close = nextAt(closeInvoke, body, innerStart);
      if (!close || (next && next.index < close.index)) return { error: `Unclosed \`<｜DSML｜invoke name="${name}">\`, expected \`</｜DSML｜invoke>\``, offset: bodyStart + inv.index, tool: name };
      const inner = body.slice(innerStart, close.index);
      const base = bodyStart + innerStart;
      const schema = context.tools.get(name)?.inputSchema;
      const args: Record<string, unknown> = {};
      let p = 0;
      for (let param = nextAt(openParam, inner, p); param; param = nextAt(openParam, inner, p)) {
        const key = attribute(param[1]!, 'name');
        if (key === undefined) return { error: `Unexpected \`<｜DSML｜parameter>\` without a \`name\` attribute in the call of \`${name}\`, expected \`<｜DSML｜parameter name="...">\``, offset: base + param.index, tool: name };
        const valueStart = param.index + param[0].length;
        const pc = nextAt(closeParam, inner, valueStart);
        if (!pc) return { error: `Unclosed \`<｜DSML｜parameter name="${key}">\` in the call of \`${name}\`, expected \`</｜DSML｜parameter>\``, offset: base + param.index, tool: name };
        const raw = inner.slice(valueStart, pc.index);
        const kind = attribute(param[1]!, 'string');
        let value: unknown;
        if (kind === 'true') value = raw;
        else if (kind === 'false') {
          const k = skipWhitespace(raw, 0);
          const read = readJson(raw, k);
          if (!read.ok || skipWhitespace(raw, read.end) < raw.length) {
            return { error: `Unexpected \`${raw.trim().slice(0, 40)}\` in parameter \`${key}\` of \`${name}\`, expected a JSON value (the parameter says string="false")`, offset: base + valueStart + k, tool: name };
          }
          value = read.value;
        } else value = coerceParameter(raw, propertySchema(schema, key));
        setOwn(args, key, value);
        p = pc.index + pc[0].length;
      }
      calls.push({ name, arguments: args, at: bodyStart + inv.index });
      at = close.index + close[0].length;
    }
    if (calls.length === 0) return { error: `Unexpected content in ${match.where}, expected \`<｜DSML｜invoke name="tool_name">\` with \`<｜DSML｜parameter name="...">\` inside` };
    if (!match.closed) return { error: `Unclosed ${match.where}, expected \`</｜DSML｜function_calls>\` after the last \`</｜DSML｜invoke>\``, tool: calls[0]!.name };
    return calls;
  },
});
