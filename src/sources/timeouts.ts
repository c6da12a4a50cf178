import { InputError } from '../util/errors.js';

// Below persisted.ts, postgres.ts and sqlite.ts alike: the readers import these, and
// persisted.ts imports the readers, so keeping them there made an import circle.

/** The default of a persisted source's `timeoutMs`. */
export const defaultTimeoutMs = 60_000;

/** The source's `timeoutMs`, checked: a whole number of milliseconds from 1 to 2^31 - 1. */
export function timeoutMsOf(source: { name: string; timeoutMs?: number }): number {
  const value = source.timeoutMs;
  if (value === undefined) return defaultTimeoutMs;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 2_147_483_647) {
    throw new InputError('config/invalid', `Persisted source \`${source.name}\`: \`timeoutMs\` is ${JSON.stringify(value)}; expected a whole number of milliseconds from 1 to 2147483647`);
  }
  return value;
}

/** `1500` -> `1.5 s`, `200` -> `200 ms`: a duration for messages. */
export function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(3))} s`;
}
