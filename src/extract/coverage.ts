/**
 * What the extractor could not read. Notations will always be missing somewhere, and a stale
 * example written in a form nobody reads would pass the build in silence: so wherever the tools
 * are known, every place where a known tool's name stands where a call puts it is looked at, and
 * each is either part of a call that was read, part of a finding already made there (a block
 * that did not parse, a placeholder), something else the scan can tell apart (a definition of
 * the tool, a sentence about it), or reported as not read.
 *
 * Call-like places, with `lookup_order` for the tool's name:
 * - `lookup_order(` followed by an argument (`"A-1"`, `order_id=`, `{`): a call in code or a
 *   pythonic list; not `lookup_order()` nor a signature (`lookup_order(order_id: str)`), nor
 *   a definition (`def lookup_order(`, `function lookup_order(`);
 * - `<lookup_order>` or `<lookup_order attr=...>`: an element per tool (Cline, Roo Code);
 * - `name="lookup_order"`, `<function=lookup_order>`: an attribute of a call tag, unless the
 *   tag also carries a `description` (a definition);
 * - the value of a `name`, `tool`, `tool_name`, `function`, `action`, `recipient` key (JSON,
 *   YAML, a Python dict or keyword arguments) in an object that also has arguments
 *   (`arguments`, `args`, `input`, `parameters`, `tool_input`, ...), and no `description` or
 *   `properties` (a definition);
 * - after `Action:` (ReAct) when input follows, after `to=` (Harmony's recipient), or after a
 *   vendor's call token (`<|tool_call_begin|>`, `<｜tool▁sep｜>`, `<|START_ACTION|>`) or in
 *   LangChain's XML agent's `<tool>` element.
 * A mention in prose (`use \`lookup_order\` to find an order`) stands in none of these places.
 */

/** Where a known tool's name stands where a call puts it. */
export interface CallMention {
  name: string;
  /** 0-based offsets of the name. */
  start: number;
  end: number;
  /** Which kind of call-like place it is, for the message: `a call`, `an element`, ... */
  kind: MentionKind;
}

