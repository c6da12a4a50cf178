/** Findings shared by `check` and the contract suite: snapshot results as findings, and the config's notations as options. */
import type { Diagnostic } from '../report/diagnostic.js';
import type { NotationDefinition } from '../extract/notation.js';
import { exampleRules } from '../extract/rules.js';
import { report } from '../report/rule.js';
import { snapshotRules } from '../snapshot/rules.js';
import { foreignMessage, type SnapshotResult } from '../snapshot/state.js';

/** What to do about each snapshot finding (docs/rules/snapshot.md). */
export const SNAPSHOT_FIX = {
  outdated: 'Review the diff; if the change is intended, run your test command with `-u` and commit the snapshot with the change',
  missing: 'Run your test command with `-u`, read the new file and commit it',
  obsolete: 'Run your test command with `-u` to remove it, and commit the removal',
  foreign: 'Give the snapshots a folder of their own, or move the file out of it',
  interrupted: 'Run your test command with `-u` to remove it, or delete it by hand',
} as const;

/**
 * What a snapshot comparison found, as the findings `check` reports: a missing or foreign file
 * is `snapshot/missing`, a difference `snapshot/outdated` with the diff as detail. `what`
 * names the prompt and case; without it, the result is the tools baseline's.
 */
export function snapshotFindings(result: SnapshotResult, what?: { prompt: string; case: string }): Diagnostic[] {
  const name = what === undefined ? undefined : `\`${what.prompt}\` case \`${what.case}\``;
  switch (result.status) {
    case 'missing':
      return [report(snapshotRules.missing, { message: name === undefined ? 'No tools baseline; run your test command with `-u` to write it, then commit it' : `No snapshot for ${name}; run your test command with \`-u\` to write it, then review and commit it`, file: result.file, fix: SNAPSHOT_FIX.missing })];
    case 'foreign':
      return [report(snapshotRules.missing, { message: `${name === undefined ? 'No tools baseline' : `No snapshot for ${name}`}: ${foreignMessage(result)}`, file: result.file, fix: SNAPSHOT_FIX.foreign })];
    case 'mismatch': {
      const message = name === undefined ? 'The tool definitions differ from the baseline; review the diff, then run your test command with `-u` to accept it' : `The rendered prompt ${name} differs from its snapshot; review the diff, then run your test command with \`-u\` to accept it`;
      return [report(snapshotRules.outdated, { message, file: result.file, ...(result.line === undefined ? {} : { line: result.line }), fix: SNAPSHOT_FIX.outdated, ...(result.diff === undefined ? {} : { detail: result.diff }) })];
    }
    default:
      return [];
  }
}

/** What the extractor read, summed over the cases (`example/coverage` infos), and the findings without them. */
export function splitCoverage(diagnostics: readonly Diagnostic[]): { found: Diagnostic[]; summary: string | undefined } {
  const found: Diagnostic[] = [];
  let cases = 0;
  let calls = 0;
  const notations = new Set<string>();
  let unread = 0;
  for (const d of diagnostics) {
    if (d.ruleId === COVERAGE_RULE) {
      const read = d.actual as { calls?: unknown; notations?: unknown } | undefined;
      cases++;
      if (typeof read?.calls === 'number') calls += read.calls;
      if (Array.isArray(read?.notations)) for (const n of read.notations) if (typeof n === 'string') notations.add(n);
      continue;
    }
    if (d.ruleId === UNREAD_RULE) unread++;
    found.push(d);
  }
  if (cases === 0) return { found, summary: undefined };
  const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  const how = notations.size === 0 ? '' : ` in ${plural(notations.size, 'notation', 'notations')} (${[...notations].sort().join(', ')})`;
  const missed = unread === 0 ? 'every call-like mention of a known tool was read' : `${plural(unread, 'call-like mention', 'call-like mentions')} of known tools not read (example/unread-call)`;
  return { found, summary: `Read ${plural(calls, 'tool call', 'tool calls')} in ${plural(cases, 'case', 'cases')}${how}; ${missed}.` };
}

const COVERAGE_RULE = exampleRules.coverage.id;
const UNREAD_RULE = exampleRules['unread-call'].id;

/** The config's custom notations, as options for the example checks. */
export function notationsOf(config: { notations?: readonly NotationDefinition<any>[] }): { notations?: readonly NotationDefinition<any>[] } {
  return config.notations && config.notations.length > 0 ? { notations: config.notations } : {};
}
