import { readFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { Diagnostic } from '../report/diagnostic.js';
import { defineRules, report } from '../report/rule.js';
import { walkFolder } from '../util/walk.js';
import { CODE_PROMPT_FILE } from './code.js';

/** Files in the prompts folder that are named like ones prompt-contract reads, and are not read. */
export const unreadFileRules = defineRules('config', {
  'unread-file': {
    severity: 'warning',
    description:
      'A file in the prompts folder is named like a prompt, a cases file or an examples or stubs file, but nothing reads it: a prompt under a name that is not read has no snapshot and no checks, and cases or examples in the wrong place are dropped in silence.',
    fix: 'Rename or move the file as the message suggests (or name it in the prompt that needs it); a file that is not meant for prompt-contract belongs outside the prompts folder',
  },
});

const rule = unreadFileRules['unread-file'];

/** Template-like extensions after `.prompt` that the author meant as a `.prompt` template. */
const TEMPLATE_LIKE = /^(?:ya?ml|md|markdown|txt|hbs|handlebars|mustache|j2|jinja2?|tmpl|tpl)$/i;
const YAML = /\.ya?ml$/i;
const CODE_EXTENSIONS = ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'];
/** Data a folder of YAML files could hold in another notation: also not read there. */
const DATA = /\.(?:ya?ml|json5?|jsonc|toml)$/i;

interface Candidate {
  path: string;
  /** Why it is not read and what is read instead, after "`file` is not read: ". */
  why: string;
  /** The name it was likely meant to have, for "did you mean". */
  meant?: string;
  /** A data file may be read because a prompt or a prompt module names it: look for its name first. */
  namedElsewhere: boolean;
}

/** The last extension (without the dot) when `name` has one that is not the whole name. */
const extension = (name: string): string | undefined => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1) : undefined;
};

/** One letter added, dropped or changed, or letters swapped: `promt`, `propmt`, `example`, `ymal` (not `stuff` for `stubs`). */
function near(word: string, target: string): boolean {
  const w = word.toLowerCase();
  if (w === target || w === '') return false;
  if (w.length === target.length && [...w].sort().join('') === [...target].sort().join('')) return true;
  if (Math.abs(w.length - target.length) > 1) return false;
  const [short, long] = w.length <= target.length ? [w, target] : [target, w];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  // After the first difference the rest agrees: skipping one letter of the longer, or one of each.
  return short.slice(i) === long.slice(i + 1) || (short.length === long.length && short.slice(i + 1) === long.slice(i + 1));
}