export type MentionKind = 'code call' | 'element' | 'attribute' | 'key' | 'action' | 'recipient' | 'call token';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Keys whose value names the tool in a call object. */
const nameKeys = /(?:^|[\s{,(])["']?(?:name|tool|tool_name|toolName|tool_code|function|function_name|functionName|action|recipient|command_name|next_tool_name|api_name)["']?\s*(?::|=>|=)\s*["']?$/;
/** Keys that carry a call's arguments. */
const argumentKeys = /["']?(?:arguments|args|input|parameters|params|tool_input|toolInput|action_input|actionInput|kwargs|tool_args|next_tool_args|tool_arguments|argument)["']?\s*(?::|=)/;
/** Keys that only a definition has. */
const definitionKeys = /["']?(?:description|input_schema|inputSchema|parametersJsonSchema|properties)["']?\s*:/;
const definitionBefore = /(?:\bdef|\bfunction|\bfn|\bfunc|\btype|\binterface|\bclass|\bconst|\blet|\bvar)\s+$/;
const argumentStart = /^\s*\(\s*(?:[A-Za-z_][\w-]*\s*=(?!=)|["'{[\d-]|true\b|false\b|null\b|None\b|True\b|False\b)/;
const actionBefore = /(?:^|\n)[ \t>*_-]*(?:Action(?:[ \t]+\d{1,4})?|Tool call|Function call|Calling|Call)\s*:\s*[`"']?$/i;
// Input after the action; or nothing more, the action's line ending its example (its observation
// next, a blank line, the end of the text): an action taken with no input.
const actionInputAfter = /^[`"']?[ \t]*(?:\r?\n[ \t>*_-]*(?:Action Input(?:[ \t]+\d{1,4})?|Action input|Input|Arguments|Args|Parameters|Observation(?:[ \t]+\d{1,4})?)\s*:|[ \t]*(?:\r?\n)?[ \t]*[{(\[]|\r?\n[ \t]*(?:\r?\n|$)|$)/;
const recipientBefore = /(?:\bto=|\brecipient\s*=\s*["']?)(?:functions\.)?$/;
const callTokenBefore = /(?:<[|｜][^|｜<>]{0,40}(?:tool|call|action|function)[^|｜<>]{0,40}[|｜]>|\[TOOL_CALLS\]|<tool_call>|<tool>)\s*(?:functions?[.:]|function<[|｜]tool▁sep[|｜]>)?\s*$/i;

/**
 * The enclosing bracketed span of `at`: from the nearest unclosed `{` or `(` before it to its
 * match, strings skipped roughly; undefined past `limit` characters either way.
 */
function enclosing(text: string, at: number, limit = 4000): { start: number; end: number } | undefined {
  let depth = 0;
  let start = -1;
  for (let i = at - 1; i >= Math.max(0, at - limit); i--) {
    const c = text[i];
    if (c === '}' || c === ')') depth++;
    else if (c === '{' || c === '(') {
      if (depth === 0) {
        start = i;
        break;
      }
      depth--;
    }
  }
  if (start === -1) return undefined;
  depth = 0;
  let quote: string | undefined;
  for (let i = start; i < Math.min(text.length, start + limit); i++) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '{' || c === '(') depth++;
    else if (c === '}' || c === ')') {
      depth--;
      if (depth === 0) return { start, end: i + 1 };
    }
  }
  return undefined;
}

/** Whether the object the name is a value in is a call (it has arguments and no definition keys). */
function inCallObject(text: string, start: number, end: number): boolean {
  const span = enclosing(text, start);
  if (span !== undefined) {
    const body = text.slice(span.start, span.end);
    return argumentKeys.test(body) && !definitionKeys.test(body);
  }
  // YAML or keyword lines without brackets: the lines after it, indented at least as far.
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const indent = /^[ \t]*(?:- )?/.exec(text.slice(lineStart, start))![0].length;
  const after = text.slice(end, end + 600).split('\n').slice(1, 6);
  for (const line of after) {
    if (line.trim() === '') continue;
    const own = /^[ \t]*/.exec(line)![0].length;
    if (own < indent) break;
    if (definitionKeys.test(line)) return false;
    if (argumentKeys.test(line)) return true;
  }
  return false;
}

/** The tag a name stands in, from its `<` to its `>`, when it is inside one. */
function enclosingTag(text: string, start: number): string | undefined {
  const open = text.lastIndexOf('<', start);
  if (open === -1 || text.lastIndexOf('>', start) > open) return undefined;
  const close = text.indexOf('>', start);
  return close === -1 ? undefined : text.slice(open, close + 1);
}

/**
 * Whether an element is written as a call: with attributes, closed on itself, or holding
 * children or a value up to its closing tag. `use <ask_followup_question>.` names the element
 * in a sentence.
 */
function elementCall(text: string, name: string, end: number): boolean {
  const after = text.slice(end, end + 400);
  if (/^\s+[A-Za-z_][\w-]*\s*=/.test(after) || /^\s*\/>/.test(after)) return true;
  if (!after.startsWith('>')) return false;
  // A child element or a line break after the tag, or the value and the closing tag on its line.
  return /^>[ \t]*(?:\r?\n|<[A-Za-z_])/.test(after) || new RegExp(`^>[^\\n<]*</${escape(name)}>`).test(after);
}

/** Whether the name sits in an inline code span of a sentence that ends right after it (`` `to=functions.x` ``). */
function inCodeSpan(text: string, start: number, end: number): boolean {
  if (text[end] !== '`') return false;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const ticks = text.slice(lineStart, start).split('`').length - 1;
  return ticks % 2 === 1;
}

// A quote opened after a sentence's words (four at least) and not closed before the name: `... pass the arguments as in 'answer = `.
const quotedInSentence = /(?:[A-Za-z]+[ \t,;:.]+){4,}['"`][^'"`\n]{0,60}$/;

function classify(text: string, start: number, end: number): MentionKind | undefined {
  const before = text.slice(Math.max(0, start - 120), start);
  const after = text.slice(end, end + 200);
  // Code quoted inside a sentence (`DO NOT pass the arguments as a dict as in 'answer = x({...})'`) is prose about the call.
  if (argumentStart.test(after)) return definitionBefore.test(before) || quotedInSentence.test(before.slice(before.lastIndexOf('\n') + 1)) ? undefined : 'code call';
  if (inCodeSpan(text, start, end)) return undefined;
  if (before.endsWith('<') && /^[\s>/]/.test(after)) return elementCall(text, text.slice(start, end), end) ? 'element' : undefined;
  if (/(?:\bname|\btool|\bfunction)\s*=\s*["']?$/.test(before) || before.endsWith('<function=')) {
    const tag = enclosingTag(text, start);
    if (tag !== undefined && /\bdescription\s*=/.test(tag)) return undefined;
    // A keyword argument outside a tag (`ToolCallPart(tool_name='x', args=...)`) is a key like any other.
    if (tag !== undefined) return 'attribute';
  }
  if (recipientBefore.test(before)) return 'recipient';
  if (callTokenBefore.test(before)) return 'call token';
  if (actionBefore.test(before)) return actionInputAfter.test(after) ? 'action' : undefined;
  if (nameKeys.test(before)) return inCallObject(text, start, end) ? 'key' : undefined;
  return undefined;
}

/** Every call-like place of a known tool's name in `text`, in text order. */
export function callMentions(text: string, names: Iterable<string>): CallMention[] {
  return mentionsOutside(text, names, []);
}

/**
 * The call-like places of known tools that lie in none of `covered`: the spans of the examples
 * read and of the blocks notations read or reported. What was not read, to be reported, not
 * passed. A name inside a covered span is passed over before it is classified: in a prompt
 * full of examples, nearly every name is.
 */
export function unreadMentions(text: string, names: Iterable<string>, covered: ReadonlyArray<{ start: number; end: number }>): CallMention[] {
  return mentionsOutside(text, names, covered);
}

function mentionsOutside(text: string, names: Iterable<string>, covered: ReadonlyArray<{ start: number; end: number }>): CallMention[] {
  const sorted = [...new Set(names)].filter((n) => n.length > 0).sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return [];
  const inside = coveredTest(covered);
  // A name is whole: no word character, `-` or `.` on either side (`functions.` is allowed before, below).
  const re = new RegExp(`(?<![\\w-])(?:${sorted.map(escape).join('|')})(?![\\w-])`, 'g');
  const out: CallMention[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (inside(start, end)) continue;
    // `x.lookup_order` is a member of something else, unless it is `functions.` or `tools.`, which namespace the tools themselves.
    if (text[start - 1] === '.' && !/(?:functions|tools|default_api|api)\.$/.test(text.slice(Math.max(0, start - 12), start))) continue;
    const kind = classify(text, start, end);
    if (kind !== undefined) out.push({ name: m[0], start, end, kind });
  }
  return out;
}

/** Whether `[start, end)` lies inside one of `spans`: spans sorted by start, with the furthest end so far, searched by halves. */
function coveredTest(spans: ReadonlyArray<{ start: number; end: number }>): (start: number, end: number) => boolean {
  if (spans.length === 0) return () => false;
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const reach: number[] = [];
  let furthest = -1;
  for (const s of sorted) reach.push((furthest = Math.max(furthest, s.end)));
  return (start, end) => {
    // The last span that starts at or before `start`; any span before it that reaches `end` covers too.
    let lo = 0;
    let hi = sorted.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]!.start <= start) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return at !== -1 && reach[at]! >= end;
  };
}

/** How a mention looks in a message: its line, cut to 80 characters around the name. */
export function mentionSnippet(text: string, mention: CallMention): string {
  const lineStart = text.lastIndexOf('\n', mention.start - 1) + 1;
  let lineEnd = text.indexOf('\n', mention.start);
  if (lineEnd === -1) lineEnd = text.length;
  const from = Math.max(lineStart, mention.start - 30);
  const to = Math.min(lineEnd, mention.end + 50);
  return `${from > lineStart ? '…' : ''}${text.slice(from, to).trim()}${to < lineEnd ? '…' : ''}`;
}
