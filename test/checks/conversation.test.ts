import { describe, expect, test } from '@jest/globals';
import { checkConversation } from '../../src/checks/conversation.js';
import { exampleRules } from '../../src/extract/rules.js';
import type { Message, Part, PartOrigin } from '../../src/render/messages.js';

const user = (text: string): Message => ({ role: 'user', content: [{ text }] });
const model = (...content: Part[]): Message => ({ role: 'model', content });
const tool = (...content: Part[]): Message => ({ role: 'tool', content });
const say = (text: string): Part => ({ text });
const call = (name: string, ref?: string, input: unknown = {}): Part => ({ toolRequest: ref === undefined ? { name, input } : { name, input, ref } });
const result = (name: string, ref?: string, output: unknown = { ok: true }): Part => ({ toolResponse: ref === undefined ? { name, output } : { name, output, ref } });

const ids = (messages: Message[], options: Parameters<typeof checkConversation>[1] = {}) => checkConversation(messages, options).map((d) => d.ruleId);

describe('checkConversation: one drift per rule', () => {
  test("'example/orphan-result': a result with no call before it", () => {
    const found = checkConversation([user('Weather in Oslo?'), tool(result('get_weather', 'c1'))]);
    expect(found.map((d) => d.ruleId)).toEqual(['example/orphan-result']);
    expect(found[0]).toMatchObject({ severity: 'error', tool: 'get_weather', url: exampleRules['orphan-result'].url });
    expect(found[0]!.message).toBe('Unexpected result of `get_weather` in message 1, expected it in a `tool` turn right after the `model` turn that calls `get_weather`; no turn before it calls a tool');
  });

  test("'example/orphan-result': a user turn between the call and its result", () => {
    const found = checkConversation([user('Weather?'), model(call('get_weather', 'c1')), user('Oslo'), tool(result('get_weather', 'c1'))]);
    expect(found.map((d) => d.ruleId)).toEqual(['example/missing-result', 'example/orphan-result']);
    expect(found[1]!.message).toContain('its call in message 1 is followed by message 2 (`user`) first');
  });

  test("'example/orphan-result': more results than calls, without ids", () => {
    const found = checkConversation([user('Weather?'), model(call('get_weather')), tool(result('get_weather'), result('get_weather')), model(say('Sunny'))]);
    expect(found.map((d) => d.ruleId)).toEqual(['example/orphan-result']);
    expect(found[0]!.message).toContain('every call of message 1 (`get_weather`) has its result already');
  });

  test("'example/unknown-call-id': a result whose id matches no call of the turn before", () => {
    const found = checkConversation([user('Weather?'), model(call('get_weather', 'call_1'), call('get_time', 'call_2')), tool(result('get_weather', 'call_9'), result('get_time', 'call_2')), model(say('Sunny'))]);
    // The mistyped result is meant for `call_1`: one finding, not also a missing result for `call_1`.
    expect(found.map((d) => d.ruleId)).toEqual(['example/unknown-call-id']);
    expect(found[0]).toMatchObject({ tool: 'get_weather', actual: 'call_9', expected: 'call_1', fix: "Set the result's call id to `call_1`" });
    expect(found[0]!.message).toBe('Unexpected call id `call_9` on the result of `get_weather` in message 2, expected the id of a call in message 1 (`call_1`, `call_2`); did you mean `call_1`?');
  });

  test("'example/unknown-call-id': the id of a call two turns back", () => {
    const found = checkConversation([
      user('Weather?'), model(call('get_weather', 'a')), tool(result('get_weather', 'a')),
      model(call('get_time', 'b')), tool(result('get_weather', 'a')), model(say('Done')),
    ]);
    expect(found.map((d) => d.ruleId)).toEqual(['example/unknown-call-id', 'example/missing-result']);
    expect(found[0]!.message).toContain('`a` is a call of message 1, and a result must follow its call\'s turn directly');
  });

  test("'example/unknown-call-id': a result without an id for a call that has one (not for Gemini, which pairs by name)", () => {
    const messages = [user('Weather?'), model(call('get_weather', 'c1')), tool(result('get_weather')), model(say('Sunny'))];
    expect(ids(messages)).toEqual(['example/unknown-call-id']);
    expect(ids(messages, { provider: 'gemini' })).toEqual([]);
  });

  test("'example/result-name-mismatch': the id pairs a result with a call of another tool, and the finding says which", () => {
    const found = checkConversation([user('Weather?'), model(call('get_weather', 'c1')), tool(result('get_forecast', 'c1')), model(say('Sunny'))]);
    expect(found.map((d) => d.ruleId)).toEqual(['example/result-name-mismatch']);
    expect(found[0]).toMatchObject({ tool: 'get_weather', expected: 'get_weather', actual: 'get_forecast', severity: 'error' });
    expect(found[0]!.message).toBe('Unexpected tool `get_forecast` on the result in message 2 that answers the call of `get_weather` (call id `c1`) in message 1, expected `get_weather`');
  });

  test("'example/missing-result': a call with no result before the next user turn", () => {
    const found = checkConversation([user('Weather?'), model(call('get_weather', 'c1')), user('And tomorrow?')]);
    expect(found.map((d) => d.ruleId)).toEqual(['example/missing-result']);
    expect(found[0]!.message).toBe('Unexpected call of `get_weather` (call id `c1`) in message 1 without a result, expected a `tool` turn answering it before message 2 (`user`)');
  });

  test("'example/missing-result': a parallel call left out of the tool turn", () => {
    const found = checkConversation([user('Weather?'), model(call('get_weather', 'c1'), call('get_time', 'c2')), tool(result('get_weather', 'c1')), model(say('Sunny'))]);
    expect(found.map((d) => d.ruleId)).toEqual(['example/missing-result']);
    expect(found[0]!.tool).toBe('get_time');
  });

  test("'example/missing-result': few-shot turns ending on a call, followed by the conversation", () => {
    const fewShot = [user('Weather in Oslo?'), model(call('get_weather', 'ex1_call1'))];
    expect(ids([...fewShot, user('Weather in Rome?')])).toEqual(['example/missing-result']);
    // A conversation that ends on its calls leaves them to the application.
    expect(ids(fewShot)).toEqual([]);
  });

  test("'example/duplicate-call-id': two calls of one turn share an id", () => {
    const found = checkConversation([user('Weather?'), model(call('get_weather', 'c1'), call('get_time', 'c1')), tool(result('get_weather', 'c1'), result('get_time', 'c1')), model(say('Sunny'))]);
    expect(found.map((d) => d.ruleId)).toEqual(['example/duplicate-call-id']);
    expect(found[0]!.message).toContain('Unexpected call id `c1` on the call of `get_time` in message 1, already the id of the call of `get_weather` in the same turn');
  });

  test("'example/duplicate-call-id': one call with two results", () => {
    const found = checkConversation([user('Weather?'), model(call('get_weather', 'c1')), tool(result('get_weather', 'c1'), result('get_weather', 'c1')), model(say('Sunny'))]);
    expect(found.map((d) => d.ruleId)).toEqual(['example/duplicate-call-id']);
    expect(found[0]!.message).toBe('Unexpected second result for call id `c1` (`get_weather`) in message 2, expected one result per call');
  });
});

