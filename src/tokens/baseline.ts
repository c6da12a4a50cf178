/**
 * The token counts a case is compared with for `budget/grew`: the committed snapshot's `tokens:`
 * line as it is before anything is written, or the snapshots as committed at a git revision
 * (`--against`), read in one git call for every case.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readSync } from 'node:fs';
import { relative } from 'node:path';
import { READ_NONBLOCK } from '../util/files.js';
import { InputError } from '../util/errors.js';
import { parseSnapshotTokens, type TokenCount } from './index.js';

/** Bytes read of a snapshot for its header: the header lines and names are short (a name is at most 200 bytes). */
const HEAD_BYTES = 2048;

/** The count in the header of the snapshot file at `file`, or undefined when there is none (no file, no line). */
export function readSnapshotTokens(file: string): TokenCount | undefined {
  let fd: number | undefined;
  try {
    // Without blocking: a named pipe at the path reads as empty.
    fd = openSync(file, READ_NONBLOCK);
    const buffer = Buffer.alloc(HEAD_BYTES);
    const got = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    return parseSnapshotTokens(buffer.subarray(0, got).toString('utf8'));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The counts in the snapshot files `files` as committed at `commit`, by file (a file absent at
 * the commit, or without a count, is left out). `root` is a folder of the repository.
 */
export function snapshotTokensAt(root: string, commit: string, files: readonly string[], shown: string): Map<string, TokenCount> {
  const out = new Map<string, TokenCount>();
  if (files.length === 0) return out;
  const run = (args: string[], input?: string): Buffer => {
    try {
      return execFileSync('git', args, { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 30, ...(input === undefined ? {} : { input }) });
    } catch (error) {
      const e = error as { stderr?: Buffer; message: string };
      throw new InputError('usage', `Cannot read the snapshots' token counts at \`${commit}\`: ${String(e.stderr ?? '').trim() || e.message}`, { file: shown });
    }
  };
  // Paths from the repository's top: `git cat-file --batch` does not resolve `./` against the working folder.
  const prefix = run(['rev-parse', '--show-prefix']).toString('utf8').trim();
  const names = files.map((f) => `${prefix}${relative(root, f).split('\\').join('/')}`);
  // One object per line: a name with a line break cannot be asked for this way, and is left without a baseline.
  const asked = names.map((name, i) => ({ name, file: files[i]! })).filter((a) => !/[\r\n]/.test(a.name));
  const batch = run(['cat-file', '--batch'], asked.map((a) => `${commit}:${a.name}\n`).join(''));
  let at = 0;
  for (const { file } of asked) {
    const end = batch.indexOf(10, at);
    if (end === -1) break;
    const header = batch.subarray(at, end).toString('utf8');
    at = end + 1;
    const m = /^[0-9a-f]+ blob (\d+)$/.exec(header);
    if (!m) {
      // `<name> missing`, or an object that is not a file: no baseline for this case. A tree or commit still sends its body.
      const other = /^[0-9a-f]+ \w+ (\d+)$/.exec(header);
      if (other) at += Number(other[1]) + 1;
      continue;
    }
    const size = Number(m[1]);
    const count = parseSnapshotTokens(batch.subarray(at, at + Math.min(size, HEAD_BYTES)).toString('utf8'));
    at += size + 1;
    if (count !== undefined) out.set(file, count);
  }
  return out;
}
