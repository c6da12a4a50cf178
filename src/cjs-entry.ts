// The CommonJS bundle's entry (scripts/bundle.mjs): the public API, the Jest entry and the Jest
// config helper, for projects whose Jest runs without Node's VM modules and can only `require`.
export * from './index.js';
export { contractSuite, promptMatchers } from './jest.js';
export { promptContractJestConfig } from './jest-config.js';
// The command line, which cli.ts starts from this bundle.
export { runCli } from './cli-main.js';
