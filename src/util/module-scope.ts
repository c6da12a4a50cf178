import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Whether Node reads a `.js` file at `file` as an ES module: its nearest package.json says
 * `"type": "module"`. A package.json that cannot be read or parsed is passed over, as Node's
 * own lookup stops only at one it reads.
 */
export function isModuleScope(file: string): boolean {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    let text: string | undefined;
    try {
      text = readFileSync(join(dir, 'package.json'), 'utf8');
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      try {
        const pkg = JSON.parse(text) as { type?: unknown } | null;
        return typeof pkg === 'object' && pkg !== null && pkg.type === 'module';
      } catch {
        // Node fails on such a file; the importer that follows says so with its place.
        return false;
      }
    }
    if (dirname(dir) === dir) return false;
  }
}
