import { mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promptMatchers } from '../../src/jest.js';
import type { RenderedCase } from '../../src/render/render.js';
import { formatSnapshot, formatToolsBaseline, isSnapshotText, isToolsBaseline } from '../../src/snapshot/format.js';
import { checkSnapshotsFolder, findObsolete, reconcile, removeLeftovers, removeObsolete, scanSnapshots, snapshotFile, toolsBaselineFile, writeAtomic, type UpdateMode } from '../../src/snapshot/state.js';
import { InputError } from '../../src/util/errors.js';
import { normalizeTools } from '../../src/tools/normalize.js';

const tools = normalizeTools([{ name: 'lookup_order', description: 'Look up an order.', input_schema: { type: 'object', properties: { order_id: { type: 'string', pattern: '^[AB]-\\d{4}$', description: 'The order.' }, items: { type: 'boolean' } }, required: ['order_id'] } }]);
const rendered = (text: string): RenderedCase => ({ prompt: 'agent', case: 'basic', text, tools, sourceMap: undefined as never });
const fresh = () => mkdtempSync(join(tmpdir(), 'pc-snap-'));
/** The first line that marks a file as a snapshot prompt-contract wrote. */
const HEADER = 'prompt-contract snapshot 2\n';

describe('snapshot text', () => {
  test('holds the prompt verbatim and each parameter on one line', () => {
    const text = 'Use ```tool_call``` blocks, "quotes" and \\backslashes\\.\r\nSecond line';
    const snap = formatSnapshot(rendered(text));
    expect(snap).toContain(`${text}\n`);
    expect(snap).toContain('rendered prompt, verbatim (no final newline)');
    // No counts in the heading: they would change with every edit of the prompt.
    expect(snap).not.toMatch(/\d+ characters|\d+ lines/);
    expect(snap).toMatch(/^ {2}order_id {2}string {2}required {2}pattern \^\[AB\]-\\d\{4\}\$$/m);
    expect(snap).toMatch(/^ {2}items {2}boolean {2}optional$/m);
    expect(snap).toContain('      The order.');
  });
});

const modes: UpdateMode[] = ['none', 'new', 'all'];

