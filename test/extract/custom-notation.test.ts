import { describe, expect, test } from '@jest/globals';
import { defineNotation, extractToolCalls } from '../../src/extract/index.js';
import { placeLimit } from '../../src/extract/guard.js';
import { builtInNotations } from '../../src/extract/notations/index.js';
import type { ToolSpec } from '../../src/tools/types.js';
import { cli, lineOf, report, withDemo } from '../cli/helpers.js';

// A house format: `CALL get_weather WITH {"city": "Paris"}` on a line of its own.
const house = defineNotation<{ start: number; end: number; name: string; json: string }>({
  name: 'house-call',
  *find(text) {
    const re = /^CALL (\S+) WITH (.*)$/gm;
    for (let m = re.exec(text); m; m = re.exec(text)) yield { start: m.index, end: m.index + m[0].length, name: m[1]!, json: m[2]! };
  },
  parse(match) {
    let args: unknown;
    try {
      args = JSON.parse(match.json);
    } catch {
      return { error: `Unexpected arguments after WITH in \`${match.name}\`, expected a JSON object` };
    }
    return [{ name: match.name, arguments: args }];
  },
});

const weather: ToolSpec = { name: 'get_weather', origin: { shape: 'anthropic' }, inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('custom notations', () => {
  test('a house notation is read beside the built-in ones, at its line', () => {
    const text = 'Intro.\n\nCALL get_weather WITH {"city": "Oslo"}\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>\n';
    const without = extractToolCalls(text, { tools: [weather] });
    expect(without.examples.map((e) => e.arguments)).toEqual([{ city: 'Rome' }]);
    const { examples, diagnostics } = extractToolCalls(text, { tools: [weather], notations: [house] });
    expect(diagnostics).toEqual([]);
    expect(examples.map((e) => [e.name, e.arguments, e.notation, e.line])).toEqual([
      ['get_weather', { city: 'Oslo' }, 'house-call', 3],
      ['get_weather', { city: 'Rome' }, 'hermes', 5],
    ]);
  });

  test('a parse failure is example/unparseable at the place; a placeholder is example/placeholder', () => {
    const bad = extractToolCalls('a\nCALL get_weather WITH {city: Oslo}\n', { notations: [house] });
    expect(bad.examples).toEqual([]);
    expect(bad.diagnostics.map((d) => [d.ruleId, d.line, d.message])).toEqual([['example/unparseable', 2, 'Unexpected arguments after WITH in `get_weather`, expected a JSON object']]);
    const template = extractToolCalls('CALL $TOOL_NAME WITH {}\n', { notations: [house] });
    expect(template.diagnostics.map((d) => d.ruleId)).toEqual(['example/placeholder']);
  });

  test('a notation that throws is a finding, not a crash', () => {
    const broken = defineNotation({
      name: 'broken',
      find() {
        throw new Error('boom');
      },
      parse: () => undefined,
    });
    const throwsInParse = defineNotation({ name: 'throws-in-parse', find: (text: string) => [{ start: 0, end: text.length }], parse: () => { throw new Error('bad'); } });
    const r1 = extractToolCalls('text', { notations: [broken] });
    expect(r1.diagnostics.map((d) => [d.ruleId, d.message])).toEqual([['example/notation-failed', "Unexpected error in the `broken` notation's `find`: boom, expected it to return the places it found"]]);
    const r2 = extractToolCalls('text', { notations: [throwsInParse] });
    // A `parse` that throws says the place is not a call it can read: example/unparseable, as `{ error }` is.
    expect(r2.diagnostics.map((d) => [d.ruleId, d.message])).toEqual([['example/unparseable', "Unexpected error in the `throws-in-parse` notation's `parse`: bad"]]);
  });

  test('what a notation returns is checked: a bad result is example/notation-failed naming the notation, the field and the place', () => {
    // One place per `CALL name` line; `parse` returns whatever the case gives it.
    const returning = (value: (m: { name: string }) => unknown) =>
      defineNotation<{ start: number; end: number; name: string }>({
        name: 'house-call',
        *find(text) {
          const re = /^CALL (\S+)$/gm;
          for (let m = re.exec(text); m; m = re.exec(text)) yield { start: m.index, end: m.index + m[0].length, name: m[1]! };
        },
        parse: (m) => value(m) as never,
      });
    const text = 'Intro.\n\nCALL get_weather\n';
    const failed = (value: (m: { name: string }) => unknown) => {
      const { examples, diagnostics } = extractToolCalls(text, { notations: [returning(value)] });
      expect(examples).toEqual([]);
      expect(diagnostics.map((d) => [d.ruleId, d.severity, d.line, d.column])).toEqual([['example/notation-failed', 'error', 3, 1]]);
      return diagnostics[0]!.message;
    };
    const by = "the `house-call` notation's `parse`";
    expect(failed((m) => m.name)).toBe(`Unexpected string "get_weather" returned by ${by}, expected an array of calls \`{ name, arguments }\`, \`undefined\` (not a call) or \`{ error }\` (a broken call)`);
    expect(failed(async (m) => [{ name: m.name, arguments: {} }])).toBe(`Unexpected Promise returned by ${by}, expected the calls, \`undefined\` or \`{ error }\`; \`parse\` runs synchronously, so an \`async\` parse is never awaited`);
    expect(failed(() => [{ name: 42, arguments: {} }])).toBe(`Unexpected number 42 at \`calls[0].name\` in what ${by} returned, expected the tool name as a non-empty string`);
    expect(failed((m) => [{ name: m.name, arguments: { city: 'Oslo' } }, { name: ['get_time'], arguments: {} }])).toBe(`Unexpected array at \`calls[1].name\` in what ${by} returned, expected the tool name as a non-empty string`);
    expect(failed((m) => [{ name: m.name }])).toBe(`Unexpected \`undefined\` at \`calls[0].arguments\` in what ${by} returned, expected the arguments as JSON data (an object; \`{}\` for none)`);
    const cyclic: Record<string, unknown> = { city: 'Oslo' };
    cyclic.self = cyclic;
    expect(failed((m) => [{ name: m.name, arguments: cyclic }])).toContain('Unexpected cycle at `calls[0].arguments.self`');
    expect(failed((m) => [{ name: m.name, arguments: { when: new Date(0) } }])).toContain('Unexpected class instance at `calls[0].arguments.when`');
    expect(failed((m) => [{ name: m.name, arguments: { days: Number.NaN } }])).toContain('Unexpected number NaN at `calls[0].arguments.days`');
    expect(failed((m) => [{ name: m.name, arguments: {}, at: 10_000 }])).toBe(`Unexpected offset 10000 at \`calls[0].at\` in what ${by} returned, expected an offset into the ${text.length} characters of text (at most ${text.length})`);
    expect(failed(() => ({ error: 404 }))).toBe(`Unexpected number 404 at \`failure.error\` in what ${by} returned, expected the message as a string`);
    expect(failed(() => ({ error: 'broken', offset: -1 }))).toContain('Unexpected number -1 at `failure.offset`');
    expect(failed(() => 0)).toContain('Unexpected number 0 returned by');
    // What is valid still reads: `undefined` is no call, `{ error }` is example/unparseable.
    expect(extractToolCalls(text, { notations: [returning(() => undefined)] })).toEqual({ examples: [], diagnostics: [] });
    expect(extractToolCalls(text, { notations: [returning(() => ({ error: 'Unexpected end, expected more' }))] }).diagnostics.map((d) => d.ruleId)).toEqual(['example/unparseable']);
  });

  test("what `find` returns is checked: a Promise, a string, a place that is no object or lies outside the text", () => {
    const finding = (find: (text: string) => unknown, text = 'Intro.\n\nCALL get_weather\n') => {
      const n = defineNotation({ name: 'house-call', find: find as never, parse: () => [{ name: 'get_weather', arguments: {} }] });
      const { examples, diagnostics } = extractToolCalls(text, { notations: [n] });
      expect(examples).toEqual([]);
      return diagnostics.map((d) => [d.ruleId, d.line, d.message]);
    };
    const by = "the `house-call` notation's `find`";
    expect(finding(async () => [{ start: 0, end: 5 }])).toEqual([['example/notation-failed', 1, `Unexpected Promise returned by ${by}, expected an iterable of places \`{ start, end }\` (an array or a generator); \`find\` runs synchronously, so an \`async\` find is never awaited`]]);
    expect(finding(async function* () { yield { start: 0, end: 5 }; })[0]![2]).toContain('Unexpected async iterable returned by');
    expect(finding(() => 'CALL')).toEqual([['example/notation-failed', 1, `Unexpected string "CALL" returned by ${by}, expected an iterable of places \`{ start, end }\` (an array or a generator)`]]);
    expect(finding(() => undefined)[0]![2]).toContain('Unexpected `undefined` returned by');
    expect(finding(() => [3])).toEqual([['example/notation-failed', 1, `Unexpected number 3 as a place from ${by}, expected an object \`{ start, end }\``]]);
    expect(finding(() => [{ start: '8', end: 24 }])).toEqual([['example/notation-failed', 1, `Unexpected string "8" at \`place.start\` from ${by}, expected an offset into the text (a whole number from 0)`]]);
    expect(finding(() => [{ start: 8, end: 8.5 }])[0]![2]).toContain('Unexpected number 8.5 at `place.end`');
    // A place past the end is reported where it starts, when that is in the text.
    expect(finding(() => [{ start: 8, end: 500 }])).toEqual([['example/notation-failed', 3, `Unexpected place \`{ start: 8, end: 500 }\` from ${by}, expected \`0 <= start < end <= 25\` (offsets into the 25 characters of text it was given)`]]);
    expect(finding(() => [{ start: 12, end: 12 }])[0]!.slice(0, 2)).toEqual(['example/notation-failed', 3]);
    expect(finding(() => [{ start: -1, end: 3 }])[0]!.slice(0, 2)).toEqual(['example/notation-failed', 1]);
  });

  test('a notation fails alone: the other notations still read, and a failing `find` is said once, not once per piece of prose', () => {
    const throwing = defineNotation({ name: 'throws', find: () => { throw new Error('boom'); }, parse: () => undefined });
    const text = 'A.\n\n```python\nx = 1\n```\n\nB.\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>\n';
    const { examples, diagnostics } = extractToolCalls(text, { tools: [weather], notations: [throwing, house] });
    expect(examples.map((e) => [e.name, e.notation, e.line])).toEqual([['get_weather', 'hermes', 9]]);
    expect(diagnostics.map((d) => [d.ruleId, d.line])).toEqual([['example/notation-failed', 1]]);
  });

  test('a `find` that yields without end is stopped and reported, not left to hang the run', () => {
    // The classic loop: a pattern that matches the empty string, read with `exec`, never advances.
    const stuck = defineNotation({
      name: 'stuck',
      *find(text: string) {
        const re = /x*/g;
        for (let m = re.exec(text); m; m = re.exec(text)) yield { start: m.index, end: m.index + m[0].length };
      },
      parse: () => undefined,
    });
    const endless = defineNotation({
      name: 'endless',
      *find() {
        for (;;) yield { start: 0, end: 1 };
      },
      parse: () => undefined,
    });
    const text = 'CALL get_weather WITH {"city": "Oslo"}\n';
    const { examples, diagnostics } = extractToolCalls(text, { notations: [stuck, endless, house] });
    expect(examples.map((e) => e.notation)).toEqual(['house-call']);
    const failed = diagnostics.filter((d) => d.ruleId === 'example/notation-failed');
    const limit = placeLimit(text.length);
    expect(failed.map((d) => d.message.split(' on ')[0])).toEqual([
      // The stuck regex yields one empty place without end: reported once, with a count, then stopped.
      `Unexpected place \`{ start: 0, end: 0 }\` from the \`stuck\` notation's \`find\`, expected \`0 <= start < end <= ${text.length}\` (offsets into the ${text.length} characters of text it was given); ${(limit - 1).toLocaleString('en-US')} more places like it in this text are not read either`,
      `Unexpected more than ${placeLimit(text.length).toLocaleString('en-US')} places from the \`stuck\` notation's \`find\``,
      `Unexpected more than ${placeLimit(text.length).toLocaleString('en-US')} places from the \`endless\` notation's \`find\``,
    ]);
  });

  test('a `find` or `parse` that loops without yielding is stopped after the time bound, reported, and not run again on the text', () => {
    const spin = (): never => {
      for (;;) {
        // A loop that never returns and never yields: only a watchdog can end it.
      }
    };
    const text = 'CALL get_weather WITH {"city": "Oslo"}\n\n```text\nCALL get_weather WITH {"city": "Rome"}\n```\n';
    const started = Date.now();
    const { examples, diagnostics } = extractToolCalls(text, { notations: [defineNotation({ name: 'spins', find: spin, parse: () => undefined }), house], notationTimeout: 100 });
    // Once, though the text has two pieces of prose (the second in a `text` fence): the notation is stopped.
    expect(diagnostics.map((d) => [d.ruleId, d.line, d.message])).toEqual([
      ['example/notation-failed', 1, expect.stringMatching(/^Unexpected run of the `spins` notation's `find` past 100 ms on \d+ characters of text, expected it to return within that time; it is stopped, and the notation is not run again on this text$/)],
    ]);
    expect(examples.map((e) => [e.arguments, e.line])).toEqual([[{ city: 'Oslo' }, 1], [{ city: 'Rome' }, 4]]);

    const slowParse = defineNotation<{ start: number; end: number }>({ name: 'slow-parse', find: (t) => [...t.matchAll(/^CALL .*$/gm)].map((m) => ({ start: m.index, end: m.index + m[0].length })), parse: spin });
    const second = extractToolCalls(text, { notations: [slowParse], notationTimeout: 100 });
    expect(second.examples).toEqual([]);
    expect(second.diagnostics.map((d) => [d.ruleId, d.line, d.message.split(' on ')[0]])).toEqual([['example/notation-failed', 1, "Unexpected run of the `slow-parse` notation's `parse` past 100 ms"]]);
    // Two stopped calls of 100 ms, not a hung run.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('defineNotation checks the definition where it is written', () => {
    expect(() => defineNotation({ name: '', find: () => [], parse: () => undefined })).toThrow(/notation name/);
    expect(() => defineNotation({ name: 'x', parse: () => undefined } as never)).toThrow(/find/);
    expect(() => defineNotation({ name: 'x', find: () => [] } as never)).toThrow(/parse/);
  });

  test('every built-in notation is defined through the same interface', () => {
    expect(builtInNotations.length).toBeGreaterThanOrEqual(6);
    for (const n of builtInNotations) {
      expect(Object.isFrozen(n)).toBe(true);
      expect(() => defineNotation(n)).not.toThrow();
    }
    expect(new Set(builtInNotations.map((n) => n.name)).size).toBe(builtInNotations.length);
  });
});

test('`notations` in the config: a stale example in a house notation fails check at the template line', () =>
  withDemo((demo) => {
    demo.edit('prompt-contract.config.ts', "import { defineConfig } from 'prompt-contract';", "import { defineConfig, defineNotation } from 'prompt-contract';\nconst house = defineNotation({ name: 'house-call', *find(text: string) { const re = /^CALL ([\\w.-]+) WITH (.*)$/gm; for (let m = re.exec(text); m; m = re.exec(text)) yield { start: m.index, end: m.index + m[0].length, name: m[1]!, json: m[2]! }; }, parse: (m: { name: string; json: string }) => [{ name: m.name, arguments: JSON.parse(m.json) }] });");
    demo.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  notations: [house],");
    const file = 'prompts/order_triage.prompt';
    demo.edit(file, 'Orders that have shipped', 'House example:\nCALL escalate_to_human WITH {"reason": "not-a-reason"}\n\nOrders that have shipped');
    const result = cli(['check', '--format', 'json'], { cwd: demo.dir });
    expect(result.code).toBe(1);
    const hit = report(result).diagnostics.find((d) => d.ruleId === 'example/invalid-arguments' && d.file === file);
    expect(hit).toMatchObject({ file, line: lineOf(demo.read(file), 'CALL escalate_to_human'), tool: 'escalate_to_human' });
    // `extract --config` reads any text with the config's notations and tools; without it, the house notation is unknown.
    demo.write('reply.txt', 'Then:\nCALL lookup_order WITH {"order_id": "A-2051"}\n');
    const withConfig = cli(['extract', 'reply.txt', '--config', 'prompt-contract.config.ts', '--format', 'json'], { cwd: demo.dir });
    expect(withConfig.code).toBe(0);
    expect((JSON.parse(withConfig.stdout) as { examples: unknown[] }).examples).toEqual([{ name: 'lookup_order', arguments: { order_id: 'A-2051' }, notation: 'house-call', line: 2, column: 1, offset: 6 }]);
    expect((JSON.parse(cli(['extract', 'reply.txt', '--format', 'json'], { cwd: demo.dir }).stdout) as { examples: unknown[] }).examples).toEqual([]);
  }));

test('`notations` in the config: an async `parse` is example/notation-failed at the template line, not an internal error', () =>
  withDemo((demo) => {
    demo.edit('prompt-contract.config.ts', "import { defineConfig } from 'prompt-contract';", "import { defineConfig, defineNotation } from 'prompt-contract';\nconst house = defineNotation({ name: 'house-call', *find(text: string) { const re = /^CALL ([\\w.-]+) WITH (.*)$/gm; for (let m = re.exec(text); m; m = re.exec(text)) yield { start: m.index, end: m.index + m[0].length, name: m[1]!, json: m[2]! }; }, parse: (async (m: { name: string; json: string }) => [{ name: m.name, arguments: JSON.parse(m.json) }]) as never });");
    demo.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  notations: [house],");
    const file = 'prompts/order_triage.prompt';
    demo.edit(file, 'Orders that have shipped', 'House example:\nCALL escalate_to_human WITH {"reason": "damaged"}\n\nOrders that have shipped');
    const result = cli(['check', '--format', 'json'], { cwd: demo.dir });
    expect(result.code).toBe(1);
    const hits = report(result).diagnostics.filter((d) => d.ruleId === 'example/notation-failed');
    expect(hits.map((d) => [d.file, d.line, d.severity])).toEqual([[file, lineOf(demo.read(file), 'CALL escalate_to_human'), 'error']]);
    expect(hits[0]!.message).toContain("Unexpected Promise returned by the `house-call` notation's `parse`");
  }));
