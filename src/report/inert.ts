/**
 * Text from the files checked (tool names, case names, values, file names) reaches people
 * through line-oriented channels: a terminal, a CI log, a test runner's failure message. A
 * line break in it would start a line of its own, and GitHub Actions runs any log line that
 * starts with `::` (`::error ...`, `::add-mask::`); an escape sequence would recolour or clear
 * the screen; a bidirectional override would reorder what a reviewer reads.
 */

// C0 controls but tab (a tab moves the cursor along the line, and keeps diffs and frames aligned),
// DEL and C1 controls, the Unicode line and paragraph separators, and the bidirectional marks,
// embeddings, overrides and isolates.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escape(c: string): string {
  return c === '\n' ? '\\n' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * `text` as one inert line: every line break, control character and bidirectional control
 * written out as a visible escape (`\n`, `\u001b`, `\u202e`), so that nothing in it can start
 * a line, move the cursor or reorder the line. For every human-readable channel; JSON output
 * needs none of it (JSON escapes them itself).
 */
export function inert(text: string): string {
  return text.replace(UNSAFE, escape);
}

/**
 * `text` with `inert` applied to each of its lines: for text whose lines are ours to break (a
 * diff, a stack trace), shown line by line. A line that would start with `::` once its leading
 * spaces are dropped (the runner drops them) has its first colon written `\u003a`: a prompt's
 * own line in a snapshot diff is no command either.
 */
export function inertLines(text: string): string {
  return text
    .split('\n')
    .map((line) => inert(line).replace(/^(\s*):(?=:)/, '$1\\u003a'))
    .join('\n');
}
