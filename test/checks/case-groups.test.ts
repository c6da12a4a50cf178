// The work queue of `check`'s case loop (src/checks/cases.ts): groups cut from the case list,
// taken by threads from a shared counter, and the error a single thread would have met picked
// out of those the threads met. Threads are played here by nested calls on one counter: a
// thread's check can let another thread take groups before it returns.
import { describe, expect, test } from '@jest/globals';
import { ACTIVE, FAILED, GROUP_CASES, NEXT, caseGroups, firstFailure, fromSent, takeGroups, toSent, type CaseGroup, type GroupResult } from '../../src/checks/cases.js';
import { InputError } from '../../src/util/errors.js';

const counter = (groups: number): Int32Array => {
  const shared = new Int32Array(new SharedArrayBuffer(4 * (ACTIVE + 2)));
  Atomics.store(shared, FAILED, groups);
  return shared;
};
const ok = (group: CaseGroup): GroupResult => ({ cases: group.cases.map((c) => [{ ruleId: c } as never]) });

describe('caseGroups', () => {
  test('one prompt\'s consecutive cases, at most GROUP_CASES a group, then one items group per prompt', () => {
    const refs = [
      ...Array.from({ length: GROUP_CASES + 3 }, (_u, i) => ({ prompt: 'a', case: `a${i}` })),
      { prompt: 'b', case: 'b0' },
      { prompt: 'c', case: 'c0' },
      { prompt: 'c', case: 'c1' },
    ];
    const groups = caseGroups(refs, ['a', 'b']);
    expect(groups.map((g) => [g.prompt, g.cases.length, g.items === true])).toEqual([
      ['a', GROUP_CASES, false],
      ['a', 3, false],
      ['b', 1, false],
      ['c', 2, false],
      ['a', 0, true],
      ['b', 0, true],
    ]);
    // Every case once, in the order given.
    expect(groups.flatMap((g) => g.cases)).toEqual(refs.map((r) => r.case));
  });
});

describe('takeGroups', () => {
  const groups = caseGroups(Array.from({ length: 8 }, (_u, i) => ({ prompt: `p${i}`, case: 'x' })));

  test('two threads take every group exactly once', () => {
    const shared = counter(groups.length);
    let other: ReturnType<typeof takeGroups> | undefined;
    const first = takeGroups(shared, groups, (group) => {
      // While the first thread checks its first group, the second takes groups until none is left.
      other ??= takeGroups(shared, groups, ok);
      return ok(group);
    });
    const all = [...first.done, ...other!.done].map(([i]) => i).sort((a, b) => a - b);
    expect(all).toEqual(groups.map((_g, i) => i));
    expect(first.done.length).toBe(1);
    expect(Atomics.load(shared, NEXT)).toBeGreaterThanOrEqual(groups.length);
  });

  test('after a failure no thread takes a later group, and the failure mark keeps the earliest', () => {
    const shared = counter(groups.length);
    const checked: number[] = [];
    let other: ReturnType<typeof takeGroups> | undefined;
    const first = takeGroups(shared, groups, (group) => {
      const i = groups.indexOf(group);
      checked.push(i);
      if (i === 0) {
        // The second thread fails at group 3 while the first is still on group 0, which then fails too.
        other = takeGroups(shared, groups, (g) => {
          const j = groups.indexOf(g);
          checked.push(j);
          if (j === 3) throw new Error('at 3');
          return ok(g);
        });
        throw new Error('at 0');
      }
      return ok(group);
    });
    expect(other!.error?.group).toBe(3);
    expect(first.error?.group).toBe(0);
    expect(Atomics.load(shared, FAILED)).toBe(0);
    // Nothing after group 3 was checked by anyone.
    expect(Math.max(...checked)).toBe(3);
    const errors = [first, other!].map((r) => ({ group: r.error!.group, error: r.error!.cause }));
    expect((firstFailure(errors)!.error as Error).message).toBe('at 0');
    expect((firstFailure([...errors].reverse())!.error as Error).message).toBe('at 0');
  });

  test('a thread that comes late to a failed run takes nothing past the failure', () => {
    const shared = counter(groups.length);
    const early = takeGroups(shared, groups, (g) => {
      if (groups.indexOf(g) === 2) throw new Error('at 2');
      return ok(g);
    });
    expect(early.done.map(([i]) => i)).toEqual([0, 1]);
    const late = takeGroups(shared, groups, ok);
    expect(late).toEqual({ done: [] });
  });
});

describe('errors sent between threads', () => {
  test('an InputError keeps its code, place, stack and the place of its cause', () => {
    const cause = new InputError('config/yaml-syntax', 'bad indent', { file: 'prompts/x.yaml', line: 3, column: 5 });
    const error = new InputError('render/template', 'cannot compile', {}, { cause });
    const back = fromSent(structuredClone(toSent(error))) as InputError;
    expect(back).toBeInstanceOf(InputError);
    expect({ code: back.code, message: back.message, file: back.file, stack: back.stack }).toEqual({ code: 'render/template', message: 'cannot compile', file: undefined, stack: error.stack });
    expect(back.cause).toBeInstanceOf(InputError);
    expect(back.cause).toMatchObject({ code: 'config/yaml-syntax', file: 'prompts/x.yaml', line: 3, column: 5 });
  });

  test('a stack overflow stays a RangeError, which the CLI words as input nested too deeply', () => {
    let overflow: unknown;
    const deep = (n: number): number => deep(n + 1) + 1;
    try {
      deep(0);
    } catch (error) {
      overflow = error;
    }
    const back = fromSent(structuredClone(toSent(overflow)));
    expect(back).toBeInstanceOf(RangeError);
    expect(back.message).toBe((overflow as Error).message);
    expect(fromSent(toSent('a thrown string')).message).toBe('a thrown string');
  });
});
