import { isAbsolute, relative, resolve, sep } from 'node:path';
import { styleText } from 'node:util';
import { summarize, type Diagnostic, type Severity } from './diagnostic.js';
import { inert, inertLines } from './inert.js';

export { inert } from './inert.js';

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
/**
 * The JSON report's keys of a finding, in this order whatever order the finding was built or
 * read back from the cache in: two runs that find the same give the same bytes.
 */
const JSON_KEYS = ['ruleId', 'severity', 'message', 'file', 'line', 'column', 'tool', 'provider', 'instancePath', 'schemaPath', 'expected', 'actual', 'witnesses', 'witnessCount', 'total', 'related', 'fix', 'detail', 'url'] as const;

function inKeyOrder({ offset: _offset, endOffset: _end, ...rest }: Diagnostic): Diagnostic {
  const out: Record<string, unknown> = {};
  for (const key of JSON_KEYS) if (rest[key] !== undefined) out[key] = rest[key];
  for (const [key, value] of Object.entries(rest)) if (!(key in out) && value !== undefined) out[key] = value;
  return out as unknown as Diagnostic;
}

export function toJsonReport(diagnostics: readonly Diagnostic[]): { version: 1; diagnostics: Diagnostic[]; summary: ReturnType<typeof summarize> } {
  const list = sortDiagnostics(diagnostics).map(inKeyOrder);
  return { version: 1, diagnostics: list, summary: summarize(diagnostics) };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function paint(color: boolean, format: Parameters<typeof styleText>[0], text: string): string {
  return color ? styleText(format, text) : text;
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
      out.push(paint(color, 'underline', inert(d.file ?? '(project)')));
      current = d.file;
    }
    const pos = d.line === undefined ? '' : `${d.line}:${d.column ?? 1}`;
    const tool = d.tool === undefined ? '' : `[${inert(d.tool)}] `;
    out.push(`  ${pos.padEnd(7)} ${paint(color, severityColor[d.severity], d.severity.padEnd(7))} ${tool}${inert(d.message)}  ${paint(color, 'dim', inert(d.ruleId))}`);
    if (d.witnesses && d.witnesses.length > 0) {
      const shown = d.witnesses.map((w) => (w.value === undefined ? w.id : `${w.id} (${JSON.stringify(w.value)})`)).join(', ');
      const more = (d.witnessCount ?? d.witnesses.length) - d.witnesses.length;
      out.push(`          witnesses: ${inert(shown)}${more > 0 ? `, and ${more} more` : ''}`);
    }
    if (d.fix !== undefined) out.push(`          fix: ${inert(d.fix)}`);
    // A detail (a snapshot's diff) is ours to break into lines; what is inside each line is not.
    if (d.detail !== undefined) out.push(...inertLines(d.detail).split('\n').map((l) => `          ${l}`));
    for (const r of d.related ?? []) out.push(`          ${inert(r.message)}: ${inert(r.file)}${r.line === undefined ? '' : `:${r.line}`}`);
  }
  const s = summarize(diagnostics);
  const total = s.errors + s.warnings + s.infos;
  if (total === 0) return 'No problems found.\n';
  out.push('', `${plural(total, 'problem')} (${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${plural(s.infos, 'info')})`);
  return `${out.join('\n')}\n`;
}

