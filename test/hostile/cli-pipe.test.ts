import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoCopy, repo } from '../cli/helpers.js';

// Issue #10, item 8: `prompt-contract render ... | head` — a reader that closes the pipe
// early ends the output quietly: no EPIPE stack trace, and the run's own exit code (0 when
// clean, 1 for findings: `check | head` under `set -o pipefail` must not turn a failure green).

/** Runs the CLI with stdout a pipe that is closed after the first chunk arrives. */
function closedEarly(args: string[], cwd = repo): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; chunks: number }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(repo, 'dist', 'cli.js'), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    let chunks = 0;
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.stdout.on('data', () => {
      chunks++;
      child.stdout.destroy();
    });
    child.on('error', fail);
    child.on('close', (code, signal) => done({ code, signal, stderr, chunks }));
  });
}

test('extract of a big input into a pipe closed after the first chunk', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pc-pipe-'));
  try {
    const file = join(dir, 'many.md');
    // About 1.5 MB of output: far more than a pipe buffers, so the writer meets the closed end.
    writeFileSync(file, Array.from({ length: 20_000 }, (_, i) => `\`\`\`json\n{"name": "lookup_order", "arguments": {"order_id": "A-${1000 + (i % 9000)}"}}\n\`\`\`\n`).join('\n'));
    const result = await closedEarly(['extract', file]);
    expect(result.chunks).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('render of a large prompt into a pipe closed after the first chunk', async () => {
  const demo = demoCopy();
  try {
    demo.edit('prompts/cases/order_triage.yaml', '"Please cancel this order, I bought it twice."', JSON.stringify(`Please cancel this order. ${'I bought it twice. '.repeat(40_000)}`));
    const result = await closedEarly(['render', 'order_triage', '--case', 'cancellation'], demo.dir);
    expect(result.chunks).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  } finally {
    demo.remove();
  }
});

test('validate with findings into a pipe closed after the first chunk still exits 1', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pc-pipe-'));
  try {
    writeFileSync(join(dir, 'tools.json'), JSON.stringify([{ name: 'lookup_order', input_schema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } }]));
    // Thousands of invalid calls: far more report than a pipe buffers.
    writeFileSync(join(dir, 'calls.jsonl'), Array.from({ length: 5_000 }, (_, i) => JSON.stringify({ id: `call_${i}`, name: i % 2 === 0 ? `unknown_${i}` : 'lookup_order', arguments: { order_id: i } })).join('\n'));
    const result = await closedEarly(['validate', 'tools.json', 'calls.jsonl', '--format', 'json'], dir);
    expect(result.chunks).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

