import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliInProcess as cli, lineOf, repo, report, withDemo, type CliResult } from './helpers.js';

// Findings about a tool point at the line a person edits: the tool's entry in a JSON tools
// file (or the schema node the finding is about), the line of its `name` in the module that
// defines it, or its wording in descriptions.yaml.
// The CLI runs in this process (see cliInProcess).

interface Full {
  ruleId: string;
  severity: string;
  tool?: string;
  file?: string;
  line?: number;
  column?: number;
  fix?: string;
  url?: string;
  instancePath?: string;
  message: string;
}
const full = (result: CliResult) => report(result).diagnostics as Full[];

function scratch(): { dir: string; write(name: string, text: string): void; remove(): void } {
  const root = join(repo, '.cache', 'cli-tests');
  mkdirSync(root, { recursive: true });
  const dir = mkdtempSync(join(root, 'places-'));
  return { dir, write: (name, text) => writeFileSync(join(dir, name), text), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const undescribed = `{
  "tools": [
    {
      "name": "create_refund",
      "inputSchema": { "type": "object", "properties": { "amount_cents": { "type": "integer" } } }
    },
    {
      "name": "cancel_order",
      "inputSchema": { "type": "object", "properties": { "order_id": { "type": "string" } } }
    },
    {
      "name": "lookup_order",
      "inputSchema": { "type": "object", "properties": { "order_id": { "type": "string" } } }
    }
  ]
}
`;

test('three tools of a JSON file without descriptions: three annotations, each at its tool, named in the title', async () => {
  const s = scratch();
  try {
    s.write('tools.json', undescribed);
    const result = await cli(['lint', 'tools.json', '--provider', 'openai', '--format', 'github', '--fail-on', 'info'], { cwd: s.dir });
    expect(result.code).toBe(1);
    const lines = result.stdout.trim().split('\n').filter((l) => l.includes('provider/missing-description'));
    expect(lines).toHaveLength(3);
    const expected = ['create_refund', 'cancel_order', 'lookup_order'].map((name) => `file=tools.json,line=${lineOf(undescribed, `"name": "${name}"`)},col=7,title=provider/missing-description (${name})::`);
    for (const [i, line] of lines.entries()) expect(line).toContain(expected[i]);
    expect(new Set(lines).size).toBe(3);
  } finally {
    s.remove();
  }
});

test('a breaking change between two JSON files points at the changed keyword in the new file', async () => {
  const s = scratch();
  try {
    const old = `[\n  {\n    "name": "create_refund",\n    "input_schema": {\n      "type": "object",\n      "properties": {\n        "order_id": { "type": "string" },\n        "amount_cents": {\n          "type": "integer",\n          "maximum": 100000\n        }\n      }\n    }\n  }\n]\n`;
    const next = old.replace('"maximum": 100000', '"maximum": 50000');
    s.write('old.json', old);
    s.write('new.json', next);
    const result = await cli(['diff', 'old.json', 'new.json', '--format', 'json'], { cwd: s.dir });
    expect(result.code).toBe(1);
    const [d] = full(result);
    expect(d).toMatchObject({ ruleId: 'compat/maximum-decreased', tool: 'create_refund', file: 'new.json', line: lineOf(next, '"maximum": 50000'), column: 11 });
    expect(d!.fix).toEqual(expect.any(String));
  } finally {
    s.remove();
  }
});

test('the demo: zod tools at the line of their name in prompts/tools/index.ts, the JSON tool at its schema node', async () => {
  const result = await cli(['lint', '--provider', 'openai-strict', '--format', 'json']);
  expect(result.code).toBe(1);
  const found = full(result);
  const index = readFileSync(join(repo, 'prompts/tools/index.ts'), 'utf8');
  const refund = found.filter((d) => d.tool === 'create_refund');
  expect(refund.length).toBeGreaterThan(0);
  for (const d of refund) expect(d).toMatchObject({ file: 'prompts/tools/index.ts', line: lineOf(index, "name: 'create_refund'") });
  const cancel = found.find((d) => d.tool === 'cancel_order');
  expect(cancel).toMatchObject({ file: 'prompts/tools/index.ts', line: lineOf(index, "name: 'cancel_order'") });
  const legacy = readFileSync(join(repo, 'prompts/tools/lookup_order.schema.json'), 'utf8');
  expect(found.find((d) => d.tool === 'lookup_order' && d.ruleId === 'provider/optional-property')).toMatchObject({
    file: 'prompts/tools/lookup_order.schema.json',
    line: lineOf(legacy, '"include_items"'),
  });
});

test('a description-level finding points at descriptions.yaml; a compat finding in `check` at the tool', () =>
  withDemo(async (demo) => {
    const yaml = 'prompts/tools/descriptions.yaml';
    demo.edit(yaml, /(create_refund:\n)  description: [^\n]*\n/, '$1');
    demo.edit('prompts/tools/index.ts', 'max(100_000)', 'max(50_000)');
    const lint = full(await cli(['lint', '--provider', 'openai', '--format', 'json', '--fail-on', 'info'], { cwd: demo.dir }));
    expect(lint.find((d) => d.ruleId === 'provider/missing-description')).toMatchObject({ tool: 'create_refund', file: yaml, line: lineOf(demo.read(yaml), 'create_refund:') });
    const check = full(await cli(['check', '--format', 'json'], { cwd: demo.dir }));
    const compat = check.find((d) => d.ruleId === 'compat/maximum-decreased');
    expect(compat).toMatchObject({ tool: 'create_refund', file: 'prompts/tools/index.ts', line: lineOf(demo.read('prompts/tools/index.ts'), "name: 'create_refund'") });
  }));

test('rule URLs are absolute and lead to a docs file that exists; error findings say what to do', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
    const result = await cli(['check', '--format', 'json'], { cwd: demo.dir });
    expect(result.code).toBe(1);
    const hit = full(result).find((d) => d.ruleId === 'example/invalid-arguments')!;
    expect(hit.fix).toEqual(expect.any(String));
    const url = new URL(hit.url!);
    expect(url.hash).toBe('#invalid-arguments');
    if (url.protocol === 'file:') expect(existsSync(fileURLToPath(url))).toBe(true);
    else expect(url.protocol).toBe('https:');
    for (const d of full(result)) if (d.severity === 'error') expect([d.ruleId, typeof d.fix]).toEqual([d.ruleId, 'string']);
  }));
