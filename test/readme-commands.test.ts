import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoCopy, repo } from './cli/helpers.js';

// Every command in the README's `sh`/`bash` blocks is run, each block on a fresh copy of the
// demo, so a command that stops working (a renamed flag, a script gone, a wrong path) fails
// here. Commands that install packages or need the network are not run; they are listed below,
// and the README must hold exactly these. What each of them would have made is put in place
// instead: a clone of this repository is the demo copy with this repository's built `dist/`;
// an install links the packages from this repository's node_modules.
const needsNetworkOrInstalls = ['git clone <this repository> prompt-contract', 'npm ci', 'npm install --save-dev prompt-contract jest'];
const installOrNetwork = /^(git clone|npm (ci|i|install|add)\b|npx (?!prompt-contract\b)|curl|wget|yarn|pnpm)/;
const bin = join(repo, 'dist', 'cli.js');
const rootPackage = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

interface Block {
  line: number;
  commands: string[];
}

/** The command lines of each `sh`/`bash` fence, comments and blank lines left out. */
function shellBlocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```/gm)].map((m) => ({
    line: markdown.slice(0, m.index).split('\n').length,
    commands: m[1]!.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter((line) => line !== ''),
  }));
}

interface Ran {
  command: string;
  code: number;
  output: string;
}

interface BlockRun {
  ran: Ran[];
  skipped: string[];
}

const shell = (command: string, cwd: string, binFolder?: string): Ran => {
  // npm runs a script with the package's node_modules/.bin first on the PATH.
  const path = binFolder === undefined ? process.env.PATH : `${binFolder}:${process.env.PATH ?? ''}`;
  const result = spawnSync('bash', ['-o', 'pipefail', '-c', command], { cwd, encoding: 'utf8', input: '', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, PATH: path, NO_COLOR: '1', FORCE_COLOR: '0' } });
  return { command, code: result.status ?? -1, output: `${result.stdout}\n${result.stderr}`.trim() };
};

/**
 * Runs one block's commands in order, as a user types them, in a fresh demo copy (the clone
 * of this repository, or the user's project). `npx prompt-contract` is the built binary;
 * `npm test` and `npm run NAME` run the script of the folder's package.json, or of this
 * repository's when the folder has none (the demo copy then stands for the clone). A step of
 * a `&&` chain that fails stops the line, as the shell would.
 */
function runBlock(block: Block): BlockRun {
  const demo = demoCopy();
  const run: BlockRun = { ran: [], skipped: [] };
  try {
    // The clone's build: `npm run check` and `node dist/cli.js` use it.
    symlinkSync(join(repo, 'dist'), join(demo.dir, 'dist'));
    let cloned: string | undefined;
    for (const line of block.commands) {
      for (const step of line.split(/\s+&&\s+/)) {
        if (needsNetworkOrInstalls.includes(step)) {
          run.skipped.push(step);
          if (step.startsWith('git clone')) cloned = step.split(/\s+/).at(-1);
          if (step.startsWith('npm install')) installed(demo.dir);
          continue;
        }
        if (installOrNetwork.test(step)) throw new Error(`README line ${block.line}: \`${step}\` installs packages or needs the network; list it in needsNetworkOrInstalls on purpose`);
        const cd = /^cd (\S+)$/.exec(step);
        if (cd) {
          // Only into the clone the skipped `git clone` made, which the demo copy stands for.
          if (cd[1] !== cloned) throw new Error(`README line ${block.line}: \`${step}\` enters no folder this test knows`);
          continue;
        }
        const result = runStep(step, demo.dir);
        run.ran.push(result);
        if (result.code !== 0) return run;
      }
    }
    return run;
  } finally {
    demo.remove();
  }
}

