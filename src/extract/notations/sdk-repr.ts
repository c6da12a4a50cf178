/**
 * Tool calls written as the objects of an SDK: a printed repr, a test's fixture, a scripted
 * model's reply. `ToolCallPart(tool_name='x', args={...})` (Pydantic AI), `FunctionCall(id=...,
 * arguments='{...}', name='x')` (AutoGen), `ToolUseBlock(id=..., input={...}, name='x')`
 * (Anthropic), `types.FunctionCall(name='x', args={...})` and
 * `types.Part.from_function_call(name=..., args=...)` (google-genai), `AIMessage(content='',
 * tool_calls=[{'name': 'x', 'args': {...}, 'id': ...}])` (LangChain), `new
 * FunctionCallContent(name: "x")` (Semantic Kernel, C#) and the others in `sdkClasses`.
 *
 * The class says where the name and the arguments are, so the call is read in code as well as
 * in prose (a `python` fence, a docstring printing the messages). Other keyword arguments may be
 * anything (`timestamp=datetime.datetime(...)`); where the arguments themselves hold an
 * expression, those keys are left out and the call is partial (`unread`). A result
 * (`ToolReturnPart`, `FunctionExecutionResult`, `ToolMessage`...) is read too, so that no
 * other notation takes it for a call, and holds none.
 */
import { noteOffset, offsetOf, readJson } from '../json.js';
import { defineNotation, prefiltered, type ParsedCall, type ParseResult } from '../notation.js';
import { hasNonLiteral, NestedCall, NON_LITERAL, type PythonCall, readCodeCall, SPREAD_KEY } from '../python.js';
import { callsFromValue } from '../../shapes/calls.js';

/** Where one SDK class keeps a call's name and arguments. */
interface SdkClass {
  /** The class (or factory) as written, after any module prefix: `ToolCallPart`, `Part.from_function_call`. */
  cls: string;
  sdk: string;
  /** The keywords that hold the tool's name, and its position when passed positionally. */
  name?: { keywords: readonly string[]; position?: number };
  /** The keywords that hold the arguments (a string there is JSON text), and their position. */
  args?: { keywords: readonly string[]; position?: number };
  /** The name and arguments are in a call under this keyword (`function=Function(name=..., arguments=...)`). */
  via?: string;
  /** A message: its calls are in `tool_calls` (dicts or `ToolCall(...)`), else in `additional_kwargs`. */
  message?: true;
  /** A tool's result: read so that nothing else reads it, and never a call. */
  result?: true;
}

const nameArgs = (name: string, ...args: string[]) => ({ name: { keywords: [name] }, args: { keywords: args } });

/** The SDK classes that carry a call (or a result). */
export const sdkClasses: readonly SdkClass[] = [
  { cls: 'ToolCallPart', sdk: 'Pydantic AI', name: { keywords: ['tool_name'], position: 0 }, args: { keywords: ['args'], position: 1 } },
  { cls: 'BuiltinToolCallPart', sdk: 'Pydantic AI', name: { keywords: ['tool_name'], position: 0 }, args: { keywords: ['args'], position: 1 } },
  // AutoGen's `arguments` is JSON text; google-genai's `types.FunctionCall` has `args`.
  { cls: 'FunctionCall', sdk: 'AutoGen, google-genai', ...nameArgs('name', 'arguments', 'args') },
  { cls: 'ToolUseBlock', sdk: 'Anthropic', ...nameArgs('name', 'input') },
  { cls: 'BetaToolUseBlock', sdk: 'Anthropic', ...nameArgs('name', 'input') },
  { cls: 'Part.from_function_call', sdk: 'google-genai', ...nameArgs('name', 'args') },
  { cls: 'ToolCall', sdk: 'LangChain', ...nameArgs('name', 'args') },
  { cls: 'AIMessage', sdk: 'LangChain', message: true },
  { cls: 'AIMessageChunk', sdk: 'LangChain', message: true },
  { cls: 'ChatCompletionMessageToolCall', sdk: 'OpenAI', via: 'function' },
  { cls: 'ChatCompletionMessageFunctionToolCall', sdk: 'OpenAI', via: 'function' },
  { cls: 'ResponseFunctionToolCall', sdk: 'OpenAI', ...nameArgs('name', 'arguments') },
  { cls: 'RealtimeModelToolCallEvent', sdk: 'OpenAI Agents', ...nameArgs('name', 'arguments') },
  // The Agents SDK's test helper: `function_call("get_weather", {"city": "Tokyo"}, call_id=...)`.
  { cls: 'function_call', sdk: 'OpenAI Agents', name: { keywords: ['name'], position: 0 }, args: { keywords: ['arguments'], position: 1 } },
  { cls: 'FunctionCallContent', sdk: 'Semantic Kernel', name: { keywords: ['functionName', 'name'], position: 0 }, args: { keywords: ['arguments'], position: 3 } },
  { cls: 'FunctionExecutionResult', sdk: 'AutoGen', result: true },
  { cls: 'ToolReturnPart', sdk: 'Pydantic AI', result: true },
  { cls: 'BuiltinToolReturnPart', sdk: 'Pydantic AI', result: true },
  { cls: 'RetryPromptPart', sdk: 'Pydantic AI', result: true },
  { cls: 'ToolCallResult', sdk: 'AutoGen, MCP', result: true },
  { cls: 'ToolMessage', sdk: 'LangChain', result: true },
  { cls: 'FunctionResponse', sdk: 'google-genai', result: true },
  { cls: 'Part.from_function_response', sdk: 'google-genai', result: true },
  { cls: 'ToolResultBlock', sdk: 'Anthropic', result: true },
  { cls: 'FunctionResultContent', sdk: 'Semantic Kernel', result: true },
];

