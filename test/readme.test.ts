import { readFileSync } from 'node:fs';
import { cliInProcess } from './cli/helpers.js';

// The README is followed by new users: its commands and its CLI reference must stay true.
const readme = readFileSync('README.md', 'utf8');
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string>; scripts: Record<string, string> };

test('the first screen gives the install-and-check command and the test command', () => {
  const first = /```sh\n([\s\S]*?)```/.exec(readme)![1]!;
  const commands = first.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('git clone')).map((l) => l.replace(/\s+#.*$/, '').trim());
  expect(commands).toEqual(['npm ci && npm run check', 'npm test']);
  // `check` builds first (the package has no install script), then runs the binary on the demo.
  expect(pkg.scripts.precheck).toBe('npm run build');
  expect(pkg.scripts.check).toBe(`node ${pkg.bin['prompt-contract']} check`);
  expect(readme.indexOf('npm test')).toBeLessThan(1200);
});

// The help comes from `main`, which the binary runs as well: the CLI runs in this process (see cliInProcess).
test('every option the README lists for a command exists in its --help', async () => {
  const reference = /## CLI\n\n```\n([\s\S]*?)```/.exec(readme)![1]!;
  for (const line of reference.trim().split('\n')) {
    const command = line.split(/\s+/)[1]!;
    const help = (await cliInProcess([command, '--help'])).stdout;
    for (const option of line.match(/--[a-z-]+/g) ?? []) expect({ command, option, listed: help.includes(option) }).toEqual({ command, option, listed: true });
  }
});

test('the scripts the README names exist', () => {
  for (const script of ['test', 'test:fast', 'typecheck', 'bench', 'test:smoke']) expect(pkg.scripts[script]).toBeDefined();
  // No install script: installing the package runs nothing of ours.
  for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[hook]).toBeUndefined();
});
