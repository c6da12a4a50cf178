import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { parseSnapshotTokens, type TokenCount } from '../../src/index.js';
import { cliInProcess as cli, lineOf, report, withDemo, type Demo } from '../cli/helpers.js';

// Budgets through `prompt-contract check`, as a user runs it: each test changes a copy of the
// demo and reads the JSON report. The counts compared with are read from the demo's own
// snapshots (their `tokens:` line) or from what `check` printed, never written here by hand.

const check = (dir: string, ...args: string[]) => cli(['check', '--format', 'json', ...args], { cwd: dir });
const refundCases = ['empty_retrieval', 'legacy_order', 'standard_refund'];
const countOf = (demo: Demo, name: string): TokenCount => parseSnapshotTokens(demo.read(`snapshots/refund_agent/${name}.txt`))!;

/** Sentences of policy text, about `n` × 20 tokens, different words each so no tokenizer folds them. */
const policyText = (n: number): string =>
  Array.from({ length: n }, (_unused, i) => `Rule ${i + 1}: a refund for order class ${String.fromCharCode(65 + (i % 26))}-${1000 + i * 37} needs a photo of the damage, the receipt and a note from the courier.`).join('\n');

/** The count `check` would write into the snapshot now, read from the `+tokens:` line of its diff. */
function countNow(diagnostics: ReturnType<typeof report>['diagnostics'], name: string): TokenCount {
  const outdated = diagnostics.find((d) => d.ruleId === 'snapshot/outdated' && d.file === `snapshots/refund_agent/${name}.txt`) as { detail?: string } | undefined;
  const line = outdated?.detail?.split('\n').find((l) => l.startsWith('+tokens: '));
  if (line === undefined) throw new Error(`no tokens line in the diff of ${name}`);
  return parseSnapshotTokens(line.slice(1))!;
}

