// `jest-vs-plain`: the generated project's Jest contract suite (`await contractSuite()` in
// contract.test.ts) against the plain snapshot suite a team writes without prompt-contract
// (bench/lib/plain-suite.ts, copied into the project as plain.test.ts): it renders each case
// with Handlebars and calls `expect(text).toMatchSnapshot()`. Same Jest, same config, same
// `node --experimental-vm-modules` as this repository's `npm test`, one test file each.
// Both sides must keep one snapshot per case, and render the same text for every case.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Mismatch, measure, median, same, secs, spread } from './common.js';
import { benchProject, countSnapshots, jestArgv, projectEnv } from './project-gen.js';
import { clearCheckCache } from './check-cli.js';

const RULE = '='.repeat(72);

/** Jest's "Snapshots:" summary line as counts: { passed, written, updated, total, ... }. */
function snapshotSummary(stderr) {
  const line = /^Snapshots:\s+(.*)$/m.exec(stderr)?.[1] ?? '';
  const out = {};
  for (const m of line.matchAll(/(\d+) (\w+)/g)) out[m[2]] = Number(m[1]);
  return out;
}

/**
 * Every case's text, from both suites' snapshots: the plain suite's `.snap` entries and the
 * "rendered prompt, verbatim" part of the contract suite's snapshot files. Throws Mismatch when
 * a case is missing on one side or its text differs.
 */
