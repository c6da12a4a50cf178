import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readToolsFile } from '../../src/project.js';
import { loadPromptModule } from '../../src/render/module.js';
import { renderCase } from '../../src/render/render.js';

// The golden files of golden.test.ts are written by the renderer itself (UPDATE_GOLDEN=1):
// regenerating them would bless a regression. These are the key facts of each render, written
// by hand from the fixtures' templates, partials, examples, stubs and cases; each holds for the
// fresh render and for the committed golden file.

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

interface Facts {
  /** Whole lines that appear in this order (others may sit between them). */
  lines: string[];
  /** The last line that is not empty. */
  last?: string;
  /** Text that must not appear anywhere. */
  absent?: string[];
}

const call = (id: string): string => `{"name":"lookup_order","arguments":{"order_id":"${id}"}}`;
const orderDesk = ['# Order desk', '- Be brief.', '- Look orders up before acting.', '> Where is A-0001?', '```tool_call', call('A-0001'), '```', '> Status of B-0002, please', '```tool_call', call('B-0002'), '```'];
// noEscape: the text goes to a model as written, never HTML-escaped.
const escapes = ['&amp;', '&lt;', '&gt;', '&quot;', '&#x27;', '&#x60;', '&#x3D;'];
const searchCall = ['<function_calls>', '<invoke name="search">', '<parameter name="limit">3</parameter>', '</invoke>', '</function_calls>'];

const expected: Record<string, Record<string, Facts>> = {
  'nested-partials': {
    'agent.plain': { lines: [...orderDesk, 'Customer Ana says: Hi'], last: 'Customer Ana says: Hi', absent: escapes },
    'agent.quotes_and_markup': { lines: [...orderDesk, 'Customer O\'Brien <vip> says: It\'s "urgent" & `now`'], last: 'Customer O\'Brien <vip> says: It\'s "urgent" & `now`', absent: escapes },
  },
  'xml-and-stubs': {
    'search.found': {
      lines: ['Answer with the documents below.', '<doc id="d1">Refunds take 5 days.</doc>', '<doc id="d2">Use <b>bold</b> & keep it.</doc>', '<function_calls>', '<invoke name="search">', '<parameter name="query">refund time</parameter>', ...searchCall.slice(2)],
      last: '</function_calls>',
      absent: ['(no documents)', ...escapes],
    },
    'search.empty': {
      lines: ['Answer with the documents below.', '(no documents)', ...searchCall.slice(0, 2), '<parameter name="query">gift cards</parameter>', ...searchCall.slice(2)],
      last: '</function_calls>',
      absent: ['<doc', ...escapes],
    },
  },
};

/** The facts that `text` does not meet, in words (empty when it meets them all). */
function unmet(text: string, facts: Facts): string[] {
  const out: string[] = [];
  const lines = text.split('\n');
  let at = 0;
  for (const line of facts.lines) {
    const found = lines.indexOf(line, at);
    if (found === -1) out.push(`line ${JSON.stringify(line)} missing after line ${at}`);
    else at = found + 1;
  }
  const last = lines.filter((l) => l.trim() !== '').at(-1);
  if (facts.last !== undefined && last !== facts.last) out.push(`last line ${JSON.stringify(last)}, expected ${JSON.stringify(facts.last)}`);
  for (const text_ of facts.absent ?? []) if (text.includes(text_)) out.push(`unexpected ${JSON.stringify(text_)}`);
  return out;
}

describe.each(Object.keys(expected))('golden folder %s, by hand', (name) => {
  const root = join(fixtures, name);
  const tools = readToolsFile(join(root, 'tools.json'));
  const module = loadPromptModule('prompts', root);
  const registry = new Map(tools.map((t) => [t.name, t]));

  test('every case of the fixture has facts written for it', () => {
    const cases = [...module.prompts.values()].flatMap((p) => [...p.cases.keys()].map((c) => `${p.name}.${c}`));
    expect(cases.sort()).toEqual(Object.keys(expected[name]!).sort());
  });

  test.each(Object.entries(expected[name]!))('%s: the render and its golden file have the key facts', (label, facts) => {
    const [prompt, caseName] = label.split('.') as [string, string];
    expect(unmet(renderCase(module, prompt, caseName, registry).text, facts)).toEqual([]);
    expect(unmet(readFileSync(join(root, 'expected', `${label}.txt`), 'utf8'), facts)).toEqual([]);
  });
});

test('the facts catch a regression: a render that lost a line or escaped a character fails them', () => {
  const facts = expected['nested-partials']!['agent.plain']!;
  const good = [...facts.lines].join('\n');
  expect(unmet(good, facts)).toEqual([]);
  expect(unmet(good.replace('- Be brief.\n', ''), facts)).not.toEqual([]);
  expect(unmet(good.replace('> Where', '&gt; Where'), facts)).not.toEqual([]);
});
