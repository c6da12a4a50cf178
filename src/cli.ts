#!/usr/bin/env node
// The `prompt-contract` command. The command line runs from the package's CommonJS bundle
// (dist/prompt-contract.cjs, scripts/bundle.mjs), loaded with V8's code cache (util/code-cache.ts):
// one file compiled once rather than a hundred modules compiled on every run. The config's
// `import ... from 'prompt-contract'` then gets the same loaded bundle (config/index.ts,
// defaultImporter), not a second copy of the package. The ES modules in dist/ serve when the
// bundle is missing (a build by `tsc` alone).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheRoot } from './util/cache-folder.js';
import { loadWithCodeCache } from './util/code-cache.js';

type CommandLine = typeof import('./cli-main.js');

const bundle = fileURLToPath(new URL('./prompt-contract.cjs', import.meta.url));
const argv = process.argv.slice(2);
if (existsSync(bundle)) {
  // `--no-cache` reads and writes no cache of any kind.
  const root = argv.includes('--no-cache') ? undefined : cacheRoot(process.cwd());
  const loaded = loadWithCodeCache<CommandLine>(bundle, root === undefined ? undefined : join(root, 'code'));
  await loaded.exports.runCli(argv);
  loaded.save();
} else {
  await (await import('./cli-main.js')).runCli(argv);
}
