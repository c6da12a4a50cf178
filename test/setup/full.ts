// `npm test` runs every property case, every table row and every hostile input at full length,
// whatever the shell exports: jest.fast.config.ts sets PROMPT_CONTRACT_FAST after this file.
delete process.env.PROMPT_CONTRACT_FAST;