describe('reconcile follows Jest update modes', () => {
  test.each(modes)('missing file, mode %s', (mode) => {
    const dir = fresh();
    const file = snapshotFile(dir, 'p', 'c');
    const result = reconcile(file, 'text\n', mode);
    expect(result.status).toBe(mode === 'none' ? 'missing' : 'written');
    expect(readdirSync(dir).length).toBe(mode === 'none' ? 0 : 1);
  });

  test.each(modes)('changed file, mode %s', (mode) => {
    const dir = fresh();
    const file = snapshotFile(dir, 'p', 'c');
    reconcile(file, `${HEADER}line one\nline two\n`, 'new');
    const result = reconcile(file, `${HEADER}line one\nline 2\n`, mode);
    if (mode === 'all') {
      expect(result.status).toBe('updated');
      expect(readFileSync(file, 'utf8')).toBe(`${HEADER}line one\nline 2\n`);
    } else {
      expect(result.status).toBe('mismatch');
      expect(result.diff).toMatch(/^-line two$/m);
      expect(result.diff).toMatch(/^\+line 2$/m);
      expect(readFileSync(file, 'utf8')).toBe(`${HEADER}line one\nline two\n`);
    }
    // Written through a temporary file and a rename: nothing else is left behind.
    expect(readdirSync(join(dir, 'p'))).toEqual(['c.txt']);
  });

  // A match is found by comparing bytes; anything else goes through the decoded text.
  test('only a file with exactly the text\'s bytes matches: one byte more or less, or other bytes, are a mismatch', () => {
    const dir = fresh();
    const file = snapshotFile(dir, 'p', 'c');
    mkdirSync(dirname(file));
    const text = `${HEADER}café – naïve 𝄞 prompt\n`;
    const bytes = Buffer.from(text);
    const cases: Array<[string, Buffer, string]> = [
      ['the same bytes', bytes, 'matched'],
      ['one byte more', Buffer.concat([bytes, Buffer.from('\n')]), 'mismatch'],
      ['one byte less', bytes.subarray(0, bytes.length - 1), 'mismatch'],
      ['a byte changed at the end', Buffer.concat([bytes.subarray(0, bytes.length - 1), Buffer.from('!')]), 'mismatch'],
      ['a byte order mark in front', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]), 'foreign'],
      ['nothing', Buffer.alloc(0), 'foreign'],
    ];
    for (const [what, content, status] of cases) {
      writeFileSync(file, content);
      expect([what, reconcile(file, text, 'none').status]).toEqual([what, status]);
      // A longer text first grows the scratch space; the short one after it still compares only its own bytes.
      reconcile(file, `${text}${'x'.repeat(100_000)}`, 'none');
    }
    // A lone surrogate is written as U+FFFD and reads back as another string: never a match.
    const lone = `${HEADER}half a pair: \ud83d\n`;
    writeFileSync(file, lone);
    expect(reconcile(file, lone, 'none').status).toBe('mismatch');
    // Not a file: read as before, and its error named.
    mkdirSync(join(dir, 'p', 'd.txt'));
    expect(() => reconcile(join(dir, 'p', 'd.txt'), text, 'none')).toThrow(InputError);
  });

  test('obsolete files are found and removed with their empty folders', () => {
    const dir = fresh();
    mkdirSync(join(dir, 'gone'), { recursive: true });
    writeFileSync(join(dir, 'gone', 'old.txt'), `${HEADER}x\n`);
    writeFileSync(join(dir, 'keep.txt'), `${HEADER}x\n`);
    const obsolete = findObsolete(dir, new Set([join(dir, 'keep.txt')]));
    expect(obsolete).toEqual([join(dir, 'gone', 'old.txt')]);
    removeObsolete(dir, obsolete);
    expect(readdirSync(dir)).toEqual(['keep.txt']);
  });
});

describe('snapshot/outdated is placed at the first changed line of the committed snapshot', () => {
  test('past the context lines of the first hunk, for a change in the middle, at the start and at the end', async () => {
    const { snapshotFindings } = await import('../../src/checks/findings.js');
    const dir = fresh();
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const file = join(dir, 'p', 'c.txt');
    mkdirSync(join(dir, 'p'));
    // The header is line 1: snapshot line N + 1 holds `line N`.
    for (const [changed, expected] of [[16, 17], [1, 2], [30, 31]] as const) {
      writeFileSync(file, `${HEADER}${lines.join('\n')}\n`);
      const now = lines.map((l, i) => (i + 1 === changed ? `${l} (reworded)` : l));
      const [finding] = snapshotFindings(reconcile(file, `${HEADER}${now.join('\n')}\n`, 'none', dir), { prompt: 'p', case: 'c' });
      expect([changed, finding!.ruleId, finding!.line]).toEqual([changed, 'snapshot/outdated', expected]);
    }
  });

  test('an inserted line, a deleted one, and lines added after the end (placed on the last line there is)', async () => {
    const { snapshotFindings } = await import('../../src/checks/findings.js');
    const dir = fresh();
    mkdirSync(join(dir, 'p'));
    const file = join(dir, 'p', 'c.txt');
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const lineOf = (now: string[]) => {
      writeFileSync(file, `${HEADER}${lines.join('\n')}\n`);
      return snapshotFindings(reconcile(file, `${HEADER}${now.join('\n')}\n`, 'none', dir), { prompt: 'p', case: 'c' })[0]!.line;
    };
    expect(lineOf([...lines.slice(0, 10), 'new line', ...lines.slice(10)])).toBe(12);
    expect(lineOf([...lines.slice(0, 10), ...lines.slice(11)])).toBe(12);
    expect(lineOf([...lines, 'one more', 'and another'])).toBe(31);
  });
});

