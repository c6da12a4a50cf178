// Builds dist/prompt-contract.cjs: one CommonJS file holding the public API, the Jest entry and
// the Jest config helper, with the ES-module-only dependencies (unified, remark, micromark, ...)
// bundled in. Jest without `--experimental-vm-modules` can only `require`, so `require`
// (and the Jest entry, in both module systems) lands here. Run after tsc (`npm run build`).
//
// Each module of ours reads `import.meta.url` to find files beside it (worker scripts,
// package.json, docs); in one bundled file that would be empty, so it becomes the address of
// the same module's ES build in dist/, which sits beside this file.
import { build } from 'esbuild';
import { readFile, writeFile } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const outfile = `${dist}prompt-contract.cjs`;

/** Packages loaded only when a config needs them (optional peers), and jiti, loaded lazily: never bundled. */
const external = ['better-sqlite3', 'pg', 'typescript', 'ts-json-schema-generator', 'jiti', 'vitest', '@jest/globals', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', '@huggingface/tokenizers', 'gpt-tokenizer', 'gpt-tokenizer/*'];

const importMetaUrl = {
  name: 'import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta')) return undefined;
      const own = args.path.startsWith(dist) && !args.path.includes(`${sep}node_modules${sep}`);
      const url = own ? `__pcModuleUrl(${JSON.stringify(relative(dist, args.path).split(sep).join('/'))})` : '__pcBundleUrl';
      return { contents: text.replaceAll('import.meta.url', url), loader: 'js' };
    });
  },
};

const result = await build({
  entryPoints: [`${dist}cjs-entry.js`],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile,
  external,
  plugins: [importMetaUrl],
  // Jest without VM modules has no `import()`: every one (Node's own modules, optional
  // packages) becomes a `require`.
  supported: { 'dynamic-import': false },
  // The Jest entry takes its CommonJS path whatever flags Node runs with.
  define: { __PROMPT_CONTRACT_CJS__: 'true' },
  banner: {
    js: [
      '"use strict";',
      'const __pcBundleUrl = require("node:url").pathToFileURL(__filename).href;',
      'const __pcModuleUrl = (path) => require("node:url").pathToFileURL(require("node:path").join(__dirname, path)).href;',
    ].join('\n'),
  },
  logLevel: 'warning',
  legalComments: 'none',
  metafile: true,
});
const bundled = await readFile(outfile, 'utf8');
const dynamicImport = bundled.split('\n').findIndex((line) => !/^\s*(\/\/|\*)/.test(line) && /(?<![.\w$])import\(/.test(line));
if (dynamicImport !== -1) throw new Error(`import() left in the CommonJS bundle, line ${dynamicImport + 1}`);
const leftover = result.warnings.filter((w) => w.text.includes('import.meta'));
if (leftover.length > 0) throw new Error(`import.meta left in the CommonJS bundle: ${leftover.map((w) => w.location?.file).join(', ')}`);

// The bundle is kept to ASCII. esbuild escapes what it writes in strings, but leaves comments
// and some regular expression literals of the bundled packages as they were; a single character
// beyond ASCII makes Node read the whole file as a string of two-byte characters, so that the
// command line reads and compiles twice the bytes on every start. In a comment, a string, a
// regular expression or a template, a `\uXXXX` escape of each UTF-16 unit means the same; only a
// tagged template (`String.raw`) would see the difference, so a line of code with a backtick is refused.
const lines = bundled.split('\n');
const tagged = lines.findIndex((line) => /[^\x00-\x7f]/.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line) && line.includes('`'));
if (tagged !== -1) throw new Error(`a character beyond ASCII on a line with a template literal in the CommonJS bundle, line ${tagged + 1}`);
if (lines.some((line) => /[^\x00-\x7f]/.test(line))) await writeFile(outfile, bundled.replace(/[^\x00-\x7f]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`));