/** Workflow command data: `%` first (the runner decodes `%25` last), then the line breaks that would end the command. */
export function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** A workflow command property: as data, and `:` and `,`, which end a property. */
export function escapeProperty(text: string): string {
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
        d.file === undefined ? undefined : `file=${escapeProperty(inert(workspacePath(d.file, workspace)))}`,
        d.line === undefined ? undefined : `line=${d.line}`,
        d.column === undefined ? undefined : `col=${d.column}`,
        // The tool in the title: findings about three tools must not read as one annotation repeated.
        `title=${escapeProperty(inert(d.tool === undefined ? d.ruleId : `${d.ruleId} (${d.tool})`))}`,
      ].filter((p) => p !== undefined);
      // The other places the finding involves (the handler type's file and line), as the pretty format lists them.
      const related = (d.related ?? []).map((r) => `\n${inert(r.message)}: ${inert(workspacePath(r.file, workspace))}${r.line === undefined ? '' : `:${r.line}`}`).join('');
      const extra = related + (d.fix === undefined ? '' : `\n${inert(d.fix)}`) + (d.detail === undefined ? '' : `\n${inertLines(d.detail)}`);
      // The annotation's own lines are ours; a line break from a checked file is shown as `\n`, and the data escape keeps it all one command.
      return `::${level[d.severity]} ${props.join(',')}::${escapeData(inert(d.message) + extra)}\n`;
    })
    .join('');
}

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/**
 * Text from checked files as a Markdown code span, in which nothing is a link, an image, HTML,
 * an emphasis or an @-mention: the fence is longer than any run of backticks inside, and a
 * space pads content that starts or ends with a backtick (CommonMark strips one each side).
 * Pipes are escaped for the table the span sits in, with an odd number of backslashes before
 * each: an even run would escape itself and let the pipe end the cell, and the span with it.
 */
export function markdownCode(text: string): string {
  const shown = inert(text);
  if (shown === '') return '';
  const longest = Math.max(0, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') || (shown.startsWith(' ') && shown.endsWith(' ') && shown.trim() !== '') ? ' ' : '';
  const span = `${fence}${pad}${shown}${pad}${fence}`;
  return span.replace(/(\\*)\|/g, (_m, run: string) => `${run}${run.length % 2 === 0 ? '' : '\\'}\\|`);
}

/** A summary for a pull-request comment: counts, then a table of findings. */
export function formatMarkdown(diagnostics: readonly Diagnostic[], title = 'prompt-contract'): string {
  const s = summarize(diagnostics);
  const icon = s.errors > 0 ? '❌' : s.warnings > 0 ? '⚠️' : '✅';
  const lines = [`### ${icon} ${title}: ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${plural(s.infos, 'info')}`, ''];
  if (diagnostics.length === 0) return `${lines.join('\n')}Prompts, examples and tool schemas agree.\n`;
  lines.push('| | Rule | Where | Finding |', '|---|---|---|---|');
  const mark: Record<Severity, string> = { error: '❌', warning: '⚠️', info: 'ℹ️' };
  // Every text that can come from a checked file (names, values, paths, messages quoting them) is a code span: a PR comment renders the rest.
  for (const d of sortDiagnostics(diagnostics)) {
    const where = d.file === undefined ? markdownCode(d.tool ?? '') : markdownCode(`${d.file}${d.line === undefined ? '' : `:${d.line}`}`);
    const witnesses = d.witnesses && d.witnesses.length > 0 ? ` Witnesses: ${d.witnesses.map((w) => markdownCode(w.id)).join(', ')}.` : '';
    const fix = d.fix === undefined ? '' : ` **Fix:** ${markdownCode(d.fix)}`;
    lines.push(`| ${mark[d.severity]} | ${markdownCode(d.ruleId)} | ${where} | ${markdownCode(d.message)}${witnesses}${fix} |`);
  }
  const details = sortDiagnostics(diagnostics).filter((d) => d.detail !== undefined);
  for (const d of details) {
    const detail = inertLines(d.detail!);
    // A fence longer than any run of backticks in the diff: a snapshot's own fences must not close it.
    const fence = '`'.repeat(Math.max(3, ...[...detail.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    // The summary holds the rule id alone: HTML is rendered, and a file name in it could hold a mention.
    const file = d.file === undefined ? [] : ['', markdownCode(d.file)];
    lines.push('', `<details><summary>${escapeHtml(d.ruleId)}</summary>`, ...file, '', `${fence}diff`, detail, fence, '', '</details>');
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
