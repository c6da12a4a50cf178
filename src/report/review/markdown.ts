import { summarize, type Diagnostic, type Severity } from '../diagnostic.js';
import { markdownCode, sortDiagnostics } from '../format.js';
import { inertLines } from '../inert.js';
import { lineChanges, type LineChanges } from './diff.js';
import type { CaseReview, Review, TokenCount, ToolChange } from './types.js';

/** GitHub's limit on a pull-request comment and on a step summary's part, in characters. */
export const GITHUB_COMMENT_LIMIT = 65_536;

/** How much each part of the page may show; lowered step by step until the page fits. */
interface Caps {
  diffLines: number;
  caseFindings: number;
  findingRows: number;
  descriptions: number;
  cases: number;
}

const STEPS: Caps[] = [
  { diffLines: 400, caseFindings: 20, findingRows: 500, descriptions: 200, cases: Infinity },
  { diffLines: 120, caseFindings: 10, findingRows: 200, descriptions: 100, cases: Infinity },
  { diffLines: 40, caseFindings: 5, findingRows: 100, descriptions: 50, cases: Infinity },
  { diffLines: 12, caseFindings: 3, findingRows: 50, descriptions: 20, cases: 200 },
  { diffLines: 0, caseFindings: 0, findingRows: 20, descriptions: 10, cases: 100 },
  { diffLines: 0, caseFindings: 0, findingRows: 10, descriptions: 5, cases: 30 },
  { diffLines: 0, caseFindings: 0, findingRows: 0, descriptions: 0, cases: 0 },
];

const mark: Record<Severity, string> = { error: '❌', warning: '⚠️', info: 'ℹ️' };

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

const number = (n: number): string => n.toLocaleString('en-US');

/** `1,204 → 1,260 (+56)`; `—` for a count that is not known. */
export function tokenDelta(tokens: { before?: TokenCount; after?: TokenCount }): string {
  const { before, after } = tokens;
  if (before === undefined && after === undefined) return '—';
  const show = (t: TokenCount | undefined): string => (t === undefined ? '—' : `${number(t.total)}${t.exact ? '' : '~'}`);
  if (before === undefined || after === undefined) return `${show(before)} → ${show(after)}`;
  const d = after.total - before.total;
  return `${show(before)} → ${show(after)} (${d > 0 ? '+' : d < 0 ? '−' : '±'}${number(Math.abs(d))})`;
}

/** Each case's diff, made once (shared with the html page): the page is laid out again at each smaller size until it fits. */
const diffs = new WeakMap<CaseReview, LineChanges>();
export function changesOf(c: CaseReview): LineChanges {
  let known = diffs.get(c);
  // A case that could not render has no text to compare: its baseline is not shown as removed.
  if (known === undefined) diffs.set(c, (known = c.status === 'failed' ? { added: 0, removed: 0, hunks: [] } : lineChanges(c.before, c.after)));
  return known;
}

const statusWord: Record<CaseReview['status'], string> = { changed: 'changed', added: 'new', unchanged: 'unchanged', failed: 'could not render' };

/** A code fence longer than any run of backticks in `text`. */
function fenceFor(text: string): string {
  return '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
}

/** The cases shown with a case's section: those whose diff is the same (a shared partial edited), the token line aside. */
const SAME_CHANGE_NAMED = 10;

/** What a case's diff changes: its removed and added lines, without where (line numbers, context) and without the header's token count, which differs case by case. */
function changeKey(c: CaseReview): string {
  if (c.status !== 'changed') return `${c.status}\u0000${c.prompt}\u0000${c.case}`;
  return changesOf(c).hunks.map((h) => h.lines.filter((l) => !l.startsWith(' ') && !/^[-+]tokens: /.test(l)).join('\n')).join('\n@@\n');
}

/** Changed cases grouped by the change they show, in the order of their first case. */
export function groupByChange(cases: readonly CaseReview[]): CaseReview[][] {
  const groups = new Map<string, CaseReview[]>();
  for (const c of cases) {
    const key = changeKey(c);
    const group = groups.get(key);
    if (group) group.push(c);
    else groups.set(key, [c]);
  }
  return [...groups.values()];
}