describe('toMatchPromptSnapshot', () => {
  const utils = { RECEIVED_COLOR: (s: string) => s, EXPECTED_COLOR: (s: string) => s };
  const state = (mode: UpdateMode) => ({ _updateSnapshot: mode, added: 0, updated: 0, matched: 0, unmatched: 0 });

  test('writes a new snapshot locally and counts it', () => {
    const dir = fresh();
    const s = state('new');
    const result = promptMatchers.toMatchPromptSnapshot.call({ snapshotState: s, utils }, rendered('Hi'), { dir });
    expect(result.pass).toBe(true);
    expect(s.added).toBe(1);
  });

  test('under --ci a new snapshot is not written and the message says how to write it', () => {
    const dir = fresh();
    const result = promptMatchers.toMatchPromptSnapshot.call({ snapshotState: state('none'), utils }, rendered('Hi'), { dir });
    expect(result.pass).toBe(false);
    expect(result.message()).toMatch(/never written with --ci[\s\S]*test command with `-u`/);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('a changed prompt fails with the line diff of its wording', () => {
    const dir = fresh();
    promptMatchers.toMatchPromptSnapshot.call({ snapshotState: state('new'), utils }, rendered('Refund at most what was paid.\n'), { dir });
    const s = state('new');
    const result = promptMatchers.toMatchPromptSnapshot.call({ snapshotState: s, utils }, rendered('Refund up to twice what was paid.\n'), { dir });
    expect(result.pass).toBe(false);
    expect(s.unmatched).toBe(1);
    expect(result.message()).toMatch(/^-Refund at most what was paid\.$/m);
    expect(result.message()).toMatch(/^\+Refund up to twice what was paid\.$/m);
  });
});

describe('a prompt folder inside snapshots/ that is a symbolic link', () => {
  test('is never entered: not compared, and -u does not write through it to the files it leads to', () => {
    const dir = fresh();
    const elsewhere = fresh();
    const root = join(dir, 'snapshots');
    mkdirSync(root);
    // A snapshot prompt-contract once wrote, moved away, its folder replaced by a link.
    writeAtomic(join(elsewhere, 'basic.txt'), formatSnapshot(rendered('Old wording.\n')));
    const before = readFileSync(join(elsewhere, 'basic.txt'), 'utf8');
    symlinkSync(elsewhere, join(root, 'agent'), 'dir');
    const file = snapshotFile(root, 'agent', 'basic');
    // Comparing, updating the snapshot there, and writing a new one beside it: the link is named, nothing is read or written through it.
    for (const [mode, target] of [['none', file], ['all', file], ['new', snapshotFile(root, 'agent', 'other')]] as const) {
      expect(reconcile(target, formatSnapshot(rendered('New wording.\n')), mode, dir, root)).toMatchObject({ status: 'foreign', link: join('snapshots', 'agent') });
    }
    expect(readFileSync(join(elsewhere, 'basic.txt'), 'utf8')).toBe(before);
    expect(readdirSync(elsewhere)).toEqual(['basic.txt']);
    // The matcher passes its folder as the root too.
    const s = { _updateSnapshot: 'all' as UpdateMode, added: 0, updated: 0, matched: 0, unmatched: 0 };
    // `-u` as a local run has it: on CI, `-u` only compares (and this very suite may run there).
    const ci = process.env.CI;
    process.env.CI = 'false';
    try {
      const result = promptMatchers.toMatchPromptSnapshot.call({ snapshotState: s, utils: { RECEIVED_COLOR: (x: string) => x, EXPECTED_COLOR: (x: string) => x } }, rendered('New wording.\n'), { dir: root }) as { pass: boolean; message(): string };
      expect(result.pass).toBe(false);
      expect(result.message()).toMatch(/cannot be compared: \S*snapshots\/agent is a symbolic link, and a link inside the snapshots folder is never entered/);
    } finally {
      if (ci === undefined) delete process.env.CI;
      else process.env.CI = ci;
    }
    expect(readFileSync(join(elsewhere, 'basic.txt'), 'utf8')).toBe(before);
  });
});

describe('ownership: only files prompt-contract wrote are overwritten or removed', () => {
  const tools = normalizeTools([{ name: 'lookup_order', description: 'Look up an order.', input_schema: { type: 'object', properties: { order_id: { type: 'string' } } } }]);
  // Exactly what version 0.1.0 wrote, before the baseline marker existed.
  const legacy = `${JSON.stringify({ tools: [{ name: 'lookup_order', description: 'Look up an order.', input_schema: tools[0]!.inputSchema }] }, null, 2)}\n`;

  test('a tools baseline is recognised by its marker, or byte for byte as 0.1.0 wrote it', () => {
    const current = formatToolsBaseline(tools);
    expect(current.startsWith('{\n  "prompt-contract": "tools baseline 1",\n  "tools": [')).toBe(true);
    expect(isToolsBaseline(current)).toBe(true);
    expect(isToolsBaseline(legacy)).toBe(true);
    // The same tools written by someone else's tool: not ours.
    expect(isToolsBaseline(JSON.stringify({ tools: [{ name: 'lookup_order', input_schema: {} }] }))).toBe(false);
    expect(isToolsBaseline(`${JSON.stringify({ tools: [{ name: 'x', input_schema: {}, strict: true }] }, null, 2)}\n`)).toBe(false);
    expect(isToolsBaseline('[]')).toBe(false);
    expect(isToolsBaseline('{ not json')).toBe(false);
    expect(isSnapshotText('prompt-contract snapshot 1\nprompt: p\n')).toBe(true);
    expect(isSnapshotText('Notes about prompt-contract snapshot 1\n')).toBe(false);
  });

  test('a legacy baseline still matches; -u rewrites it with the marker', () => {
    const dir = fresh();
    const file = toolsBaselineFile(dir);
    writeFileSync(file, legacy);
    expect(reconcile(file, formatToolsBaseline(tools), 'none').status).toBe('matched');
    expect(reconcile(file, formatToolsBaseline(tools), 'new').status).toBe('matched');
    expect(readFileSync(file, 'utf8')).toBe(legacy);
    expect(reconcile(file, formatToolsBaseline(tools), 'all').status).toBe('updated');
    expect(readFileSync(file, 'utf8')).toBe(formatToolsBaseline(tools));
  });

  test('a baseline of ours cut short is still ours: outdated with the diff, and -u writes it whole again', () => {
    const dir = fresh();
    const file = toolsBaselineFile(dir);
    const whole = formatToolsBaseline(tools);
    writeFileSync(file, whole.slice(0, 80));
    expect(isToolsBaseline(whole.slice(0, 80))).toBe(true);
    const outdated = reconcile(file, whole, 'none');
    expect(outdated.status).toBe('mismatch');
    expect(reconcile(file, whole, 'all').status).toBe('updated');
    expect(readFileSync(file, 'utf8')).toBe(whole);
    // Cut before the marker is whole, it proves nothing: left alone.
    expect(isToolsBaseline(whole.slice(0, 20))).toBe(false);
  });

  test.each(modes)('a foreign file at a snapshot path is never written, mode %s', (mode) => {
    const dir = fresh();
    const file = snapshotFile(dir, 'p', 'c');
    mkdirSync(join(dir, 'p'));
    writeFileSync(file, 'my notes\n');
    const baseline = toolsBaselineFile(dir);
    writeFileSync(baseline, '{"tools": []}');
    expect(reconcile(file, `${HEADER}text\n`, mode).status).toBe('foreign');
    expect(reconcile(baseline, formatToolsBaseline(tools), mode).status).toBe('foreign');
    expect(readFileSync(file, 'utf8')).toBe('my notes\n');
    expect(readFileSync(baseline, 'utf8')).toBe('{"tools": []}');
    // The matcher fails, and says why and what to do.
    const result = promptMatchers.toMatchPromptSnapshot.call({ snapshotState: { _updateSnapshot: mode, added: 0, updated: 0, matched: 0, unmatched: 0 }, utils: { RECEIVED_COLOR: (s: string) => s, EXPECTED_COLOR: (s: string) => s } }, { ...rendered('Hi'), prompt: 'p', case: 'c' }, { dir });
    expect(result.pass).toBe(false);
    expect(result.message()).toContain('was not written by prompt-contract');
  });

  test('the folder scan sorts obsolete, foreign and leftover files; dotfiles and links are never obsolete', () => {
    const dir = fresh();
    mkdirSync(join(dir, 'p'));
    const keep = snapshotFile(dir, 'p', 'keep');
    writeFileSync(keep, `${HEADER}x\n`);
    writeFileSync(join(dir, 'p', 'old.txt'), `${HEADER}x\n`);
    writeFileSync(join(dir, 'p', 'notes.txt'), 'notes\n');
    writeFileSync(join(dir, 'LICENSE.txt'), 'license\n');
    writeFileSync(join(dir, 'old-tools.json'), formatToolsBaseline(tools));
    writeFileSync(join(dir, 'package.json'), '{}');
    writeFileSync(join(dir, '.gitkeep'), '');
    writeFileSync(join(dir, 'p', 'keep.txt.4999999.tmp'), 'prompt-contract sn');
    writeFileSync(join(dir, 'p', 'other.txt.4999998.tmp'), '');
    writeFileSync(join(dir, 'p', 'mine.txt.4999997.tmp'), 'my own temporary notes');
    symlinkSync(keep, join(dir, 'link.txt'));
    const scan = scanSnapshots(dir, new Set([keep]));
    expect(scan.obsolete).toEqual([join(dir, 'old-tools.json'), join(dir, 'p', 'old.txt')]);
    expect(scan.foreign).toEqual([join(dir, 'LICENSE.txt'), join(dir, 'link.txt'), join(dir, 'p', 'mine.txt.4999997.tmp'), join(dir, 'p', 'notes.txt'), join(dir, 'package.json')]);
    expect(scan.leftovers).toEqual([join(dir, 'p', 'keep.txt.4999999.tmp'), join(dir, 'p', 'other.txt.4999998.tmp')]);
    expect(findObsolete(dir, new Set([keep]))).toEqual(scan.obsolete);
  });

  test('removal reads each file again: one that lost its header since the scan is kept', () => {
    const dir = fresh();
    mkdirSync(join(dir, 'gone'));
    const a = join(dir, 'gone', 'a.txt');
    const b = join(dir, 'b.txt');
    writeFileSync(a, `${HEADER}x\n`);
    writeFileSync(b, `${HEADER}x\n`);
    const { obsolete } = scanSnapshots(dir, new Set());
    writeFileSync(b, 'now somebody else\'s file\n');
    expect(removeObsolete(dir, obsolete)).toEqual([a]);
    expect(readdirSync(dir)).toEqual(['b.txt']);
  });

  test('leftovers of a process that still runs are kept; others are removed', () => {
    const dir = fresh();
    const running = join(dir, `c.txt.${process.ppid}.tmp`);
    const dead = join(dir, 'c.txt.4999999.tmp');
    writeFileSync(running, HEADER);
    writeFileSync(dead, HEADER);
    const { leftovers } = scanSnapshots(dir, new Set());
    expect(leftovers.sort()).toEqual([dead, running].sort());
    expect(removeLeftovers(dir, leftovers)).toEqual([dead]);
    expect(readdirSync(dir)).toEqual([basename(running)]);
  });

  test("an old leftover is removed even when its process id now names a running process (ids are reused; 1 always runs in a container)", () => {
    const dir = fresh();
    const reused = join(dir, 'c.txt.1.tmp');
    writeFileSync(reused, HEADER);
    const { leftovers } = scanSnapshots(dir, new Set());
    // Fresh: it may be a write in progress.
    expect(removeLeftovers(dir, leftovers)).toEqual([]);
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(reused, hourAgo, hourAgo);
    expect(removeLeftovers(dir, leftovers)).toEqual([reused]);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('a failed write leaves no temporary file behind', () => {
    const dir = fresh();
    const file = join(dir, 'c.txt');
    mkdirSync(file); // the rename onto a folder fails
    expect(() => writeAtomic(file, 'x')).toThrow();
    expect(readdirSync(dir)).toEqual(['c.txt']);
  });

  test('a write that fails names the snapshot, not its temporary file, as a could-not-run error', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'p'), 'a file where the prompt folder belongs');
    const file = join(dir, 'p', 'c.txt');
    let error: unknown;
    try {
      writeAtomic(file, 'x');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'snapshot/unwritable', file });
    expect((error as Error).message).toMatch(/^Cannot write the snapshot \(.+\); expected a snapshots folder this user can write/);
    expect((error as Error).message).not.toContain('.tmp');
  });

  test('a prompt or case name that is not one path segment is refused', () => {
    for (const [prompt, name] of [['p', '../../etc/passwd'], ['p', '..'], ['p', 'a/b'], ['p', 'a\\b'], ['..', 'c'], ['', 'c'], ['p', '']]) {
      expect(() => snapshotFile('/snap', prompt!, name!)).toThrow(InputError);
    }
    expect(snapshotFile('/snap', 'p', '..c..')).toBe(join('/snap', 'p', '..c...txt'));
  });
});

