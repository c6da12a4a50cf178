import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addJestSuite, cli, report, runJestAsync } from '../cli/helpers.js';
import { mcpProject, stdio, testServer } from './mcp-helpers.js';

// A "rug pull": an MCP server that lists an honest description at first and a poisoned one
// later (our test server counts its starts in a file; from the third start on, `add` carries
// hidden instructions, and `echo` gains a required parameter). The project's config is the same text throughout: only the server
// changed. The Jest suite (-u) writes the tools baseline from the honest listing; `check`
// passes while the server is honest, with its cache kept; the next `check` fails with the
// description's diff against the baseline and the tool-poisoning findings, the cache
// notwithstanding; and the Jest suite fails the same way, leaving the baseline as it was.

test('a server that rewrites a description between two runs: the first run passes, the next fails with the diff, the tools/ findings and the breaking change with its recorded witness, in check and in the Jest suite', async () => {
  const p = mcpProject('mcp-rug-pull', stdio(testServer, { env: { MCP_TEST_COUNTER: 'starts', MCP_TEST_POISON_AFTER: '2' } }), { recorded: ['calls.jsonl'] });
  const cacheDir = join(p.dir, 'cache');
  const env = { PROMPT_CONTRACT_CACHE_DIR: cacheDir };
  try {
    addJestSuite(p.dir);
    // A call the honest `echo` took; the poisoned listing also makes a new parameter required.
    writeFileSync(p.file('calls.jsonl'), '{"id":"call_1","name":"echo","arguments":{"message":"hi"}}\n');

    // Start 1 (honest): the suite writes the baseline, descriptions included.
    const written = await runJestAsync(p.dir, ['--ci=false', '-u'], { CI: '' });
    expect(written.out).toMatch(/✓ tool descriptions carry no hidden instructions/);
    expect(written.code).toBe(0);
    const baseline = readFileSync(p.file('snapshots/tools.json'), 'utf8');
    expect(baseline).toContain('"description": "Adds two numbers."');
    expect(baseline).toContain('"name": "local_note"');

    // Start 2 (honest): check passes, and keeps its cache.
    const honest = cli(['check', '--format', 'json'], { cwd: p.dir, env });
    expect(report(honest).diagnostics).toEqual([]);
    expect(honest.code).toBe(0);
    expect(existsSync(cacheDir) && readdirSync(cacheDir, { recursive: true }).some((f) => String(f).endsWith('.json'))).toBe(true);

    // Start 3 (poisoned): same config text, same cache; the listing is what counts.
    const pulled = cli(['check', '--format', 'json'], { cwd: p.dir, env });
    expect(pulled.code).toBe(1);
    const found = report(pulled).diagnostics as Array<{ ruleId: string; file?: string; line?: number; tool?: string; message: string; detail?: string; witnesses?: Array<{ id: string }> }>;
    const outdated = found.find((d) => d.ruleId === 'snapshot/outdated');
    expect(outdated).toMatchObject({ file: 'snapshots/tools.json' });
    // The diff shows the honest line going and the hidden instructions coming.
    expect(outdated!.detail).toMatch(/^-.*"description": "Adds two numbers\."/m);
    expect(outdated!.detail).toMatch(/^\+.*~\/\.ssh\/id_rsa/m);
    const poisoning = found.filter((d) => d.ruleId.startsWith('tools/'));
    expect(poisoning.map((d) => d.ruleId).sort()).toEqual(['tools/conceal-from-user', 'tools/invisible-unicode', 'tools/reads-secrets', 'tools/sends-data']);
    for (const d of poisoning) expect(d).toMatchObject({ tool: 'add', file: 'prompt-contract.config.ts', line: p.serverLine });
    // The schema change is a breaking change against the baseline, with the recorded call it now refuses as witness.
    expect(found.find((d) => d.ruleId === 'compat/required-added')).toMatchObject({ tool: 'echo', witnesses: [expect.objectContaining({ id: 'call_1' })] });

    // The pretty report a person reads shows the same.
    const pretty = cli(['check'], { cwd: p.dir, env });
    expect(pretty.code).toBe(1);
    expect(pretty.stdout).toContain('tools/reads-secrets');
    expect(pretty.stdout).toContain('id_rsa');

    // Start 5 (poisoned): the Jest suite fails on both counts and leaves the baseline alone.
    const suite = await runJestAsync(p.dir, ['--ci'], { CI: '' });
    expect(suite.code).toBe(1);
    expect(suite.out).toMatch(/✕ tool descriptions carry no hidden instructions/);
    expect(suite.out).toMatch(/✕ tool definitions keep backward compatibility with the baseline/);
    expect(suite.out).toContain('tools/sends-data');
    expect(suite.out).toContain('compat/required-added');
    expect(readFileSync(p.file('snapshots/tools.json'), 'utf8')).toBe(baseline);
    expect(readFileSync(p.file('starts'), 'utf8')).toBe('5');
  } finally {
    p.remove();
  }
}, 180_000);
