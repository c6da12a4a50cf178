import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promptMatchers } from '../src/jest.js';
import { loadProject, type Project } from '../src/project.js';
import { renderCase, renderDataItems, type RenderedCase } from '../src/render/render.js';
import { demoCopy } from './cli/helpers.js';

// The matchers on their own, on inputs that must fail them: a matcher that always passed, or a
// message that lost the file and line, would fail here.

const utils = { RECEIVED_COLOR: (s: string) => s, EXPECTED_COLOR: (s: string) => s };
const counters = () => ({ _updateSnapshot: 'none' as const, added: 0, updated: 0, matched: 0, unmatched: 0 });

let demo: ReturnType<typeof demoCopy>;
let project: Project;
let stale: RenderedCase;

beforeAll(async () => {
  demo = demoCopy();
  demo.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
  project = await loadProject({ cwd: demo.dir, importer: (file) => import(pathToFileURL(file).href) });
  stale = renderCase(project.module, 'refund_agent', 'standard_refund', project.registry);
});
afterAll(() => demo.remove());

describe('toHaveValidToolExamples', () => {
  test('fails on a stale example and names the YAML line and the rule', () => {
    const line = demo.read('prompts/examples/refund_agent.yaml').split('\n').findIndex((l) => l.includes('amount_cents: 420000')) + 1;
    const result = promptMatchers.toHaveValidToolExamples.call({ utils }, stale);
    expect(result.pass).toBe(false);
    const message = result.message();
    expect(message).toContain('`refund_agent` case `standard_refund`');
    expect(message).toContain('prompts/examples/refund_agent.yaml');
    expect(message).toContain(`${line}:`);
    expect(message).toContain('example/invalid-arguments');
  });

  test('fails on a curated item rendered alone, and passes on a clean one', () => {
    const items = renderDataItems(project.module, 'refund_agent', project.registry);
    const results = items.map((item) => promptMatchers.toHaveValidToolExamples.call({ utils }, item));
    expect(results.filter((r) => !r.pass)).toHaveLength(1);
    expect(results.filter((r) => r.pass).length).toBeGreaterThan(0);
    expect(results.find((r) => r.pass)!.message()).toContain('to have invalid tool-call examples');
  });
});

describe('toMatchPromptSnapshot', () => {
  test('matches the committed snapshot, and counts it', () => {
    const clean = renderCase(project.module, 'order_triage', 'cancellation', project.registry);
    const state = counters();
    const result = promptMatchers.toMatchPromptSnapshot.call({ utils, snapshotState: state }, clean, { dir: join(demo.dir, 'snapshots') });
    expect(result.pass).toBe(true);
    expect(state.matched).toBe(1);
  });

  test('fails with a line diff on a changed prompt, and writes nothing under --ci', () => {
    const file = join(demo.dir, 'snapshots', 'refund_agent', 'standard_refund.txt');
    const before = readFileSync(file, 'utf8');
    const state = counters();
    const result = promptMatchers.toMatchPromptSnapshot.call({ utils, snapshotState: state }, stale, { dir: join(demo.dir, 'snapshots') });
    expect(result.pass).toBe(false);
    expect(state.unmatched).toBe(1);
    expect(result.message()).toMatch(/^- +"amount_cents": 4200,$/m);
    expect(result.message()).toMatch(/^\+ +"amount_cents": 420000,$/m);
    expect(result.message()).toContain('-u');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  test('a missing snapshot fails under --ci and is written on a local run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pc-matcher-'));
    try {
      const ci = promptMatchers.toMatchPromptSnapshot.call({ utils, snapshotState: counters() }, stale, { dir });
      expect(ci.pass).toBe(false);
      expect(ci.message()).toContain('none was written');
      const local = { ...counters(), _updateSnapshot: 'new' as const };
      expect(promptMatchers.toMatchPromptSnapshot.call({ utils, snapshotState: local }, stale, { dir }).pass).toBe(true);
      expect(local.added).toBe(1);
      expect(readFileSync(join(dir, 'refund_agent', 'standard_refund.txt'), 'utf8')).toContain('"amount_cents": 420000');
      // A file someone else put there is never overwritten, even with -u.
      writeFileSync(join(dir, 'refund_agent', 'standard_refund.txt'), 'my notes\n');
      const update = { ...counters(), _updateSnapshot: 'all' as const };
      expect(promptMatchers.toMatchPromptSnapshot.call({ utils, snapshotState: update }, stale, { dir }).pass).toBe(false);
      expect(readFileSync(join(dir, 'refund_agent', 'standard_refund.txt'), 'utf8')).toBe('my notes\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
