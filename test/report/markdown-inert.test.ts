// A `--format markdown` report is posted as a pull-request comment, where GitHub renders it:
// text from the files checked (tool names, values, ids, file names) must stay text there.
import { describe, expect, test } from '@jest/globals';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { formatMarkdown, markdownCode } from '../../src/report/format.js';
import type { Diagnostic } from '../../src/report/diagnostic.js';

interface Node {
  type: string;
  value?: string;
  children?: Node[];
}

function nodes(markdown: string): Node[] {
  const out: Node[] = [];
  const walk = (node: Node): void => {
    out.push(node);
    for (const child of node.children ?? []) walk(child);
  };
  walk(fromMarkdown(markdown) as Node);
  return out;
}

const hostile = [
  'x` ![i](https://evil.example/i.png) `',
  '`` [l](https://evil.example) ``',
  '<img src=x onerror=alert(1)> <script>x</script>',
  '@octocat please look',
  '[ref]: https://evil.example\n[ref]',
  '| ![p](https://evil.example/p.png) |',
  '\\| ![q](https://evil.example/q.png) \\\\| ![r](https://evil.example/r.png)',
  '*em* _em_ **strong** &amp; &#64;octocat',
  '`',
  ' ` ',
];

function finding(text: string): Diagnostic {
  return {
    ruleId: 'recorded/unknown-tool',
    severity: 'error',
    message: `Unexpected tool \`${text}\`, expected one of \`lookup\``,
    file: `calls-${text}.jsonl`,
    line: 3,
    tool: text,
    fix: `Rename \`${text}\``,
    witnesses: [{ id: text }],
    detail: `-${text}\n+${text}`,
  };
}

describe('formatMarkdown', () => {
  test.each(hostile)('renders %j as text only: no link, image, HTML, reference or mention', (text) => {
    const { file: _file, ...noFile } = finding(text);
    const out = formatMarkdown([finding(text), noFile]);
    const all = nodes(out);
    const kinds = all.map((n) => n.type);
    for (const kind of ['link', 'image', 'linkReference', 'imageReference', 'definition', 'emphasis']) expect(kinds).not.toContain(kind);
    // The only strong text is the report's own `Fix:` label.
    for (const n of all.filter((n) => n.type === 'strong')) expect(n.children).toEqual([expect.objectContaining({ type: 'text', value: 'Fix:' })]);
    // The only HTML is the report's own collapsible diff.
    for (const n of all.filter((n) => n.type === 'html')) expect(n.value).toMatch(/^(<details><summary>[a-z/-]+<\/summary>|<\/details>)$/);
    // Plain text holds nothing from the finding: every part of it is in code.
    const plain = all.filter((n) => n.type === 'text' && n.value !== 'Fix:').map((n) => n.value).join('\n');
    expect(plain).not.toMatch(/evil|octocat|img|script|em\b|ref/);
  });

  test('a row stays one row of four cells whatever the text holds', () => {
    for (const text of hostile) {
      const rows = formatMarkdown([finding(text)]).split('\n').filter((l) => l.startsWith('| ❌'));
      expect(rows).toHaveLength(1);
      // Cells split where GitHub splits them: at a pipe after an even run of backslashes.
      const cells = rows[0]!.split(/(?<=(?:^|[^\\])(?:\\\\)*)\|/);
      expect(cells).toHaveLength(6);
    }
  });

  test('a code span keeps the text as it is, backticks and spaces included', () => {
    for (const text of ['a`b', '`a', 'b`', ' a ', '``x``', 'plain']) {
      const [paragraph] = fromMarkdown(markdownCode(text)).children as Node[];
      expect(paragraph!.children).toEqual([expect.objectContaining({ type: 'inlineCode', value: text })]);
    }
  });
});
