import { execFileSync } from 'node:child_process';
import { markdownParts } from '../helpers/markdown.js';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliInProcess as cli, withDemo, type Demo } from '../cli/helpers.js';

// `check --format markdown|html` through the CLI on a copy of the demo: each drift a reviewer
// must see (a template line, a tool description, a tool added or removed) is made, and the
// review shows it; unchanged cases are counted, not listed. The CLI runs in this process.

// The baseline is the snapshots on disk unless a run names a revision: a CI base branch in the environment must not pick one.
const env = { GITHUB_BASE_REF: undefined, PROMPT_CONTRACT_AGAINST: undefined };
const check = (demo: Demo, ...args: string[]) => cli(['check', '--no-cache', ...args], { cwd: demo.dir, env });

const POLICY = 'prompts/partials/_refund_policy.prompt';
const OLD_LINE = '- Offer store credit when the original payment method has expired.';
const NEW_LINE = '- Offer store credit when the original payment method has expired, or when the customer asks.';
const REFUND_CASES = ['empty_retrieval', 'legacy_order', 'standard_refund'];
const OTHER_CASES = ['address_change', 'cancellation', 'first_message', 'follow_up_openai', 'refund_gemini'];

test('markdown: an edited template line shows in each case that renders it, with its lines and findings; the other cases are counted', () =>
  withDemo(async (demo) => {
    demo.edit(POLICY, OLD_LINE, NEW_LINE);
    const result = await check(demo, '--format', 'markdown');
    expect(result.code).toBe(1);
    const out = result.stdout;
    // The findings-only format's verdict line stays first.
    expect(out.split('\n')[0]).toBe('### ❌ prompt-contract: 3 errors, 0 warnings, 0 infos');
    expect(out).toContain('3 cases changed of 9');
    expect(out).toContain('6 unchanged cases not listed.');
    // One edit of a shared partial is one change: shown once, with the other cases that have it named.
    expect(out).toContain('#### `refund_agent` / `empty_retrieval`: changed');
    expect(out).toContain('The same change in 2 other cases: `refund_agent` / `legacy_order`, `refund_agent` / `standard_refund`');
    expect(out.match(/^#### `/gm)).toHaveLength(1);
    expect(out.match(/^\+- Offer store credit/gm)).toHaveLength(1);
    for (const name of REFUND_CASES) {
      // Token counts come from the snapshot headers: the committed one's and the one rendered now, one line longer.
      const committed = /^tokens: prompt \d+ \+ tools \d+ = (\d+) /m.exec(demo.read(`snapshots/refund_agent/${name}.txt`))![1]!;
      const row = new RegExp(`\\| \`refund_agent\` \\| \`${name}\` \\| changed \\| ${Number(committed).toLocaleString('en-US')}~ → ([\\d,]+)~ \\(\\+(\\d+)\\) \\| \\+2 −2 \\| ❌ 1 \\|`).exec(out);
      expect(row).not.toBeNull();
      expect(Number(row![1]!.replaceAll(',', '')) - Number(committed)).toBe(Number(row![2]));
      expect(Number(row![2])).toBeGreaterThan(0);
    }
    for (const name of OTHER_CASES) expect(out).not.toContain(name);
    expect(out).toContain(`-${OLD_LINE}`);
    expect(out).toContain(`+${NEW_LINE}`);
    // The snapshot finding is listed with its case, at the first line that changed (the header's token count).
    const line = demo.read('snapshots/refund_agent/standard_refund.txt').split('\n').findIndex((l) => l.startsWith('tokens: ')) + 1;
    expect(out).toContain(`- ❌ \`snapshot/outdated\` at snapshot line ${line}:`);
    expect(out).toContain('~ marks an estimate: `anthropic-estimate`');
  }));

test('markdown: a reworded tool and parameter description, a tool added and one removed', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/tools/descriptions.yaml', '    order_id: The order to refund.', '    order_id: The order to refund, as lookup_order returned it.');
    demo.edit('prompts/tools/descriptions.yaml', 'Report where a refund is (pending, sent, failed) by its refund id.', 'Report the state of a refund by its id.');
    demo.edit('prompts/tools/index.ts', 'export const tools = [\n', "export const tools = [\n  defineTool({ name: 'ping_warehouse', description: 'Ask the warehouse whether a SKU is in stock.', input: z.object({ sku: z.string() }) }),\n");
    demo.edit('prompts/tools/descriptions.yaml', '    address.line1: Street and number.', '    address.line1: Street, number and building name.');
    // A bound changed and no description: named as a schema change (compat says what it breaks).
    demo.edit('prompts/tools/index.ts', "reason: z.enum(['customer_request', 'payment_failed', 'out_of_stock', 'fraud_suspected'])", "reason: z.enum(['customer_request', 'payment_failed', 'out_of_stock'])");
    // A tool the baseline had and the project no longer sends.
    const baseline = JSON.parse(demo.read('snapshots/tools.json')) as { tools: unknown[] };
    baseline.tools.push({ name: 'legacy_lookup', description: 'Old lookup.', input_schema: { type: 'object', properties: {} } });
    demo.write('snapshots/tools.json', `${JSON.stringify(baseline, null, 2)}\n`);
    const result = await check(demo, '--format', 'markdown');
    expect(result.code).toBe(1);
    const out = result.stdout;
    expect(out).toContain('- Added: `ping_warehouse`');
    expect(out).toContain('- Removed: `legacy_lookup`');
    expect(out).toContain('| `create_refund` | `order_id` | `The order to refund.` | `The order to refund, as lookup_order returned it.` |');
    expect(out).toContain('| `check_refund_status` | (tool) | `Report where a refund is (pending, sent, failed) by its refund id.` | `Report the state of a refund by its id.` |');
    expect(out).toContain('| `update_shipping_address` | `address.line1` | `Street and number.` | `Street, number and building name.` |');
    expect(out).toContain('- Schema changed, same descriptions: `cancel_order`');
    expect(out).toContain('`compat/enum-narrowed`');
    // The cases that send the reworded tools changed; order_triage sends update_shipping_address and cancel_order.
    expect(out).toMatch(/\| `order_triage` \| `address_change` \| changed \|/);
    // Removing a tool is a breaking change, listed among the findings.
    expect(out).toContain('`compat/tool-removed`');
  }));

