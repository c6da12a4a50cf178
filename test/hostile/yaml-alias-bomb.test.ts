import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { InputError } from '../../src/util/errors.js';
import { MAX_ALIAS_EXPANSION_CHARS, parseYaml } from '../../src/util/yaml.js';
import { cliInProcess, repo, withDemo } from '../cli/helpers.js';

/** A "billion laughs": nine levels of ten aliases each, 10^9 strings once expanded. */
function laughs(indent: string): string {
  const lines = [`${indent}lol: &l0 [${Array(10).fill('"lol"').join(', ')}]`];
  for (let i = 1; i <= 8; i++) lines.push(`${indent}l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(', ')}]`);
  return lines.join('\n');
}

/** `check` in `dir`, killed after 60 s: a hang shows as a signal on a machine however loaded (it takes about a second). */
function check(dir: string): { status: number | null; signal: string | null; stderr: string } {
  const r = spawnSync(process.execPath, [join(repo, 'dist', 'cli.js'), 'check'], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, signal: r.signal, stderr: r.stderr };
}

// What shows the bomb was not expanded is where the error stops, not the time taken: it names
// the first alias past the bound (a few lines in), so the aliases after it were never counted,
// let alone expanded.
describe('a YAML alias bomb', () => {
  // Loading was fast (js-yaml shares aliased nodes); walking and printing the value was not:
  // 58 s and 2.1 GB before `check` gave up on the examples file.
  test('in an examples file: `check` exits 2 at once, naming the file and line of the alias', () => {
    withDemo((demo) => {
      const file = 'prompts/examples/refund_agent.yaml';
      demo.write(file, `laughs:\n${laughs('  ')}\n${demo.read(file).replace('  - title: A damaged item, refunded in full\n', '  - title: A damaged item, refunded in full\n    extra: *l8\n')}`);
      const result = check(demo.dir);
      expect(result.signal).toBeNull();
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/prompts\/examples\/refund_agent\.yaml:6:\d+: Alias `\*l3` takes the nodes added by aliases past 100,000 \(an alias bomb\)/);
    });
  }, 90_000);

  // The description mapping ignored a non-string `description` silently: only the parse can catch it.
  test('in descriptions.yaml: `check` exits 2 at once, naming the file and line', () => {
    withDemo((demo) => {
      const file = 'prompts/tools/descriptions.yaml';
      demo.write(file, demo.read(file).replace(/^lookup_order:\n  description: .*$/m, `${laughs('')}\nlookup_order:\n  description: *l8`));
      const result = check(demo.dir);
      expect(result.signal).toBeNull();
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/prompts\/tools\/descriptions\.yaml:\d+:\d+: Alias `\*l\d` takes the nodes added by aliases past 100,000/);
    });
  }, 90_000);

  test('is refused by parseYaml at the first alias past the bound, while modest reuse loads', () => {
    let error: unknown;
    try {
      parseYaml(`${laughs('')}\n`, 'bomb.yaml');
    } catch (e) {
      error = e;
    }
    // Before the bound this ran for about 50 s. Now it stops at the alias that takes the count
    // past 100,000: lines 2-4 add 12,330 nodes, each `*l3` of line 5 11,111 more, so the eighth
    // (column 45) is the one; the aliases after it, which would add 10^9, are never counted.
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'config/yaml-aliases', file: 'bomb.yaml', line: 5, column: 45, message: expect.stringMatching(/^Alias `\*l3` takes the nodes added by aliases past 100,000/) });
    // A hundred aliases to a 200-node mapping: 20,000 nodes, real reuse.
    const base = `base: &base {${Array.from({ length: 100 }, (_, i) => `k${i}: v`).join(', ')}}`;
    const doc = parseYaml(`${base}\nuses: [${Array(100).fill('*base').join(', ')}]\n`, 'reuse.yaml');
    expect((doc.value as { uses: unknown[] }).uses).toHaveLength(100);
  });

  test('an alias inside the node it names (an endless value) is refused with its line', () => {
    expect(() => parseYaml('ok: 1\nloop: &a\n  - 1\n  - *a\n', 'loop.yaml')).toThrow(expect.objectContaining({ code: 'config/yaml-aliases', line: 4, message: expect.stringMatching(/refers to a node that contains it/) }) as unknown as Error);
  });
});