function caseSection(c: CaseReview, caps: Caps, same: readonly CaseReview[] = []): string[] {
  const changes = changesOf(c);
  const lines = [`#### ${markdownCode(c.prompt)} / ${markdownCode(c.case)}: ${statusWord[c.status]}`, ''];
  lines.push(`Tokens: ${tokenDelta(c.tokens)} · Lines: +${changes.added} −${changes.removed} · ${markdownCode(c.file)}`, '');
  if (same.length > 0) {
    const named = same.slice(0, SAME_CHANGE_NAMED).map((o) => `${markdownCode(o.prompt)} / ${markdownCode(o.case)}`);
    const more = same.length - named.length;
    lines.push(`The same change in ${plural(same.length, 'other case')}: ${named.join(', ')}${more > 0 ? `, and ${more} more` : ''} (their token counts are in the table above).`, '');
  }
  if (c.error !== undefined) lines.push(`Could not render: ${markdownCode(c.error)}`, '');
  const body = changes.hunks.flatMap((h) => [`@@ -${h.oldStart} +${h.newStart} @@`, ...h.lines]);
  if (body.length > 0 && caps.diffLines > 0) {
    const shown = inertLines(body.slice(0, caps.diffLines).join('\n'));
    const fence = fenceFor(shown);
    lines.push(`${fence}diff`, shown, fence);
    if (body.length > caps.diffLines) lines.push(`… ${plural(body.length - caps.diffLines, 'more diff line')} not shown (\`--format html\` shows them all)`);
    lines.push('');
  } else if (body.length > 0) lines.push(`(${plural(body.length, 'diff line')} not shown to keep within GitHub's comment size)`, '');
  if (c.findings.length > 0) {
    const shown = c.findings.slice(0, caps.caseFindings);
    for (const f of shown) lines.push(`- ${mark[f.diagnostic.severity]} ${markdownCode(f.diagnostic.ruleId)}${f.line === undefined ? '' : ` at snapshot line ${f.line}`}: ${markdownCode(f.diagnostic.message)}`);
    if (c.findings.length > shown.length) lines.push(`- … ${plural(c.findings.length - shown.length, 'more finding')} (see the findings below)`);
    lines.push('');
  }
  return lines;
}

function toolsSection(review: Review, caps: Caps): string[] {
  if (!review.toolsBaseline) return ['#### Tools', '', `No tools baseline (${markdownCode(`${review.baseline.folder}/tools.json`)}) to compare with.`, ''];
  if (review.tools.length === 0) return [];
  const names = (kind: ToolChange['kind']): string => review.tools.filter((t) => t.kind === kind).map((t) => markdownCode(t.name)).join(', ');
  const lines = ['#### Tools', ''];
  const added = names('added');
  const removed = names('removed');
  if (added) lines.push(`- Added: ${added}`);
  if (removed) lines.push(`- Removed: ${removed}`);
  const schemaOnly = review.tools.filter((t) => t.kind === 'changed' && t.descriptions.length === 0);
  if (schemaOnly.length > 0) lines.push(`- Schema changed, same descriptions: ${schemaOnly.map((t) => markdownCode(t.name)).join(', ')}`);
  const rows = review.tools.flatMap((t) => t.descriptions.map((d) => ({ tool: t.name, ...d })));
  if (rows.length > 0 && caps.descriptions > 0) {
    lines.push('', '| Tool | Parameter | Before | Now |', '|---|---|---|---|');
    for (const r of rows.slice(0, caps.descriptions)) {
      lines.push(`| ${markdownCode(r.tool)} | ${r.path === '' ? '(tool)' : markdownCode(r.path)} | ${r.before === undefined ? '(none)' : markdownCode(r.before)} | ${r.after === undefined ? '(none)' : markdownCode(r.after)} |`);
    }
  }
  if (rows.length > caps.descriptions) lines.push('', `… ${plural(rows.length - caps.descriptions, caps.descriptions > 0 ? 'more changed description' : 'changed description')} not shown`);
  lines.push('');
  return lines;
}