const byClass = new Map(sdkClasses.map((c) => [c.cls, c]));

/** The SDK class a dotted call name stands for (`types.FunctionCall` is `FunctionCall`). */
export function sdkClassOf(name: string): SdkClass | undefined {
  const parts = name.replace(/[ \t]/g, '').split('.');
  return byClass.get(parts.slice(-2).join('.')) ?? byClass.get(parts[parts.length - 1]!);
}

const escape = (s: string) => s.replace(/[.]/g, '\\.');
// Longest first, so that `BetaToolUseBlock` is not read as `ToolUseBlock` after `Beta`.
const classAlternatives = [...byClass.keys()].sort((a, b) => b.length - a.length).map(escape).join('|');
// The class name alone: a scan for literals is fast; the module prefix and `new` are read back from it.
const trigger = new RegExp(`(?:${classAlternatives})[ \\t]*\\(`, 'g');

interface SdkMatch {
  start: number;
  end: number;
  where: string;
  call: PythonCall;
}

function argument(call: PythonCall, spot: { keywords: readonly string[]; position?: number } | undefined): unknown {
  if (spot === undefined) return undefined;
  for (const [k, v] of call.keywords) if (spot.keywords.includes(k)) return v;
  return spot.position === undefined ? undefined : call.positional[spot.position];
}

/**
 * A value read in code as plain data: what is not a literal is left out. Returns the keys of
 * an object left out (`*` when keys are unknown: a spread, or no object at all).
 */
export function literalArguments(value: unknown): { value: unknown; unread: string[] } {
  if (value === NON_LITERAL || value instanceof NestedCall) return { value: {}, unread: ['*'] };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { value, unread: [] };
  const out: Record<string, unknown> = {};
  const unread: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (k === SPREAD_KEY) unread.push('*');
    else if (hasNonLiteral(v)) unread.push(k);
    else Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return { value: out, unread };
}

/** Objects `plain` left keys out of: the keys (`*` for a spread, or for something left out further in). */
const leftOut = new WeakMap<object, string[]>();

/**
 * Plain data for a shape reading: expressions and calls inside dropped. Each object keeps the
 * place it was read from (`offsetOf`), and what it lost is kept (`unreadOf`).
 */
export function plain(value: unknown, depth = 0): unknown {
  if (value === NON_LITERAL || value instanceof NestedCall || depth > 64) return undefined;
  if (Array.isArray(value)) return value.map((v) => plain(v, depth + 1)).filter((v) => v !== undefined);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  const lost: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const p = plain(v, depth + 1);
    if (k === SPREAD_KEY) lost.push('*');
    else if (p === undefined) lost.push(k);
    else {
      Object.defineProperty(out, k, { value: p, enumerable: true, writable: true, configurable: true });
      if (typeof p === 'object' && p !== null && (leftOut.has(p) || (Array.isArray(p) && (p.length !== (v as unknown[]).length || p.some((x) => typeof x === 'object' && x !== null && leftOut.has(x)))))) lost.push('*');
    }
  }
  if (lost.length > 0) leftOut.set(out, lost);
  const at = offsetOf(value);
  if (at !== undefined) noteOffset(out, at);
  return out;
}

/** What `plain` left out of an object it made: keys whose values were expressions (`*`: unknown keys too). */
export function unreadOf(value: unknown): string[] | undefined {
  return typeof value === 'object' && value !== null ? leftOut.get(value) : undefined;
}

type Read = ParsedCall[] | { error: string; tool?: string };