/** What `parseYaml` throws for `text`, with how long it took: `undefined` when it loads. */
function refusal(text: string, file = 'bomb.yaml'): { error: unknown; ms: number } {
  const started = performance.now();
  try {
    parseYaml(text, file);
    return { error: undefined, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}

/** `[*name, *name, …]`, `count` times. */
const aliases = (name: string, count: number): string => `[${Array(count).fill(`*${name}`).join(', ')}]`;

// The node count let a few large values through: 5,000 aliases to one 1,000,000-character value
// are 5,000 nodes, well under 100,000, in a 1 MB file, but 5 GB of text once printed; `{{json
// extra}}` ran out of memory after 30 s and Node died with a native stack trace (exit 134).
// Each alias now also costs the text of the node it repeats, against 16 MiB in all.
describe('a YAML alias bomb made of text, not nodes', () => {
  test('a large value aliased many times is refused at the alias that passes 16 MiB of text', () => {
    const text = `big: &big ${'x'.repeat(1_000_000)}\nextra: ${aliases('big', 5000)}\n`;
    const { error, ms } = refusal(text);
    // Sixteen aliases add 16,000,000 characters, the seventeenth 17,000,000 (past 16,777,216):
    // `extra: [` is 8 characters and each `*big, ` 6, so it starts at column 9 + 16 * 6 = 105.
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({
      code: 'config/yaml-aliases',
      file: 'bomb.yaml',
      line: 2,
      column: 105,
      message: expect.stringMatching(/^Alias `\*big` repeats 1,000,000 characters, which takes the text added by aliases past 16,777,216 characters \(an alias bomb\); expected .*written out.*fewer aliases/),
    });
    // Parsing the 1 MB file is most of it; nothing is expanded.
    expect(ms).toBeLessThan(5_000);
  });

  test('nested anchors that multiply are refused at the first alias past the bound, under the node bound', () => {
    // 100,000 characters, then ten of each level: 1 MB, 10 MB, 100 MB, 1 GB of text, but only
    // 12,340 nodes added, which the node count alone let through.
    const text = [`a: &a ${'y'.repeat(100_000)}`, `l1: &l1 ${aliases('a', 10)}`, `l2: &l2 ${aliases('l1', 10)}`, `l3: &l3 ${aliases('l2', 10)}`, `l4: &l4 ${aliases('l3', 10)}`, ''].join('\n');
    const { error, ms } = refusal(text);
    // l1 adds 1,000,000 characters and l2 10,000,000; the first `*l2` of l3 (line 4, column 10)
    // adds 10,000,000 more, 21,000,000 in all: nested aliases count, each anchor measured once.
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'config/yaml-aliases', line: 4, column: 10, message: expect.stringMatching(/^Alias `\*l2` repeats 10,000,000 characters, which takes the text added by aliases past 16,777,216 characters/) });
    expect(ms).toBeLessThan(5_000);
  });

  test('text up to the bound loads: the bound is on what aliases add, in characters', () => {
    const mib = 'z'.repeat(1024 * 1024);
    expect(MAX_ALIAS_EXPANSION_CHARS).toBe(16 * mib.length);
    // The value written once, then aliased sixteen times: exactly 16 MiB added.
    const doc = parseYaml(`v: &v ${mib}\nuses: ${aliases('v', 16)}\n`, 'edge.yaml');
    expect((doc.value as { uses: string[] }).uses).toHaveLength(16);
    expect((doc.value as { uses: string[] }).uses[15]).toHaveLength(mib.length);
    // A seventeenth is refused, at its `*`: `uses: [` is 7 characters and each `*v, ` 4, so column 8 + 16 * 4.
    expect(refusal(`v: &v ${mib}\nuses: ${aliases('v', 17)}\n`).error).toMatchObject({ code: 'config/yaml-aliases', line: 2, column: 8 + 16 * 4 });
  });

  test('ordinary reuse still loads: anchors reused a few times, nested, as keys, in block and flow style', () => {
    const text = [
      'customer: &ada { name: Ada Lovelace, id: C-1815, note: &note "Prefers email; ships to 12 St James\'s Square, London." }',
      `policy: &policy |\n  ${'Refunds within 30 days of delivery, for any reason. '.repeat(200)}\n  Exchanges within 60 days.`,
      'shared: &shared',
      '  customer: *ada',
      '  policy: *policy',
      'cases:',
      ...Array.from({ length: 50 }, (_, i) => `  case_${i}:\n    input: *shared\n    notes: [*note, *note, *policy]\n    *note : a key that is an alias`),
      '',
    ].join('\n');
    const doc = parseYaml(text, 'reuse.yaml');
    const cases = (doc.value as { cases: Record<string, { input: { customer: { name: string }; policy: string }; notes: string[] }> }).cases;
    expect(Object.keys(cases)).toHaveLength(50);
    expect(cases.case_49!.input.customer.name).toBe('Ada Lovelace');
    expect(cases.case_49!.notes[2]).toMatch(/^Refunds within 30 days/);
    // A 100,000-character value reused 100 times: 10,000,000 characters, large but real reuse.
    const large = parseYaml(`doc: &doc ${'w'.repeat(100_000)}\nuses: ${aliases('doc', 100)}\n`, 'large.yaml');
    expect((large.value as { uses: string[] }).uses).toHaveLength(100);
  });

  // What the tester ran: a cases file of about 1 MB. `check` now stops at the alias, with exit 2,
  // before anything is rendered.
  test('in a cases file: `check` exits 2 naming the file and line of the alias, not a crash', async () => {
    await withDemo(async (demo) => {
      const file = 'prompts/cases/order_triage.yaml';
      const big = `big: &big ${'x'.repeat(1_000_000)}\n`;
      demo.write(file, big + demo.read(file).replace('      order_id: A-2051\n', `      order_id: A-2051\n      extra: ${aliases('big', 5000)}\n`));
      const line = demo.read(file).split('\n').findIndex((l) => l.startsWith('      extra: ')) + 1;
      const result = await cliInProcess(['check'], { cwd: demo.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`prompts/cases/order_triage\\.yaml:${line}:\\d+: Alias \`\\*big\` repeats 1,000,000 characters, which takes the text added by aliases past 16,777,216 characters`));
    });
  });
});