function git(dir: string, args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

test('a drift that pushes a case over its budget is budget/exceeded at the prompt, with the budget line related; the most specific budget wins', () =>
  withDemo(async (demo) => {
    const counts = refundCases.map((c) => countOf(demo, c).total);
    const limit = Math.max(...counts) + 5;
    const prompt = 'prompts/refund_agent.prompt';
    // The config's budget would fail every case; the prompt's own, just above its largest case, wins.
    demo.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  budget: 100,");
    demo.edit(prompt, 'model: anthropic/claude-sonnet\n', `model: anthropic/claude-sonnet\nbudget: ${limit}\n`);
    const first = report(await check(demo.dir)).diagnostics.filter((d) => d.ruleId.startsWith('budget/'));
    expect(first.filter((d) => d.file === prompt)).toEqual([]);
    // The other prompts have only the config's.
    expect(first.length).toBeGreaterThan(0);
    expect(first.every((d) => d.ruleId === 'budget/exceeded' && (d as { expected?: unknown }).expected === 100)).toBe(true);

    // Two rules more in the prompt: the largest case passes its budget, the others stay under it.
    demo.edit(prompt, '## How to call tools', `${policyText(2)}\n\n## How to call tools`);
    const over = await check(demo.dir);
    expect(over.code).toBe(1);
    const found = report(over).diagnostics.filter((d) => d.ruleId === 'budget/exceeded' && d.file === prompt);
    const largest = refundCases[counts.indexOf(Math.max(...counts))]!;
    const now = countNow(report(over).diagnostics, largest);
    expect(now.total).toBeGreaterThan(limit);
    expect(found).toHaveLength(refundCases.filter((c) => countNow(report(over).diagnostics, c).total > limit).length);
    const hit = found.find((d) => d.message.includes(`case \`${largest}\``));
    expect(hit).toMatchObject({ severity: 'error', file: prompt, line: 1, expected: limit, actual: now.total });
    const related = (hit as { related?: Array<{ file: string; line?: number }> }).related!;
    expect(related[0]).toMatchObject({ file: prompt, line: lineOf(demo.read(prompt), `budget: ${limit}`) });

    // A case's own budget wins over its prompt's.
    demo.edit('prompts/cases/refund_agent.yaml', `  ${largest}:\n`, `  ${largest}:\n    budget: ${now.total}\n`);
    const own = await check(demo.dir);
    expect(report(own).diagnostics.filter((d) => d.ruleId === 'budget/exceeded' && d.message.includes(`case \`${largest}\``))).toEqual([]);
  }));

test('growth past budgetGrowth is budget/grew, a warning with both counts; a larger share allows it, and a policy entry with a reason accepts it', () =>
  withDemo(async (demo) => {
    const before = countOf(demo, 'empty_retrieval');
    demo.edit('prompts/refund_agent.prompt', '## How to call tools', `${policyText(Math.ceil(before.total / 60))}\n\n## How to call tools`);
    const grown = await check(demo.dir);
    const all = report(grown).diagnostics;
    const after = countNow(all, 'empty_retrieval');
    expect(after.total).toBeGreaterThan(before.total * 1.1);
    const hit = all.find((d) => d.ruleId === 'budget/grew' && d.message.includes('case `empty_retrieval`'));
    expect(hit).toMatchObject({ severity: 'warning', file: 'prompts/refund_agent.prompt', expected: before.total, actual: after.total });
    expect(hit!.message).toContain(`from ${before.total.toLocaleString('en-US')} to ${after.total.toLocaleString('en-US')} tokens`);

    demo.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  budgetGrowth: 2,");
    expect(report(await check(demo.dir)).diagnostics.filter((d) => d.ruleId === 'budget/grew')).toEqual([]);

    demo.edit('prompt-contract.config.ts', 'budgetGrowth: 2,', "policy: 'policy.yaml',");
    demo.write('policy.yaml', 'ignore:\n  - rule: budget/grew\n    reason: the refund rules are new and reviewed\n');
    const excused = report(await check(demo.dir)).diagnostics;
    expect(excused.filter((d) => d.ruleId === 'budget/grew' || d.ruleId === 'compat/unused-ignore')).toEqual([]);
  }));

test('--against measures growth from the snapshots at a git revision: a working-tree snapshot rewritten with the growth does not hide it', () =>
  withDemo(async (demo) => {
    git(demo.dir, ['init', '--quiet', '--initial-branch', 'main']);
    git(demo.dir, ['add', '-A']);
    git(demo.dir, ['commit', '--quiet', '-m', 'base']);
    const before = countOf(demo, 'legacy_order');
    demo.edit('prompts/refund_agent.prompt', '## How to call tools', `${policyText(Math.ceil(before.total / 60))}\n\n## How to call tools`);
    const after = countNow(report(await check(demo.dir)).diagnostics, 'legacy_order');
    // The pull request also rewrote the snapshot's count, as `-u` would.
    const file = 'snapshots/refund_agent/legacy_order.txt';
    const snapshot = demo.read(file);
    demo.write(file, snapshot.replace(/^tokens: .*$/m, `tokens: prompt ${after.prompt} + tools ${after.tools} = ${after.total} (${after.tokenizer}, estimate: ${after.note})`));
    const local = report(await check(demo.dir)).diagnostics;
    expect(local.filter((d) => d.ruleId === 'budget/grew' && d.message.includes('case `legacy_order`'))).toEqual([]);
    const job = report(await check(demo.dir, '--against', 'HEAD')).diagnostics;
    const hit = job.find((d) => d.ruleId === 'budget/grew' && d.message.includes('case `legacy_order`'));
    expect(hit).toMatchObject({ expected: before.total, actual: after.total });
    expect(hit!.message).toContain(`against HEAD:${file}`);
  }));

test('a snapshot without a tokens line still reads: it is snapshot/outdated with the line to add, and has no baseline to grow from', () =>
  withDemo(async (demo) => {
    const file = 'snapshots/refund_agent/standard_refund.txt';
    const count = countOf(demo, 'standard_refund');
    demo.write(file, demo.read(file).replace(/^tokens: .*\n/m, ''));
    expect(parseSnapshotTokens(demo.read(file))).toBeUndefined();
    const all = report(await check(demo.dir)).diagnostics;
    expect(all.map((d) => d.ruleId)).toEqual(['snapshot/outdated']);
    expect(countNow(all, 'standard_refund')).toEqual(count);
  }));

/** A word-level tokenizer.json: one token per word or run of punctuation, the pre-tokenizer's split. */
function wordTokenizer(): object {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [{ id: 0, content: '[UNK]', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
    normalizer: null,
    pre_tokenizer: { type: 'Whitespace' },
    post_processor: null,
    decoder: null,
    model: { type: 'WordLevel', vocab: { '[UNK]': 0, the: 1, order: 2, refund: 3 }, unk_token: '[UNK]' },
  };
}

test("a case's tokenizer.json counts through @huggingface/tokenizers: the prompt as `render` prints it, the tools as OpenAI's request carries them", () =>
  withDemo(async (demo) => {
    mkdirSync(join(demo.dir, 'tok'));
    writeFileSync(join(demo.dir, 'tok', 'tokenizer.json'), JSON.stringify(wordTokenizer()));
    const cases = 'prompts/cases/refund_agent.yaml';
    demo.edit(cases, '  legacy_order:\n', '  legacy_order:\n    tokenizer: { tokenizerJson: ../../tok/tokenizer.json }\n');
    const count = countNow(report(await check(demo.dir)).diagnostics, 'legacy_order');
    const tokenizer = new Tokenizer(wordTokenizer(), {});
    const tokens = (text: string): number => tokenizer.encode(text, { add_special_tokens: false }).ids.length;
    const text = (await cli(['render', 'refund_agent', '--case', 'legacy_order'], { cwd: demo.dir })).stdout;
    const tools = JSON.parse((await cli(['render', 'refund_agent', '--case', 'legacy_order', '--tools', '--shape', 'openai'], { cwd: demo.dir })).stdout) as { tools: unknown[] };
    expect(count).toEqual({ prompt: tokens(text), tools: tokens(JSON.stringify(tools.tools)), total: tokens(text) + tokens(JSON.stringify(tools.tools)), tokenizer: 'tok/tokenizer.json', exact: true });
    // Independent of the library: the Whitespace pre-tokenizer splits words from runs of punctuation.
    expect(count.prompt).toBe(text.match(/\w+|[^\w\s]+/g)!.length);

    // A tokenizer file that does not parse, one that is missing, and a name that is no tokenizer cannot run: exit 2 at the setting.
    const line = lineOf(demo.read(cases), 'tokenizer: { tokenizerJson');
    writeFileSync(join(demo.dir, 'tok', 'tokenizer.json'), '{"model": ');
    const broken = await check(demo.dir);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`${cases}:${line}`);
    expect(broken.stderr).toContain('Cannot parse the tokenizer file `tok/tokenizer.json`');
    demo.edit(cases, '../../tok/tokenizer.json', '../../tok/missing.json');
    const missing = await check(demo.dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${cases}:${line}`);
    expect(missing.stderr).toContain('Cannot read the tokenizer file `tok/missing.json`');
    demo.edit(cases, 'tokenizer: { tokenizerJson: ../../tok/missing.json }', 'tokenizer: llama3');
    const unknown = await check(demo.dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(`${cases}:${line}`);
    expect(unknown.stderr).toContain('Unexpected `tokenizer` "llama3"');
  }));

test('the config names the tokenizer where no prompt or case does, and a wrong one stops the run at its line', () =>
  withDemo(async (demo) => {
    // order_triage names a model of no known family: the config's tokenizer counts it.
    demo.edit('prompt-contract.config.ts', "providers: ['anthropic', 'openai'],", "providers: ['anthropic', 'openai'],\n  tokenizer: 'cl100k_base',");
    const all = report(await check(demo.dir)).diagnostics;
    const changed = all.filter((d) => d.ruleId === 'snapshot/outdated').map((d) => d.file);
    expect(changed.sort()).toEqual(['snapshots/order_triage/address_change.txt', 'snapshots/order_triage/cancellation.txt', 'snapshots/order_triage/empty_retrieval.txt']);
    const diff = (all[0] as { detail?: string }).detail!;
    expect(diff).toMatch(/^-tokens: .*\(o200k_base, exact\)$/m);
    expect(diff).toMatch(/^\+tokens: .*\(cl100k_base, exact\)$/m);

    demo.edit('prompt-contract.config.ts', "tokenizer: 'cl100k_base',", "tokenizer: 'o100k',");
    const wrong = await check(demo.dir);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`prompt-contract.config.ts:${lineOf(demo.read('prompt-contract.config.ts'), "tokenizer: 'o100k'")}`);
  }));