function runStep(step: string, dir: string): Ran {
  const script = /^npm (?:run (\S+)|(test))(?: -- (.*))?$/.exec(step);
  if (!script) return { ...shell(step.replace(/(^|\|\s*)npx prompt-contract\b/g, `$1node ${JSON.stringify(bin)}`), dir), command: step };
  const name = (script[1] ?? script[2])!;
  const own = join(dir, 'package.json');
  const scripts = existsSync(own) ? (JSON.parse(readFileSync(own, 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {} : rootPackage.scripts;
  const command = scripts[name];
  if (command === undefined) return { command: step, code: 1, output: `no script ${name}` };
  const extra = script[3] === undefined ? '' : ` ${script[3]}`;
  if (scripts === rootPackage.scripts) {
    // This repository's pre-scripts build dist/, which the suite's own `npm test` has just built.
    expect({ name, pre: scripts[`pre${name}`] }).toEqual({ name, pre: 'npm run build' });
    // `npm test` here is this whole suite, this file included: Jest is started exactly as the
    // script starts it, with the same flags and config, and lists the files it would run.
    if (name === 'test') {
      const listed = shell(`${command}${extra} --listTests`, repo);
      return { ...listed, command: step, code: listed.code === 0 && listed.output.includes('readme-commands.test.ts') ? 0 : 1 };
    }
  }
  return { ...shell(`${command}${extra}`, dir, join(dir, 'node_modules', '.bin')), command: step };
}

/**
 * What `npm install --save-dev prompt-contract jest` leaves in the project, linked from this
 * repository: the package itself and Jest. The demo is a TypeScript project, so it also has
 * what such a project already holds: ts-jest, TypeScript and a tsconfig.json.
 */
function installed(dir: string): void {
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(repo, join(dir, 'node_modules', 'prompt-contract'));
  for (const name of ['jest', 'ts-jest', 'typescript']) symlinkSync(join(repo, 'node_modules', name), join(dir, 'node_modules', name));
  // npm links each installed package's bin here; `npm test` runs `jest` from it.
  mkdirSync(join(dir, 'node_modules', '.bin'));
  symlinkSync(join('..', 'jest', 'bin', 'jest.js'), join(dir, 'node_modules', '.bin', 'jest'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, esModuleInterop: true, skipLibCheck: true } }));
}

const failures = (run: BlockRun): Array<{ command: string; code: number; output: string }> => run.ran.filter((r) => r.code !== 0).map((r) => ({ ...r, output: r.output.slice(-2000) }));

const readmeBlocks = shellBlocks(readFileSync(join(repo, 'README.md'), 'utf8'));

describe('every command in the README runs', () => {
  test.each(readmeBlocks.map((block) => [block.line, block] as const))('the shell block at README line %i', (_, block) => {
    const run = runBlock(block);
    expect(failures(run)).toEqual([]);
    expect(run.ran.length).toBeGreaterThan(0);
  }, 180_000);

  test('the commands left out are exactly those that install packages or need the network', () => {
    expect(readmeBlocks.length).toBeGreaterThanOrEqual(3);
    const steps = readmeBlocks.flatMap((block) => block.commands.flatMap((line) => line.split(/\s+&&\s+/)));
    expect(steps.filter((step) => needsNetworkOrInstalls.includes(step)).sort()).toEqual([...needsNetworkOrInstalls].sort());
    for (const step of needsNetworkOrInstalls) expect(step).toMatch(installOrNetwork);
  });
});

describe('the command check can fail', () => {
  test('a README whose command has a flag the CLI does not know fails, naming the command', () => {
    const [block] = shellBlocks('```sh\nnode dist/cli.js render --list            # every prompt\nnpx prompt-contract check --no-such-flag\nnode dist/cli.js render --list\n```\n');
    const run = runBlock(block!);
    expect(failures(run).map((f) => [f.command, f.code, /unknown option '--no-such-flag'/.test(f.output)])).toEqual([['npx prompt-contract check --no-such-flag', 2, true]]);
    // The line after a failing one is not what made the block pass or fail.
    expect(run.ran.map((r) => r.command)).toEqual(['node dist/cli.js render --list', 'npx prompt-contract check --no-such-flag']);
  });

  test('a script that does not exist, a case that does not exist and a broken pipe stage fail', () => {
    const [block] = shellBlocks('```bash\nnpm run no-such-script\n```\n');
    expect(failures(runBlock(block!)).map((f) => f.command)).toEqual(['npm run no-such-script']);
    const [pipe] = shellBlocks('```sh\nnode dist/cli.js render refund_agent --case no_such_case | node dist/cli.js extract -\n```\n');
    expect(failures(runBlock(pipe!)).map((f) => f.code)).toEqual([2]);
  });

  test('an install or network command not on the list is refused, not run', () => {
    const [block] = shellBlocks('```sh\nnpm install left-pad\n```\n');
    expect(() => runBlock(block!)).toThrow(/`npm install left-pad` installs packages or needs the network/);
  });
});
