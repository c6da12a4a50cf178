// Records every module file a Node process loads, worker threads included, to tell which
// packages a command needs:
//   BENCH_LOAD_TRACE=/tmp/loads.txt node -r ./bench/lib/load-trace.cjs dist/cli.js check
// A CommonJS preload (`-r`), because Node 20 runs those in worker threads too, and `--import`
// ones only in the main thread. ES modules are seen by a resolve hook (load-trace-hooks.js,
// registered with module.register in each thread); CommonJS modules, and what jiti loads through
// Node's require cache, are read from that cache when the thread exits. One path or URL a line.
const { appendFileSync } = require('node:fs');
const { register } = require('node:module');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const out = process.env.BENCH_LOAD_TRACE;
if (out) {
  register(pathToFileURL(join(__dirname, 'load-trace-hooks.js')).href, { data: { out } });
  process.on('exit', () => appendFileSync(out, `${Object.keys(require.cache).join('\n')}\n`));
}
