// Jest's globalSetup, added by promptContractJestConfig(): it runs once, before any test file
// is loaded, so a missing flag is reported in our words instead of a module-loading error.
import vm = require('node:vm');

function checkVmModules(): void {
  if (typeof (vm as { SourceTextModule?: unknown }).SourceTextModule === 'function') return;
  throw new Error(
    [
      "prompt-contract: this Jest config (promptContractJestConfig) is for ES module test files, which Jest runs only with Node's VM modules turned on.",
      'Either run Jest as:   node --experimental-vm-modules node_modules/jest/bin/jest.js   (or NODE_OPTIONS=--experimental-vm-modules)',
      "or drop this config and write the suite as CommonJS, which plain `jest` runs:   const { contractSuite } = require('prompt-contract/jest'); contractSuite();",
    ].join('\n'),
  );
}

export = checkVmModules;
