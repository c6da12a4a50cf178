import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliInProcess as cli, withDemo } from '../cli/helpers.js';

// The HTML review page through the CLI: self-contained (no URL anywhere, a strict
// Content-Security-Policy that allows only its own style sheet), and every text from prompts
// and tools escaped. Prompts are hostile input. The CLI runs in this process.

const env = { GITHUB_BASE_REF: undefined, PROMPT_CONTRACT_AGAINST: undefined };
const POLICY = 'prompts/partials/_refund_policy.prompt';
const OLD_LINE = '- Offer store credit when the original payment method has expired.';
const HOSTILE = '</script><img src=x onerror=window.__pwned=1><script>window.__pwned=2</script>';

test('a prompt and a tool description holding markup reach the page as text; the page loads nothing and allows only its own style', () =>
  withDemo(async (demo) => {
    demo.edit(POLICY, OLD_LINE, `${OLD_LINE}\n- Never write ${HOSTILE} to the customer.`);
    demo.edit('prompts/tools/descriptions.yaml', '    order_id: The order to refund.', `    order_id: "The order to refund ${HOSTILE.replaceAll('"', '\\"')} <style>body{display:none}</style>"`);
    const file = join(demo.dir, 'review.html');
    const result = await cli(['check', '--no-cache', '--format', 'html', '--output', file], { cwd: demo.dir, env });
    expect(result.code).toBe(1);
    const page = readFileSync(file, 'utf8');
    // The escaped text is there (in the case diff and in the tools table), the markup is not.
    expect(page).toContain('- Never write &lt;/script&gt;&lt;img src=x onerror=window.__pwned=1&gt;&lt;script&gt;window.__pwned=2&lt;/script&gt; to the customer.');
    expect(page).toContain('The order to refund &lt;/script&gt;&lt;img');
    expect(page).not.toMatch(/<img|<script/i);
    expect(page.match(/<style>/g)).toHaveLength(1);
    // Nothing to fetch: no URL of any scheme, no src, no external link.
    expect(page).not.toMatch(/(?:https?|ftp|data|file):/i);
    const tags = [...page.matchAll(/<[a-z][^>]*>/gi)].map((m) => m[0]);
    expect(tags.filter((t) => /\s(?:src|on[a-z]+|srcset|action|formaction)=/i.test(t))).toEqual([]);
    expect([...page.matchAll(/href="([^"]*)"/g)].every((m) => m[1]!.startsWith('#case-'))).toBe(true);
    // The policy allows the one style sheet by its hash, and nothing else.
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1];
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)![1]!;
    expect(csp).toBe(`default-src 'none'; style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'; img-src 'none'; script-src 'none'; base-uri 'none'; form-action 'none'`);
  }));

test('a template finding is shown at the line of the diff it was rendered at', () =>
  withDemo(async (demo) => {
    demo.edit(POLICY, OLD_LINE, `${OLD_LINE}\n\n\`\`\`tool_call\n{"name": "refund_everything", "arguments": {}}\n\`\`\``);
    const file = join(demo.dir, 'review.html');
    const result = await cli(['check', '--no-cache', '--format', 'html', '--output', file], { cwd: demo.dir, env });
    expect(result.code).toBe(1);
    const page = readFileSync(file, 'utf8');
    // The unknown tool's row follows the diff row of the fence line that opened it (after the snapshot's own finding there), in the one section the three refund cases share.
    const rows = [...page.matchAll(/```tool_call<\/td><\/tr>(?:<tr class="finding [a-z]+"><td colspan="4">(?:(?!<\/tr>).)*<\/td><\/tr>)*<tr class="finding error"><td colspan="4"><strong>error<\/strong> <code>example\/unknown-tool<\/code>/g)];
    expect(rows).toHaveLength(1);
    expect(page).toContain('The same change in 2 other cases');
    const md = await cli(['check', '--no-cache', '--format', 'markdown'], { cwd: demo.dir, env });
    expect(md.stdout).toMatch(/- ❌ `example\/unknown-tool` at snapshot line \d+:/);
  }));

test('a reworded line and description mark the words that changed, escaped inside the marks', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/tools/descriptions.yaml', '    order_id: The order to refund.', '    order_id: "The order to refund, as <b>written</b> by the customer."');
    const file = join(demo.dir, 'review.html');
    const result = await cli(['check', '--no-cache', '--format', 'html', '--output', file], { cwd: demo.dir, env });
    expect(result.code).toBe(1);
    const page = readFileSync(file, 'utf8');
    const row = /<tr><td><code>create_refund<\/code><\/td><td><code>order_id<\/code><\/td><td><div class="desc del">(.*?)<\/div><\/td><td><div class="desc add">(.*?)<\/div><\/td><\/tr>/.exec(page);
    expect(row).not.toBeNull();
    expect(row![1]).toBe('The order to refund.');
    const marked = [...row![2]!.matchAll(/<mark>(.*?)<\/mark>/g)].map((m) => m[1]).join('');
    expect(marked).toContain('as &lt;b&gt;written&lt;/b&gt; by the customer');
    expect(row![2]!.startsWith('The order to refund')).toBe(true);
    // The same words are marked in the side-by-side diff of the cases that send the tool (one section for the three).
    expect(page.match(/<td class="text add">      The order to refund[^<]*<mark>/g)).toHaveLength(1);
  }));
