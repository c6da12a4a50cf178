import { createRequire } from 'node:module';
import type HandlebarsLib from 'handlebars';

let loaded: typeof HandlebarsLib | undefined;

/**
 * Handlebars, loaded on first use. Every module of the package is reachable from the config's
 * `import 'prompt-contract'`, and importing Handlebars costs about as much as a small render:
 * a `check` answered from its cache, `validate`, `lint` and `diff` render nothing and never load it.
 */
export function handlebars(): typeof HandlebarsLib {
  loaded ??= createRequire(import.meta.url)('handlebars') as typeof HandlebarsLib;
  return loaded;
}
