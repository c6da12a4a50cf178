/**
 * ReAct traces (LangChain, LlamaIndex): `Action: get_weather` then `Action Input: {"city": "Paris"}`
 * on the next line; on one line, `Action: wikipedia: Django` (the "Thought, Action, PAUSE,
 * Observation" loop many hand-written agents copy) and the ReAct paper's `Action: Search[Django]`,
 * whose few-shot trajectories number their steps (`Thought 1:`, `Action 1: Search[Django]`,
 * `Observation 1:`); a numbered `Action 2:` reads as `Action:` does.
 * The input is a JSON object (or a Python dict, which LlamaIndex's parser also takes); a plain
 * value counts only for a known tool with exactly one required string parameter, which then
 * takes it.
 *
 * Not calls: the format description (`Action: the action to take, should be one of [...]`,
 * `Action: tool name (one of {tool_names})`): the action must be one identifier, and one of the
 * prompt's tools when they are known.
 */
import { coerceParameter } from '../coerce.js';
import { describeChar, readJson } from '../json.js';
import { defineNotation, prefiltered, type NotationContext, type NotationMatch, type ParseFailure } from '../notation.js';
import { within } from './tokens.js';
import { readPythonLiteral } from '../python.js';

interface ReactMatch extends NotationMatch {
  name: string;
  /** Where the input's value starts (past `Action Input:` and spaces). */
  inputStart: number;
  /** Where a plain input ends, when not at the end of its line (`Search[Django]`). */
  inputEnd?: number;
}

/** `name: input` and `name[input]` after `Action:`, on the same line. */
const inline = /^([A-Za-z_][\w.-]*)(?:[ \t]*:[ \t]*(?=\S)|\[(?=[^\]\n]*\][ \t\r]*$))/;

/** `Action:`, or a numbered step's `Action 3:`, as the ReAct paper's trajectories write it. */
const ACTION = /Action(?:[ \t]+\d{1,4})?:/y;
const INPUT = /Action Input(?:[ \t]+\d{1,4})?:/y;
/** Any `Action:` label, for the quick test of a text with no place at all. */
const anyAction = /Action(?:[ \t]+\d{1,4})?:/;
const identifier = /^[A-Za-z_][\w.-]*$/;
/** A ReAct step label that may follow an input on its line. */
const nextStep = /^(?:Thought|Observation|Final Answer|Action)(?:[ \t]+\d{1,4})?:/;

