import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { structuredPatch } from 'diff';

/** Jest's update modes: `all` under `-u`, `none` under `--ci`, `new` otherwise. */
export type UpdateMode = 'all' | 'new' | 'none';

export type SnapshotStatus = 'matched' | 'written' | 'updated' | 'missing' | 'mismatch';

export interface SnapshotResult {
  status: SnapshotStatus;
  file: string;
  /** A line diff, expected (committed) -> received (rendered now), on `mismatch`. */
  diff?: string;
}

/** `snapshots/<prompt>/<case>.txt`. */
export function snapshotFile(dir: string, prompt: string, caseName: string): string {
  return join(dir, prompt, `${caseName}.txt`);
}

/** Writes through a temporary file and a rename, so an interrupted run never leaves half a snapshot. */
export function writeAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A unified line diff with a few lines of context: `-` is the committed snapshot, `+` what renders now. */
export function lineDiff(expected: string, received: string, name: string): string {
  const patch = structuredPatch(`${name} (committed)`, `${name} (rendered now)`, expected, received, '', '', { context: 2 });
  const out = [`--- ${patch.oldFileName}`, `+++ ${patch.newFileName}`];
  for (const hunk of patch.hunks) {
    out.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines);
  }
  return out.join('\n');
}

/** Compares `received` with the committed file and writes as the update mode allows. */
export function reconcile(file: string, received: string, mode: UpdateMode, cwd = process.cwd()): SnapshotResult {
  const expected = read(file);
  const shown = relative(cwd, file) || file;
  if (expected === undefined) {
    if (mode === 'none') return { status: 'missing', file: shown };
    writeAtomic(file, received);
    return { status: 'written', file: shown };
  }
  if (expected === received) return { status: 'matched', file: shown };
  if (mode === 'all') {
    writeAtomic(file, received);
    return { status: 'updated', file: shown };
  }
  return { status: 'mismatch', file: shown, diff: lineDiff(expected, received, shown) };
}

/** Snapshot files under `dir` that no current prompt and case produce. */
export function findObsolete(dir: string, expected: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(d, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.txt') && !expected.has(path)) out.push(path);
    }
  };
  walk(dir);
  return out.sort();
}

/** Removes obsolete snapshot files and the folders they leave empty (only under `-u`). */
export function removeObsolete(dir: string, files: readonly string[]): void {
  for (const file of files) {
    rmSync(file, { force: true });
    let d = dirname(file);
    while (d.startsWith(dir) && d !== dir) {
      try {
        if (readdirSync(d).length > 0) break;
        rmSync(d, { recursive: true });
      } catch {
        break;
      }
      d = dirname(d);
    }
  }
}