describe('checkConversation: the end of the conversation and calls without ids', () => {
  test("'example/missing-result': a conversation that ends on a partly answered tool turn (two calls, one result)", () => {
    // Unlike a conversation ending on its calls, a tool turn that answers some of them is what the provider receives.
    for (const refs of [['c1', 'c2'], [undefined, undefined]] as const) {
      const found = checkConversation([user('Weather and time?'), model(call('get_weather', refs[0]), call('get_time', refs[1])), tool(result('get_weather', refs[0]))]);
      expect(found.map((d) => [d.ruleId, d.tool])).toEqual([['example/missing-result', 'get_time']]);
      expect(found[0]!.message).toContain('expected a `tool` turn answering it before the end of the conversation');
    }
    // Gemini's count error: a response turn with too few responses, an error there too.
    expect(checkConversation([user('Weather and time?'), model(call('get_weather', 'c1'), call('get_time', 'c2')), tool(result('get_weather', 'c1'))], { provider: 'gemini' })[0]).toMatchObject({ ruleId: 'example/missing-result', severity: 'error' });
  });

  test('parallel calls without ids, answered out of order: each result pairs with the open call of its own tool', () => {
    const messages = [user('Weather and time?'), model(call('get_weather'), call('get_time')), tool(result('get_time'), result('get_weather')), model(say('Sunny, noon'))];
    for (const provider of [undefined, 'anthropic', 'openai', 'gemini'] as const) expect(checkConversation(messages, provider === undefined ? {} : { provider })).toEqual([]);
    // Across tool turns too, and with the same tool called twice.
    expect(checkConversation([user('?'), model(call('get_weather'), call('get_time'), call('get_weather')), tool(result('get_time')), tool(result('get_weather'), result('get_weather')), model(say('Done'))])).toEqual([]);
    // A result of a tool with no open call still takes the first open call, and says the names differ.
    const stale = checkConversation([user('?'), model(call('get_weather'), call('get_time')), tool(result('get_time'), result('get_forecast')), model(say('Done'))]);
    expect(stale.map((d) => [d.ruleId, d.expected, d.actual])).toEqual([['example/result-name-mismatch', 'get_weather', 'get_forecast']]);
  });
});

