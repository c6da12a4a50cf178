import { beforeAll, describe, expect, test } from '@jest/globals';
import { checkExamples } from '../../src/checks/examples.js';
import { extractToolCalls } from '../../src/extract/index.js';
import { preloadMarkdown } from '../../src/extract/markdown.js';
import { normalizeTools } from '../../src/tools/normalize.js';

beforeAll(() => preloadMarkdown());

const tools = normalizeTools(
  [
    { name: 'find_file', parameters: { type: 'object', properties: { file_name: { type: 'string' } }, required: ['file_name'] } },
    { name: 'submit', parameters: { type: 'object', properties: {} } },
  ],
  'tools.json',
);

const call = (name: string, args: string) =>
  ['        {', '          "function": {', `            "arguments": ${JSON.stringify(args)},`, `            "name": "${name}"`, '          },', '          "id": "call_1",', '          "type": "function"', '        }'].join('\n');
const trajectory = (key: string, first: string) =>
  ['{', `  "${key}": [`, '    {"role": "system", "content": "You are an autonomous programmer."},', '    {', '      "role": "assistant",', '      "content": "Find it.",', '      "tool_calls": [', first, '      ]', '    },', '    {', '      "role": "assistant",', '      "tool_calls": [', call('submit', '{}'), '      ]', '    }', '  ]', '}'].join('\n');

describe('saved agent trajectories ({"history": [messages]})', () => {
  test('each tool call of each message is read at the line of its own `{`, the name several lines below', () => {
    for (const key of ['history', 'trajectory']) {
      const { examples, diagnostics } = extractToolCalls(trajectory(key, call('find_file', '{"file_name":"a.py"}')), { tools });
      expect(diagnostics).toEqual([]);
      expect(examples.map((e) => [e.name, e.arguments, e.line])).toEqual([
        ['find_file', { file_name: 'a.py' }, 8],
        ['submit', {}, 21],
      ]);
    }
  });

  test('a history without calls is data, and nothing in it is read', () => {
    const text = '{"history": [{"role": "user", "content": "{\\"name\\": \\"find_file\\"}"}]}';
    expect(extractToolCalls(text, { tools })).toEqual({ examples: [], diagnostics: [] });
  });

  test('a drift is caught at the line of the call', () => {
    const { examples } = extractToolCalls(trajectory('history', call('find_file', '{"name":"a.py"}')), { tools });
    expect(checkExamples(examples, tools).filter((d) => d.ruleId === 'example/invalid-arguments').map((d) => [d.tool, d.line])).toEqual([['find_file', 8]]);
  });
});
