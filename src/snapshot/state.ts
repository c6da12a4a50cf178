import { closeSync, existsSync, lstatSync, openSync, readFileSync, readSync, realpathSync, rmdirSync, rmSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { createRequire } from 'node:module';
import { walkFolder } from '../util/walk.js';
import { InputError } from '../util/errors.js';
import { READ_NONBLOCK, readRegularFileSync, replaceFile, writeFailure } from '../util/files.js';
import { isSnapshotText, isToolsBaseline, sameToolsBaseline, SNAPSHOT_HEADER, TOOLS_BASELINE_KEY } from './format.js';

/** Jest's update modes: `all` under `-u`, `none` under `--ci`, `new` otherwise. */
export type UpdateMode = 'all' | 'new' | 'none';

/**
 * `foreign`: a file sits where the snapshot belongs, but prompt-contract did not write it
 * (no snapshot header, no baseline marker). It is never overwritten, in any mode.
 */
export type SnapshotStatus = 'matched' | 'written' | 'updated' | 'missing' | 'mismatch' | 'foreign';

export interface SnapshotResult {
  status: SnapshotStatus;
  file: string;
  /** A line diff, expected (committed) -> received (rendered now), on `mismatch`. */
  diff?: string;
  /** On `mismatch`: the committed file's first line that differs (its last line, when lines were only added after it). */
  line?: number;
  /** On `foreign`: the symbolic link on the snapshot's path (the file, or its prompt's folder), which is never entered. */
  link?: string;
}

/** A prompt or case name becomes one path segment: nothing that climbs out of the folder or into another. */
function assertSegment(name: string, what: 'prompt' | 'case', prompt?: string): void {
  if (name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name)) return;
  const owner = prompt === undefined ? '' : ` of prompt \`${prompt}\``;
  throw new InputError('config/invalid', `Unexpected ${what} name ${JSON.stringify(name)}${owner}: it cannot name a snapshot file; expected a name without \`/\`, \`\\\` and other than \`.\` or \`..\``);
}

/** `snapshots/<prompt>/<case>.txt`; a name that would lead out of `<prompt>/` is an InputError. */
export function snapshotFile(dir: string, prompt: string, caseName: string): string {
  assertSegment(prompt, 'prompt');
  assertSegment(caseName, 'case', prompt);
  return join(dir, prompt, `${caseName}.txt`);
}

/** `snapshots/tools.json`. */
export function toolsBaselineFile(dir: string): string {
  return join(dir, 'tools.json');
}

/** The temporary file `writeAtomic` writes first: `<file>.<pid>.<random>.tmp` (`<file>.<pid>.tmp` from earlier versions). */
const TMP_NAME = /^(.+\.(?:txt|json))\.(\d+)(?:\.[0-9a-f]{12})?\.tmp$/;

/** Writes through a temporary file and a rename, so an interrupted run never leaves half a snapshot. */
export function writeAtomic(file: string, text: string): void {
  try {
    replaceFile(file, text);
  } catch (error) {
    // The snapshot is named, not the temporary file, and the reason in words.
    throw new InputError('snapshot/unwritable', `Cannot write the snapshot (${writeFailure(error)}); expected a snapshots folder this user can write, or a run without -u that only compares`, { file }, { cause: error });
  }
}

function read(file: string, shown: string): string | undefined {
  try {
    // Not a plain read: a named pipe at the path would wait for a writer forever. Decoded as it
    // is: a file of ours cut inside a character is damaged, so outdated, for `-u` to write again.
    return readRegularFileSync(file, null).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InputError('config/unreadable', `Cannot read the snapshot: ${(error as Error).message}; expected a file prompt-contract wrote, or nothing`, { file: shown });
  }
}

/** `String.prototype.isWellFormed`: in every Node this package supports, and in ES2024's lib, not ES2023's. */
type WellFormed = string & { isWellFormed(): boolean };

/** Scratch space for `holdsExactly`, grown as needed and kept: a run compares thousands of snapshots. */
let fileBytes = Buffer.allocUnsafe(0);
let textBytes = Buffer.allocUnsafe(0);

/**
 * Whether `file` holds exactly the UTF-8 encoding of `text`, found without decoding the file
 * into a string (which costs more than the rest of a snapshot comparison). False when it
 * differs or cannot be read, and for text that is not well-formed UTF-16 (a lone surrogate
 * is written as U+FFFD, which reads back as a different string): `read` then decides.
 */
