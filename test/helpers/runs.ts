// Property tests run their full number of cases in `npm test`; `npm run test:fast` (which sets
// PROMPT_CONTRACT_FAST) runs a tenth of them, still with the same generators and properties.
const fast = (): boolean => process.env.PROMPT_CONTRACT_FAST === '1';

export const runs = (n: number): number => (fast() ? Math.max(20, Math.ceil(n / 10)) : n);

/**
 * The length of a hostile input that a linear reader must get through: whole in `npm test`, an
 * eighth in `npm run test:fast`. At an eighth, a reader that rescans the text per place may only
 * make the test slow; at the full length (64 times the work) it fails on the time limit, and
 * that is what `npm test` and CI run.
 */
export const hostileLength = (n: number): number => (fast() ? Math.ceil(n / 8) : n);

/**
 * The rows of a table whose every row checks a whole project more than once: all of them in
 * `npm test`, every third (the first included) in `npm run test:fast`.
 */
export const sample = <T>(rows: readonly T[]): T[] => (fast() ? rows.filter((_, i) => i % 3 === 0) : [...rows]);
