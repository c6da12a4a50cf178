// `check-incremental`: what `check`'s cache saves on a generated project of 5,000 cases (quick:
// 500). In each cycle: a cold `check --no-cache`; a first cached run on an emptied cache; a second
// cached run with nothing changed; then one value of one prompt's examples file edited (still
// valid YAML and a valid call) and a run; then the file restored and a run. The figures:
//   check-incremental        warm run ÷ cold --no-cache run (wall, ratio of medians)
//   check-incremental-edit   how many cases the run after the edit redid, from the stats line
//                            (`PROMPT_CONTRACT_CACHE_STATS=1`); it must be that prompt's cases
// Every run's findings are compared: cached runs must report what an uncached run reports.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load as parseYaml } from 'js-yaml';
import { cacheStats, checkCacheEntries, checkFlags, clearCheckCache, missingFlags } from './check-cli.js';
import { Mismatch, measure, median, same, secs, spread } from './common.js';
import { benchProject, projectEnv } from './project-gen.js';

export async function checkIncremental({ quick, root, result, log }) {
  const node = process.execPath;
  const f = checkFlags(root);
  const project = benchProject(quick ? { prompts: 20, cases: 25 } : { prompts: 200, cases: 25 }, { log });
  const cycles = quick ? 2 : 3;
  const env = projectEnv({ PROMPT_CONTRACT_CACHE_STATS: '1' });
  const noCache = f.noCache ? ['--no-cache'] : [];
  const run = (extra = []) => measure(node, [join(root, 'dist', 'cli.js'), 'check', '--format', 'json', ...extra], { cwd: project.dir, env });
  const findings = (r) => JSON.parse(r.stdout).diagnostics;

  const file = join(project.dir, project.edit.file);
  const original = readFileSync(file, 'utf8');
  const lines = original.split('\n');
  same(`the line to edit in ${project.edit.file}`, lines[project.edit.line], project.edit.from);
  lines[project.edit.line] = project.edit.to;
  const edited = lines.join('\n');
  parseYaml(edited); // still valid YAML
  const expectRedone = project.casesPerPrompt;

  const t = { cold: [], first: [], warm: [], edit: [], restored: [] };
  const stats = { first: [], warm: [], edit: [], restored: [] };
  let clean;
  let cacheSeen = [];
  let editFindings;
  const expectClean = (what, r) => {
    if (r.status !== 0) throw new Error(`${what} exited ${r.status}: ${(r.stdout + r.stderr).slice(0, 1500)}`);
    if (clean !== undefined) same(`findings of ${what} vs a cold run on the unchanged project`, findings(r), clean);
    clean = findings(r);
  };
  try {
    // One unmeasured run: the file cache and jiti's transform cache are warm for every side alike.
    clearCheckCache(project.dir);
    expectClean('the warm-up run', run(noCache));
    for (let c = 0; c < cycles; c++) {
      clearCheckCache(project.dir);
      let r = run(noCache);
      expectClean(`cold \`check${f.noCache ? ' --no-cache' : ''}\``, r);
      t.cold.push(r);

      clearCheckCache(project.dir);
      r = run();
      expectClean('the first cached run (empty cache)', r);
      t.first.push(r);
      stats.first.push(cacheStats(r.stderr));
      cacheSeen = checkCacheEntries(project.dir);

      r = run();
      expectClean('the second cached run (nothing changed)', r);
      t.warm.push(r);
      stats.warm.push(cacheStats(r.stderr));

      writeFileSync(file, edited);
      r = run();
      t.edit.push(r);
      stats.edit.push(cacheStats(r.stderr));
      if (c === 0) {
        // What an uncached run reports on the edited project: the cached run must report the same.
        const reference = run(noCache);
        same('findings after the edit: cached run vs uncached run', findings(r), findings(reference));
        same('exit code after the edit: cached run vs uncached run', r.status, reference.status);
        editFindings = findings(reference);
        const outdated = editFindings.filter((d) => d.ruleId === 'snapshot/outdated').length;
        if (outdated !== expectRedone) throw new Mismatch(`the edit to ${project.edit.file} should make the ${expectRedone} snapshots of \`${project.firstPrompt}\` outdated, and ${outdated} are`);
      } else same('findings after the edit, cycle to cycle', findings(r), editFindings);

      writeFileSync(file, original);
      r = run();
      expectClean('the run after the edit was undone', r);
      t.restored.push(r);
      stats.restored.push(cacheStats(r.stderr));
    }
  } finally {
    writeFileSync(file, original);
  }

  const med = (list, key = 'wall') => median(list.map((r) => r[key]));
  const ratio = med(t.warm) / med(t.cold);
  const statsText = (list) => (list.every((s) => s === undefined) ? 'n/a' : list.map((s) => (s ? `${s.reused} of ${s.total} reused` : 'n/a')).join(', '));
  const size = `${project.prompts} prompts x ${project.casesPerPrompt} cases (${project.cases.toLocaleString('en-US')} cases)`;
  const quickNote = quick ? ' Quick mode: the 500-case project instead of 5,000.' : '';
  const where = cacheSeen.length > 0 ? `After a cached run the project held ${cacheSeen.map((n) => `\`${n}\``).join(', ')}.` : 'No cache entry appeared in node_modules/.cache/prompt-contract (besides handlers/) after a cached run.';
  result(
    'check-incremental',
    ratio,
    '<= 0.15',
    ratio <= 0.15,
    `Wall time of a second \`check\` with nothing changed, ${secs(med(t.warm))} (${secs(med(t.warm, 'cpu'))} CPU), divided by a cold \`check${f.noCache ? ' --no-cache' : ''}\`, ${secs(med(t.cold))} (${secs(med(t.cold, 'cpu'))} CPU), on a generated project of ${size}; ratio of the medians of ${cycles} cycles (per cycle ${spread(t.warm.map((r, i) => r.wall / t.cold[i].wall))}). ` +
      `The first cached run on an emptied cache took ${secs(med(t.first))} (${(med(t.first) / med(t.cold)).toFixed(2)} of cold). Every run reported the same findings as the cold run. Cache statistics: first run ${statsText(stats.first)}; second run ${statsText(stats.warm)}. ${where} The cache is emptied by removing every entry of node_modules/.cache/prompt-contract except handlers/ (TypeScript handler schemas, kept so that no run measures the TypeScript compiler), and any other node_modules/.cache/prompt-contract* folder.${missingFlags(f)}${quickNote}`,
  );

  const redone = stats.edit.map((s) => (s ? s.total - s.reused : undefined));
  const known = redone.every((n) => n !== undefined);
  const editRatio = med(t.edit) / med(t.cold);
  result(
    'check-incremental-edit',
    editRatio,
    `redoes only the ${expectRedone} cases of the edited prompt`,
    known ? redone.every((n) => n === expectRedone) : null,
    `After one value of \`${project.edit.file}\` is changed (one example's \`user\` line, still a valid example), \`check\` took ${secs(med(t.edit))}, ${editRatio.toFixed(2)} of the cold run (the figure), and redid ${known ? redone.join(', ') : 'n/a (no `prompt-contract cache: R of C cases reused` line on stderr with PROMPT_CONTRACT_CACHE_STATS=1)'} cases in ${cycles} cycles; ${expectRedone} cases render that prompt. ` +
      `It reported the ${expectRedone} outdated snapshots an uncached run reports (checked). After the edit was undone: ${secs(med(t.restored))}, stats ${statsText(stats.restored)}, same findings as before the edit.${quickNote}`,
  );
}
