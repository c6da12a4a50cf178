import { isAbsolute, relative, resolve, sep } from 'node:path';
import { styleText } from 'node:util';
import { summarize, type Diagnostic, type Severity } from './diagnostic.js';

export type FormatName = 'pretty' | 'json' | 'github' | 'markdown';

/** Stable order: by file, line, column, then rule; findings without a file last. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) =>
    (a.file === undefined ? 1 : 0) - (b.file === undefined ? 1 : 0) ||
    (a.file ?? '').localeCompare(b.file ?? '') ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.column ?? 0) - (b.column ?? 0) ||
    a.ruleId.localeCompare(b.ruleId) ||
    a.message.localeCompare(b.message),
  );
}

/** The pinned JSON report: `{version: 1, diagnostics, summary}`; internal offsets are left out. */
export function toJsonReport(diagnostics: readonly Diagnostic[]): { version: 1; diagnostics: Diagnostic[]; summary: ReturnType<typeof summarize> } {
  const list = sortDiagnostics(diagnostics).map(({ offset: _offset, endOffset: _end, ...rest }) => rest);
  return { version: 1, diagnostics: list, summary: summarize(diagnostics) };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function paint(color: boolean, format: Parameters<typeof styleText>[0], text: string): string {
  return color ? styleText(format, text) : text;
}

/**
 * `text` with the control characters a terminal acts on (an escape sequence, a bell, a
 * carriage return, C1 controls) written out as `\u001b`: tool names, values and file names
 * come from the files checked, and must not clear a reviewer's screen or forge output.
 */
export function visible(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const severityColor: Record<Severity, Parameters<typeof styleText>[0]> = { error: 'red', warning: 'yellow', info: 'blue' };

/** Grouped by file, one finding a line with its position, like a linter's default output. */
export function formatPretty(diagnostics: readonly Diagnostic[], options: { color?: boolean } = {}): string {
  const color = options.color ?? false;
  const sorted = sortDiagnostics(diagnostics);
  const out: string[] = [];
  let current: string | undefined | null = null;
  for (const d of sorted) {
    if (d.file !== current) {
      if (current !== null) out.push('');
      out.push(paint(color, 'underline', visible(d.file ?? '(project)')));
      current = d.file;
    }
    const pos = d.line === undefined ? '' : `${d.line}:${d.column ?? 1}`;
    const tool = d.tool === undefined ? '' : `[${visible(d.tool)}] `;
    out.push(`  ${pos.padEnd(7)} ${paint(color, severityColor[d.severity], d.severity.padEnd(7))} ${tool}${visible(d.message)}  ${paint(color, 'dim', d.ruleId)}`);
    if (d.witnesses && d.witnesses.length > 0) {
      const shown = d.witnesses.map((w) => (w.value === undefined ? w.id : `${w.id} (${JSON.stringify(w.value)})`)).join(', ');
      const more = (d.witnessCount ?? d.witnesses.length) - d.witnesses.length;
      out.push(`          witnesses: ${visible(shown)}${more > 0 ? `, and ${more} more` : ''}`);
    }
    if (d.fix !== undefined) out.push(`          fix: ${visible(d.fix)}`);
    if (d.detail !== undefined) out.push(...d.detail.split('\n').map((l) => `          ${visible(l)}`));
    for (const r of d.related ?? []) out.push(`          ${visible(r.message)}: ${visible(r.file)}${r.line === undefined ? '' : `:${r.line}`}`);
  }
  const s = summarize(diagnostics);
  const total = s.errors + s.warnings + s.infos;
  if (total === 0) return 'No problems found.\n';
  out.push('', `${plural(total, 'problem')} (${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${plural(s.infos, 'info')})`);
  return `${out.join('\n')}\n`;
}

function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/**
 * A finding's file as GitHub places annotations: relative to the repository's root
 * (`GITHUB_WORKSPACE`), not to the folder the command ran in, so a monorepo package checked
 * from its own folder annotates `packages/agent/prompts/...`. Outside Actions, or for a file
 * outside the workspace, the path stays as it is.
 */
function workspacePath(file: string, workspace: string | undefined): string {
  if (workspace === undefined || workspace === '') return file;
  const inWorkspace = relative(workspace, resolve(file));
  if (inWorkspace === '' || inWorkspace.startsWith('..') || isAbsolute(inWorkspace)) return file;
  return inWorkspace.split(sep).join('/');
}

/** GitHub Actions workflow commands: one annotation per finding, shown on the pull request's diff. */
export function formatGithub(diagnostics: readonly Diagnostic[], workspace: string | undefined = process.env.GITHUB_WORKSPACE): string {
  const level: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };
  return sortDiagnostics(diagnostics)
    .map((d) => {
      const props = [
        d.file === undefined ? undefined : `file=${escapeProperty(visible(workspacePath(d.file, workspace)))}`,
        d.line === undefined ? undefined : `line=${d.line}`,
        d.column === undefined ? undefined : `col=${d.column}`,
        // The tool in the title: findings about three tools must not read as one annotation repeated.
        `title=${escapeProperty(d.tool === undefined ? d.ruleId : `${d.ruleId} (${visible(d.tool)})`)}`,
      ].filter((p) => p !== undefined);
      // The other places the finding involves (the handler type's file and line), as the pretty format lists them.
      const related = (d.related ?? []).map((r) => `\n${r.message}: ${workspacePath(r.file, workspace)}${r.line === undefined ? '' : `:${r.line}`}`).join('');
      const extra = related + (d.fix === undefined ? '' : `\n${d.fix}`) + (d.detail === undefined ? '' : `\n${d.detail}`);
      // Control characters from checked files are shown, not run: a CI log renders ANSI sequences.
      return `::${level[d.severity]} ${props.join(',')}::${escapeData(visible(d.message + extra))}\n`;
    })
    .join('');
}

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function cell(text: string): string {
  return visible(text.replaceAll('\n', ' ')).replaceAll('|', '\\|');
}

/** A summary for a pull-request comment: counts, then a table of findings. */
export function formatMarkdown(diagnostics: readonly Diagnostic[], title = 'prompt-contract'): string {
  const s = summarize(diagnostics);
  const icon = s.errors > 0 ? '❌' : s.warnings > 0 ? '⚠️' : '✅';
  const lines = [`### ${icon} ${title}: ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${plural(s.infos, 'info')}`, ''];
  if (diagnostics.length === 0) return `${lines.join('\n')}Prompts, examples and tool schemas agree.\n`;
  lines.push('| | Rule | Where | Finding |', '|---|---|---|---|');
  const mark: Record<Severity, string> = { error: '❌', warning: '⚠️', info: 'ℹ️' };
  for (const d of sortDiagnostics(diagnostics)) {
    const where = d.file === undefined ? (d.tool ?? '') : `\`${d.file}${d.line === undefined ? '' : `:${d.line}`}\``;
    const witnesses = d.witnesses && d.witnesses.length > 0 ? ` Witnesses: ${d.witnesses.map((w) => `\`${w.id}\``).join(', ')}.` : '';
    const fix = d.fix === undefined ? '' : ` **Fix:** ${d.fix}`;
    lines.push(`| ${mark[d.severity]} | \`${d.ruleId}\` | ${cell(where)} | ${cell(d.message + witnesses + fix)} |`);
  }
  const details = sortDiagnostics(diagnostics).filter((d) => d.detail !== undefined);
  for (const d of details) {
    // A fence longer than any run of backticks in the diff: a snapshot's own fences must not close it.
    const fence = '`'.repeat(Math.max(3, ...[...d.detail!.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    lines.push('', `<details><summary>${d.ruleId}: ${escapeHtml(visible(d.file ?? ''))}</summary>`, '', `${fence}diff`, visible(d.detail!), fence, '', '</details>');
  }
  return `${lines.join('\n')}\n`;
}

export function format(name: FormatName, diagnostics: readonly Diagnostic[], options: { color?: boolean } = {}): string {
  switch (name) {
    case 'json':
      return `${JSON.stringify(toJsonReport(diagnostics), null, 2)}\n`;
    case 'github':
      return formatGithub(diagnostics);
    case 'markdown':
      return formatMarkdown(diagnostics);
    default:
      return formatPretty(diagnostics, options);
  }
}
