import { createHash } from 'node:crypto';
import { summarize, type Diagnostic, type Severity } from '../diagnostic.js';
import { sortDiagnostics } from '../format.js';
import { inert } from '../inert.js';
import { type Segment, sideBySide, wordChanges } from './diff.js';
import { changesOf, groupByChange, tokenDelta } from './markdown.js';
import type { CaseReview, PlacedFinding, Review } from './types.js';

/**
 * Text from prompts, tools and findings as HTML text or attribute value: every character that
 * could open a tag, an entity or end an attribute is an entity, and controls and bidirectional
 * marks are shown as escapes (`inert`), so a prompt cannot reorder what the reviewer reads.
 */
export function escapeHtml(text: string): string {
  return inert(text).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

/** Rows a case's side-by-side diff shows at most; a diff of a whole rewritten prompt stays readable and the page stays small. */
const MAX_ROWS = 4000;

const STYLE = `
:root { color-scheme: light; --add: #e6ffec; --add-strong: #abf2bc; --del: #ffebe9; --del-strong: #ffc1c0; --line: #d0d7de; --muted: #57606a; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; padding: 16px 24px 48px; color: #1f2328; background: #fff; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 28px 0 6px; padding-top: 8px; border-top: 1px solid var(--line); }
h3 { font-size: 14px; margin: 16px 0 6px; }
p, ul { margin: 4px 0 8px; }
code, .diff td.text, .desc { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12px; }
.muted { color: var(--muted); }
.badge { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 12px; border: 1px solid var(--line); }
.badge.changed { background: #fff8c5; } .badge.new { background: var(--add); } .badge.failed { background: var(--del); }
nav ul { columns: 2; padding-left: 18px; }
details.same { margin: 4px 0 8px; } details.same > ul { margin: 4px 0; }
table.diff { border-collapse: collapse; width: 100%; table-layout: fixed; border: 1px solid var(--line); }
table.diff td { vertical-align: top; padding: 0 6px; }
table.diff col.num { width: 52px; }
table.diff td.num { text-align: right; color: var(--muted); user-select: none; border-right: 1px solid var(--line); }
table.diff td.text { white-space: pre-wrap; word-break: break-word; }
table.diff td.del { background: var(--del); } table.diff td.add { background: var(--add); }
table.diff tr.gap td { background: #f6f8fa; color: var(--muted); text-align: center; }
tr.finding td { padding: 4px 8px; border-top: 1px solid var(--line); border-bottom: 1px solid var(--line); font-size: 13px; }
tr.finding.error td, li.error { background: #ffebe9; } tr.finding.warning td, li.warning { background: #fff8c5; } tr.finding.info td, li.info { background: #ddf4ff; }
ul.findings { list-style: none; padding: 0; } ul.findings li { padding: 4px 8px; margin: 2px 0; border-radius: 4px; }
table.tools { border-collapse: collapse; width: 100%; } table.tools td, table.tools th { border: 1px solid var(--line); padding: 4px 6px; vertical-align: top; text-align: left; }
td.del mark, .desc.del mark { background: var(--del-strong); color: inherit; } td.add mark, .desc.add mark { background: var(--add-strong); color: inherit; }
.desc { white-space: pre-wrap; word-break: break-word; } .desc.del { background: var(--del); } .desc.add { background: var(--add); }
svg.chart text { font: 12px system-ui, sans-serif; fill: #1f2328; }
`;

const severityWord: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'info' };
const statusClass: Record<CaseReview['status'], string> = { changed: 'changed', added: 'new', unchanged: 'unchanged', failed: 'failed' };
const statusWord: Record<CaseReview['status'], string> = { changed: 'changed', added: 'new', unchanged: 'unchanged', failed: 'could not render' };

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function findingText(d: Diagnostic): string {
  const where = d.file === undefined ? (d.tool === undefined ? '' : ` <code>${escapeHtml(d.tool)}</code>`) : ` <code>${escapeHtml(`${d.file}${d.line === undefined ? '' : `:${d.line}`}`)}</code>`;
  const fix = d.fix === undefined ? '' : ` <span class="muted">Fix: ${escapeHtml(d.fix)}</span>`;
  return `<strong>${severityWord[d.severity]}</strong> <code>${escapeHtml(d.ruleId)}</code>${where}: ${escapeHtml(d.message)}${fix}`;
}