describe('checkConversation: places', () => {
  test('with origins, a finding points at the file and line of the part, and at the call it answers', () => {
    const origins = new WeakMap<object, PartOrigin>();
    const request = call('get_weather', 'c1');
    const response = result('get_forecast', 'c1');
    origins.set(request, { file: 'prompts/weather.examples.yaml', line: 4, column: 5 });
    origins.set(response, { file: 'prompts/weather.examples.yaml', line: 7 });
    const [d] = checkConversation([user('Weather?'), model(request), tool(response), model(say('Sunny'))], { origins });
    expect(d).toMatchObject({ ruleId: 'example/result-name-mismatch', file: 'prompts/weather.examples.yaml', line: 7 });
    expect(d!.column).toBeUndefined();
    expect(d!.related).toEqual([{ file: 'prompts/weather.examples.yaml', line: 4, column: 5, message: '`get_weather` is called here (message 1)' }]);
  });

  test('origins as a function', () => {
    const request = call('get_weather', 'c1');
    const [d] = checkConversation([user('Weather?'), model(request), user('Hello?')], { origins: (p) => (p === request ? { file: 'x.yaml', line: 2 } : undefined) });
    expect(d).toMatchObject({ ruleId: 'example/missing-result', file: 'x.yaml', line: 2 });
  });

  test('without origins, the message names the message index', () => {
    const [d] = checkConversation([user('Hi'), user('Weather?'), model(call('get_weather', 'c1')), user('Hello?')]);
    expect(d!.file).toBeUndefined();
    expect(d!.message).toContain('in message 2');
  });
});

