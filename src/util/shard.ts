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

/**
 * The most parts a run may be cut into. A CI matrix is far smaller; the bound keeps both
 * numbers a few digits long, so each is read exactly (past 2^53 two different numbers read as
 * one float, and an index beyond its total passed as equal to it, checking nothing).
 */
export const maxShards = 1000;

/**
 * `"2/3"` as a shard; undefined when there is no value. Anything but two whole numbers in
 * ASCII digits with 1 <= INDEX <= TOTAL <= maxShards is refused: an empty value, spaces, a sign,
 * a fraction or a leading zero is a mistake in the CI matrix, and guessing would run the whole
 * check, or none of it, in a job meant to run one part. An InputError names `from`.
 */
export function parseShard(value: string | undefined, from = '--shard'): Shard | undefined {
  if (value === undefined) return undefined;
  const m = /^([1-9][0-9]{0,3})\/([1-9][0-9]{0,3})$/.exec(value);
  const index = m ? Number(m[1]) : NaN;
  const total = m ? Number(m[2]) : NaN;
  if (!(index <= total && total <= maxShards)) {
    throw new InputError('usage', `Unexpected ${from} ${JSON.stringify(value)}, expected INDEX/TOTAL with 1 <= INDEX <= TOTAL <= ${maxShards} in digits, such as 2/3`);
  }
  return { index, total };
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