function findingsList(findings: readonly Diagnostic[]): string {
  if (findings.length === 0) return '';
  return `<ul class="findings">${sortDiagnostics(findings).map((d) => `<li class="${d.severity}">${findingText(d)}</li>`).join('')}</ul>`;
}

/** What a count marked `~` was estimated with, from the counts themselves. */
function estimateNote(cases: readonly CaseReview[]): string {
  const estimates = new Map(cases.flatMap((c) => [c.tokens.before, c.tokens.after]).flatMap((t) => (t === undefined || t.exact ? [] : [[t.tokenizer, t.note ?? '']] as const)));
  if (estimates.size === 0) return '';
  return ` ~ marks an estimate: ${[...estimates].map(([name, note]) => `<code>${escapeHtml(name)}</code>${note === '' ? '' : ` (${escapeHtml(note)})`}`).join(', ')}.`;
}

/** Token totals before and after, one pair of bars per case, as an inline SVG: no script, no style attribute. */
function tokenChart(cases: readonly CaseReview[]): string {
  const known = cases.filter((c) => c.tokens.before !== undefined || c.tokens.after !== undefined);
  if (known.length === 0) return '<p class="muted">Token counts: — (the snapshots record none).</p>';
  const max = Math.max(1, ...known.flatMap((c) => [c.tokens.before?.total ?? 0, c.tokens.after?.total ?? 0]));
  const label = 260;
  const width = 420;
  const rowHeight = 26;
  const rows = known.map((c, i) => {
    const y = i * rowHeight + 4;
    const bar = (total: number | undefined, dy: number, fill: string): string => (total === undefined ? '' : `<rect x="${label}" y="${y + dy}" width="${Math.max(1, Math.round((total / max) * width))}" height="9" fill="${fill}"/>`);
    return `<text x="0" y="${y + 13}">${escapeHtml(`${c.prompt} / ${c.case}`.slice(0, 40))}</text>${bar(c.tokens.before?.total, 1, '#afb8c1')}${bar(c.tokens.after?.total, 11, '#0969da')}<text x="${label + width + 8}" y="${y + 13}">${escapeHtml(tokenDelta(c.tokens))}</text>`;
  });
  const height = known.length * rowHeight + 8;
  return `<svg class="chart" role="img" aria-label="Token totals before (grey) and now (blue)" width="${label + width + 200}" height="${height}" viewBox="0 0 ${label + width + 200} ${height}">${rows.join('')}</svg><p class="muted">Grey: before; blue: now.${estimateNote(known)}</p>`;
}

function toolsSection(review: Review): string {
  if (!review.toolsBaseline) return `<h2 id="tools">Tools</h2><p class="muted">No tools baseline (<code>${escapeHtml(`${review.baseline.folder}/tools.json`)}</code>) to compare with.</p>`;
  if (review.tools.length === 0) return `<h2 id="tools">Tools</h2><p class="muted">No tool added, removed or described differently.</p>`;
  const names = (kind: 'added' | 'removed'): string => review.tools.filter((t) => t.kind === kind).map((t) => `<code>${escapeHtml(t.name)}</code>`).join(', ');
  const parts = ['<h2 id="tools">Tools</h2>', '<ul>'];
  if (names('added')) parts.push(`<li>Added: ${names('added')}</li>`);
  if (names('removed')) parts.push(`<li>Removed: ${names('removed')}</li>`);
  const schemaOnly = review.tools.filter((t) => t.kind === 'changed' && t.descriptions.length === 0);
  if (schemaOnly.length > 0) parts.push(`<li>Schema changed, same descriptions: ${schemaOnly.map((t) => `<code>${escapeHtml(t.name)}</code>`).join(', ')}</li>`);
  parts.push('</ul>');
  const rows = review.tools.flatMap((t) => t.descriptions.map((d) => ({ tool: t.name, ...d })));
  if (rows.length > 0) {
    parts.push('<table class="tools"><thead><tr><th>Tool</th><th>Parameter</th><th>Before</th><th>Now</th></tr></thead><tbody>');
    for (const r of rows) {
      const words = r.before !== undefined && r.after !== undefined ? wordChanges(r.before, r.after) : undefined;
      const cell = (text: string | undefined, cls: string, segments: Segment[] | undefined): string =>
        text === undefined
          ? '<td class="muted">(none)</td>'
          : `<td><div class="desc ${cls}">${segments === undefined ? escapeHtml(text) : segments.map((g) => (g.changed ? `<mark>${escapeHtml(g.text)}</mark>` : escapeHtml(g.text))).join('')}</div></td>`;
      parts.push(`<tr><td><code>${escapeHtml(r.tool)}</code></td><td>${r.path === '' ? '<span class="muted">(tool)</span>' : `<code>${escapeHtml(r.path)}</code>`}</td>${cell(r.before, 'del', words?.left)}${cell(r.after, 'add', words?.right)}</tr>`);
    }
    parts.push('</tbody></table>');
  }
  return parts.join('');
}

