/**
 * Tests that need something only some systems have (named pipes, `/dev/zero`, symbolic links,
 * `ulimit`). Where it is missing they are skipped, with the reason in the test's name, except
 * under CI (as Jest reads it: `CI` set to anything but `false`): there a skip would pass a run
 * that never checked the behaviour, so the test fails instead, naming what the runner lacks.
 */
import { describe, test } from '@jest/globals';
import { existsSync } from 'node:fs';
import { onCi } from '../../src/util/ci.js';

/** Something a test needs of the system, and whether this one has it. */
export interface Need {
  has: boolean;
  /** What is needed, as the end of "needs ...". */
  what: string;
}

export const namedPipes: Need = { has: process.platform !== 'win32', what: 'named pipes made with `mkfifo` (not on Windows)' };
export const devZero: Need = { has: existsSync('/dev/zero'), what: '`/dev/zero`' };
export const symbolicLinks: Need = { has: process.platform !== 'win32', what: 'symbolic links made without privileges (not on Windows)' };
export const fileSizeLimit: Need = { has: process.platform !== 'win32', what: '`bash` with `ulimit -f` (not on Windows)' };

/** Every one of `needs`. */
export function allOf(...needs: Need[]): Need {
  const missing = needs.filter((n) => !n.has);
  return { has: missing.length === 0, what: (missing.length > 0 ? missing : needs).map((n) => n.what).join(' and ') };
}

/** What becomes of a test that needs `need`: it runs, it is skipped (not under CI), or it fails (under CI). */
export function verdict(need: Need, env: NodeJS.ProcessEnv = process.env): 'run' | 'skip' | 'fail' {
  if (need.has) return 'run';
  return onCi(env) ? 'fail' : 'skip';
}

/** The test that stands in for skipped ones under CI. */
function failUnderCi(name: string, need: Need): void {
  test(`${name} (needs ${need.what})`, () => {
    throw new Error(`Unexpected skip under CI: this system has no ${need.what}, expected every test to run under CI. Run this job on a system that has it, or unset CI to skip the test locally`);
  });
}

type TestFn = Parameters<typeof test>[1];

/** `test`, for a test that needs `need`. */
export function testWhere(need: Need): (name: string, fn: TestFn, timeout?: number) => void {
  return (name, fn, timeout) => {
    const v = verdict(need);
    if (v === 'run') test(name, fn, timeout);
    else if (v === 'skip') test.skip(`${name} (skipped: needs ${need.what})`, fn, timeout);
    else failUnderCi(name, need);
  };
}

/** `describe`, for tests that all need `need`. */
export function describeWhere(need: Need): (name: string, fn: () => void) => void {
  return (name, fn) => {
    const v = verdict(need);
    if (v === 'run') describe(name, fn);
    else if (v === 'skip') describe.skip(`${name} (skipped: needs ${need.what})`, fn);
    else failUnderCi(name, need);
  };
}
