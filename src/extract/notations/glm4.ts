/**
 * GLM-4 (ChatGLM): the assistant turn names the tool on a line of its own and gives the
 * arguments as a JSON object on the next line, `<|assistant|>get_weather\n{"city": "Beijing"}`;
 * LLaMA-Factory's `glm4` tool format writes the same, `get_weather\n{"city": "Beijing"}`.
 *
 * Nothing but the two lines says it is a call, so it is read only for a tool the prompt has
 * (with no tools known, no place is found), only where the object is all the rest of its line,
 * and never where the object is a definition (a heading line over the tool's schema).
 */
import { readJson } from '../json.js';
import { defineNotation, prefiltered } from '../notation.js';

interface Glm4Match {
  start: number;
  end: number;
  where: string;
  name: string;
  value: unknown;
}

// A line that is one name (after GLM's assistant token, or none), then a line that opens an object.
const nameLine = /(?:^|\n)[ \t]*(?:<\|assistant\|>[ \t]*)?([A-Za-z_][\w.-]*)[ \t]*\r?\n(?=[ \t]*\{)/g;
const definitionKeys = ['description', 'parameters', 'properties', 'input_schema', 'inputSchema'];

export const glm4Notation = defineNotation<Glm4Match>({
  name: 'glm4',
  description: 'GLM-4: the tool name on its own line, then its arguments as a JSON object: `get_weather\\n{"city": "Beijing"}`',
  // No line opens an object: nothing to look at (one quick pass, not one regex step a line).
  find: prefiltered((text, context) => context.tools.size > 0 && /\n[ \t]*\{/.test(text), function* (text, context) {
    nameLine.lastIndex = 0;
    for (let m = nameLine.exec(text); m; m = nameLine.exec(text)) {
      const name = m[1]!;
      if (!context.tools.has(name)) continue;
      const brace = text.indexOf('{', m.index + m[0].length);
      const read = readJson(text, brace);
      if (!read.ok) continue;
      const after = text.indexOf('\n', read.end);
      if (/\S/.test(text.slice(read.end, after === -1 ? text.length : after))) continue;
      const start = m.index + (text[m.index] === '\n' ? 1 : 0);
      yield { start, end: read.end, where: `the GLM-4 call of \`${name}\``, name, value: read.value };
      nameLine.lastIndex = read.end;
    }
  }),
  parse(match) {
    const { value, name } = match;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    if (definitionKeys.some((k) => Object.hasOwn(value, k))) return [];
    return [{ name, arguments: value }];
  },
});