function caseSection(c: CaseReview, index: number, same: readonly CaseReview[]): string {
  const changes = changesOf(c);
  const parts = [
    `<section class="case" id="case-${index}" data-prompt="${escapeHtml(c.prompt)}" data-case="${escapeHtml(c.case)}">`,
    `<h2><code>${escapeHtml(c.prompt)}</code> / <code>${escapeHtml(c.case)}</code> <span class="badge ${statusClass[c.status]}">${statusWord[c.status]}</span></h2>`,
    `<p>Tokens: ${escapeHtml(tokenDelta(c.tokens))} · Lines: +${changes.added} −${changes.removed} · <code>${escapeHtml(c.file)}</code></p>`,
  ];
  // Cases whose diff removes and adds the same lines (a shared partial edited): named here, their diff not repeated.
  if (same.length > 0) {
    parts.push(`<details class="same"><summary>The same change in ${plural(same.length, 'other case')}</summary><ul>`);
    for (const o of same) parts.push(`<li data-prompt="${escapeHtml(o.prompt)}" data-case="${escapeHtml(o.case)}"><code>${escapeHtml(o.prompt)}</code> / <code>${escapeHtml(o.case)}</code>: tokens ${escapeHtml(tokenDelta(o.tokens))}${findingsList(o.findings.map((f) => f.diagnostic))}</li>`);
    parts.push('</ul></details>');
  }
  if (c.error !== undefined) parts.push(`<p class="error">Could not render: <code>${escapeHtml(c.error)}</code></p>`);
  const atLine = new Map<number, PlacedFinding[]>();
  const loose: Diagnostic[] = [];
  for (const f of c.findings) {
    if (f.line === undefined) loose.push(f.diagnostic);
    else atLine.set(f.line, [...(atLine.get(f.line) ?? []), f]);
  }
  const rows = sideBySide(changes.hunks);
  const shownLines = new Set<number>();
  if (rows.length > 0) {
    // Column widths from a colgroup: with `table-layout: fixed` the first row sets them, and it may be a gap.
    parts.push('<table class="diff"><colgroup><col class="num"><col><col class="num"><col></colgroup><tbody>');
    for (const row of rows.slice(0, MAX_ROWS)) {
      if (row.kind === 'gap') {
        parts.push('<tr class="gap"><td colspan="4">⋯</td></tr>');
        continue;
      }
      const words = row.left?.changed && row.right?.changed ? wordChanges(row.left.text, row.right.text) : undefined;
      const text = (s: NonNullable<typeof row.left>, segments: Segment[] | undefined): string =>
        segments === undefined ? escapeHtml(s.text) : segments.map((g) => (g.changed ? `<mark>${escapeHtml(g.text)}</mark>` : escapeHtml(g.text))).join('');
      const side = (s: typeof row.left, cls: string, segments: Segment[] | undefined): string => (s === undefined ? '<td class="num"></td><td class="text"></td>' : `<td class="num">${s.line}</td><td class="text${s.changed ? ` ${cls}` : ''}">${text(s, segments)}</td>`);
      parts.push(`<tr>${side(row.left, 'del', words?.left)}${side(row.right, 'add', words?.right)}</tr>`);
      // A finding made at a line of the text rendered now, right under it.
      if (row.right !== undefined) {
        for (const f of atLine.get(row.right.line) ?? []) parts.push(`<tr class="finding ${f.diagnostic.severity}"><td colspan="4">${findingText(f.diagnostic)}</td></tr>`);
        shownLines.add(row.right.line);
      }
    }
    parts.push('</tbody></table>');
    if (rows.length > MAX_ROWS) parts.push(`<p class="muted">… ${plural(rows.length - MAX_ROWS, 'more row')} not shown.</p>`);
  }
  // Findings at lines the diff does not show, and findings without a line.
  const rest = [...loose, ...c.findings.filter((f) => f.line !== undefined && !shownLines.has(f.line)).map((f) => f.diagnostic)];
  if (rest.length > 0) parts.push(`<h3>Findings</h3>${findingsList(rest)}`);
  parts.push('</section>');
  return parts.join('');
}