function findingsSection(diagnostics: readonly Diagnostic[], caps: Caps): string[] {
  if (diagnostics.length === 0) return [];
  const sorted = sortDiagnostics(diagnostics);
  const lines = ['#### Findings', '', '| | Rule | Where | Finding |', '|---|---|---|---|'];
  // As the findings-only format: every text from a checked file is a code span.
  for (const d of sorted.slice(0, caps.findingRows)) {
    const where = d.file === undefined ? markdownCode(d.tool ?? '') : markdownCode(`${d.file}${d.line === undefined ? '' : `:${d.line}`}`);
    const witnesses = d.witnesses && d.witnesses.length > 0 ? ` Witnesses: ${d.witnesses.map((w) => markdownCode(w.id)).join(', ')}.` : '';
    const fix = d.fix === undefined ? '' : ` **Fix:** ${markdownCode(d.fix)}`;
    lines.push(`| ${mark[d.severity]} | ${markdownCode(d.ruleId)} | ${where} | ${markdownCode(d.message)}${witnesses}${fix} |`);
  }
  if (sorted.length > caps.findingRows) lines.push('', `… ${plural(sorted.length - caps.findingRows, 'more finding')} not shown (\`--format json\` lists them all)`);
  lines.push('');
  return lines;
}

function render(review: Review, caps: Caps, title: string): string {
  const s = summarize(review.findings);
  const icon = s.errors > 0 ? '❌' : s.warnings > 0 ? '⚠️' : '✅';
  const shown = review.cases.filter((c) => c.status !== 'unchanged');
  const unchanged = review.cases.length - shown.length;
  const against = review.baseline.kind === 'git' ? `the snapshots at ${markdownCode(review.baseline.ref)}` : `the snapshots in ${markdownCode(review.baseline.folder)}`;
  const lines = [
    // The findings-only format's first line, word for word: scripts that read the verdict from it keep working.
    `### ${icon} ${title}: ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${plural(s.infos, 'info')}`,
    '',
    `${plural(shown.length, 'case')} changed of ${review.cases.length}, compared with ${against}.`,
    '',
  ];
  if (shown.length > 0) {
    lines.push('| Prompt | Case | | Tokens | Lines | Findings |', '|---|---|---|---|---|---|');
    for (const c of shown.slice(0, caps.cases)) {
      const changes = changesOf(c);
      const worst = c.findings.some((f) => f.diagnostic.severity === 'error') ? '❌ ' : c.findings.length > 0 ? '⚠️ ' : '';
      lines.push(`| ${markdownCode(c.prompt)} | ${markdownCode(c.case)} | ${statusWord[c.status]} | ${tokenDelta(c.tokens)} | +${changes.added} −${changes.removed} | ${worst}${c.findings.length} |`);
    }
    if (shown.length > caps.cases) lines.push('', `… ${plural(shown.length - caps.cases, 'more changed case')} not listed`);
    lines.push('');
    const estimates = new Map(shown.flatMap((c) => [c.tokens.before, c.tokens.after]).flatMap((t) => (t === undefined || t.exact ? [] : [[t.tokenizer, t.note ?? '']] as const)));
    if (estimates.size > 0) lines.push(`~ marks an estimate: ${[...estimates].map(([name, note]) => `${markdownCode(name)}${note === '' ? '' : ` (${markdownCode(note)})`}`).join(', ')}.`, '');
  }
  if (unchanged > 0) lines.push(`${plural(unchanged, 'unchanged case')} not listed.`, '');
  lines.push(...toolsSection(review, caps));
  const groups = groupByChange(shown);
  for (const [first, ...same] of groups.slice(0, caps.cases)) lines.push(...caseSection(first!, caps, same));
  if (groups.length > caps.cases) lines.push(`… ${plural(groups.length - caps.cases, 'more change')} not shown`, '');
  lines.push(...findingsSection(review.findings, caps));
  if (review.findings.length === 0) lines.push('Prompts, examples and tool schemas agree.', '');
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

/**
 * The review for a pull-request comment or `$GITHUB_STEP_SUMMARY`: the changed cases first
 * (token delta, changed lines, findings), the tools' changes, unchanged cases counted, then the
 * findings table. Cut to fit `limit` characters: long diffs first, each with a count of what
 * was left out.
 */
export function formatReviewMarkdown(review: Review, options: { limit?: number; title?: string } = {}): string {
  const limit = options.limit ?? GITHUB_COMMENT_LIMIT;
  const title = options.title ?? 'prompt-contract';
  let out = '';
  for (const caps of STEPS) {
    out = render(review, caps, title);
    if (out.length <= limit) return out;
  }
  // Even the counts alone are too long (a limit far below GitHub's): the first lines that fit.
  const note = '\n… cut to fit the size limit\n';
  return `${out.slice(0, Math.max(0, limit - note.length)).replace(/\n[^\n]*$/, '')}${note}`.slice(0, limit);
}
