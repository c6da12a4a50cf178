import { describe, expect, test } from '@jest/globals';
import { normalizeTools } from '../../../src/tools/normalize.js';
import type { ToolSpec } from '../../../src/tools/types.js';
import { harmonyNotation } from '../../../src/extract/notations/harmony.js';
import { run, realWorld, labelled, expectTotal, expectLinear } from './harness.js';


const weather = normalizeTools([{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }], 'tools.json');
const calls = (text: string, tools: readonly ToolSpec[] = weather) => run(harmonyNotation, text, tools);

describe('harmony', () => {
  test('recipient in the channel part, constrained to json', () => {
    const text = '<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}<|call|>';
    expect(calls(text)).toEqual({ calls: [{ name: 'get_weather', arguments: { city: 'Paris' }, line: 1 }], failures: [] });
  });

  test('recipient in the role part, content type after the channel', () => {
    const text = 'x\n<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Paris"}<|call|>';
    expect(calls(text).calls).toEqual([{ name: 'get_weather', arguments: { city: 'Paris' }, line: 2 }]);
  });

  test('a completion starting at <|channel|>, ending in <|end|> or where the text stops', () => {
    expect(calls('<|channel|>commentary to=functions.get_weather<|message|>{"city":"Oslo"}<|end|>').calls).toEqual([{ name: 'get_weather', arguments: { city: 'Oslo' }, line: 1 }]);
    expect(calls('<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Rome"}').calls).toEqual([
      { name: 'get_weather', arguments: { city: 'Rome' }, line: 1 },
    ]);
  });

  test('built-in tools keep their namespace', () => {
    const text = '<|start|>assistant<|channel|>analysis to=browser.search code<|message|>{"query": "x", "topn": 3}<|call|>';
    expect(calls(text).calls).toEqual([{ name: 'browser.search', arguments: { query: 'x', topn: 3 }, line: 1 }]);
  });

  test('several messages in a row: only assistant messages with a recipient are calls', () => {
    const text = [
      '<|start|>assistant<|channel|>analysis<|message|>Need the weather.<|end|>',
      '<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}<|call|>',
      '<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{"sunny": true}<|end|>',
      '<|start|>functions.get_weather<|message|>{"temperature": 20}<|end|>',
      '<|start|>assistant<|channel|>final<|message|>It is sunny.<|return|>',
    ].join('');
    expect(calls(text)).toEqual({ calls: [{ name: 'get_weather', arguments: { city: 'Paris' }, line: 1 }], failures: [] });
  });

  test('a tool result, a format template and prose are not calls', () => {
    expect(calls('<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{"sunny": true, "temperature": 20}<|end|>')).toEqual({ calls: [], failures: [] });
    expect(calls('<|start|>{toolname} to=assistant<|channel|>commentary<|message|>{output}<|end|>')).toEqual({ calls: [], failures: [] });
    expect(calls('The header may hold `to=functions.x`; the body follows `<|message|>` and ends at `<|call|>`.')).toEqual({ calls: [], failures: [] });
    expect(calls('Use <|channel|> then\nsome prose to=functions.get_weather <|message|>{"city": "x"}')).toEqual({ calls: [], failures: [] });
  });

  test('code for the python tool is not a JSON call', () => {
    const text = '<|start|>assistant<|channel|>analysis to=python code<|message|>print(2 + 2)<|call|>';
    expect(calls(text)).toEqual({ calls: [], failures: [] });
  });

  test('broken JSON is a failure with the offset where reading stopped', () => {
    const text = '<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": Paris}<|call|>';
    const { calls: found, failures } = calls(text);
    expect(found).toEqual([]);
    expect(failures).toEqual([
      { error: 'Unexpected `P` in the harmony message to `functions.get_weather`, expected a JSON value', offset: text.indexOf('Paris'), tool: 'get_weather', line: 1 },
    ]);
    const trailing = '<|start|>assistant<|channel|>commentary to=functions.get_weather json<|message|>{"city": "Paris"} thanks<|call|>';
    expect(calls(trailing).failures[0]).toMatchObject({ error: 'Unexpected `t` after the arguments in the harmony message to `functions.get_weather`, expected `<|call|>`', offset: trailing.indexOf('thanks') });
    expect(calls('<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>Paris<|call|>').failures).toHaveLength(1);
  });

  test('placeholders are returned as calls for the engine to judge', () => {
    expect(calls('<|start|>assistant<|channel|>commentary to=functions.{name} <|constrain|>json<|message|>{"a": 1}<|call|>').calls).toEqual([{ name: '{name}', arguments: { a: 1 }, line: 1 }]);
  });

  test('linear on hostile input', () => {
    expectLinear(harmonyNotation, ['<|channel|>', '<|message|>', '<|start|>assistant to=functions.x<|message|>{"a":', '<|start|>assistant to=f<|channel|>', 'to=x<|message|>\n\n', '<|start|>assistant to=x<|message|>{"a": "<|start|>'], weather);
  });

  test('never throws, whatever the mix of its tokens', () => {
    expectTotal(harmonyNotation, ['<|start|>', 'assistant', 'functions.get_weather', ' to=functions.get_weather', ' to=assistant', '<|channel|>', 'commentary', '<|constrain|>', 'json', '<|message|>', '<|call|>', '<|end|>', '<|return|>', '{"city": "Paris"}'], weather);
  });
});

describe('harmony on the real-world corpus', () => {
  const corpusFixtures = realWorld();
  for (const f of corpusFixtures.filter((x) => x.notation === 'harmony')) {
    test(f.name, () => {
      expect(run(harmonyNotation, f.text, f.tools)).toEqual({ calls: labelled(f), failures: [] });
    });
  }
  test('finds nothing in the fixtures of other notations', () => {
    for (const f of corpusFixtures.filter((x) => x.notation !== 'harmony')) {
      expect({ fixture: f.name, ...run(harmonyNotation, f.text, f.tools) }).toEqual({ fixture: f.name, calls: [], failures: [] });
    }
  });
});