export function sameRenderedTexts(dir) {
  const snap = readFileSync(join(dir, '__snapshots__', 'plain.test.ts.snap'), 'utf8');
  const entries = {};
  // A .snap file is a CommonJS module of `exports[name] = template literal` lines.
  new Function('exports', snap)(entries);
  let compared = 0;
  for (const prompt of readdirSync(join(dir, 'snapshots'), { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const file of readdirSync(join(dir, 'snapshots', prompt.name))) {
      const caseName = file.replace(/\.txt$/, '');
      const key = `${prompt.name} ${caseName} 1`;
      if (!(key in entries)) throw new Mismatch(`case ${prompt.name}/${caseName} has a contract snapshot and no plain one`);
      const plain = entries[key].replace(/^\n"/, '').replace(/"\n$/, '');
      const text = readFileSync(join(dir, 'snapshots', prompt.name, file), 'utf8');
      // The heading says whether the text ends in a newline: `rendered prompt, verbatim (no final newline)`.
      const heading = /rendered prompt, verbatim[^\n]*\n={72}\n/.exec(text);
      const end = text.indexOf(`\n${RULE}\ntools sent beside it`);
      if (!heading || end < 0) throw new Mismatch(`cannot find the rendered text in snapshots/${prompt.name}/${file}`);
      const ours = text.slice(heading.index + heading[0].length, end);
      if (ours !== plain) {
        let at = 0;
        while (ours[at] === plain[at]) at++;
        throw new Mismatch(`case ${prompt.name}/${caseName} renders differently in the two suites, from offset ${at}: ours ${JSON.stringify(ours.slice(at, at + 80))}, plain ${JSON.stringify(plain.slice(at, at + 80))}`);
      }
      compared++;
    }
  }
  same('cases in the plain snapshot file vs cases compared', Object.keys(entries).length, compared);
  return compared;
}

export async function jestVsPlain({ quick, root, result, log }) {
  const node = process.execPath;
  // The same checks without Jest: the built command line on one thread, from the state the cold
  // contract suite starts in (check cache emptied, the TypeScript handlers' schemas kept).
  const cli = (dir, env) => {
    clearCheckCache(dir);
    const r = measure(node, [join(root, 'dist', 'cli.js'), 'check', '--workers', '1', '--format', 'json'], { cwd: dir, env });
    if (r.status !== 0) throw new Error(`check failed on a project whose contract suite passes (exit ${r.status}): ${r.stderr.slice(-1500)}`);
    return r;
  };
  const sizes = quick
    ? [{ prompts: 1, cases: 5 }, { prompts: 20, cases: 25 }]
    : [{ prompts: 1, cases: 5 }, { prompts: 10, cases: 10 }, { prompts: 50, cases: 20 }, { prompts: 200, cases: 25 }];
  // `-u` from empty is timed on one size: 500 cases in a quick run, 1,000 in a full one.
  const updateSize = quick ? sizes[1] : sizes[2];
  const runs = 3;
  const updateRuns = quick ? 2 : 3;
  const files = { contract: 'contract.test.ts', plain: 'plain.test.ts' };
  const quickNote = quick ? ' Quick mode: 5 and 500 cases (the issue also asks for 100, 1,000 and 5,000).' : '';

  for (const size of sizes) {
    const project = benchProject(size, { log });
    const texts = sameRenderedTexts(project.dir);
    const env = projectEnv();
    const jest = (side, extra = []) => {
      const r = measure(node, jestArgv(files[side], extra), { cwd: project.dir, env });
      if (r.status !== 0) throw new Error(`the ${side} suite failed on the ${project.cases}-case project (exit ${r.status}): ${r.stderr.slice(-1500)}`);
      return r;
    };
    const snapshotsOf = (side, r) => {
      const s = snapshotSummary(r.stderr);
      // The contract suite also keeps the tools baseline (snapshots/tools.json) as a snapshot.
      return (s.passed ?? 0) + (s.written ?? 0) + (s.updated ?? 0) - (side === 'contract' ? 1 : 0);
    };
    // The contract suite reads the cache `check` keeps: warm (the cache of the run before, as a
    // user's second run finds it) and cold (emptied before each contract run, as after a clone).
    for (const cold of [false, true]) {
      const times = { contract: [], plain: [], cli: [] };
      // One unmeasured run of each (Jest's transform and haste caches), then alternating pairs.
      for (let i = -1; i < runs; i++) {
        for (const side of i % 2 === 0 ? ['contract', 'plain'] : ['plain', 'contract']) {
          if (cold && side === 'contract') clearCheckCache(project.dir);
          const r = jest(side);
          same(`snapshots checked by the ${side} suite vs cases (${project.cases}-case project)`, snapshotsOf(side, r), project.cases);
          if (i >= 0) times[side].push(r);
        }
        // Cold only: the command line doing the suite's checks with no Jest, beside each pair.
        if (cold && i >= 0) times.cli.push(cli(project.dir, env));
      }
      const wall = (side) => median(times[side].map((r) => r.wall));
      const cpu = (side) => median(times[side].map((r) => r.cpu));
      const ratio = wall('contract') / wall('plain');
      result(
        `jest-vs-plain-${project.cases}${cold ? '-cold' : ''}`,
        ratio,
        '<= 1.15',
        ratio <= 1.15,
        `${cold ? 'Cold cache (emptied before each contract run). ' : 'Warm cache (left by the run before, as every run after the first finds it). '}Wall time of the generated project's Jest contract suite (contract.test.ts: \`await contractSuite()\`), ${secs(wall('contract'))} (${secs(cpu('contract'))} CPU), divided by a plain Jest suite on the same cases (bench/lib/plain-suite.ts: Handlebars render of each case from the templates, partials, examples, stubs and inputs it reads itself, then \`toMatchSnapshot()\`), ${secs(wall('plain'))} (${secs(cpu('plain'))} CPU); ` +
          `${project.prompts} prompts x ${project.casesPerPrompt} cases = ${project.cases.toLocaleString('en-US')} cases, ${project.examplesPerPrompt} examples a prompt. Ratio of the medians of ${runs} alternating pairs after one unmeasured run of each; pairs ${spread(times.contract.map((r, i) => r.wall / times.plain[i].wall))}; CPU ratio ${(cpu('contract') / cpu('plain')).toFixed(2)}. ` +
          `Both suites checked ${project.cases} snapshots in every run (the contract suite's baseline tools.json aside), and both render the same text for all ${texts} cases (compared from their snapshot files). Jest runs as \`node --experimental-vm-modules\`, one test file, the project's jest.config.mjs (promptContractJestConfig, ts-jest for .ts).${quickNote}`,
      );
      if (!cold) continue;
      // What the contract suite's own checks cost with no Jest around them, against the same plain suite:
      // the suite runs these checks and Jest too, so its cold ratio cannot fall below this one.
      const cliRatio = wall('cli') / wall('plain');
      result(
        `jest-vs-plain-${project.cases}-cold-cli`,
        cliRatio,
        'report only (the cold contract suite runs these checks inside Jest)',
        null,
        `Wall time of \`prompt-contract check --workers 1\` on the same project, ${secs(wall('cli'))} (${secs(cpu('cli'))} CPU), started as the cold contract suite is (check cache emptied, the TypeScript handlers' schemas kept): the checks the suite runs on the same files, with no Jest, on one thread; divided by the plain Jest suite above, ${secs(wall('plain'))}. ` +
          `Median of ${runs} runs, one after each cold pair; ratios to the pair's plain run ${spread(times.cli.map((r, i) => r.wall / times.plain[i].wall))}. The cold contract suite does this work inside Jest, and pays Jest's start and a test per case besides, where the command line pays only Node's start and loading the config.${quickNote}`,
      );
    }

    if (size !== updateSize) continue;
    const update = { contract: [], plain: [] };
    const folders = { contract: join(project.dir, 'snapshots'), plain: join(project.dir, '__snapshots__') };
    for (let i = 0; i < updateRuns; i++) {
      for (const side of i % 2 === 0 ? ['contract', 'plain'] : ['plain', 'contract']) {
        rmSync(folders[side], { recursive: true, force: true });
        if (side === 'contract') clearCheckCache(project.dir);
        const r = jest(side, ['-u']);
        same(`snapshots written by the ${side} suite with -u from empty vs cases`, snapshotSummary(r.stderr).written - (side === 'contract' ? 1 : 0), project.cases);
        update[side].push(r);
      }
      const counts = countSnapshots(project.dir);
      same('snapshot files written from empty: contract .txt files vs plain .snap entries', counts.contract, counts.plain);
      same('snapshot files written from empty vs cases', counts.contract, project.cases);
      if (!existsSync(join(folders.contract, 'tools.json'))) throw new Mismatch('the contract suite did not write its tools baseline with -u');
    }
    sameRenderedTexts(project.dir);
    const uWall = (side) => median(update[side].map((r) => r.wall));
    const uRatio = uWall('contract') / uWall('plain');
    result(
      'jest-vs-plain-update',
      uRatio,
      '<= 1.2',
      uRatio <= 1.2,
      `Wall time of the contract suite with \`-u\` on an empty snapshot folder, ${secs(uWall('contract'))}, divided by the plain suite with \`-u\` and no .snap file, ${secs(uWall('plain'))}, on the ${project.cases.toLocaleString('en-US')}-case project (${project.prompts} x ${project.casesPerPrompt}); ratio of the medians of ${updateRuns} alternating pairs (each side warmed up by the runs before); pairs ${spread(update.contract.map((r, i) => r.wall / update.plain[i].wall))}. ` +
        `Both wrote ${project.cases} snapshots (Jest's summary, and ${project.cases} .txt files against ${project.cases} .snap entries on disk), with the same text for every case.${quickNote}`,
    );
  }
}