/** The calls one SDK object holds; `undefined` when it is not one (a definition, a name in a variable). */
function callsOf(call: PythonCall, at: number, depth = 0): Read | undefined {
  const cls = sdkClassOf(call.name);
  if (cls === undefined || depth > 8) return undefined;
  if (cls.result) return [];
  if (cls.via !== undefined) {
    const inner = argument(call, { keywords: [cls.via] });
    if (inner instanceof NestedCall) return fromNameAndArgs(inner.call, { keywords: ['name'] }, { keywords: ['arguments', 'args'] }, at);
    const p = plain(inner);
    if (typeof p === 'object' && p !== null && typeof (p as { name?: unknown }).name === 'string') return shapeCalls({ function: p }, at);
    return undefined;
  }
  if (cls.message) {
    const toolCalls = argument(call, { keywords: ['tool_calls'] });
    const out: ParsedCall[] = [];
    if (Array.isArray(toolCalls)) {
      for (const item of toolCalls) {
        if (item instanceof NestedCall) {
          const r = callsOf(item.call, item.call.start ?? at, depth + 1);
          if (r && !Array.isArray(r)) return r;
          if (r) out.push(...r);
        } else if (typeof item === 'object' && item !== null) {
          const r = shapeCalls(plain(item), offsetOf(item) ?? at);
          if (!Array.isArray(r)) return r;
          out.push(...r);
        }
      }
    }
    // LangChain keeps the provider's own copy in `additional_kwargs`: the same calls, read only when `tool_calls` has none.
    if (out.length === 0) {
      const kwargs = plain(argument(call, { keywords: ['additional_kwargs'] }));
      if (typeof kwargs === 'object' && kwargs !== null && Array.isArray((kwargs as { tool_calls?: unknown }).tool_calls)) {
        const r = shapeCalls({ tool_calls: (kwargs as { tool_calls: unknown[] }).tool_calls }, at);
        if (!Array.isArray(r)) return r;
        out.push(...r);
      }
    }
    return out;
  }
  return fromNameAndArgs(call, cls.name, cls.args, at);
}

function fromNameAndArgs(call: PythonCall, nameSpot: SdkClass['name'], argsSpot: SdkClass['args'], at: number): Read | undefined {
  const name = argument(call, nameSpot);
  // The name in a variable, or a class definition (`class ToolCallPart(BaseModel)`): no call to check.
  if (typeof name !== 'string' || name === '') return undefined;
  let raw = argument(call, argsSpot);
  if (typeof raw === 'string') {
    const read = readJson(raw, 0);
    if (!read.ok || /\S/.test(raw.slice(read.end))) return { error: `Unexpected arguments of \`${name}\` that are not JSON (${read.ok ? 'text after the JSON value' : read.message}), expected a JSON object in the string`, tool: name };
    raw = read.value;
  }
  if (raw === undefined || raw === null) raw = {};
  const { value, unread } = literalArguments(raw);
  const parsed: ParsedCall = { name, arguments: value, at };
  if (unread.length > 0 || call.spread) parsed.unread = call.spread && !argsSpot ? ['*'] : unread;
  return [parsed];
}

/** A dict inside an SDK object (`{'name': 'x', 'args': {...}}`, an OpenAI `tool_calls` list), read as the shapes of JSON calls are. */
export function shapeCalls(value: unknown, at: number): Read {
  const shape = callsFromValue(value);
  if (shape.kind === 'error') return shape.name === undefined ? { error: shape.message } : { error: shape.message, tool: shape.name };
  if (shape.kind !== 'calls') return [];
  return shape.calls.map((c) => {
    const call: ParsedCall = { name: c.name, arguments: c.arguments ?? {}, at: offsetOf(c.source) ?? at };
    const unread = unreadOf(c.arguments);
    if (unread !== undefined) call.unread = unread;
    return call;
  });
}

export const sdkReprNotation = defineNotation<SdkMatch>({
  name: 'sdk-repr',
  description: 'an SDK object holding a call: `ToolCallPart(tool_name=..., args=...)`, `FunctionCall(name=..., arguments=...)`, `ToolUseBlock(...)`, `AIMessage(tool_calls=[...])`',
  // The trigger ends in the call's `(`.
  find: prefiltered((text) => text.includes('('), function* (text) {
    trigger.lastIndex = 0;
    for (let m = trigger.exec(text); m; m = trigger.exec(text)) {
      if (/[\w$]/.test(text[m.index - 1] ?? '')) continue;
      // `types.`, `anthropic.types.` before the class.
      let at = m.index;
      while (text[at - 1] === '.' && /[A-Za-z_]/.test(text[at - 2] ?? '')) {
        let k = at - 2;
        while (k > 0 && /\w/.test(text[k - 1]!)) k--;
        at = k;
      }
      if (/[\w$]/.test(text[at - 1] ?? '')) continue;
      const isNew = /(?:^|[^\w$])new[ \t]+$/.exec(text.slice(Math.max(0, at - 8), at));
      const r = readCodeCall(text, at);
      if (!r.ok) continue;
      const call = r.calls[0]!;
      if (sdkClassOf(call.name) === undefined) continue;
      yield { start: isNew ? at - isNew[0].length + (isNew[0].startsWith('new') ? 0 : 1) : at, end: r.end, where: `\`${call.name}(...)\``, call };
      trigger.lastIndex = r.end;
    }
  }),
  parse(match): ParseResult {
    const r = callsOf(match.call, match.start);
    if (r === undefined) return undefined;
    return r;
  },
});
