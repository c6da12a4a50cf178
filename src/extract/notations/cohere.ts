/**
 * Cohere Command R7B / Command A action blocks: `<|START_ACTION|>` then a JSON list of calls,
 * each `{"tool_call_id": "0", "tool_name": "x", "parameters": {...}}`, then `<|END_ACTION|>`.
 *
 * The block is its own container: read the same wherever it stands (prose, or a fence of any
 * language the extractor reads), the tokens around the JSON are never part of a value, and each
 * call is placed at its own `{`. The tokens named in prose (`wrap the calls in
 * <|START_ACTION|> and <|END_ACTION|>`) are no block.
 */
import { describeChar, offsetOf, readJson, skipWhitespace } from '../json.js';
import { defineNotation, prefiltered, type ParsedCall, type ParseResult } from '../notation.js';
import { callsFromValue } from '../../shapes/calls.js';
import { plainStringArguments } from './json.js';

export const COHERE_START = '<|START_ACTION|>';
const END = '<|END_ACTION|>';

interface CohereMatch {
  start: number;
  end: number;
  where: string;
  bodyStart: number;
  bodyEnd: number;
}

export const cohereNotation = defineNotation<CohereMatch>({
  name: 'cohere-action',
  description: 'Cohere Command R7B / A: `<|START_ACTION|>[{"tool_name": ..., "parameters": {...}}]<|END_ACTION|>`',
  find: prefiltered((text) => text.includes(COHERE_START), function* (text) {
    for (let at = text.indexOf(COHERE_START); at !== -1; ) {
      const bodyStart = at + COHERE_START.length;
      const k = skipWhitespace(text, bodyStart);
      // Only a JSON value after the token is a block; the token named in prose is not.
      if (text[k] !== '[' && text[k] !== '{') {
        at = text.indexOf(COHERE_START, bodyStart);
        continue;
      }
      const read = readJson(text, k);
      const valueEnd = read.ok ? read.end : text.indexOf('\n', k) === -1 ? text.length : text.indexOf('\n', k);
      const after = skipWhitespace(text, valueEnd);
      const closed = read.ok && text.startsWith(END, after);
      const end = closed ? after + END.length : Math.max(valueEnd, k + 1);
      yield { start: at, end, where: '`<|START_ACTION|>` block', bodyStart: k, bodyEnd: valueEnd };
      at = text.indexOf(COHERE_START, end);
    }
  }),
  parse(match, context): ParseResult {
    const { text } = context;
    const k = match.bodyStart;
    const read = readJson(text, k, { offsets: true });
    if (!read.ok) return read.atEnd ? { error: `${read.message.split(', expected')[0]} in the \`<|START_ACTION|>\` block, expected a JSON list of calls` } : { error: read.message, offset: read.offset };
    const after = skipWhitespace(text, read.end);
    if (!text.startsWith(END, after)) return { error: `Unexpected ${describeChar(text, after)} after the calls of the \`<|START_ACTION|>\` block, expected \`${END}\``, offset: after };
    const items = Array.isArray(read.value) ? read.value : [read.value];
    const calls: ParsedCall[] = [];
    for (const item of items) {
      const shape = callsFromValue(item);
      if (shape.kind === 'error') return shape.name === undefined ? { error: shape.message } : { error: shape.message, tool: shape.name };
      const at = offsetOf(item);
      if (shape.kind !== 'calls') {
        const error = 'Unexpected JSON that is not a tool call in the `<|START_ACTION|>` block, expected `{"tool_name": "...", "parameters": {...}}`';
        return at === undefined ? { error } : { error, offset: at };
      }
      for (const call of shape.calls) {
        const parsed = plainStringArguments(call, context.tools);
        calls.push(at === undefined ? parsed : { ...parsed, at });
      }
    }
    return calls;
  },
});