describe('checkConversation: providers', () => {
  const unanswered = [user('Weather?'), model(call('get_weather', 'c1')), user('Hello?')];
  const partly = [user('Weather?'), model(call('get_weather', 'c1'), call('get_time', 'c2')), tool(result('get_weather', 'c1')), model(say('Sunny'))];

  test('Anthropic and OpenAI reject an unanswered call: an error linking the issue that quotes the rejection', () => {
    const [a] = checkConversation(unanswered, { provider: 'anthropic' });
    expect(a).toMatchObject({ ruleId: 'example/missing-result', severity: 'error', provider: 'anthropic', url: 'https://github.com/anthropics/claude-code/issues/1237' });
    const [o] = checkConversation(unanswered, { provider: 'openai' });
    expect(o).toMatchObject({ severity: 'error', provider: 'openai', url: 'https://github.com/aliasrobotics/cai/issues/111' });
  });

  test('Gemini: a partly answered turn is an error, a call followed by no response turn a warning that says why', () => {
    expect(checkConversation(partly, { provider: 'gemini' })[0]).toMatchObject({ severity: 'error', url: 'https://github.com/google-gemini/gemini-cli/issues/4217' });
    const [w] = checkConversation(unanswered, { provider: 'gemini' });
    expect(w!.severity).toBe('warning');
    expect(w!.message).toContain('for Gemini, which is not documented to reject a call followed by no response turn at all');
  });

  test('a name mismatch is an error for Gemini (it pairs by name) and a warning for Anthropic and OpenAI (the name is not sent)', () => {
    const messages = [user('Weather?'), model(call('get_weather', 'c1')), tool(result('get_forecast', 'c1')), model(say('Sunny'))];
    expect(checkConversation(messages, { provider: 'gemini' })[0]!.severity).toBe('error');
    expect(checkConversation(messages, { provider: 'anthropic' })[0]!.severity).toBe('warning');
    expect(checkConversation(messages, { provider: 'openai' })[0]!.message).toContain('only its `tool_call_id`');
  });

  test('call ids: Gemini pairs by name (ids are not sent), so a wrong or shared id is a warning there, but a second result breaks its count', () => {
    const wrongId = [user('Weather?'), model(call('get_weather', 'c1')), tool(result('get_weather', 'c9')), model(say('Sunny'))];
    expect(checkConversation(wrongId, { provider: 'openai' })[0]).toMatchObject({ severity: 'error', url: 'https://github.com/dapr/dapr-agents/issues/145' });
    expect(checkConversation(wrongId, { provider: 'gemini' })[0]).toMatchObject({ ruleId: 'example/unknown-call-id', severity: 'warning' });
    const sharedId = [user('Weather?'), model(call('get_weather', 'c1'), call('get_time', 'c1')), tool(result('get_weather', 'c1'), result('get_time', 'c1')), model(say('Sunny'))];
    expect(checkConversation(sharedId, { provider: 'anthropic' })[0]).toMatchObject({ severity: 'error', url: 'https://github.com/anthropics/claude-code/issues/28515' });
    expect(checkConversation(sharedId, { provider: 'gemini' })[0]!.severity).toBe('warning');
    const twice = [user('Weather?'), model(call('get_weather', 'c1')), tool(result('get_weather', 'c1'), result('get_weather', 'c1')), model(say('Sunny'))];
    expect(checkConversation(twice, { provider: 'gemini' })[0]).toMatchObject({ ruleId: 'example/duplicate-call-id', severity: 'error', url: 'https://github.com/google-gemini/gemini-cli/issues/4217' });
    expect(checkConversation(twice, { provider: 'anthropic' })[0]!.url).toBe('https://github.com/sipeed/picoclaw/issues/1793');
  });
});

describe('checkConversation: clean conversations', () => {
  test('parallel calls answered in one tool turn', () => {
    expect(checkConversation([
      { role: 'system', content: [say('You are a weather bot.')] },
      user('Weather and time in Oslo?'),
      model(say('Checking.'), call('get_weather', 'c1', { city: 'Oslo' }), call('get_time', 'c2', { city: 'Oslo' })),
      tool(result('get_time', 'c2'), result('get_weather', 'c1')),
      model(say('Sunny, 14:00')),
      user('Thanks'),
    ])).toEqual([]);
  });

  test('several rounds, and results in separate tool turns', () => {
    expect(checkConversation([
      user('Plan a trip'),
      model(call('search_flights', 'r1')), tool(result('search_flights', 'r1')),
      model(call('book_flight', 'r2'), call('get_weather', 'r3')), tool(result('book_flight', 'r2')), tool(result('get_weather', 'r3')),
      model(say('Booked')),
    ])).toEqual([]);
  });

  test('few-shot turns followed by history and the new question; the same tool in every round, without ids', () => {
    const fewShot = [user('Weather in Oslo?'), model(call('get_weather', 'ex1_call1')), tool(result('get_weather', 'ex1_call1')), model(say('Sunny in Oslo'))];
    const history = [user('Hi'), model(call('get_weather')), tool(result('get_weather')), model(say('Rain')), user('Time?'), model(call('get_time')), tool(result('get_time')), model(say('Noon'))];
    for (const provider of [undefined, 'anthropic', 'openai', 'gemini'] as const) {
      const options = provider === undefined ? {} : { provider };
      expect(checkConversation([{ role: 'system', content: [say('Be brief')] }, ...fewShot, ...history, user('Weather in Rome?')], options)).toEqual([]);
    }
  });

  test('bad content is skipped, not thrown on', () => {
    const bad = [null, { role: 'model', content: [null, { toolRequest: null }, 'text'] }, { role: 'tool' }] as unknown as Message[];
    expect(() => checkConversation(bad)).not.toThrow();
  });

  test('text-only conversations and an empty list', () => {
    expect(checkConversation([])).toEqual([]);
    expect(checkConversation([user('Hi'), model(say('Hello')), user('Bye')])).toEqual([]);
  });
});
