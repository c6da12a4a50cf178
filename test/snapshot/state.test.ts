import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promptMatchers } from '../../src/jest.js';
import type { RenderedCase } from '../../src/render/render.js';
import { formatSnapshot } from '../../src/snapshot/format.js';
import { findObsolete, reconcile, removeObsolete, snapshotFile, type UpdateMode } from '../../src/snapshot/state.js';
import { normalizeTools } from '../../src/tools/normalize.js';

const tools = normalizeTools([{ name: 'lookup_order', description: 'Look up an order.', input_schema: { type: 'object', properties: { order_id: { type: 'string', pattern: '^[AB]-\\d{4}$', description: 'The order.' }, items: { type: 'boolean' } }, required: ['order_id'] } }]);
const rendered = (text: string): RenderedCase => ({ prompt: 'agent', case: 'basic', text, tools, sourceMap: undefined as never });
const fresh = () => mkdtempSync(join(tmpdir(), 'pc-snap-'));

describe('snapshot text', () => {
  test('holds the prompt verbatim and each parameter on one line', () => {
    const text = 'Use ```tool_call``` blocks, "quotes" and \\backslashes\\.\r\nSecond line';
    const snap = formatSnapshot(rendered(text));
    expect(snap).toContain(`${text}\n`);
    expect(snap).toContain(`rendered prompt: ${text.length} characters, 2 lines, no final newline`);
    expect(snap).toMatch(/^ {2}order_id {2}string {2}required {2}pattern \^\[AB\]-\\d\{4\}\$$/m);
    expect(snap).toMatch(/^ {2}items {2}boolean {2}optional$/m);
    expect(snap).toContain('      The order.');
  });
});

describe('reconcile follows Jest update modes', () => {
  const modes: UpdateMode[] = ['none', 'new', 'all'];
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
    reconcile(file, 'line one\nline two\n', 'new');
    const result = reconcile(file, 'line one\nline 2\n', mode);
    if (mode === 'all') {
      expect(result.status).toBe('updated');
      expect(readFileSync(file, 'utf8')).toBe('line one\nline 2\n');
    } else {
      expect(result.status).toBe('mismatch');
      expect(result.diff).toMatch(/^-line two$/m);
      expect(result.diff).toMatch(/^\+line 2$/m);
      expect(readFileSync(file, 'utf8')).toBe('line one\nline two\n');
    }
    // Written through a temporary file and a rename: nothing else is left behind.
    expect(readdirSync(join(dir, 'p'))).toEqual(['c.txt']);
  });

  test('obsolete files are found and removed with their empty folders', () => {
    const dir = fresh();
    mkdirSync(join(dir, 'gone'), { recursive: true });
    writeFileSync(join(dir, 'gone', 'old.txt'), 'x');
    writeFileSync(join(dir, 'keep.txt'), 'x');
    const obsolete = findObsolete(dir, new Set([join(dir, 'keep.txt')]));
    expect(obsolete).toEqual([join(dir, 'gone', 'old.txt')]);
    removeObsolete(dir, obsolete);
    expect(readdirSync(dir)).toEqual(['keep.txt']);
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
    expect(result.message()).toMatch(/never written with --ci[\s\S]*Jest command with `-u`/);
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