/** What the file's name says it was meant to be, when the loader does not read it; undefined for a file that is read or that is not ours. */
function candidate(root: string, path: string): Candidate | undefined {
  const rel = relative(root, path).split(sep);
  const name = rel.at(-1)!;
  const folder = rel.length > 1 ? rel[0]! : undefined;
  if (name.endsWith('.prompt') || CODE_PROMPT_FILE.test(name)) return undefined;
  const at = (file: string): string => [...rel.slice(0, -1), file].join('/');

  // `refund.prompt.yaml`, `refund.prompt.md`, `refund.prompt.tsx`: the part after `.prompt` makes it no prompt.
  const afterPrompt = /^(.+)\.prompt\.([^.]+)$/i.exec(name);
  if (afterPrompt) {
    const [, base, ext] = afterPrompt as unknown as [string, string, string];
    if (TEMPLATE_LIKE.test(ext)) return { path, why: 'prompts are `.prompt` templates (YAML frontmatter, Handlebars body) or prompt modules (`.prompt.ts`, `.prompt.js`, ...)', meant: at(`${base}.prompt`), namedElsewhere: true };
    // `.tsx`, `.jsx`, `.TS`: a prompt module's extension, mistyped (`.json` is data, not code).
    const code = DATA.test(name) ? undefined : CODE_EXTENSIONS.find((c) => ext.toLowerCase() === c || (ext.length === c.length + 1 && ext.toLowerCase().startsWith(c)));
    if (code !== undefined) return { path, why: 'prompt modules end in `.prompt.ts`, `.mts`, `.cts`, `.js`, `.mjs` or `.cjs`', meant: at(`${base}.prompt.${code}`), namedElsewhere: false };
    if (DATA.test(name)) return { path, why: 'prompts are `.prompt` templates (YAML frontmatter, Handlebars body) or prompt modules (`.prompt.ts`, `.prompt.js`, ...)', namedElsewhere: true };
  }
  // `refund.promt`, `refund.Prompt`, `refund.prompts`, `refund.promt.ts`: a misspelled `.prompt`.
  const parts = name.split('.');
  for (let i = parts.length - 1; i >= 1 && i >= parts.length - 2; i--) {
    const ext = parts[i]!;
    if (ext === 'prompt' || !(ext.toLowerCase() === 'prompt' || near(ext, 'prompt'))) continue;
    const rest = parts.slice(i + 1);
    if (rest.length > 0 && !CODE_PROMPT_FILE.test(`x.prompt.${rest.join('.')}`)) continue;
    const fixed = [...parts.slice(0, i), 'prompt', ...rest].join('.');
    return { path, why: rest.length === 0 ? 'templates end in `.prompt`' : 'prompt modules end in `.prompt.ts` (or `.js`, ...)', meant: at(fixed), namedElsewhere: false };
  }
  // `_partial.hbs`: a partial is a `.prompt` file whose name starts with `_`.
  if (/^_.+\.(?:hbs|handlebars)$/i.test(name)) return { path, why: 'partials are `.prompt` files whose name starts with `_`', meant: at(name.replace(/\.(?:hbs|handlebars)$/i, '.prompt')), namedElsewhere: true };

  if (folder === 'cases') {
    if (YAML.test(name)) return undefined;
    if (DATA.test(name) || near(extension(name) ?? '', 'yaml') || near(extension(name) ?? '', 'yml')) {
      return { path, why: 'cases files are YAML (`.yaml` or `.yml`)', meant: at(name.replace(/\.[^.]+$/, '.yaml')), namedElsewhere: false };
    }
    return undefined;
  }
  // `cases.yaml` beside the prompts, or `case/refund.yaml`: cases are read from the `cases/` folder only.
  if (YAML.test(name) && (/^cases?\.ya?ml$/i.test(name) || (folder !== undefined && (folder.toLowerCase() === 'case' || near(folder, 'cases') || (folder !== 'cases' && folder.toLowerCase() === 'cases'))))) {
    return { path, why: 'cases files are read from the `cases/` folder of the prompts folder only', meant: ['cases', name].join('/'), namedElsewhere: true };
  }
  // Examples and stubs are read where a prompt names them (`examples: { file: ... }`): one in their folder, or a folder named like theirs, that no prompt names is read by nothing.
  for (const kind of ['examples', 'stubs'] as const) {
    if (folder === undefined || !DATA.test(name)) continue;
    const exact = folder === kind;
    if (!exact && !(folder.toLowerCase() === kind || folder.toLowerCase() === kind.slice(0, -1) || near(folder, kind))) continue;
    const key = kind === 'examples' ? '`examples: { file: ... }`' : '`retrieval: { file: ... }`';
    return { path, why: `no prompt names it (a prompt reads its ${kind} from the file its frontmatter's ${key} names, or a prompt module's \`${kind === 'examples' ? 'examples' : 'stubs'}\`)`, ...(exact ? {} : { meant: [kind, ...rel.slice(1)].join('/') }), namedElsewhere: true };
  }
  return undefined;
}

/**
 * Files in the prompts folder that are named like something prompt-contract reads and are not
 * read (see docs/rules/config.md#unread-file). Only names are looked at, and a data file is let
 * go when a prompt, a prompt module or the config mentions its name (a prompt module names its
 * files in code, read only when it renders): a warning is never wrong about a file that is read.
 * A folder that cannot be walked gives none: the loader reports why it cannot read it.
 */
export function unreadPromptFiles(root: string, options: { projectRoot: string; display: (path: string) => string; config?: string }): Diagnostic[] {
  let files: string[];
  try {
    files = walkFolder(root, { within: [options.projectRoot], skip: (name) => name.startsWith('.') || name === 'node_modules', what: 'the prompts folder' })
      .filter((entry) => entry.kind === 'file')
      .map((entry) => entry.path);
  } catch {
    return [];
  }
  const found = files.map((path) => candidate(root, path)).filter((c): c is Candidate => c !== undefined);
  if (found.length === 0) return [];
  // A `.prompt` file names its data files by their path from its own folder; code and the config may build a path, so there the file's name is enough.
  let texts: Array<{ file: string; text: string; byPath: boolean }> | undefined;
  const mentioned = (path: string): boolean => {
    texts ??= [...files.filter((f) => f.endsWith('.prompt') || CODE_PROMPT_FILE.test(f)), ...(options.config === undefined ? [] : [options.config])].map((file) => {
      let text = '';
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        // Unreadable: the loader says so.
      }
      return { file, text, byPath: file.endsWith('.prompt') };
    });
    return texts.some(({ file, text, byPath }) => text.includes(byPath ? relative(dirname(file), path).split(sep).join('/') : basename(path)));
  };
  return found
    .filter((c) => !(c.namedElsewhere && mentioned(c.path)))
    .map((c) => {
      const shown = options.display(c.path);
      const meant = c.meant === undefined ? '' : `; did you mean \`${options.display(join(root, ...c.meant.split('/')))}\`?`;
      return report(rule, { message: `Unexpected file \`${shown}\` in the prompts folder, not read: ${c.why}${meant}`, file: shown });
    });
}
