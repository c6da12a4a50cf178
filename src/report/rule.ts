import { readFileSync } from 'node:fs';
import type { Diagnostic, Severity } from './diagnostic.js';

/** A rule is metadata; checks stamp its id and default severity onto what they report. */
export interface RuleMeta {
  /** `family/name`, e.g. `compat/maximum-decreased`. */
  id: string;
  severity: Severity;
  /** One sentence: what the rule finds and why it matters. */
  description: string;
  /** Where the rule's docs entry lives, relative to the repository root. */
  docs: string;
  /** The docs entry as an absolute URL: the repository at this version, or the installed package's own file (see `rulesDocsBase`). */
  url: string;
  /** What to do about a finding, in general; a check that knows the specific change says that instead. */
  fix?: string;
  /** Where the behaviour the rule enforces is documented by a provider, when it comes from one. */
  source?: string;
}

/** What a check reports; `url` defaults to the rule's docs entry and may name a provider's doc instead. */
export type Finding = Omit<Diagnostic, 'ruleId' | 'severity'> & { severity?: Severity };

/** Builds a diagnostic for `rule`: the one place that stamps id, default severity, docs link and the rule's general fix. */
export function report(rule: RuleMeta, finding: Finding): Diagnostic {
  const d = { ruleId: rule.id, severity: rule.severity, url: rule.url, ...finding } as Diagnostic;
  if (d.url === undefined) d.url = rule.url;
  if (d.fix === undefined && rule.fix !== undefined) d.fix = rule.fix;
  return d;
}

/** The fields of package.json that say where the sources are published. */
export interface PackageLinks {
  version?: unknown;
  homepage?: unknown;
  repository?: unknown;
}

const hosts: Record<string, string> = { github: 'https://github.com', gitlab: 'https://gitlab.com', bitbucket: 'https://bitbucket.org' };

/** A repository or homepage as written in package.json (`github:o/r`, `o/r`, `git+https://...git`, `git@host:o/r.git`) as an https URL, or undefined. */
export function webUrl(value: string): string | undefined {
  const text = value.trim();
  const short = /^(?:(github|gitlab|bitbucket):)?([\w.-]+\/[\w.-]+)$/.exec(text);
  if (short) return `${hosts[short[1] ?? 'github']}/${short[2]!.replace(/\.git$/, '')}`;
  let url = text.replace(/^git\+/, '').replace(/^git@([^:/]+):/, 'https://$1/').replace(/^(?:git|ssh):\/\/(?:[^@/]+@)?/, 'https://');
  url = url.replace(/#.*$/, '').replace(/\/+$/, '').replace(/\.git$/, '');
  return /^https?:\/\/[^/\s]+\/\S*$/.test(url) ? url : undefined;
}

/**
 * Where rule docs are linked from: `<repository>/blob/v<version>/docs/rules/` when package.json
 * names a repository (or else a homepage), so a link shows the docs of the version that made
 * the finding; otherwise the docs folder shipped in the installed package, as a `file://` URL.
 */
export function rulesDocsBase(pkg: PackageLinks | undefined, localDocs: URL): string {
  const repository = pkg?.repository;
  const repoUrl = typeof repository === 'string' ? repository : typeof (repository as { url?: unknown } | undefined)?.url === 'string' ? (repository as { url: string }).url : undefined;
  const directory = typeof (repository as { directory?: unknown } | undefined)?.directory === 'string' ? `${(repository as { directory: string }).directory.replace(/^\/+|\/+$/g, '')}/` : '';
  const fromRepo = repoUrl === undefined ? undefined : webUrl(repoUrl);
  const base = fromRepo ?? (typeof pkg?.homepage === 'string' ? webUrl(pkg.homepage) : undefined);
  if (base !== undefined && typeof pkg?.version === 'string' && pkg.version !== '') {
    return `${base}/blob/v${pkg.version}/${fromRepo === undefined ? '' : directory}docs/rules/`;
  }
  return localDocs.href;
}

let docsBase: string | undefined;

/** This package's docs base (see `rulesDocsBase`): src/report and dist/report both sit two levels below the package root. */
function ownDocsBase(): string {
  if (docsBase !== undefined) return docsBase;
  let pkg: PackageLinks | undefined;
  try {
    pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageLinks;
  } catch {
    pkg = undefined;
  }
  return (docsBase = rulesDocsBase(pkg, new URL('../../docs/rules/', import.meta.url)));
}

/** Declares a family's rules in one place, with docs anchors and absolute docs URLs derived from the ids. */
export function defineRules<const K extends string>(
  family: string,
  rules: Record<K, Omit<RuleMeta, 'id' | 'docs' | 'url'>>,
): Record<K, RuleMeta> {
  const out = {} as Record<K, RuleMeta>;
  for (const key of Object.keys(rules) as K[]) {
    const id = `${family}/${key}`;
    out[key] = { id, docs: `docs/rules/${family}.md#${key}`, url: `${ownDocsBase()}${family}.md#${key}`, ...rules[key] };
  }
  return out;
}
