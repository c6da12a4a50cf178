import { summarize } from '../../report/diagnostic.js';
import type { ToolSpec } from '../../tools/types.js';
import { lintTools } from './lint.js';
import type { ProviderName } from './profiles.js';

export interface ToolSet {
  name: string;
  tools: readonly ToolSpec[];
}

const cell = (errors: number, warnings: number): string =>
  errors === 0 && warnings === 0 ? 'ok' : [errors ? `${errors} E` : '', warnings ? `${warnings} W` : ''].filter(Boolean).join(', ');

/**
 * A markdown table of error and warning counts: one row a tool set, one column a provider,
 * then the most frequent rule ids for each provider. Infos are left out of the counts.
 */
export function formatLintMatrix(sets: readonly ToolSet[], providers: readonly ProviderName[], top = 3): string {
  const byRule = new Map<ProviderName, Map<string, number>>(providers.map((p) => [p, new Map()]));
  const lines = [
    `| tool set (tools) | ${providers.map((p) => `\`${p}\``).join(' | ')} |`,
    `|---|${providers.map(() => '---').join('|')}|`,
  ];
  for (const set of sets) {
    const cells = providers.map((provider) => {
      const diagnostics = lintTools(set.tools, provider).filter((d) => d.severity !== 'info');
      const counts = byRule.get(provider) as Map<string, number>;
      for (const d of diagnostics) counts.set(d.ruleId, (counts.get(d.ruleId) ?? 0) + 1);
      const { errors, warnings } = summarize(diagnostics);
      return cell(errors, warnings);
    });
    lines.push(`| ${set.name} (${set.tools.length}) | ${cells.join(' | ')} |`);
  }
  lines.push('', 'Most common rules (errors and warnings) per provider:', '');
  for (const provider of providers) {
    const ranked = [...(byRule.get(provider) as Map<string, number>)].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const text = ranked.length === 0 ? 'none' : ranked.slice(0, top).map(([id, n]) => `\`${id}\` ${n}`).join(', ');
    lines.push(`- \`${provider}\`: ${text}`);
  }
  return `${lines.join('\n')}\n`;
}