function holdsExactly(file: string, text: string): boolean {
  if (!(text as WellFormed).isWellFormed()) return false;
  if (textBytes.length < text.length * 3) textBytes = Buffer.allocUnsafe(text.length * 3);
  const length = textBytes.write(text);
  if (fileBytes.length < length + 1) fileBytes = Buffer.allocUnsafe(textBytes.length + 1);
  let fd: number;
  try {
    // Without blocking: a named pipe at the path reads as empty here, and `read` refuses it.
    fd = openSync(file, READ_NONBLOCK);
  } catch {
    return false;
  }
  try {
    // One byte past the text's length tells a longer file from an equal one.
    let got = 0;
    for (let n; got <= length && (n = readSync(fd, fileBytes, got, length + 1 - got, got)) > 0; ) got += n;
    return got === length && textBytes.compare(fileBytes, 0, length, 0, length) === 0;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** The first bytes of a file, enough to see a header; undefined when it cannot be read. */
function head(file: string, bytes = 64): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, READ_NONBLOCK);
    const buffer = Buffer.alloc(bytes);
    const n = readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, n).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function isJson(file: string): boolean {
  return file.endsWith('.json');
}

/** True when `text`, read from `file`, is something prompt-contract wrote there: a snapshot header, or the baseline marker. */
export function ownsText(file: string, text: string): boolean {
  return isJson(file) ? isToolsBaseline(text) : isSnapshotText(text);
}

