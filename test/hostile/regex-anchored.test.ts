import { describe, expect, test } from '@jest/globals';
import { compilePattern } from '../../src/util/regex.js';
import { backtrackSteps, stepsOf } from './regex-steps.js';

// A pattern is tried once when anchored, and at every position otherwise. An alternation is
// tried once only when every branch is anchored: `^0|[a-z]+@` is tried at every position by
// its second branch, and each try scans to the end of a run of letters, so a long run costs
// the square of its length on a backtracking engine.

describe('an alternation is anchored only when every branch is', () => {
  test.each(['^0|[a-z]+@', '[a-z]+@|^0', '^0|^1|[a-z]+@', '^(?:0)|[a-z]+@'])('%s, one branch unanchored and unbounded, runs on the linear-time engine', (pattern) => {
    const compiled = compilePattern(pattern);
    expect(compiled.engine).toBe('linear');
    // Whatever the engine, the answer is the pattern's.
    expect([compiled.test('abc@'), compiled.test(`${'a'.repeat(100_000)}!`), compiled.test('9@')]).toEqual([true, false, false]);
    // No search of the long text reaches V8's backtracking engine: no steps are spent on it.
    const text = `${'a'.repeat(100_000)}!`;
    const { steps, runs } = stepsOf(() => compiled.test(text));
    expect(runs.filter((r) => r.input === text)).toEqual([]);
    expect(steps).toBe(0);
  });

  test.each(['^0|^[a-z]+@', '^(?:0|[a-z]+@)', '^a|^b'])('%s, anchored in every branch, stays on the native engine', (pattern) => {
    expect(compilePattern(pattern).engine).toBe('native');
  });

  test('why it matters: on a backtracking engine, `^0|[a-z]+@` costs the square of the text', () => {
    const pattern = { source: '^0|[a-z]+@', flags: 'u' };
    const short = backtrackSteps(pattern, 'a'.repeat(1000)).steps;
    const long = backtrackSteps(pattern, 'a'.repeat(2000)).steps;
    // Twice the text, four times the steps; a linear search would take twice.
    expect(long / short).toBeGreaterThan(3.5);
    const anchored = { source: '^0|^[a-z]+@', flags: 'u' };
    expect(backtrackSteps(anchored, 'a'.repeat(2000)).steps / backtrackSteps(anchored, 'a'.repeat(1000)).steps).toBeLessThan(2.5);
  });
});
