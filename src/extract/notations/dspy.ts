/**
 * DSPy's ReAct, as its chat adapter writes it: each field under a `[[ ## field ## ]]` header.
 * A call is a tool name field then an arguments field: `next_tool_name` and `next_tool_args`
 * in a demo's answer, `tool_name_0` and `tool_args_0` (one pair a step) in a trajectory.
 *
 * ```
 * [[ ## next_tool_name ## ]]
 * search_wikipedia
 *
 * [[ ## next_tool_args ## ]]
 * {"query": "Lionheart 1990 film"}
 * ```
 *
 * The arguments are JSON (the adapter writes a dict as JSON), or a Python dict. `finish` is
 * DSPy's own way to end the loop, not a call, unless the prompt's tools have one of that name.
 * The format description (`{next_tool_name}`, `{next_tool_args}` with a `# note` after) is a
 * placeholder.
 */
import { readJson } from '../json.js';
import { defineNotation, prefiltered, type NotationMatch, type ParseFailure } from '../notation.js';
import { readPythonLiteral } from '../python.js';
import { within } from './tokens.js';

interface DspyMatch extends NotationMatch {
  /** The name field's value, trimmed, its `# note` left out. */
  name: string;
  /** Where the arguments field's value starts and ends. */
  argsStart: number;
  argsEnd: number;
}

const HEADER = '[[ ## ';
/** `[[ ## next_tool_name ## ]]`, `[[ ## tool_name_3 ## ]]`: the prefix and the step, which the arguments header repeats. */
const nameHeader = /^\[\[ ## (next_)?tool_name(_\d+)? ## \]\][ \t]*\r?$/gm;

function lineEndOf(text: string, from: number): number {
  const e = text.indexOf('\n', from);
  return e === -1 ? text.length : e;
}

/** Where the field whose value starts at `from` ends: at the line break before the next header line, or the end of the text. */
function fieldEnd(text: string, from: number): number {
  if (text.startsWith(HEADER, from)) return from;
  const header = text.indexOf(`\n${HEADER}`, from);
  return header === -1 ? text.length : header;
}

/**
 * Where the arguments field ends: past its JSON value and the rest of that line, when it reads
 * (prose may follow a demo's last field); otherwise at the next header, or a blank line before it.
 */
function valueEnd(text: string, from: number, field: number): number {
  let at = from;
  while (at < field && /\s/.test(text[at]!)) at++;
  if (text[at] === '{' || text[at] === '[') {
    const read = readJson(text, at);
    if (read.ok) return Math.min(field, lineEndOf(text, read.end));
  }
  const blank = text.indexOf('\n\n', at);
  return blank !== -1 && blank < field ? blank : field;
}

/** A value with a `# note: ...` after it, as the format description writes one. */
function withoutNote(value: string): string {
  const note = value.search(/#[ \t]*note:/);
  return (note === -1 ? value : value.slice(0, note)).trim();
}

export const dspyNotation = defineNotation<DspyMatch>({
  name: 'dspy-react',
  description: "DSPy ReAct fields: `[[ ## next_tool_name ## ]]` then `[[ ## next_tool_args ## ]]` (or `tool_name_N` and `tool_args_N` in a trajectory)",
  find: prefiltered((text) => text.includes(HEADER), function* (text) {
    nameHeader.lastIndex = 0;
    for (let m = nameHeader.exec(text); m; m = nameHeader.exec(text)) {
      const nameStart = lineEndOf(text, m.index) + 1;
      const nameEnd = fieldEnd(text, nameStart);
      const argsHeader = `${HEADER}${m[1] ?? ''}tool_args${m[2] ?? ''} ## ]]`;
      const headerAt = text[nameEnd] === '\n' ? nameEnd + 1 : nameEnd;
      if (!text.startsWith(argsHeader, headerAt) || text.slice(headerAt + argsHeader.length, lineEndOf(text, headerAt)).trim() !== '') continue;
      const argsStart = lineEndOf(text, headerAt) + 1;
      const name = withoutNote(text.slice(nameStart, nameEnd));
      // A tool's name, or a placeholder for one (`{next_tool_name}`): a sentence in the field is no call.
      if (!/^(?:[A-Za-z_][\w.-]*|\{[A-Za-z_]\w*\})$/.test(name)) continue;
      const argsEnd = valueEnd(text, argsStart, fieldEnd(text, argsStart));
      yield { start: m.index, end: argsEnd, name, argsStart, argsEnd };
      nameHeader.lastIndex = argsEnd;
    }
  }),
  parse(match, context) {
    const { text, tools } = context;
    const { name } = match;
    if (name === 'finish' && !tools.has('finish')) return undefined;
    const raw = withoutNote(text.slice(match.argsStart, match.argsEnd));
    if (/^\{[A-Za-z_]\w*\}$/.test(raw)) return { error: `Unexpected placeholder \`${raw}\` in the arguments of \`${name}\``, placeholder: raw };
    const start = match.argsStart + text.slice(match.argsStart, match.argsEnd).indexOf(raw[0] ?? '');
    if (raw === '' || (raw[0] !== '{' && raw[0] !== '[')) {
      return { error: `Unexpected ${raw === '' ? 'empty arguments field' : 'text'} in the \`tool_args\` field of \`${name}\`, expected a JSON object`, offset: start, tool: name };
    }
    const where = `the \`tool_args\` field of \`${name}\``;
    const read = readJson(text, start);
    if (read.ok) {
      if (text.slice(read.end, match.argsEnd).trim() !== '') return { error: `Unexpected text after the arguments of \`${name}\`, expected the next \`[[ ## field ## ]]\``, offset: read.end, tool: name };
      return [{ name, arguments: read.value }];
    }
    const py = readPythonLiteral(text.slice(start, match.argsEnd), 0);
    if (py.ok && text.slice(start + py.end, match.argsEnd).trim() === '') return [{ name, arguments: py.value }];
    const failure: ParseFailure = { error: within(read.message, where), tool: name };
    if (!read.atEnd) failure.offset = read.offset;
    return failure;
  },
});
