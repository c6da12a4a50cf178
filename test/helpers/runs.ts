// Property tests run their full number of cases in `npm test`; `npm run test:fast` (which sets
// PROMPT_CONTRACT_FAST) runs a tenth of them, still with the same generators and properties.
export const runs = (n: number): number => (process.env.PROMPT_CONTRACT_FAST === '1' ? Math.max(20, Math.ceil(n / 10)) : n);
