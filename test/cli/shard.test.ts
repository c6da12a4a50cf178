import { describe, expect, test } from '@jest/globals';
import { parseShard, shardSlice } from '../../src/util/shard.js';
import { cliInProcess as cli, report, withDemo } from './helpers.js';

// `check --shard i/n`: a CI matrix of n jobs covers every case, curated example and recorded
// line exactly once, and what runs once (obsolete snapshots, breaking changes, lint) runs in 1/n.
// The CLI runs in this process (see cliInProcess).

describe('parseShard and shardSlice', () => {
  test('split contiguously, covering each item once, sizes differing by at most one', () => {
    const items = Array.from({ length: 10 }, (_, i) => i);
    const parts = [1, 2, 3].map((index) => shardSlice(items, { index, total: 3 }));
    expect(parts.flat()).toEqual(items);
    expect(parts.map((p) => p.length)).toEqual([3, 3, 4]);
    expect(shardSlice([1, 2], { index: 3, total: 3 })).toEqual([2]);
  });

  test('a shard that is not INDEX/TOTAL is refused, naming what was expected', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, total: 3 });
    expect(parseShard('1000/1000')).toEqual({ index: 1000, total: 1000 });
    expect(parseShard(undefined)).toBeUndefined();
    for (const bad of ['0/3', '4/3', '1', 'a/b', '1/0']) expect(() => parseShard(bad)).toThrow(/expected INDEX\/TOTAL with 1 <= INDEX <= TOTAL/);
  });

  // Each of these once ran the whole check (an empty value) or none of it (an index past the total
  // once both were rounded to floats), and said nothing about it.
  test.each([
    ['empty', ''],
    ['a float total', '3/2.0000000000000001'],
    ['numbers past 2^53, equal once rounded', '9007199254740993/9007199254740992'],
    ['a total past the bound', '1/1001'],
    ['spaces', ' 2/3 '],
    ['a sign', '+1/3'],
    ['an exponent', '1e0/3'],
    ['a leading zero', '01/3'],
    ['digits of another script', '\u0661/\u0663'],
  ])('a shard with %s is refused, naming where it came from and the form expected', (_what, value) => {
    expect(() => parseShard(value, '--shard')).toThrow(expect.objectContaining({ code: 'usage', message: `Unexpected --shard ${JSON.stringify(value)}, expected INDEX/TOTAL with 1 <= INDEX <= TOTAL <= 1000 in digits, such as 2/3` }));
    // The Jest suite reads its option and the environment through the same parser.
    expect(() => parseShard(value, 'the `shard` option')).toThrow(/^Unexpected the `shard` option ".*", expected INDEX\/TOTAL/);
    expect(() => parseShard(value, 'PROMPT_CONTRACT_SHARD')).toThrow(/^Unexpected PROMPT_CONTRACT_SHARD ".*", expected INDEX\/TOTAL/);
  });
});

test.each([
  ['--shard ""', ['--shard', ''], {}, '--shard ""'],
  ['--shard past 2^53', ['--shard', '9007199254740993/9007199254740992'], {}, '--shard "9007199254740993/9007199254740992"'],
  ['an empty PROMPT_CONTRACT_SHARD', [], { PROMPT_CONTRACT_SHARD: '' }, 'PROMPT_CONTRACT_SHARD ""'],
])('check with %s exits 2 and names the shard, instead of checking everything or nothing', (_what, args, env, named) =>
  withDemo(async (demo) => {
    const r = await cli(['check', ...args], { cwd: demo.dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Unexpected ${named}, expected INDEX/TOTAL`);
    expect(r.stdout).not.toContain('No problems found');
  }));

type Finding = ReturnType<typeof report>['diagnostics'][number] & { schemaPath?: string; witnessCount?: number };
const key = (d: Finding) => [d.ruleId, d.file, d.line, d.tool, d.instancePath].join('|');
const group = (d: Finding) => [d.ruleId, d.tool, d.instancePath, d.schemaPath].join('|');

test('the union of three shards is the full run: same findings, recorded counts summed, once-only work in shard 1', () =>
  withDemo(async (demo) => {
    // Drift in a YAML example, in a structured few-shot turn, in recorded calls spread over the file, and a stray snapshot.
    demo.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
    demo.edit('prompts/examples/status_chat.yaml', 'refund_id: RF-204511', 'refund_id: "204511"');
    demo.edit('prompts/observed/recorded_calls.jsonl', /"reason":"goodwill"/g, '"reason":"kindness"');
    demo.write('snapshots/refund_agent/retired_case.txt', 'prompt-contract snapshot 2\nprompt: refund_agent\ncase: retired_case\n');
    const full = report(await cli(['check', '--format', 'json'], { cwd: demo.dir })).diagnostics;
    const shards = await Promise.all([1, 2, 3].map(async (i) => report(await cli(['check', '--format', 'json', '--shard', `${i}/3`], { cwd: demo.dir })).diagnostics));

    const recorded = (ds: Finding[]) => ds.filter((d) => d.ruleId.startsWith('recorded/'));
    const rest = (ds: Finding[]) => ds.filter((d) => !d.ruleId.startsWith('recorded/'));
    expect(recorded(full).length).toBeGreaterThan(0);
    // Sorted lists, not sets: a finding two shards both report (a case checked twice) must show.
    const sorted = (keys: string[]) => [...keys].sort();
    expect(sorted(shards.flatMap((s) => rest(s).map(key)))).toEqual(sorted(rest(full).map(key)));

    // Recorded lines are split by byte range: each shard counts its own lines, and the counts add up.
    const counts = (ds: Finding[]) => {
      const out = new Map<string, number>();
      for (const d of recorded(ds)) out.set(group(d), (out.get(group(d)) ?? 0) + (d.witnessCount ?? 1));
      return out;
    };
    const summed = new Map<string, number>();
    for (const s of shards) for (const [k, n] of counts(s)) summed.set(k, (summed.get(k) ?? 0) + n);
    expect(summed).toEqual(counts(full));
    expect(shards.filter((s) => recorded(s).length > 0).length).toBeGreaterThan(1);

    // Once-only work: the stray snapshot is reported by shard 1 and by no other.
    const obsolete = shards.map((s) => s.filter((d) => d.ruleId === 'snapshot/obsolete').length);
    expect(obsolete).toEqual([1, 0, 0]);
  }));
