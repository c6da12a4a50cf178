// Reading the traces of load-trace.cjs: which packages a traced command loaded.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The preload to pass with `-r`, with BENCH_LOAD_TRACE naming the file it appends to. */
export const tracePreload = join(dirname(fileURLToPath(import.meta.url)), 'load-trace.cjs');

/**
 * Package names (`name` or `@scope/name`) in a list of loaded paths and URLs; this repository's
 * own dist/ counts as `prompt-contract`. A package whose only file read is its package.json
 * (a version looked up for a cache key) did not load.
 */
export function packagesOf(lines, ownRoot) {
  const names = new Set();
  for (const line of lines) {
    if (!line || line.endsWith('/package.json')) continue;
    const path = line.startsWith('file://') ? decodeURIComponent(new URL(line).pathname) : line;
    const all = [...path.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)];
    if (all.length > 0) names.add(all.at(-1)[1]);
    else if (ownRoot && path.startsWith(`${ownRoot}/dist/`)) names.add('prompt-contract');
  }
  return [...names].sort();
}
