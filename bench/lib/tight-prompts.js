// Deterministic prompts for `extract-tight`: markdown written the way prompt authors write it,
// with no blank line between blocks. Lists and block quotes run straight into headings, fences,
// thematic breaks, HTML and setext underlines, and paragraphs take lazy lines, which is where a
// block scanner has to follow CommonMark's lazy-continuation rules rather than give up.
// Same size, same bytes, on every machine. Returns the text and the examples it holds, in order.
import { random } from './data.js';

export function tightPrompt(size) {
  const rnd = random(11);
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const id = (prefix) => `${prefix}-${String(int(0, 9999)).padStart(4, '0')}`;
  const prose = [
    'Be brief, exact and kind; never promise what a tool has not confirmed.',
    'Look the order up before acting on it, and say what you found.',
    'Refunds above the automatic limit go to a human: say so plainly.',
    'Legacy orders start with `B-`; treat them like any other order.',
    'Never guess an order number, and never invent *arguments*.',
    'If the help centre answers the question, link the article.',
  ];
  const calls = [
    () => ({ name: 'lookup_order', arguments: { order_id: id('A') } }),
    () => ({ name: 'create_refund', arguments: { order_id: id('A'), amount_cents: int(100, 9000), reason: 'damaged_item' } }),
    () => ({ name: 'search_help_center', arguments: { query: pick(['returns policy', 'delivery times', 'gift card refund']), limit: int(1, 5) } }),
    () => ({ name: 'cancel_order', arguments: { order_id: id('B'), reason: 'customer_request' } }),
  ];
  const examples = [];
  const call = () => {
    const c = pick(calls)();
    examples.push(c);
    return c;
  };
  // Each section is one run of blocks with no blank line between them.
  const sections = [
    (n) => [`## Situation ${n}`, `- ${pick(prose)}`, `- ${pick(prose)}`, '### Details', pick(prose), '```json', JSON.stringify(call()), '```'],
    () => [`> ${pick(prose)}`, `> ${pick(prose)}`, '```tool_call', JSON.stringify(call(), null, 2), '```', `1. ${pick(prose)}`, `2. ${pick(prose)}`, '---'],
    () => ['Rules', '=====', `* ${pick(prose)}`, `  ${pick(prose)}`, `lazy: ${pick(prose)}`, '```json', JSON.stringify(call()), '```', `> ${pick(prose)}`, '# Next'],
    () => [`- ${pick(prose)}`, '  ```tool_call', `  ${JSON.stringify(call())}`, '  ```', `- ${pick(prose)}`, '***', `> The agent answers`, `<tool_call>${JSON.stringify(call())}</tool_call>`],
    // An HTML block runs to the next blank line, whatever follows it.
    () => [`1. ${pick(prose)}`, '<div class="note">', pick(prose), '</div>', '', `> - ${pick(prose)}`, `> ${pick(prose)}`, '> ```json', `> ${JSON.stringify(call())}`, '> ```', '## Notes', pick(prose)],
    () => [`- ${pick(prose)}`, '---', `- ${pick(prose)}`, '===', `> ${pick(prose)}`, '~~~tool_call', JSON.stringify(call()), '~~~', '<!-- reviewed -->', `Summary: ${pick(prose)}`],
  ];
  const parts = ['# Support agent', pick(prose)];
  let length = 0;
  for (let n = 1; length < size; n++) {
    const block = sections[n % sections.length](n).join('\n');
    parts.push(block);
    length += block.length + 1;
    // Now and then a blank line, as between the sections of a real prompt.
    if (n % 5 === 0) parts.push('');
  }
  return { text: `${parts.join('\n')}\n`, examples };
}
