import { fromMarkdown } from 'mdast-util-from-markdown';
import { formatGithub, formatMarkdown } from '../../src/report/format.js';
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

describe('formatMarkdown', () => {
  test("a diff that holds fences of its own stays inside its block: the block's fence is longer", () => {
    const detail = ['--- snapshots/a.txt', '+++ rendered', ' ```json', '-{"name": "x"}', '+{"name": "y"}', ' ```', ' ````', ' text after'].join('\n');
    const out = formatMarkdown([{ ruleId: 'snapshot/changed', severity: 'error', message: 'Changed', file: 'snapshots/<a>.txt', line: 1, detail }]);
    expect(out).toContain('<summary>snapshot/changed: snapshots/&lt;a&gt;.txt</summary>');
    // As GitHub reads it: one code block, holding the whole diff.
    const code = fromMarkdown(out).children.filter((n) => n.type === 'code');
    expect(code).toHaveLength(1);
    expect(code[0]).toMatchObject({ lang: 'diff', value: detail });
  });
});
