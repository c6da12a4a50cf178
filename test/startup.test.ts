// What a `check` run loads. Start-up is most of a small project's run, so the packages that
// only some runs need (the Markdown fallback, TypeScript, ajv-formats, the diff library) must
// not load on the demo, which needs none of them. Counting what loads is exact where a
// timing would not be; bench/ measures the time itself.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repo } from './cli/helpers.js';

/** Every file below node_modules that `node ARGS` loads (ES modules and CommonJS alike), as package-relative paths. */
function loadedFiles(args: string[], cwd = repo, env: NodeJS.ProcessEnv = {}): { files: string[]; code: number; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'prompt-contract-loads-'));
  try {
    const hooks = join(dir, 'hooks.mjs');
    const register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      [
        "import { register } from 'node:module';",
        "import Module from 'node:module';",
        "import { appendFileSync } from 'node:fs';",
        `const log = ${JSON.stringify(join(dir, 'loaded.txt'))};`,
        `register(${JSON.stringify(pathToFileURL(hooks).href)}, { data: {} });`,
        // CommonJS (and require of an ES module) goes through Module._load; ES imports through the load hook above.
        'const load = Module._load;',
        "Module._load = function (request, parent, isMain) { try { appendFileSync(log, Module._resolveFilename(request, parent, isMain) + '\\n'); } catch {} return load.apply(this, arguments); };",
        // The packages bundled into dist/prompt-contract.cjs, which the command line runs from: esbuild
        // starts each bundled module on first use through a one-key object named by the module's path,
        // read with `Object.getOwnPropertyNames` as the bundle starts (see its `__esm` and `__commonJS`).
        'const names = Object.getOwnPropertyNames;',
        "Object.getOwnPropertyNames = function (o) { const r = names(o); if (r.length === 1 && typeof r[0] === 'string' && r[0].startsWith('node_modules/')) appendFileSync(log, 'bundle:/' + r[0] + '\\n'); return r; };",
        '',
      ].join('\n'),
    );
    // The load hook runs on a thread of its own: both report through a file.
    writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(${JSON.stringify(join(dir, 'loaded.txt'))}, url + '\\n');\n  return next(url, context);\n}\n`);
    writeFileSync(join(dir, 'loaded.txt'), '');
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
    const text = readFileSync(join(dir, 'loaded.txt'), 'utf8');
    const files = [...new Set(text.split('\n').filter((l) => l.includes('/node_modules/')).map((l) => l.replace(/^.*\/node_modules\//, '')))];
    return { files, code: r.status ?? -1, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const packageOf = (file: string): string => (file.startsWith('@') ? file.split('/').slice(0, 2).join('/') : file.split('/')[0]!);

test('check on the demo loads neither the Markdown fallback, TypeScript, ajv-formats nor the diff library; answered from its cache, not Handlebars either', () => {
  // A cache of its own: with only the handler types in it a run renders every case; with the cases' entries, none.
  const cache = mkdtempSync(join(tmpdir(), 'prompt-contract-startup-cache-'));
  try {
    const packagesOf = (): Set<string> => {
      const { files, code, stderr } = loadedFiles(['dist/cli.js', 'check'], repo, { PROMPT_CONTRACT_CACHE_DIR: cache, PROMPT_CONTRACT_CACHE_STATS: '1' });
      expect({ code, stderr: stderr.replace(/^prompt-contract cache: .*\n/m, '') }).toEqual({ code: 0, stderr: '' });
      return new Set(files.filter((f) => !f.endsWith('/package.json')).map(packageOf));
    };
    // Handler types are generated once (TypeScript loads for that), then the cases' entries are dropped.
    packagesOf();
    for (const entry of readdirSync(cache)) if (entry !== 'handlers') rmSync(join(cache, entry), { recursive: true, force: true });
    expect(readdirSync(cache)).toEqual(['handlers']);
    const cold = packagesOf();
    // What the demo needs: the proof that the trace sees both module systems.
    for (const needed of ['ajv', 'handlebars', 'js-yaml', 'zod', 'jiti', 'commander', 'better-sqlite3']) expect(cold).toContain(needed);
    const unneeded = ['micromark', 'mdast-util-from-markdown', 'remark-parse', 'unified', 'typescript', 'ts-json-schema-generator', 'ajv-formats', 'diff', 'pg'];
    for (const name of unneeded) expect(cold).not.toContain(name);
    const warm = packagesOf();
    // The stored conversations are read on every run: ajv and better-sqlite3 still load.
    for (const needed of ['ajv', 'js-yaml', 'zod', 'jiti', 'commander', 'better-sqlite3']) expect(warm).toContain(needed);
    for (const name of [...unneeded, 'handlebars']) expect(warm).not.toContain(name);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

test('outside Jest, the Markdown fallback is required the first time a text needs it, and reads what remark reads', () => {
  // A setext underline under what may be only a link reference definition: the block scanner hands that region to micromark.
  const text = '- x\n\n[a]: /b\n===\n\n> ```json\n> {"name": "lookup_order", "arguments": {"order_id": "A-1"}}\n> ```\n';
  const script = `import { extractToolCalls } from ${JSON.stringify(pathToFileURL(join(repo, 'dist/index.js')).href)};\nconst r = extractToolCalls(${JSON.stringify(text)});\nprocess.stdout.write(JSON.stringify(r.examples.map((e) => [e.name, e.arguments, e.line])));\n`;
  const dir = mkdtempSync(join(tmpdir(), 'prompt-contract-fallback-'));
  try {
    writeFileSync(join(dir, 'run.mjs'), script);
    const { files, code, stderr } = loadedFiles([join(dir, 'run.mjs')]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    // Required from CommonJS's loader: the package it asks for is logged, not the ES modules that one imports.
    expect(files.map(packageOf)).toContain('mdast-util-from-markdown');
    const r = spawnSync(process.execPath, [join(dir, 'run.mjs')], { encoding: 'utf8' });
    expect(JSON.parse(r.stdout)).toEqual([['lookup_order', { order_id: 'A-1' }, 6]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ajv-formats loads for a format under a property named like a keyword (`default`, `enum`), whatever was compiled before', () => {
  // A fresh process: formats are added to the shared Ajv on the first schema that may use them.
  const script = `import { SchemaCompiler } from ${JSON.stringify(pathToFileURL(join(repo, 'dist/schema/validator.js')).href)};\nconst v = new SchemaCompiler().compile({ type: 'object', properties: { default: { type: 'string', format: 'email' }, enum: { type: 'string', format: 'date' } } });\nprocess.stdout.write(JSON.stringify([v({ default: 'not an email' }), v({ enum: 'not a date' }), v({ default: 'a@b.co', enum: '2026-12-03' })]));\n`;
  const dir = mkdtempSync(join(tmpdir(), 'prompt-contract-formats-'));
  try {
    writeFileSync(join(dir, 'run.mjs'), script);
    const r = spawnSync(process.execPath, [join(dir, 'run.mjs')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([false, false, true]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
