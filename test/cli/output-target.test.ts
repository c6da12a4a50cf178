// `check --output` replaced whatever stood at the path with a regular file: a named pipe a CI step
// read, a link (and, run as root, `/dev/full` itself), even a prompt of the project it checked.
// A device or a pipe is written into, a link is followed, and the project's inputs are refused.
import { expect, test } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli as spawned, cliInProcess as cli, withDemo, type Demo } from './helpers.js';

const check = (demo: Demo, ...args: string[]) => cli(['check', '--no-cache', '--format', 'json', ...args], { cwd: demo.dir });

test('a link is followed: the file it names gets the report, and the link stays a link', () =>
  withDemo(async (demo) => {
    writeFileSync(join(demo.dir, 'real.json'), 'old');
    symlinkSync('real.json', join(demo.dir, 'report.json'));
    const r = await check(demo, '--output', 'report.json');
    expect(r.code).toBe(0);
    expect(lstatSync(join(demo.dir, 'report.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(demo.dir, 'real.json'), 'utf8')).diagnostics).toEqual([]);
    // A link to nothing is refused, and left as it was.
    symlinkSync('nowhere.json', join(demo.dir, 'dangling.json'));
    const dangling = await check(demo, '--output', 'dangling.json');
    expect(dangling.code).toBe(2);
    expect(dangling.stderr).toContain('Cannot write the report to `dangling.json`: it is a link to nothing');
    expect(lstatSync(join(demo.dir, 'dangling.json')).isSymbolicLink()).toBe(true);
  }));

// Through links made here: were a device ever replaced again, the link would be, never the device itself.
test('a device is written into, never replaced: a link to /dev/null stays a link to a device, one to /dev/full is a could-not-run', () =>
  withDemo(async (demo) => {
    symlinkSync('/dev/null', join(demo.dir, 'null.json'));
    const ok = await check(demo, '--output', 'null.json');
    expect(ok.code).toBe(0);
    expect(lstatSync(join(demo.dir, 'null.json')).isSymbolicLink()).toBe(true);
    expect(statSync(join(demo.dir, 'null.json')).isCharacterDevice()).toBe(true);
    symlinkSync('/dev/full', join(demo.dir, 'full.json'));
    const full = await check(demo, '--output', 'full.json');
    expect(full.code).toBe(2);
    expect(full.stderr).toMatch(/Cannot write the report \(ENOSPC/);
    expect(lstatSync(join(demo.dir, 'full.json')).isSymbolicLink()).toBe(true);
    expect(statSync(join(demo.dir, 'full.json')).isCharacterDevice()).toBe(true);
  }));

test('a named pipe is written into: its reader gets the whole report, and it stays a pipe', () =>
  withDemo(async (demo) => {
    const fifo = join(demo.dir, 'report.fifo');
    execFileSync('mkfifo', [fifo]);
    // A reader in another process, as a CI step would read it.
    const reader = join(demo.dir, 'read.txt');
    const cat = (await import('node:child_process')).spawn('sh', ['-c', `cat "${fifo}" > "${reader}"`]);
    const done = new Promise((resolve) => cat.on('exit', resolve));
    const r = await check(demo, '--output', fifo);
    await done;
    expect(r.code).toBe(0);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(JSON.parse(readFileSync(reader, 'utf8')).diagnostics).toEqual([]);
  }));

test('a file the project reads, a folder of its inputs or a directory is refused with exit 2, and left untouched', () =>
  withDemo(async (demo) => {
    const prompt = demo.read('prompts/refund_agent.prompt');
    for (const [path, why] of [
      ['prompts/refund_agent.prompt', 'the project reads it as input'],
      ['prompts/new-report.json', 'the project reads it as input'],
      ['snapshots/report.json', 'the project reads it as input'],
      ['prompt-contract.config.ts', 'the project reads it as input'],
      ['prompts', 'it is a directory'],
    ]) {
      const r = await check(demo, '--output', path!);
      expect([path, r.code, r.stderr]).toEqual([path, 2, expect.stringContaining(`Cannot write the report to \`${path}\`: ${why}`)]);
    }
    expect(demo.read('prompts/refund_agent.prompt')).toBe(prompt);
    expect(readdirSync(join(demo.dir, 'prompts')).filter((f) => f.includes('report') || f.endsWith('.tmp'))).toEqual([]);
  }));

test('a folder link on the way to a project file does not get past the refusal, and a project reached through a link neither', () =>
  withDemo(async (demo) => {
    const prompt = demo.read('prompts/refund_agent.prompt');
    const baseline = demo.read('snapshots/tools.json');
    symlinkSync('prompts', join(demo.dir, 'p'));
    symlinkSync('.', join(demo.dir, 'self'));
    for (const path of ['p/refund_agent.prompt', 'self/snapshots/tools.json', 'self/prompt-contract.config.ts']) {
      const r = await check(demo, '--output', path);
      expect([path, r.code, r.stderr]).toEqual([path, 2, expect.stringContaining('the project reads it as input')]);
    }
    expect(demo.read('prompts/refund_agent.prompt')).toBe(prompt);
    expect(demo.read('snapshots/tools.json')).toBe(baseline);
  }));

test('a link to /dev/stdout is the output stream this run holds: the report reaches the reader', () =>
  withDemo((demo) => {
    symlinkSync('/dev/stdout', join(demo.dir, 'out.json'));
    // Only through a link made here: were the path ever replaced again, the link would be, not /dev/stdout.
    for (const path of ['out.json']) {
      // Spawned: its standard output is a pipe this test reads.
      const r = spawned(['check', '--no-cache', '--format', 'json', '--output', path], { cwd: demo.dir, timeout: 60_000 });
      expect([path, r.code]).toEqual([path, 0]);
      expect(JSON.parse(r.stdout).diagnostics).toEqual([]);
    }
    expect(lstatSync(join(demo.dir, 'out.json')).isSymbolicLink()).toBe(true);
  }));

test('a read-only file and a path ending with a slash are refused, the file left as it was', () =>
  withDemo(async (demo) => {
    const { chmodSync } = await import('node:fs');
    writeFileSync(join(demo.dir, 'kept.json'), 'kept');
    chmodSync(join(demo.dir, 'kept.json'), 0o444);
    const readOnly = await check(demo, '--output', 'kept.json');
    expect(readOnly.code).toBe(2);
    expect(readOnly.stderr).toContain('Cannot write the report to `kept.json`: it is read-only');
    expect(readFileSync(join(demo.dir, 'kept.json'), 'utf8')).toBe('kept');
    expect(statSync(join(demo.dir, 'kept.json')).mode & 0o777).toBe(0o444);
    const slash = await check(demo, '--output', 'new.json/');
    expect(slash.code).toBe(2);
    expect(slash.stderr).toContain('it ends with a slash');
    expect(readdirSync(demo.dir)).not.toContain('new.json');
  }));
