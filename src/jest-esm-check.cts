// Jest's globalSetup, added by promptContractJestConfig(): it runs once, before any test file
// is loaded, so a missing flag is reported in our words instead of a module-loading error.
import vm = require('node:vm');

function checkVmModules(): void {
  if (typeof (vm as { SourceTextModule?: unknown }).SourceTextModule === 'function') return;
  throw new Error(
    [
      "prompt-contract: Jest must run with Node's VM modules turned on, because this package is ES modules only.",
      'Run it as:   node --experimental-vm-modules node_modules/jest/bin/jest.js',
      'or:          NODE_OPTIONS=--experimental-vm-modules npx jest',
      '(put the first in package.json\'s "test" script; `npx prompt-contract init` does).',
    ].join('\n'),
  );
}

export = checkVmModules;
