import { beforeAll, describe, expect, test } from '@jest/globals';
import { checkExamples } from '../../src/checks/examples.js';
import { extractToolCalls } from '../../src/extract/index.js';
import { preloadMarkdown } from '../../src/extract/markdown.js';
import { normalizeTools } from '../../src/tools/normalize.js';

beforeAll(() => preloadMarkdown());

describe('elements named after a tool, with attributes', () => {
  const withAttrTools = normalizeTools(
    [
      { name: 'lookup_order', parameters: { type: 'object', properties: { order_id: { type: 'string' }, limit: { type: 'integer' } }, required: ['order_id'] } },
      { name: 'str_replace', parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] } },
      { name: 'edit', parameters: { type: 'object', properties: { path: { type: 'string' }, old_str: { type: 'string' }, new_str: { type: 'string' } } } },
    ],
    'tools.json',
  );
  const readAttr = (text: string) => {
    const { examples, diagnostics } = extractToolCalls(text, { tools: withAttrTools });
    return { calls: examples.map((e) => [e.name, e.arguments, e.line]), findings: diagnostics.map((d) => [d.ruleId, d.line]) };
  };

  test('attributes are arguments typed by the schema; a text body is the one string parameter left, as written', () => {
    const text = 'Call:\n\n<lookup_order order_id="A-1" limit="3" />\n\n<str_replace path="src/a.ts">\n  const a = "<b>";\n\n>>>>>>> kept\n</str_replace>\n\n<edit path="b.ts">\n<old_str>x</old_str>\n<new_str><i>y</i></new_str>\n</edit>';
    expect(readAttr(text)).toEqual({
      calls: [
        ['lookup_order', { order_id: 'A-1', limit: 3 }, 3],
        ['str_replace', { path: 'src/a.ts', content: '  const a = "<b>";\n\n>>>>>>> kept' }, 5],
        ['edit', { path: 'b.ts', old_str: 'x', new_str: '<i>y</i>' }, 11],
      ],
      findings: [],
    });
  });

  test('a text body with no single string parameter left is an error; a usage line with prose values a placeholder', () => {
    expect(readAttr('x\n<edit path="a.ts">text</edit>').findings).toEqual([['example/unparseable', 2]]);
    expect(readAttr('<lookup_order order_id="order id here" />').findings).toEqual([['example/placeholder', 1]]);
  });

  test('a drift is caught at the element line', () => {
    const { examples } = extractToolCalls('\n<lookup_order id="A-1" />', { tools: withAttrTools });
    expect(checkExamples(examples, withAttrTools).filter((d) => d.ruleId === 'example/invalid-arguments').map((d) => [d.tool, d.line])).toEqual([['lookup_order', 2]]);
  });
});