describe('the snapshots folder must be a folder of its own inside the project', () => {
  test('inside is accepted, whether it exists yet or not', () => {
    const root = fresh();
    expect(() => checkSnapshotsFolder(root, join(root, 'snapshots'))).not.toThrow();
    expect(() => checkSnapshotsFolder(root, join(root, 'a', 'b', 'snapshots'))).not.toThrow();
    // `..snapshots` is a name inside, not a way out.
    expect(() => checkSnapshotsFolder(root, join(root, '..snapshots'))).not.toThrow();
  });

  test('a file where the folder belongs is refused as a file, not read as a missing snapshot folder', () => {
    const root = fresh();
    writeFileSync(join(root, 'snapshots'), 'notes\n');
    expect(() => checkSnapshotsFolder(root, join(root, 'snapshots'), { configFile: join(root, 'prompt-contract.config.ts') })).toThrow(
      expect.objectContaining({ code: 'config/snapshots-folder', message: expect.stringContaining('Unexpected `snapshots` folder `snapshots`: it is a file, not a folder') }),
    );
    expect(readFileSync(join(root, 'snapshots'), 'utf8')).toBe('notes\n');
  });

  test('the root, a parent, a sibling, `..` and a link out are refused', () => {
    const root = fresh();
    const outside = fresh();
    symlinkSync(outside, join(root, 'linked'));
    symlinkSync(root, join(outside, 'back'));
    const refused: Array<[string, RegExp]> = [
      [root, /`\.`: it is the project root/],
      [join(root, 'x', '..'), /`\.`: it is the project root/],
      [join(outside, 'back'), /\(it resolves to `.*`\): it is the project root/],
      [dirname(root), /lies outside the project root/],
      [outside, /lies outside the project root/],
      [join(root, '..', basename(outside)), /lies outside the project root/],
      [join(root, 'linked'), /`linked` \(it resolves to `.*`\): it lies outside the project root/],
      [join(root, 'linked', 'new', 'snapshots'), /it lies outside the project root/],
    ];
    for (const [snapshots, message] of refused) {
      let error: unknown;
      try {
        checkSnapshotsFolder(root, snapshots, { configFile: join(root, 'prompt-contract.config.ts') });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).code).toBe('config/snapshots-folder');
      expect((error as InputError).message).toMatch(message);
      expect((error as InputError).file).toBe(join(root, 'prompt-contract.config.ts'));
    }
  });
});
