import { describe, expect, test } from '@jest/globals';
import { normalizeTools } from '../../../src/tools/normalize.js';
import type { ToolSpec } from '../../../src/tools/types.js';
import { functionaryNotation } from '../../../src/extract/notations/functionary.js';
import { run, realWorld, labelled, expectTotal, expectLinear } from './harness.js';


const weather = normalizeTools([{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }], 'tools.json');
const calls = (text: string, tools: readonly ToolSpec[] = weather) => run(functionaryNotation, text, tools);
const none = { calls: [], failures: [] };
const paris = { name: 'get_weather', arguments: { city: 'Paris' } };

describe('functionary', () => {
  test('v1: <|START_OF_FUNCTION_CALL|>name: then JSON', () => {
    const text = 'assistant:\n<|START_OF_FUNCTION_CALL|>get_weather:\n{\n  "city": "Paris"\n}<|END_OF_FUNCTION_CALL|>\nfunction name=get_weather:\n{\'sunny\': True}<|END_OF_FUNCTION_RESULT|>';
    expect(calls(text)).toEqual({ calls: [{ ...paris, line: 2 }], failures: [] });
  });

  test('v2: <|from|>assistant, <|recipient|>name, <|content|>JSON; results and text are not calls', () => {
    const text = [
      '<|from|>assistant',
      '<|recipient|>all',
      '<|content|>I will check.',
      '<|from|>assistant',
      '<|recipient|>get_weather',
      '<|content|>{"city": "Paris"}',
      '<|from|>assistant',
      '<|recipient|>get_weather',
      '<|content|>{"city": "Oslo"}<|stop|>',
      '<|from|>get_weather',
      '<|recipient|>all',
      '<|content|>{"temperature": 20}',
    ].join('\n');
    expect(calls(text)).toEqual({ calls: [{ ...paris, line: 4 }, { name: 'get_weather', arguments: { city: 'Oslo' }, line: 7 }], failures: [] });
    // A header cut short does not borrow the next message's recipient.
    expect(calls('<|from|>assistant\n<|from|>assistant\n<|recipient|>get_weather\n<|content|>{"city": "Paris"}').calls).toEqual([{ ...paris, line: 2 }]);
  });

  test('v2.5: <|reserved_special_token_249|>name then JSON, back to back', () => {
    const text = 'Comparing<|reserved_special_token_249|>get_weather\n{"city": "Paris"}<|reserved_special_token_249|>get_weather\n{"city": "Oslo"}<|eot_id|>';
    expect(calls(text).calls).toEqual([{ ...paris, line: 1 }, { name: 'get_weather', arguments: { city: 'Oslo' }, line: 2 }]);
  });

  test('v3: >>>name then JSON, glued to text; >>>all is text', () => {
    const text = '>>>all\nI will check>>>get_weather\n{"city": "Paris"}>>>get_weather\n{"city": "Oslo"}<|eot_id|>';
    expect(calls(text)).toEqual({ calls: [{ ...paris, line: 2 }, { name: 'get_weather', arguments: { city: 'Oslo' }, line: 3 }], failures: [] });
  });

  test('code for python, the format template and a Python prompt are not calls', () => {
    expect(calls('<|from|>assistant\n<|recipient|>python\n<|content|>l=[1, 2]\nl.remove(2)<|stop|>')).toEqual(none);
    expect(calls('>>>python\n[x * 2 for x in range(3)]<|eot_id|>')).toEqual(none);
    expect(calls('<|reserved_special_token_249|>python\nprint(1)<|eot_id|>')).toEqual(none);
    expect(calls('Respond in this format:\n>>>${recipient}\n${content}\nAvailable functions:')).toEqual(none);
    expect(calls('```\n>>> import json\n>>> json.dumps({"a": 1})\n```')).toEqual(none);
    expect(calls('> > > nested quote\n>>>\n{"a": 1}')).toEqual(none);
  });

  test('placeholders are returned as calls for the engine to judge', () => {
    expect(calls('>>>$FUNCTION\n{"city": "<city>"}').calls).toEqual([{ name: '$FUNCTION', arguments: { city: '<city>' }, line: 1 }]);
  });

  test('broken JSON, text after it, an unclosed v1 call', () => {
    const text = '>>>get_weather\n{"city": Paris}<|eot_id|>';
    expect(calls(text)).toEqual({
      calls: [],
      failures: [{ error: 'Unexpected `P` in the Functionary call to `get_weather`, expected a JSON value', offset: text.indexOf('Paris'), tool: 'get_weather', line: 1 }],
    });
    const trailing = '<|from|>assistant\n<|recipient|>get_weather\n<|content|>{"city": "Paris"} please<|stop|>';
    expect(calls(trailing).failures).toEqual([
      { error: 'Unexpected `p` after the arguments in the Functionary call to `get_weather`, expected the end of the message', offset: trailing.indexOf('please'), tool: 'get_weather', line: 1 },
    ]);
    expect(calls('<|START_OF_FUNCTION_CALL|>get_weather:\n{"city": "Paris"}\n\nNext paragraph.').failures).toEqual([
      { error: 'Unclosed `<|START_OF_FUNCTION_CALL|>` call to `get_weather`, expected `<|END_OF_FUNCTION_CALL|>` after the arguments', tool: 'get_weather', line: 1 },
    ]);
  });

  test('linear on hostile input', () => {
    expectLinear(
      functionaryNotation,
      ['>>>', '>>>x\n', '>>>x\n{"a": [', '<|from|>', '<|from|>assistant\n<|recipient|>x\n<|content|>', '<|reserved_special_token_249|>', '<|reserved_special_token_249|>x\n{', '<|START_OF_FUNCTION_CALL|>x:', '<', '>'],
      weather,
    );
  });

  test('never throws, whatever the mix of its tokens', () => {
    expectTotal(functionaryNotation, ['<|from|>', 'assistant', '<|recipient|>', 'get_weather', 'all', 'python', '<|content|>', '<|stop|>', '>>>', '<|reserved_special_token_249|>', '<|START_OF_FUNCTION_CALL|>', '<|END_OF_FUNCTION_CALL|>', 'get_weather:', '<|eot_id|>', '{"city": "Paris"}'], weather);
  });
});

// The Functionary forms; v3.1 fixtures write Llama's `<function=name>` tags, another notation.
const markers = ['<|from|>', '>>>', '<|START_OF_FUNCTION_CALL|>', '<|reserved_special_token_249|>'];

describe('functionary on the real-world corpus', () => {
  const corpusFixtures = realWorld();
  for (const f of corpusFixtures.filter((x) => x.notation === 'functionary')) {
    test(f.name, () => {
      expect(run(functionaryNotation, f.text, f.tools)).toEqual({ calls: labelled(f, markers), failures: [] });
    });
  }
  test('finds nothing in the fixtures of other notations', () => {
    for (const f of corpusFixtures.filter((x) => x.notation !== 'functionary')) {
      expect({ fixture: f.name, ...run(functionaryNotation, f.text, f.tools) }).toEqual({ fixture: f.name, ...none });
    }
  });
});
