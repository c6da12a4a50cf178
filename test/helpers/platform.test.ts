import { describe, expect, test } from '@jest/globals';
import { allOf, verdict } from './platform.js';

describe('tests that need something of the system', () => {
  const missing = { has: false, what: '`/dev/zero`' };
  const present = { has: true, what: 'named pipes' };

  test('run where the system has what they need, under CI or not', () => {
    expect(verdict(present, {})).toBe('run');
    expect(verdict(present, { CI: 'true' })).toBe('run');
  });

  test('are skipped where it is missing, but fail under CI (CI set to anything but `false` or empty)', () => {
    expect(verdict(missing, {})).toBe('skip');
    expect(verdict(missing, { CI: 'false' })).toBe('skip');
    expect(verdict(missing, { CI: '' })).toBe('skip');
    for (const CI of ['true', '1', '0', 'yes']) expect(verdict(missing, { CI })).toBe('fail');
  });

  test('needing several things, name the ones missing', () => {
    expect(allOf(present, missing)).toEqual({ has: false, what: '`/dev/zero`' });
    expect(allOf(present, present)).toEqual({ has: true, what: 'named pipes and named pipes' });
  });
});
