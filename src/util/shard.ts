/**
 * `--shard i/n`, as Jest and Playwright spell it: the work is cut into n parts in a fixed
 * order, and this run does part i. A CI matrix of n runners covers everything exactly once.
 */
import { InputError } from './errors.js';

export interface Shard {
  /** 1-based. */
  index: number;
  total: number;
}

/** `"2/3"` as a shard; undefined for no value. An InputError names what was expected. */
export function parseShard(value: string | undefined, from = '--shard'): Shard | undefined {
  if (value === undefined || value === '') return undefined;
  const m = /^([1-9]\d*)\/([1-9]\d*)$/.exec(value.trim());
  if (!m || Number(m[1]) > Number(m[2])) {
    throw new InputError('usage', `Unexpected ${from} ${JSON.stringify(value)}, expected INDEX/TOTAL with 1 <= INDEX <= TOTAL, such as 1/3`);
  }
  return { index: Number(m[1]), total: Number(m[2]) };
}

/** This shard's part of `items`: contiguous, in the given order, sizes differing by at most one. */
export function shardSlice<T>(items: readonly T[], shard: Shard | undefined): T[] {
  if (!shard) return [...items];
  const from = Math.floor(((shard.index - 1) * items.length) / shard.total);
  const to = Math.floor((shard.index * items.length) / shard.total);
  return items.slice(from, to);
}

/** Whether this run does the work that happens once (obsolete snapshots, breaking changes, lint): the first shard's. */
export const runsOnce = (shard: Shard | undefined): boolean => !shard || shard.index === 1;
