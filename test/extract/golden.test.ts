import { describe, expect, test } from '@jest/globals';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkExamples } from '../../src/checks/examples.js';
import { extractToolCalls } from '../../src/extract/index.js';
import { fixtures } from './helpers.js';
import { onCi } from '../../src/util/ci.js';

// Expected files are rewritten only on request, and never on CI.
const update = process.env.UPDATE_GOLDEN === '1' && !onCi();

describe('golden fixtures', () => {
  for (const fixture of fixtures()) {
    test(fixture.name, () => {
      const options = fixture.tools ? { tools: fixture.tools } : {};
      const result = extractToolCalls(fixture.input, options);
      const actual: Record<string, unknown> = { examples: result.examples, diagnostics: result.diagnostics };
      if (fixture.tools) actual.checks = checkExamples(result.examples, fixture.tools);
      const expectedFile = join(fixture.dir, 'expected.json');
      // Rule URLs are absolute and name where the package is installed: keep the docs path only.
      const serialized = `${JSON.stringify(actual, (key, value: unknown) => (key === 'url' && typeof value === 'string' ? value.replace(/^.*\/(docs\/rules\/)/, '$1') : value), 2)}\n`;
      if (update) writeFileSync(expectedFile, serialized);
      if (!existsSync(expectedFile)) throw new Error(`Missing ${expectedFile}; run with UPDATE_GOLDEN=1 to write it`);
      expect(JSON.parse(serialized)).toEqual(JSON.parse(readFileSync(expectedFile, 'utf8')));
      // Every range points into the text, and line/column name its start.
      for (const e of result.examples) {
        expect(e.range.start).toBeGreaterThanOrEqual(0);
        expect(e.range.end).toBeLessThanOrEqual(fixture.input.length);
        const before = fixture.input.slice(0, e.range.start).split('\n');
        expect([e.line, e.column]).toEqual([before.length, before.at(-1)!.length + 1]);
      }
    });
  }
});

/**
 * What each fixture must yield, written from its input.md alone: the calls (tool, line and, where
 * the fixture is about them, the arguments) and the findings (rule and line). The golden files
 * above are regenerated with UPDATE_GOLDEN=1; these are not, so a regeneration that changes a
 * fact fails here until the fact is changed by hand.
 */
type Call = [name: string, line: number, args?: unknown];
interface Facts {
  calls: Call[];
  findings: Array<[ruleId: string, line: number]>;
}

