/**
 * Python call syntax, as BFCL, Llama 3.2+ and LFM prompts write calls:
 * - a call list standing alone on its line(s): `[get_weather(city="Paris"), f(a=1)]`,
 *   also spread over lines;
 * - one call of a known tool alone on its line: `get_weather(city="Paris")`, `task({"prompt": "..."})`.
 *
 * Code is not a call: a list inside an expression (`l=[int('0'), int('1')]`) does not stand
 * alone, and Python's built-ins (`int`, `print`, `len`) are never calls unless the prompt has a
 * tool of that name. When the prompt's tools are known, a list counts when it calls one of them,
 * or passes keyword arguments (a renamed tool is still an example to report).
 */
import type { ToolSpec } from '../../tools/types.js';
import { defineNotation, prefiltered, type NotationContext, type ParsedCall, type ParseResult } from '../notation.js';
import { isPlaceholderTool } from '../placeholder.js';
import { type PythonCall, type PythonResult, readPythonCall, readPythonCalls } from '../python.js';
import { sdkClassOf } from './sdk-repr.js';

export const pythonBuiltins = new Set(
  'abs all any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len list locals map max memoryview min next object oct open ord pow print property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip'.split(
    ' ',
  ),
);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Python's keywords: never a name a call's value is assigned to (`if = f(x)` is no statement). */
export const pythonKeywords = new Set(['and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield']);

/** Positional arguments take the schema's property order, as BFCL's checker does; one dict alone is the arguments object. */
export function pythonArguments(call: PythonCall, tool: ToolSpec | undefined): Record<string, unknown> {
  const props = tool?.inputSchema.properties;
  const names = isObject(props) ? Object.keys(props) : [];
  const only = call.positional[0];
  if (call.positional.length === 1 && call.keywords.length === 0 && isObject(only)) {
    const first = names[0] !== undefined && isObject(props) ? props[names[0]] : undefined;
    const firstTakesObject = isObject(first) && (first.type === 'object' || (Array.isArray(first.type) && first.type.includes('object')));
    if (!firstTakesObject) return only;
  }
  const out: Record<string, unknown> = {};
  const set = (k: string, v: unknown) => Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  call.positional.forEach((v, i) => set(names[i] ?? String(i), v));
  for (const [k, v] of call.keywords) set(k, v);
  return out;
}

/** Whether `text[at]` starts its line, after white space or a chat token (`<|python_start|>`, `<|tool_call_start|>`). */
function startsStatement(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  if (i < 0 || text[i] === '\n' || text[i] === '\r') return true;
  // `<|...|>` and `<｜...｜>` tokens, and a closing `>` of a tag on the same line.
  return text[i] === '>' && /(?:\|>|｜>|<[\w/][^<>\n]*>)$/.test(text.slice(Math.max(0, i - 40), i + 1));
}

/** Whether only white space or a chat token follows `end` on its line. */
function endsStatement(text: string, end: number): boolean {
  let i = end;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  if (i >= text.length || text[i] === '\n' || text[i] === '\r') return true;
  return text.startsWith('<|', i) || text.startsWith('<｜', i) || text.startsWith('</', i);
}

function counts(calls: readonly PythonCall[], context: NotationContext, sawKeyword: boolean): boolean {
  if (calls.some((c) => pythonBuiltins.has(c.name) && !context.tools.has(c.name))) return false;
  // `[FunctionCall(id=..., name='x')]`: an SDK's objects, whose calls the `sdk-repr` notation reads.
  if (calls.some((c) => sdkClassOf(c.name) !== undefined && !context.tools.has(c.name))) return false;
  if (context.tools.size === 0) return true;
  return calls.some((c) => context.tools.has(c.name)) || sawKeyword;
}

interface PythonicMatch {
  start: number;
  end: number;
  where: string;
  result: PythonResult;
  /** Written after a label that says it is a call (`Tool call:`): the name need not be a tool. */
  labelled?: boolean;
}