/**
 * One self-contained review page: side-by-side diffs of every changed case with the findings at
 * their lines, the tools' description changes, the token totals as a chart. Nothing is loaded
 * from anywhere: the one style sheet is inline, and the Content-Security-Policy allows that
 * sheet alone (by its hash), so even a prompt that slipped past the escaping could fetch nothing.
 */
export function formatReviewHtml(review: Review, options: { title?: string } = {}): string {
  const title = options.title ?? 'prompt-contract review';
  const s = summarize(review.findings);
  const shown = review.cases.filter((c) => c.status !== 'unchanged');
  const unchanged = review.cases.length - shown.length;
  const groups = groupByChange(shown);
  // The section each changed case is shown in: its own, or the first case's with the same change.
  const sectionOf = new Map(groups.flatMap((g) => g.map((c) => [c, g[0]!] as const)));
  // Findings not shown with a changed case: the tools', the config's, and those of unchanged cases.
  const withCase = new Set(shown.flatMap((c) => c.findings.map((f) => f.diagnostic)));
  const other = review.findings.filter((d) => !withCase.has(d));
  const styleHash = createHash('sha256').update(STYLE).digest('base64');
  const csp = `default-src 'none'; style-src 'sha256-${styleHash}'; img-src 'none'; script-src 'none'; base-uri 'none'; form-action 'none'`;
  const against = review.baseline.kind === 'git' ? `the snapshots at <code>${escapeHtml(review.baseline.ref)}</code>` : `the snapshots in <code>${escapeHtml(review.baseline.folder)}</code>`;
  const body = [
    `<h1>${escapeHtml(title)}</h1>`,
    `<p><strong>${plural(shown.length, 'case')} changed</strong> of ${review.cases.length}, compared with ${against}. ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${plural(s.infos, 'info')}.</p>`,
    unchanged > 0 ? `<p class="muted" id="unchanged">${plural(unchanged, 'unchanged case')} not shown.</p>` : '',
    shown.length > 0 ? `<nav><ul>${shown.map((c) => `<li><a href="#case-${review.cases.indexOf(sectionOf.get(c)!)}"><code>${escapeHtml(c.prompt)}</code> / <code>${escapeHtml(c.case)}</code></a> <span class="badge ${statusClass[c.status]}">${statusWord[c.status]}</span></li>`).join('')}</ul></nav>` : '',
    '<h2 id="tokens">Tokens</h2>',
    tokenChart(shown),
    toolsSection(review),
    ...groups.map(([first, ...same]) => caseSection(first!, review.cases.indexOf(first!), same)),
    other.length > 0 ? `<h2 id="other-findings">Other findings</h2>${findingsList(other)}` : '',
    review.findings.length === 0 ? '<p>Prompts, examples and tool schemas agree.</p>' : '',
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body.filter((p) => p !== '').join('\n')}
</body>
</html>
`;
}