test('markdown: nothing changed, nothing listed, exit 0', () =>
  withDemo(async (demo) => {
    const result = await check(demo, '--format', 'markdown');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('0 cases changed of 9');
    expect(result.stdout).toContain('9 unchanged cases not listed.');
    expect(result.stdout).not.toContain('####');
  }));

test('--against REF: the snapshots at the revision are the baseline, so a change committed with its updated snapshot still shows', () =>
  withDemo(async (demo) => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: demo.dir, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' } });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'baseline');
    // The edit and its snapshots updated together, as after `jest -u`: the line, and the header's count as the snapshot finding's diff gives it.
    demo.edit(POLICY, OLD_LINE, NEW_LINE);
    const pending = JSON.parse((await check(demo, '--format', 'json')).stdout) as { diagnostics: Array<{ file?: string; detail?: string }> };
    for (const name of REFUND_CASES) {
      const outdated = pending.diagnostics.find((d) => d.file === join('snapshots', 'refund_agent', `${name}.txt`))!;
      const counted = /^\+(tokens: .*)$/m.exec(outdated.detail!)![1]!;
      demo.edit(`snapshots/refund_agent/${name}.txt`, OLD_LINE, NEW_LINE);
      demo.edit(`snapshots/refund_agent/${name}.txt`, /^tokens: .*$/m, counted);
    }
    const onDisk = await check(demo, '--format', 'markdown');
    expect(onDisk.code).toBe(0);
    expect(onDisk.stdout).toContain('0 cases changed of 9');
    const atHead = await check(demo, '--format', 'markdown', '--against', 'HEAD');
    expect(atHead.code).toBe(0);
    expect(atHead.stdout).toContain('3 cases changed of 9, compared with the snapshots at `HEAD`');
    expect(atHead.stdout).toContain(`+${NEW_LINE}`);
    // A case added since the revision has no baseline there: it is new.
    demo.edit('prompts/cases/order_triage.yaml', '  cancellation:\n', '  cancellation_again:\n    input:\n      customer: { name: Tom Becker, id: C-20417 }\n      order_id: B-4410\n      message: "Cancel it, please."\n    retrieval: cancellations\n  cancellation:\n');
    const added = await check(demo, '--format', 'markdown', '--against', 'HEAD');
    expect(added.stdout).toContain('4 cases changed of 10');
    expect(added.stdout).toContain('#### `order_triage` / `cancellation_again`: new');
    const bad = await check(demo, '--format', 'html', '--against', 'no-such-ref');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no-such-ref');
  }));

