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
  /** Where the behaviour the rule enforces is documented by a provider, when it comes from one. */
  source?: string;
}

/** What a check reports; `url` defaults to the rule's docs entry and may name a provider's doc instead. */
export type Finding = Omit<Diagnostic, 'ruleId' | 'severity'> & { severity?: Severity };

/** Builds a diagnostic for `rule`: the one place that stamps id, default severity and docs link. */
export function report(rule: RuleMeta, finding: Finding): Diagnostic {
  return { ruleId: rule.id, severity: rule.severity, url: rule.docs, ...finding } as Diagnostic;
}

/** Declares a family's rules in one place, with docs anchors derived from the ids. */
export function defineRules<const K extends string>(
  family: string,
  rules: Record<K, Omit<RuleMeta, 'id' | 'docs'>>,
): Record<K, RuleMeta> {
  const out = {} as Record<K, RuleMeta>;
  for (const key of Object.keys(rules) as K[]) {
    const id = `${family}/${key}`;
    out[key] = { id, docs: `docs/rules/${family}.md#${key}`, ...rules[key] };
  }
  return out;
}
