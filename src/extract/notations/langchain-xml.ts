/**
 * LangChain's XML agent (`create_xml_agent`, and agents built on its prompt):
 * `<tool>search</tool><tool_input>weather in SF</tool_input>`, the tool's name in one element and
 * its input in the next. LangChain hands the input to the tool as one string, and stops the model
 * at `</tool_input>`, so an example may leave it out (the input then runs to the end of its
 * line). A JSON object as the input is read as the arguments; a plain input counts for a known
 * tool whose one required parameter is a string, as in ReAct text.
 */
import { coerceParameter } from '../coerce.js';
import { readJson, skipWhitespace } from '../json.js';
import { defineNotation, prefiltered, type ParseResult } from '../notation.js';
import { lineEndOf, singleStringParameter } from './react.js';
import { within } from './tokens.js';

interface LangchainXmlMatch {
  start: number;
  end: number;
  name: string;
  inputStart: number;
  inputEnd: number;
}

const TOOL = '<tool>';
const TOOL_END = '</tool>';
const INPUT = '<tool_input>';
const INPUT_END = '</tool_input>';
const identifier = /^[A-Za-z_][\w.-]{0,199}$/;

export const langchainXmlNotation = defineNotation<LangchainXmlMatch>({
  name: 'langchain-xml',
  description: "`<tool>name</tool><tool_input>input</tool_input>` (LangChain's XML agent)",
  find: prefiltered((text) => text.includes(TOOL) && text.includes(INPUT), function* (text, context) {
    // Each closing tag is searched for again only once the reading has passed it: linear in the text.
    const NONE = Number.MAX_SAFE_INTEGER;
    let toolEnd = -1;
    let inputEnd = -1;
    for (let at = text.indexOf(TOOL); at !== -1; ) {
      const nameStart = at + TOOL.length;
      const next = text.indexOf(TOOL, nameStart);
      if (toolEnd < nameStart) toolEnd = text.indexOf(TOOL_END, nameStart);
      if (toolEnd === -1) return;
      const name = text.slice(nameStart, toolEnd).trim();
      const k = skipWhitespace(text, toolEnd + TOOL_END.length);
      if ((next === -1 || toolEnd < next) && identifier.test(name) && (context.tools.size === 0 || context.tools.has(name)) && text.startsWith(INPUT, k)) {
        const inputStart = k + INPUT.length;
        if (inputEnd !== NONE && inputEnd < inputStart) {
          inputEnd = text.indexOf(INPUT_END, inputStart);
          if (inputEnd === -1) inputEnd = NONE;
        }
        // Closed before the next call; otherwise the input is the rest of its line.
        const closed = inputEnd !== NONE && (next === -1 || inputEnd < next);
        const valueEnd = closed ? inputEnd : lineEndOf(text, inputStart);
        const end = closed ? inputEnd + INPUT_END.length : valueEnd;
        yield { start: at, end, name, inputStart, inputEnd: valueEnd };
        at = text.indexOf(TOOL, end);
        continue;
      }
      at = next;
    }
  }),
  parse(match, context): ParseResult {
    const { text } = context;
    const { name } = match;
    // The parameter a plain input goes to, when the tool has one.
    const param = singleStringParameter(context, name);
    const k = skipWhitespace(text, match.inputStart);
    if (k < match.inputEnd && text[k] === '{') {
      const read = readJson(text, k);
      if (read.ok && skipWhitespace(text, read.end) >= match.inputEnd) {
        if (typeof read.value === 'object' && read.value !== null && !Array.isArray(read.value)) return [{ name, arguments: read.value }];
      } else if (!read.ok && param === undefined) {
        // Meant as JSON arguments (the tool takes more than one string) and not JSON: say where it breaks.
        return { error: within(read.message, `the tool_input of \`${name}\``), ...(read.atEnd ? {} : { offset: read.offset }), tool: name };
      }
    }
    if (!param) return undefined;
    const raw = text.slice(match.inputStart, match.inputEnd).trim();
    if (raw === '') return undefined;
    const args: Record<string, unknown> = {};
    Object.defineProperty(args, param.key, { value: coerceParameter(raw, param.schema), enumerable: true, writable: true, configurable: true });
    return [{ name, arguments: args }];
  },
});
