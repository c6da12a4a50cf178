/**
 * Agent trajectories saved as JSON: an object whose `history` or `trajectory` is the list of
 * chat messages (SWE-agent's `.traj` demonstrations, which prompts quote as few-shot examples).
 * The assistant messages carry OpenAI-style `tool_calls` (`{"function": {"arguments": "{...}",
 * "name": "find_file"}, "id": ..., "type": "function"}`, the name often several lines after the
 * call's `{`); each call is read as the message shapes read it and placed at its own `{`.
 *
 * Only the opening of such an object starts a place (`{"history": [`, `{"trajectory": [`), so
 * other JSON in prose is left to the JSON notation.
 */
import { offsetOf, readJson } from '../json.js';
import { defineNotation, prefiltered, type ParsedCall, type ParseResult } from '../notation.js';
import { callsFromValue } from '../../shapes/calls.js';
import { plainStringArguments } from './json.js';

interface HistoryMatch {
  start: number;
  end: number;
  where: string;
}

const opening = /\{\s*"(?:history|trajectory)"\s*:\s*\[/g;
const listKeys = ['history', 'trajectory'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const messageHistoryNotation = defineNotation<HistoryMatch>({
  name: 'message-history',
  description: 'a saved agent trajectory: `{"history": [messages...]}` (SWE-agent), each message\'s `tool_calls` read and placed at its own line',
  find: prefiltered((text) => text.includes('"history"') || text.includes('"trajectory"'), function* (text) {
    opening.lastIndex = 0;
    for (let m = opening.exec(text); m; m = opening.exec(text)) {
      const read = readJson(text, m.index);
      if (!read.ok) continue;
      yield { start: m.index, end: read.end, where: 'saved message history' };
      opening.lastIndex = read.end;
    }
  }),
  parse(match, context): ParseResult {
    const read = readJson(context.text, match.start, { offsets: true });
    if (!read.ok || !isObject(read.value)) return undefined;
    const calls: ParsedCall[] = [];
    for (const key of listKeys) {
      const list = read.value[key];
      if (!Array.isArray(list)) continue;
      for (const message of list) {
        if (!isObject(message) || typeof message.role !== 'string') continue;
        const shape = callsFromValue(message);
        if (shape.kind === 'error') return shape.name === undefined ? { error: shape.message } : { error: shape.message, tool: shape.name };
        if (shape.kind !== 'calls') continue;
        for (const call of shape.calls) {
          const at = offsetOf(call.source ?? message);
          const parsed = plainStringArguments(call, context.tools);
          calls.push(at === undefined ? parsed : { ...parsed, at });
        }
      }
    }
    // A history with no calls is data: read, so that nothing inside it is taken for a call.
    return calls;
  },
});
