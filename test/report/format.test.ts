import { fromMarkdown } from 'mdast-util-from-markdown';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatGithub, formatMarkdown, formatPretty } from '../../src/report/format.js';
import { cliInProcess } from '../cli/helpers.js';
import type { Diagnostic } from '../../src/report/diagnostic.js';

const finding = (tool: string | undefined, line: number): Diagnostic => ({
  ruleId: 'provider/missing-description',
  severity: 'info',
  message: 'Missing description',
  file: 'tools.json',
  line,
  column: 5,
  ...(tool === undefined ? {} : { tool }),
});

describe('formatGithub', () => {
  test('names the tool in the title, so findings about different tools read as different annotations', () => {
    const out = formatGithub([finding('create_refund', 3), finding('cancel_order', 9)]).trim().split('\n');
    expect(out).toEqual([
      '::notice file=tools.json,line=3,col=5,title=provider/missing-description (create_refund)::Missing description',
      '::notice file=tools.json,line=9,col=5,title=provider/missing-description (cancel_order)::Missing description',
    ]);
  });

  test('a finding about no tool keeps the rule id alone; a tool name is escaped like any property', () => {
    expect(formatGithub([finding(undefined, 1)])).toContain(',title=provider/missing-description::');
    expect(formatGithub([finding('a,b:c', 1)])).toContain('title=provider/missing-description (a%2Cb%3Ac)::');
  });
});

describe('formatGithub names the related places', () => {
  test("a handler finding carries the handler type's file and line in its message, relative to the workspace", () => {
    const d: Diagnostic = { ruleId: 'handler/required-not-in-schema', severity: 'error', message: 'the handler requires `channel`', file: '/repo/pkg/tools.json', line: 4, column: 3, tool: 't', related: [{ file: '/repo/pkg/src/handlers/refund.ts', line: 17, message: 'handler type `RefundArgs`' }] };
    expect(formatGithub([d], '/repo')).toBe('::error file=pkg/tools.json,line=4,col=3,title=handler/required-not-in-schema (t)::the handler requires `channel`%0Ahandler type `RefundArgs`: pkg/src/handlers/refund.ts:17\n');
  });
});

describe('control characters from checked files, in every format', () => {
  test('github and markdown show them as \\u escapes, as pretty does: a CI log or a comment must not run them', () => {
    const d: Diagnostic = { ruleId: 'provider/missing-description', severity: 'info', message: 'Missing description on tool `t\u001b[31m`', file: 'tools\u0007.json', line: 1, column: 1, tool: 't\u001b[31m', detail: '-a\u001b[2J\n+b' };
    for (const out of [formatGithub([d], undefined), formatMarkdown([d])]) {
      expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(out).toContain('t\\u001b[31m');
    }
  });
});

describe('formatGithub in GitHub Actions', () => {
  test('places files relative to the repository root (GITHUB_WORKSPACE), so a package checked from its own folder annotates the right file', () => {
    const workspace = join(process.cwd(), '..');
    const shown = formatGithub([{ ...finding('a', 3), file: 'prompts/examples/assistant.yaml' }], workspace);
    expect(shown).toContain(`::notice file=${process.cwd().split('/').at(-1)}/prompts/examples/assistant.yaml,line=3,`);
    // Outside Actions, or a file outside the workspace (an absolute path elsewhere): as given.
    expect(formatGithub([{ ...finding('a', 3), file: 'prompts/x.yaml' }], undefined)).toContain('file=prompts/x.yaml,');
    expect(formatGithub([{ ...finding('a', 3), file: '/elsewhere/x.yaml' }], workspace)).toContain('file=/elsewhere/x.yaml,');
  });
});

describe('formatMarkdown', () => {
  test("a diff that holds fences of its own stays inside its block: the block's fence is longer", () => {
    const detail = ['--- snapshots/a.txt', '+++ rendered', ' ```json', '-{"name": "x"}', '+{"name": "y"}', ' ```', ' ````', ' text after'].join('\n');
    const out = formatMarkdown([{ ruleId: 'snapshot/changed', severity: 'error', message: 'Changed', file: 'snapshots/<a>.txt', line: 1, detail }]);
    // The file in a code span below the summary: HTML is rendered, a file name in it could hold a mention.
    expect(out).toContain('<summary>snapshot/changed</summary>\n\n`snapshots/<a>.txt`\n');
    // As GitHub reads it: one code block, holding the whole diff.
    const code = fromMarkdown(out).children.filter((n) => n.type === 'code');
    expect(code).toHaveLength(1);
    expect(code[0]).toMatchObject({ lang: 'diff', value: detail });
  });
});

describe('control characters from the files checked', () => {
  // ESC [2J clears a terminal; U+009B is the one-byte form of ESC [; a lone CR overwrites the line.
  const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

  test('formatPretty writes them out instead of sending them to the terminal', () => {
    const out = formatPretty([
      { ruleId: 'recorded/unknown-tool', severity: 'error', message: 'Calls name `\u001b[2Jx`, which is not a tool', tool: '\u001b[2Jx\u009b', file: 'a\rb.jsonl', line: 1, fix: 'Rename \u0007', detail: 'one\n\u001b[31mtwo', related: [{ message: 'see \u001b', file: 'c\u001b.ts', line: 2 }], witnesses: [{ id: 'w\u001b', value: '\u001b' }] },
    ]);
    expect(out).not.toMatch(raw);
    expect(out).toContain('[\\u001b[2Jx\\u009b] Calls name `\\u001b[2Jx`');
    expect(out).toContain('a\\u000db.jsonl');
    expect(out).toContain('\\u001b[31mtwo');
  });

  test('extract prints a tool name and values with them as text, and exits as before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prompt-contract-controls-'));
    try {
      writeFileSync(join(dir, 'p.md'), '<tool_call>{"name": "a\\u001b[2Jb", "arguments": {"x": "\\u009b"}}</tool_call>\n');
      const r = await cliInProcess(['extract', 'p.md'], { cwd: dir });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(raw);
      expect(r.stdout).toContain('a\\u001b[2Jb {"x":"\\u009b"}');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