test('markdown stays within GitHub\'s comment limit: a long diff is cut with a count of the lines left out', () =>
  withDemo(async (demo) => {
    const long = Array.from({ length: 4000 }, (_, i) => `- Rule ${i}: keep the customer informed about step ${i} of the refund.`).join('\n');
    demo.edit(POLICY, OLD_LINE, `${OLD_LINE}\n${long}`);
    const result = await check(demo, '--format', 'markdown');
    expect(result.code).toBe(1);
    expect(result.stdout.length).toBeLessThanOrEqual(65_536);
    expect(result.stdout).toMatch(/… \d+ more diff lines not shown/);
    expect(result.stdout).toContain('3 cases changed of 9');
  }));

test('html --output: one page written whole (no temporary file left), exit code of check; an unwritable path cannot run', () =>
  withDemo(async (demo) => {
    demo.edit(POLICY, OLD_LINE, NEW_LINE);
    const out = join(demo.dir, 'out');
    const result = await check(demo, '--format', 'html', '--output', join(out, 'report.html'));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(readdirSync(out)).toEqual(['report.html']);
    const page = readFileSync(join(out, 'report.html'), 'utf8');
    for (const name of REFUND_CASES) expect(page).toContain(`data-case="${name}"`);
    expect(page).toContain('6 unchanged cases not shown.');
    // A directory where the file should go: nothing written, exit 2.
    mkdirSync(join(out, 'taken.html'));
    const refused = await check(demo, '--format', 'html', '--output', join(out, 'taken.html'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Cannot write the report');
    expect(readdirSync(out).sort()).toEqual(['report.html', 'taken.html']);
    expect(existsSync(join(out, 'taken.html', 'index.html'))).toBe(false);
  }));

test('markdown: a hostile prompt line and tool description render as code, never as a link, image, HTML, mention or workflow command', () =>
  withDemo(async (demo) => {
    const hostile = '![i](https://evil.example/i.png) [l](https://evil.example) <img src=x> @octocat ```` | `';
    demo.edit(POLICY, OLD_LINE, `${OLD_LINE}\n::error file=a.ts,line=1::FORGED ${hostile}`);
    demo.edit('prompts/tools/descriptions.yaml', '    order_id: The order to refund.', `    order_id: ${JSON.stringify(`Refund it. ${hostile}`)}`);
    const result = await check(demo, '--format', 'markdown');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('evil.example');
    expect(result.stdout.split('\n').filter((l) => l.trimStart().startsWith('::'))).toEqual([]);
    const { kinds, texts } = markdownParts(result.stdout);
    for (const kind of ['link', 'image', 'html', 'linkReference', 'imageReference', 'definition']) expect(kinds).not.toContain(kind);
    expect(kinds).toContain('code');
    expect(texts.join('\n')).not.toMatch(/@octocat|evil\.example/);
  }));