const facts: Record<string, Facts> = {
  'anthropic-xml': {
    // Each call at its `<function_calls>` line; values typed by the schema (`code` stays a string), emphasis marks kept.
    calls: [
      ['create_event', 1, { title: 'Standup *daily* _sync_', attendees: ['ana@example.com', 'bo@example.com'], duration_minutes: 15, recurring: true, options: { room: '4B' }, priority: 2.5, code: '007' }],
      ['create_event', 15, { title: 'Retro', duration_minutes: 'sixty' }],
    ],
    findings: [['example/invalid-arguments', 15]],
  },
  'bare-json': {
    calls: [
      ['lookup_order', 3, { order_id: 'A-17' }],
      ['lookup_order', 7, { order_id: 'B-2' }],
      ['lookup_order', 11, { order_id: 'C-3' }],
    ],
    findings: [],
  },
  crlf: {
    calls: [
      ['crlf_tag', 3, { a: 'x_y_z' }],
      ['crlf_fence', 7, { b: 2 }],
      ['crlf_quoted', 12, {}],
    ],
    findings: [['example/unparseable', 16]],
  },
  drift: {
    calls: [
      ['get_weather', 1, { city: 'Paris', unit: 'kelvin', days: 20 }],
      ['get_weather', 5, { unit: 'c', extra: true }],
      ['GetWeather', 9],
      ['send_emial', 13],
      ['launch_rocket', 17],
      ['get_weather', 21, { city: 'Lima', unit: 'f', days: 2 }],
    ],
    findings: [
      // `kelvin` outside the enum, 20 over the maximum; `city` missing, `extra` not allowed.
      ['example/invalid-arguments', 1], ['example/invalid-arguments', 1],
      ['example/invalid-arguments', 5], ['example/invalid-arguments', 5],
      ['example/unknown-tool', 9], ['example/unknown-tool', 13], ['example/unknown-tool', 17],
    ],
  },
  fences: {
    calls: [
      ['search', 3, { query: 'cats', limit: 5 }],
      ['search', 9, { query: 'dogs' }],
      // A call inside a message inside the fence is at its own line.
      ['search', 16, { query: 'birds' }],
      ['search', 21, { query: 'fish' }],
    ],
    findings: [],
  },
  hermes: {
    calls: [
      ['get_weather', 5, { city: 'Rio_de_Janeiro', note: '*not* __bold__', path: 'a\\b' }],
      ['get_weather', 11, { city: 'Paris', days: 3 }],
      ['a', 19, {}],
      ['b', 19, { x: 1 }],
    ],
    findings: [],
  },
  'lists-and-quotes': {
    calls: [
      ['step_one', 3, { n: 1 }],
      ['step_two', 10, { n: 2 }],
      ['quoted_fence', 16, { deep: { x: [1, 2] } }],
      ['quoted_tag', 20, { n: 3 }],
      ['double', 26, {}],
    ],
    findings: [],
  },
  llama: {
    calls: [
      ['get_time', 3, { timezone: 'Europe/Oslo' }],
      ['ping', 5, {}],
      ['spotify_trending_songs', 7, { n: 5 }],
    ],
    findings: [],
  },
  mentions: { calls: [], findings: [] },
  parallel: {
    calls: [
      ['get_weather', 3, { city: 'Paris' }],
      ['get_weather', 3, { city: 'Rome' }],
      ['a', 12, { n: 1 }],
      ['b', 12, { n: 2 }],
      ['a', 19, {}],
      ['b', 19, { n: 3 }],
      // No tools here, so no schema types the XML parameter: the text as written.
      ['a', 25, { n: '4' }],
      ['b', 25, { n: '5' }],
      ['a', 35, { n: 6 }],
      ['b', 35, { n: 7 }],
    ],
    findings: [],
  },
  placeholders: {
    calls: [],
    findings: [
      ['example/placeholder', 3], ['example/placeholder', 9], ['example/placeholder', 13], ['example/placeholder', 17],
      ['example/placeholder', 19], ['example/placeholder', 23], ['example/placeholder', 27], ['example/placeholder', 31],
    ],
  },
  pythonic: {
    calls: [
      ['get_weather', 2, { city: 'Paris', unit: 'celsius' }],
      ['get_time', 2, { tz: 'CET' }],
      ['book', 6, { guests: [{ name: 'Ada', vip: true }, { name: 'Bo', vip: false }], note: null, price: -12.5, tags: ['a', 'b'], text: 'it\'s "quoted"\n' }],
      ['sort', 9, { 0: 'report.txt' }],
      ['search', 12, { query: 'pythonic lists' }],
      ['open_page', 12, { url: 'https://example.com' }],
      ['cd', 19, { folder: 'docs' }],
      ['ls', 19, { a: true }],
    ],
    findings: [],
  },
  'tildes-and-long-fences': {
    calls: [
      ['tilde', 1, {}],
      ['four', 5, { md: '```inner```' }],
      ['shown_inside', 12, {}],
      ['long_tilde', 18, { x: '~~~' }],
    ],
    findings: [],
  },
  'transcript-fence': {
    calls: [
      ['get_weather', 8, { city: 'Oslo' }],
      ['get_weather', 16, { city: 'Bergen' }],
    ],
    findings: [],
  },
  'unclosed-fence': {
    calls: [['closed', 3, {}]],
    findings: [['example/unparseable', 9]],
  },
  'unclosed-fence-in-list': {
    calls: [
      ['in_item', 3, {}],
      ['after', 6, {}],
    ],
    findings: [],
  },
  unparseable: {
    // A Python literal in a `<tool_call>` tag is read (and reported); in a call fence it is not
    // (docs/rules/example.md, not-json), so the trailing comma at line 16 is broken like the rest.
    calls: [['get_weather', 3, { city: 'Paris' }]],
    findings: [
      ['example/not-json', 3], ['example/unparseable', 9], ['example/unparseable', 15], ['example/unparseable', 21], ['example/unparseable', 27],
      ['example/unparseable', 32], ['example/unparseable', 39], ['example/unparseable', 45], ['example/unparseable', 49], ['example/unparseable', 53],
      ['example/unparseable', 60], ['example/unparseable', 64],
    ],
  },
};

describe('hand-written facts of each fixture', () => {
  test('every fixture has its facts, and every fact its fixture', () => {
    expect(Object.keys(facts).sort()).toEqual(fixtures().map((f) => f.name).sort());
  });

  for (const fixture of fixtures()) {
    test(fixture.name, () => {
      const want = facts[fixture.name];
      if (want === undefined) throw new Error(`No facts for the fixture ${fixture.name}: write them in this file from its input.md`);
      const { examples, diagnostics } = extractToolCalls(fixture.input, fixture.tools ? { tools: fixture.tools } : {});
      expect(examples.map((e) => [e.name, e.line])).toEqual(want.calls.map(([name, line]) => [name, line]));
      want.calls.forEach(([name, line, args], i) => {
        if (args !== undefined) expect({ name, line, args: examples[i]!.arguments }).toEqual({ name, line, args });
      });
      const checks = fixture.tools ? checkExamples(examples, fixture.tools) : [];
      const found = [...diagnostics, ...checks].map((d) => [d.ruleId, d.line] as [string, number]);
      const order = (a: [string, number], b: [string, number]) => a[1] - b[1] || a[0].localeCompare(b[0]);
      expect(found.sort(order)).toEqual([...want.findings].sort(order));
    });
  }
});
