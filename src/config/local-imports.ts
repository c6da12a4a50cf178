/**
 * The config is loaded by an importer (jiti, or Node's own) that reads each module it imports
 * with a plain read: a named pipe among them would keep the run waiting for a writer forever.
 * Before the import, the config's own local modules (relative and absolute specifiers, followed
 * from file to file) are looked up as the importer would find them, and one that exists but is
 * not a regular file is refused, naming the file and line that import it. Packages are left
 * alone: they are installed, not written by the user. The scan reads only static specifiers
 * (`import ... from`, `export ... from`, `import('...')`, `require('...')`); a comment that looks
 * like one costs a lookup and nothing more.
 */
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import { InputError } from '../util/errors.js';
import { pathKind, readRegularFileSync } from '../util/files.js';
import { LineIndex } from '../util/lines.js';

const specifiers = /\b(?:from|import|require)\s*\(?\s*(['"])([^'"\n]+)\1/g;
const codeExtensions = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** How far the scan follows a config's own modules: a config imports a handful. */
const MAX_FILES = 500;

/** Where a specifier may lead, in the order a TypeScript-aware importer tries them. */
function candidates(from: string, specifier: string): string[] {
  const base = isAbsolute(specifier) ? specifier : resolve(dirname(from), specifier);
  const out = [base];
  const ext = extname(base);
  // `./tools.js` written for a `./tools.ts` source, as TypeScript's NodeNext resolution wants.
  if (ext === '.js' || ext === '.jsx') out.push(`${base.slice(0, -ext.length)}.ts`, `${base.slice(0, -ext.length)}.tsx`);
  if (ext === '.mjs') out.push(`${base.slice(0, -4)}.mts`);
  if (ext === '.cjs') out.push(`${base.slice(0, -4)}.cts`);
  for (const e of [...codeExtensions, '.json']) out.push(`${base}${e}`);
  for (const e of codeExtensions) out.push(resolve(base, `index${e}`));
  return out;
}

/**
 * Refuses a module the config at `configFile` imports, directly or through its own modules,
 * that exists but is not a regular file (a named pipe, a device). A module that cannot be
 * found is left to the importer, whose error names it.
 */
export function checkLocalImports(configFile: string, shown: (file: string) => string): void {
  walkLocalImports(configFile, shown);
}

/**
 * The config's own modules, the config first, as `checkLocalImports` finds them (and refusing
 * what it refuses): a test runner's importer asks whether any is TypeScript.
 */
export function localModules(configFile: string): string[] {
  return walkLocalImports(configFile, (file) => file);
}

function walkLocalImports(configFile: string, shown: (file: string) => string): string[] {
  const queue = [configFile];
  const seen = new Set(queue);
  while (queue.length > 0 && seen.size <= MAX_FILES) {
    const file = queue.shift()!;
    let text: string;
    try {
      text = readRegularFileSync(file);
    } catch {
      // The config itself was checked before; another unreadable module is the importer's to report.
      continue;
    }
    let lines: LineIndex | undefined;
    for (const m of text.matchAll(specifiers)) {
      const specifier = m[2]!;
      if (!specifier.startsWith('.') && !isAbsolute(specifier)) continue;
      for (const path of candidates(file, specifier)) {
        const kind = pathKind(path);
        if (kind === 'none' || kind === 'a directory') continue;
        if (kind !== 'file') {
          lines ??= new LineIndex(text);
          const at = lines.at(m.index! + m[0].indexOf(specifier));
          throw new InputError('config/load-failed', `Cannot load the config: \`${specifier}\` leads to ${shown(path)}, which is ${kind}, not a regular file; expected a module you wrote`, { file: shown(file), line: at.line, column: at.column });
        }
        if (codeExtensions.includes(extname(path)) && !seen.has(path)) {
          seen.add(path);
          queue.push(path);
        }
        break;
      }
    }
  }
  return [...seen];
}
