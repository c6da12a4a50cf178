// Set by jest.fast.config.ts: property tests run a tenth of their cases (test/helpers/runs.ts).
process.env.PROMPT_CONTRACT_FAST = '1';