/** The length of the label `re` (sticky) matches at `at`, or -1. */
function labelAt(re: RegExp, text: string, at: number): number {
  re.lastIndex = at;
  return re.test(text) ? re.lastIndex - at : -1;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Past spaces, tabs and ANSI colour codes (`\x1b[1;3;34m`) that verbose agent traces start lines with. */
function skipLinePrefix(text: string, i: number, limit: number): number {
  while (i < limit) {
    const c = text[i];
    if (c === ' ' || c === '\t') i++;
    else if (c === '\x1b' && text[i + 1] === '[') {
      let j = i + 2;
      while (j < limit && /[0-9;]/.test(text[j]!)) j++;
      if (text[j] !== 'm') break;
      i = j + 1;
    } else break;
  }
  return i;
}

/** The end of the line `from` is on (its `\n`, or the end of the text). */
export function lineEndOf(text: string, from: number): number {
  const e = text.indexOf('\n', from);
  return e === -1 ? text.length : e;
}

/** The parameter a plain input goes to: the tool's only required parameter, when it is a string. */
export function singleStringParameter(context: NotationContext, name: string): { key: string; schema: unknown } | undefined {
  const schema = context.tools.get(name)?.inputSchema;
  const props = isObject(schema?.properties) ? schema.properties : undefined;
  const required = Array.isArray(schema?.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [];
  if (!props || required.length !== 1 || !Object.hasOwn(props, required[0]!)) return undefined;
  const prop = props[required[0]!];
  if (!isObject(prop) || prop.type !== 'string') return undefined;
  return { key: required[0]!, schema: prop };
}

export const reactNotation = defineNotation<ReactMatch>({
  name: 'react-text',
  description: 'ReAct text (LangChain, LlamaIndex): `Action: name` then `Action Input: {...}` on the next line, or `Action: name: input` and `Action: Name[input]` on one line; numbered steps (`Action 1: Search[...]`) too',
  // Every place starts with an `Action:` label: a text without one needs no pass over its lines.
  find: prefiltered((text) => anyAction.test(text), function* (text, context) {
    let lineStart = 0;
    while (lineStart < text.length) {
      const lineEnd = lineEndOf(text, lineStart);
      const at = skipLinePrefix(text, lineStart, lineEnd);
      let next = lineEnd + 1;
      const label = labelAt(ACTION, text, at);
      if (label > 0) {
        const name = text.slice(at + label, lineEnd).trim();
        const inputLine = lineEnd + 1;
        if (identifier.test(name) && (context.tools.size === 0 || context.tools.has(name)) && inputLine < text.length) {
          const inputEnd = lineEndOf(text, inputLine);
          const i = skipLinePrefix(text, inputLine, inputEnd);
          const inputLabel = labelAt(INPUT, text, i);
          if (inputLabel > 0) {
            let inputStart = i + inputLabel;
            while (text[inputStart] === ' ' || text[inputStart] === '\t') inputStart++;
            // `Action Input:` alone on its line: the value is on the next.
            if (inputStart >= inputEnd || text.slice(inputStart, inputEnd).trim() === '') inputStart = skipLinePrefix(text, inputEnd + 1, lineEndOf(text, inputEnd + 1));
            const end = valueEnd(text, inputStart);
            yield { start: at, end, name, inputStart };
            next = Math.max(lineEndOf(text, Math.max(end - 1, inputStart)) + 1, inputEnd + 1);
          }
        } else {
          const m = inline.exec(name);
          const tool = m?.[1];
          // A tool the prompt has, or JSON arguments when the tools are not known: never a format description's words.
          if (m && tool !== undefined && (context.tools.has(tool) || (context.tools.size === 0 && name[m[0].length] === '{'))) {
            const inputStart = lineStart + text.slice(lineStart, lineEnd).indexOf(name) + m[0].length;
            if (m[0].endsWith('[')) {
              const close = text.lastIndexOf(']', lineEnd);
              yield { start: at, end: close + 1, name: tool, inputStart, inputEnd: close };
            } else {
              const end = valueEnd(text, inputStart);
              yield { start: at, end, name: tool, inputStart };
              next = lineEndOf(text, Math.max(end - 1, inputStart)) + 1;
            }
          }
        }
      }
      lineStart = next;
    }
  }),
  parse(match, context) {
    const { text } = context;
    const { name } = match;
    const where = `the Action Input of \`${name}\``;
    const k = match.inputStart;
    const c = text[k];
    if (c === '{') {
      const read = readJson(text, k);
      let value: unknown;
      let end: number;
      if (read.ok) {
        value = read.value;
        end = read.end;
      } else {
        // `{'a': 2, 'b': 4}`: LlamaIndex's parser reads a Python dict too.
        const lineEnd = lineEndOf(text, k);
        const py = readPythonLiteral(text.slice(k, lineEnd), 0);
        if (!py.ok) {
          const failure: ParseFailure = { error: within(read.message, where), tool: name };
          if (!read.atEnd) failure.offset = read.offset;
          return failure;
        }
        value = py.value;
        end = k + py.end;
      }
      let rest = end;
      while (text[rest] === ' ' || text[rest] === '\t' || text[rest] === '\r') rest++;
      // `Action: Search[{...}]`: the value ends at the bracket.
      if (match.inputEnd !== undefined && rest === match.inputEnd) return [{ name, arguments: value }];
      // Streamed logs print the next step right after the input: `Action Input: {...}Thought: ...`.
      if (rest < text.length && text[rest] !== '\n' && !nextStep.test(text.slice(rest, rest + 20))) return { error: `Unexpected ${describeChar(text, rest)} after the Action Input of \`${name}\`, expected the end of the line`, offset: rest, tool: name };
      return [{ name, arguments: value }];
    }
    // A plain value: only for a tool whose one required parameter is a string.
    const param = singleStringParameter(context, name);
    if (!param) return undefined;
    let raw = text.slice(k, match.inputEnd ?? lineEndOf(text, k)).trim();
    if (raw === '') return undefined;
    if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) {
      const read = readJson(raw, 0);
      raw = read.ok && typeof read.value === 'string' && read.end === raw.length ? read.value : raw.slice(1, -1);
    }
    const args: Record<string, unknown> = {};
    Object.defineProperty(args, param.key, { value: coerceParameter(raw, param.schema), enumerable: true, writable: true, configurable: true });
    return [{ name, arguments: args }];
  },
});

/** Where the input ends: past a JSON value when it reads, otherwise the end of its line. */
function valueEnd(text: string, start: number): number {
  if (text[start] === '{') {
    const read = readJson(text, start);
    if (read.ok) return read.end;
  }
  return lineEndOf(text, start);
}