const listTrigger = /\[[ \t\r\n]*[A-Za-z_][\w.]*[ \t]*\(/g;
// A call alone on its line, optionally after a label that says it is one (`Tool call: f({...})`).
// In backticks too, as inline code (BrowserGym's ```click("12")``` on one line is a code span, not a fence).
// Its value assigned to a name too, as code agents write (smolagents: `pages = web_search(query="...")`).
const lineCall = /^[ \t]*(?:((?:tool|function)[ _]?calls?|calls?|action)[ \t]*:[ \t]*)?(?:([A-Za-z_]\w*(?:[ \t]*,[ \t]*[A-Za-z_]\w*)*)[ \t]*=[ \t]*)?(`{1,3})?([A-Za-z_][\w.]*)\(/gim;

export const pythonicNotation = defineNotation<PythonicMatch>({
  name: 'pythonic',
  description: 'Python calls: `[f(a=1), g(b=2)]` standing alone, or `tool(a=1)` of a known tool alone on its line',
  // Both triggers end in a call's `(`.
  find: prefiltered((text) => text.includes('('), function* (text, context) {
    const found: PythonicMatch[] = [];
    for (let m = listTrigger.exec(text); m; m = listTrigger.exec(text)) {
      const at = m.index;
      const result = readPythonCalls(text, at);
      const standalone = startsStatement(text, at);
      if (result.ok) {
        if (standalone && endsStatement(text, result.end)) found.push({ start: at, end: result.end, where: 'pythonic call list', result });
        listTrigger.lastIndex = result.end;
      } else if (result.names.some((n) => isPlaceholderTool(n, context.tools)) || (standalone && result.sawKeyword)) {
        // A format description (`[func_name1(params_name1=params_value1...)]`) is one even inside a sentence.
        found.push({ start: at, end: Math.max(context.paragraphEnd(at), result.offset + 1), where: 'pythonic call list', result });
      }
    }
    if (context.tools.size > 0 || text.includes('({') || /call[ \t]*:/i.test(text)) {
      for (let m = lineCall.exec(text); m; m = lineCall.exec(text)) {
        const labelled = m[1] !== undefined;
        const assigned = m[2] !== undefined;
        const ticks = m[3] ?? '';
        const name = m[4]!;
        const at = m.index + m[0].length - name.length - 1;
        if (pythonBuiltins.has(name) && !context.tools.has(name)) continue;
        const known = context.tools.has(name);
        // Code in backticks, or assigning a call's value, is an example only when it calls a tool the prompt has.
        if ((ticks !== '' || assigned) && !known) continue;
        if (assigned && m[2]!.split(',').some((target) => pythonKeywords.has(target.trim()))) continue;
        if (!known && !labelled && !(context.tools.size === 0 && text.startsWith('({', at + name.length) && !name.includes('.'))) continue;
        const result = readPythonCall(text, at);
        if (!result.ok) continue;
        const end = result.end + ticks.length;
        if ((ticks === '' || text.startsWith(ticks, result.end)) && endsStatement(text, end)) found.push({ start: at, end, where: `\`${name}(...)\` call`, result, labelled });
      }
    }
    found.sort((a, b) => a.start - b.start);
    yield* found;
  }),
  parse(match, context): ParseResult {
    const r = match.result;
    if (!r.ok) {
      const named = r.names.find((n) => isPlaceholderTool(n, context.tools));
      if (named !== undefined) return { error: r.message, placeholder: named };
      return { error: r.message, offset: r.offset, ...(r.names[0] === undefined ? {} : { tool: r.names[0] }) };
    }
    if (!match.labelled && !counts(r.calls, context, r.calls.some((c) => c.keywords.length > 0))) return undefined;
    return r.calls.map((call): ParsedCall => ({ name: call.name, arguments: pythonArguments(call, context.tools.get(call.name)) }));
  },
});
