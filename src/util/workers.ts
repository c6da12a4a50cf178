import { InputError } from './errors.js';

/**
 * The thread count `PROMPT_CONTRACT_WORKERS` asks for, for a run given none: a whole number
 * of at least 1, or unset, empty or `auto` (undefined: decide by cores and size).
 */
export function workersFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const value = env.PROMPT_CONTRACT_WORKERS?.trim();
  if (value === undefined || value === '' || value === 'auto') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InputError('config/invalid', `Invalid PROMPT_CONTRACT_WORKERS=${JSON.stringify(value)}; expected a whole number of at least 1, or \`auto\``);
  return n;
}