/** True when the file on disk is a regular file prompt-contract wrote (read again just before a delete). */
function ownsFile(file: string): boolean {
  try {
    if (!lstatSync(file).isFile()) return false;
  } catch {
    return false;
  }
  if (!isJson(file)) {
    const start = head(file);
    return start !== undefined && isSnapshotText(start);
  }
  try {
    return isToolsBaseline(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

/** Lines with their line ends kept, so a missing final newline is a difference too. */
/** The 1-based line of `expected` where `received` first differs; its last line when `received` only adds lines after it. */
function firstDifference(expected: string, received: string): number {
  const a = splitKeepingEnds(expected);
  const b = splitKeepingEnds(received);
  let same = 0;
  while (same < a.length && same < b.length && a[same] === b[same]) same++;
  return Math.max(1, Math.min(same + 1, a.length));
}

function splitKeepingEnds(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', start)) {
    out.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** Collects at most `max` lines and counts the rest. */
class CappedLines {
  readonly #lines: string[] = [];
  #omitted = 0;
  constructor(readonly max: number) {}
  push(line: string): void {
    if (this.#lines.length < this.max) this.#lines.push(line);
    else this.#omitted++;
  }
  text(): string {
    return this.#omitted === 0 ? this.#lines.join('\n') : `${this.#lines.join('\n')}\n… ${this.#omitted} more lines of the diff not shown`;
  }
}

/** A line's trailing carriage return, written as `\r`. */
function visibleCr(line: string): string {
  return line.endsWith('\r') ? `${line.slice(0, -1)}\\r` : line;
}

/** Lines of context around each change. */
const DIFF_CONTEXT = 2;
/** Lines of diff shown; the rest is counted. Enough for any change a person reviews in one go. */
export const MAX_DIFF_LINES = 400;
/**
 * Edits the line diff searches for before it shows the changed region as one block. Myers'
 * algorithm costs about (lines × edits): this keeps a 120,000-line snapshot under a second.
 */
const MAX_EDIT_LENGTH = 1000;

/**
 * A unified line diff with a few lines of context: `-` is the committed snapshot, `+` what
 * renders now. Cut to `maxLines` lines with a count of the rest. The common head and tail
 * are skipped first; a region with more edits than `MAX_EDIT_LENGTH` is shown as one block
 * of removed then added lines.
 */
export function lineDiff(expected: string, received: string, name: string, maxLines = MAX_DIFF_LINES): string {
  const out = new CappedLines(Math.max(maxLines, 3));
  out.push(`--- ${name} (committed)`);
  out.push(`+++ ${name} (rendered now)`);
  // A carriage return is invisible in a terminal: a diff of nothing but line ends would look empty.
  if (expected !== received && expected.replace(/\r\n?/g, '\n') === received.replace(/\r\n?/g, '\n')) {
    out.push('(only line ends differ: a carriage return is shown as \\r)');
  }
  const a = splitKeepingEnds(expected);
  const b = splitKeepingEnds(received);
  const shorter = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < shorter && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const from = prefix - Math.min(prefix, DIFF_CONTEXT);
  const after = Math.min(suffix, DIFF_CONTEXT);
  const oldPart = a.slice(from, a.length - suffix + after);
  const newPart = b.slice(from, b.length - suffix + after);
  const show = (mark: string, line: string): void => {
    if (line.endsWith('\n')) out.push(visibleCr(mark + line.slice(0, -1)));
    else {
      out.push(visibleCr(mark + line));
      out.push('\\ No newline at end of file');
    }
  };
  const range = (start: number, count: number): string => `${count === 0 ? start : start + 1},${count}`;

  // Loaded on the first diff: a run whose snapshots all match never needs it.
  const { structuredPatch } = createRequire(import.meta.url)('diff') as typeof import('diff');
  const patch = structuredPatch('', '', oldPart.join(''), newPart.join(''), '', '', { context: DIFF_CONTEXT, maxEditLength: MAX_EDIT_LENGTH });
  if (patch) {
    const hunks = patch.hunks;
    // The slice holds only a few lines of context; where the diff slid a change against its
    // edge, take the missing context from the common head or tail, which both texts share.
    const first = hunks[0];
    if (first && from > 0) {
      let lead = 0;
      while (lead < first.lines.length && first.lines[lead]!.startsWith(' ')) lead++;
      const startsAtEdge = first.oldStart - (first.oldLines === 0 ? 0 : 1) === 0;
      const add = startsAtEdge ? Math.min(DIFF_CONTEXT - lead, from) : 0;
      if (add > 0) {
        first.lines = [...a.slice(from - add, from).map((l) => ` ${l.slice(0, -1)}`), ...first.lines];
        first.oldLines += add;
        first.newLines += add;
        first.oldStart -= add;
        first.newStart -= add;
      }
    }
    const last = hunks[hunks.length - 1];
    const tail = suffix - after; // common lines after the slice
    if (last && tail > 0 && last.oldStart - (last.oldLines === 0 ? 0 : 1) + last.oldLines === oldPart.length) {
      let trail = 0;
      while (trail < last.lines.length && last.lines[last.lines.length - 1 - trail]!.startsWith(' ')) trail++;
      const add = Math.min(DIFF_CONTEXT - trail, tail);
      const at = a.length - suffix + after;
      for (const l of a.slice(at, at + Math.max(add, 0))) {
        if (l.endsWith('\n')) last.lines.push(` ${l.slice(0, -1)}`);
        else last.lines.push(` ${l}`, '\\ No newline at end of file');
      }
      if (add > 0) {
        last.oldLines += add;
        last.newLines += add;
      }
    }
    for (const hunk of hunks) {
      out.push(`@@ -${hunk.oldStart + from},${hunk.oldLines} +${hunk.newStart + from},${hunk.newLines} @@`);
      for (const line of hunk.lines) out.push(visibleCr(line));
    }
    return out.text();
  }
  // Too many edits to pair up: context, every old line of the changed region, every new one, context.
  out.push(`@@ -${range(from, oldPart.length)} +${range(from, newPart.length)} @@`);
  for (let i = from; i < prefix; i++) show(' ', a[i]!);
  for (let i = prefix; i < a.length - suffix; i++) show('-', a[i]!);
  for (let i = prefix; i < b.length - suffix; i++) show('+', b[i]!);
  for (let i = a.length - suffix; i < a.length - suffix + after; i++) show(' ', a[i]!);
  return out.text();
}

/**
 * Compares `received` with the committed file and writes as the update mode allows. A file
 * at that path that prompt-contract did not write is `foreign` and never touched.
 */
export function reconcile(file: string, received: string, mode: UpdateMode, cwd = process.cwd(), root?: string): SnapshotResult {
  const write = (): void => {
    if (root !== undefined) checkWrittenInside(root, file);
    writeAtomic(file, received);
  };
  const shown = relative(cwd, file) || file;
  // A link in the snapshots folder is never entered: what it leads to is not a snapshot this project wrote, and reading it could pass a case on a file kept elsewhere.
  const link = linkOnPath(file, root);
  if (link !== undefined) return { status: 'foreign', file: shown, link: relative(cwd, link) || link };
  // Nearly every snapshot matches: compare bytes, and decode the file only when they differ.
  if (holdsExactly(file, received)) return { status: 'matched', file: shown };
  const expected = read(file, shown);
  if (expected === undefined) {
    if (mode === 'none') return { status: 'missing', file: shown };
    write();
    return { status: 'written', file: shown };
  }
  if (expected === received) return { status: 'matched', file: shown };
  if (!ownsText(file, expected)) return { status: 'foreign', file: shown };
  // A baseline written before the marker existed still matches; `-u` rewrites it with the marker.
  if (mode !== 'all' && isJson(file) && sameToolsBaseline(expected, received)) return { status: 'matched', file: shown };
  if (mode === 'all') {
    write();
    return { status: 'updated', file: shown };
  }
  return { status: 'mismatch', file: shown, diff: lineDiff(expected, received, shown), line: firstDifference(expected, received) };
}

/**
 * A snapshot is written only inside the snapshots folder itself: a folder in it that is a
 * symbolic link (`snapshots/support -> /elsewhere`) would carry `-u` outside the project, to
 * files it does not own. Refused by name, as a snapshots folder outside the project is.
 */
function checkWrittenInside(root: string, file: string): void {
  const folder = dirname(file);
  const expected = relative(resolve(root), resolve(folder));
  const actual = relative(realPath(root), realPath(folder));
  if (actual === expected) return;
  throw new InputError(
    'snapshot/unwritable',
    `Cannot write the snapshot: its folder is reached through a symbolic link (it resolves to \`${realPath(folder)}\`), and -u writes only into real folders inside the snapshots folder \`${resolve(root)}\`; expected a real folder there (replace the link with one)`,
    { file },
  );
}

/**
 * The symbolic link on a snapshot's way from the snapshots folder `root`: the file itself, or
 * its prompt's folder (`root` itself may be a link inside the project: it is checked where it
 * is configured). Without `root`, only the file.
 */
function linkOnPath(file: string, root: string | undefined): string | undefined {
  const isLink = (path: string): boolean => {
    try {
      return lstatSync(path).isSymbolicLink();
    } catch {
      return false;
    }
  };
  const folder = dirname(file);
  if (root !== undefined && resolve(folder) !== resolve(root) && isLink(folder)) return folder;
  return isLink(file) ? file : undefined;
}

/** Why a file at a snapshot's own path is left alone, in one sentence for a message. */
export function foreignMessage({ file, link }: Pick<SnapshotResult, 'file' | 'link'>): string {
  if (link !== undefined) return `${link} is a symbolic link, and a link inside the snapshots folder is never entered, written through or removed; replace it with the real ${link === file ? 'file' : 'folder'}, then write the snapshot with your test command and \`-u\``;
  const mark = isJson(file) ? `a top-level \`${JSON.stringify(TOOLS_BASELINE_KEY)}\` key` : `a first line \`${SNAPSHOT_HEADER} N\``;
  return `${file} exists but was not written by prompt-contract (it lacks ${mark}), so it is never overwritten; move it away, then write the snapshot with your test command and \`-u\``;
}

/** What is under the snapshots folder besides current snapshots. */
export interface SnapshotScan {
  /** Snapshot files (header or baseline marker) that no current prompt and case produce: `-u` removes them. */
  obsolete: string[];
  /** Files prompt-contract did not write: reported, never touched. */
  foreign: string[];
  /** `<file>.<pid>.tmp` left by an interrupted write. */
  leftovers: string[];
}

/** Folders never entered: they are never snapshot folders, and can be huge. */
const skippedFolders = new Set(['.git', 'node_modules']);

/** A leftover temporary file of ours: our name pattern, and empty or starting like a snapshot or a baseline. */
function isLeftover(file: string): boolean {
  const m = TMP_NAME.exec(basename(file));
  if (!m) return false;
  const start = head(file);
  if (start === undefined) return false;
  // A write cut short may stop anywhere, even inside the first line.
  const startsLike = (full: string): boolean => full.startsWith(start.slice(0, full.length));
  return m[1]!.endsWith('.json') ? startsLike(`{\n  "${TOOLS_BASELINE_KEY}"`) || startsLike('{\n  "tools"') : startsLike(`${SNAPSHOT_HEADER} `);
}

/**
 * Sorts the files under `dir` into obsolete, foreign and leftover. A symbolic link (to a file
 * or a folder) is foreign, never entered: `-u` refuses to write through one, so it must not
 * delete through one either, and the snapshots it leads to are never obsolete.
 */
export function scanSnapshots(dir: string, expected: ReadonlySet<string>): SnapshotScan {
  const scan: SnapshotScan = { obsolete: [], foreign: [], leftovers: [] };
  const entries = walkFolder(dir, { within: [], followLinks: false, skip: (name) => skippedFolders.has(name) });
  for (const e of entries) {
    const path = e.path;
    if (expected.has(path)) continue;
    // Dotfiles (.gitkeep, .gitattributes, .DS_Store) belong to tools that expect them there.
    const quiet = e.name.startsWith('.');
    if (e.kind !== 'file') {
      if (!quiet) scan.foreign.push(path);
      continue;
    }
    if (TMP_NAME.test(e.name) && isLeftover(path)) scan.leftovers.push(path);
    else if ((e.name.endsWith('.txt') || e.name.endsWith('.json')) && ownsFile(path)) scan.obsolete.push(path);
    else if (!quiet) scan.foreign.push(path);
  }
  scan.obsolete.sort();
  scan.foreign.sort();
  scan.leftovers.sort();
  return scan;
}

/** Snapshot files under `dir` that no current prompt and case produce. */
export function findObsolete(dir: string, expected: ReadonlySet<string>): string[] {
  return scanSnapshots(dir, expected).obsolete;
}

/** A relative path that leads out of its base folder. */
function outside(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/** Removes the folders under `dir` that `file`'s removal left empty; never `dir` itself, never a non-empty one. */
function pruneEmpty(dir: string, file: string): void {
  for (let d = dirname(file); d !== dir && !outside(relative(dir, d)); d = dirname(d)) {
    try {
      rmdirSync(d); // fails on a folder that still holds anything
    } catch {
      return;
    }
  }
}

/**
 * Removes obsolete snapshot files and the folders they leave empty (only under `-u`). Each
 * file is read again just before: one that no longer carries the header is left alone.
 */
export function removeObsolete(dir: string, files: readonly string[]): string[] {
  const removed: string[] = [];
  for (const file of files) {
    if (!ownsFile(file)) continue;
    rmSync(file, { force: true });
    removed.push(file);
    pruneEmpty(dir, file);
  }
  return removed;
}

/** True when a process with this id runs: its temporary file may be a write in progress. */
function running(pid: number): boolean {
  if (pid === process.pid) return false; // our own writes are synchronous: never in progress while we look
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * How long a temporary file may be a write in progress. A snapshot is written in one call and
 * renamed at once; an older one is a leftover even when its process id now belongs to another
 * process (ids are reused, and in a container 1 always runs).
 */
const WRITE_IN_PROGRESS_MS = 60_000;

function recent(file: string): boolean {
  try {
    return Date.now() - lstatSync(file).mtimeMs < WRITE_IN_PROGRESS_MS;
  } catch {
    return false;
  }
}

/** Removes leftover temporary files of interrupted writes (only under `-u`), except a recent one of a process still running. */
export function removeLeftovers(dir: string, files: readonly string[]): string[] {
  const removed: string[] = [];
  for (const file of files) {
    const pid = Number(TMP_NAME.exec(basename(file))?.[2]);
    if (!isLeftover(file) || (running(pid) && recent(file))) continue;
    rmSync(file, { force: true });
    removed.push(file);
    pruneEmpty(dir, file);
  }
  return removed;
}

/** The real path of `path`, resolving symbolic links through its nearest existing ancestor. */
function realPath(path: string): string {
  const rest: string[] = [];
  let p = resolve(path);
  for (;;) {
    if (existsSync(p)) {
      try {
        return join(realpathSync(p), ...rest.reverse());
      } catch {
        return join(p, ...rest.reverse());
      }
    }
    const parent = dirname(p);
    if (parent === p) return join(p, ...rest.reverse());
    rest.push(basename(p));
    p = parent;
  }
}

/**
 * Refuses a snapshots folder that `-u` must not manage: the project root itself (where every
 * file would sit beside the snapshots) or anything outside the project, after symbolic links
 * and `..` are resolved. `root` is the folder of the config file.
 */
export function checkSnapshotsFolder(root: string, snapshots: string, place: { configFile?: string; display?: (path: string) => string } = {}): void {
  const realRoot = realPath(root);
  const real = realPath(snapshots);
  const rel = relative(realRoot, real);
  // As the config names it: relative to the project root, `.` for the root, absolute when outside.
  const asWritten = relative(resolve(root), resolve(snapshots));
  const named = asWritten === '' ? '.' : outside(asWritten) ? resolve(snapshots) : asWritten;
  const via = real === resolve(snapshots) ? '' : ` (it resolves to \`${real}\`)`;
  const file = place.configFile === undefined ? {} : { file: place.display ? place.display(place.configFile) : place.configFile };
  if (existsSync(snapshots) && !lstatSync(real).isDirectory()) {
    throw new InputError('config/snapshots-folder', `Unexpected \`snapshots\` folder \`${named}\`${via}: it is a file, not a folder; expected the folder prompt-contract keeps its snapshots in (move the file away)`, file);
  }
  if (rel === '') {
    throw new InputError('config/snapshots-folder', `Unexpected \`snapshots\` folder \`${named}\`${via}: it is the project root, where snapshots would sit among files prompt-contract does not own; expected a folder of their own, such as \`snapshots\``, file);
  }
  if (outside(rel)) {
    throw new InputError('config/snapshots-folder', `Unexpected \`snapshots\` folder \`${named}\`${via}: it lies outside the project root \`${resolve(root)}\`; expected a folder inside the project, such as \`snapshots\``, file);
  }
}
