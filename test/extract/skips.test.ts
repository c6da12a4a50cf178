import { extractToolCalls } from '../../src/extract/index.js';

// Something meant as a call that does not parse is a finding, never a skip.
const rules = (text: string) => extractToolCalls(text).diagnostics.map((d) => [d.ruleId, d.line]);

test('a <tool_call> holding a call in another syntax is unparseable', () => {
  expect(rules('Call it:\n<tool_call>get_weather city=Paris</tool_call>\n')).toEqual([['example/unparseable', 2]]);
  expect(rules('<tool_call>\nget_weather(city="Paris")\n</tool_call>\n')).toEqual([['example/unparseable', 1]]);
});

test('a call fence holding markup that is no call is unparseable', () => {
  expect(rules('Example:\n\n```tool_call\n<get_weather city="Paris"/>\n```\n')).toEqual([['example/unparseable', 3]]);
});

test('prose that names the tags is not a call', () => {
  expect(extractToolCalls('Wrap each call between <tool_call> and </tool_call> tags, or in <tool_call></tool_call>.\n')).toEqual({ examples: [], diagnostics: [] });
});
