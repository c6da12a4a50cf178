#!/usr/bin/env node
// The package as a user gets it: `npm pack`, installed from the tarball into fresh projects
// outside this repository, with jest from the registry, then the user's own commands. Four
// projects: plain JavaScript scaffolded by `prompt-contract init` (an .mjs config, plain `jest`);
// TypeScript written by hand (a .ts config, zod tools, ts-jest); the same TypeScript in a
// CommonJS package; Vitest. Run by .ci/run after the suite; it needs the npm registry (or a
// warm npm cache) and takes a minute or two.
//
//   node scripts/pack-test.mjs [--keep]     # --keep leaves the projects in place to look at
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const keep = process.argv.includes('--keep');
const work = mkdtempSync(join(tmpdir(), 'prompt-contract-pack-'));
let passed = 0;
let failed = 0;

function run(command, args, cwd, env = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env }, maxBuffer: 64 * 1024 * 1024 });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { code: result.status ?? -1, out: `${result.stdout ?? ''}${result.stderr ?? ''}`, seconds };
}

/** One step: runs it, checks the exit code (and optionally the output), and tallies it. */
function step(name, command, args, cwd, { code = 0, env = {}, expect } = {}) {
  const r = run(command, args, cwd, env);
  const problems = [];
  if (r.code !== code) problems.push(`exit ${r.code}, expected ${code}`);
  if (expect && !expect.test(r.out)) problems.push(`output does not match ${expect}`);
  if (problems.length === 0) {
    passed++;
    console.log(`ok    ${name} (${r.seconds} s)`);
  } else {
    failed++;
    console.log(`FAIL  ${name} (${r.seconds} s): ${problems.join('; ')}\n${r.out.split('\n').map((l) => `      ${l}`).join('\n')}`);
  }
  return r;
}

function write(dir, files) {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
}

function edit(file, from, to) {
  const before = readFileSync(file, 'utf8');
  const after = before.replace(from, to);
  if (after === before) throw new Error(`pack test: ${from} not found in ${file}`);
  writeFileSync(file, after);
}

const npmInstall = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev'];

try {
  const packed = run('npm', ['pack', '--pack-destination', work], repo);
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.out}`);
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')));
  console.log(`packed ${tarball}`);
  for (const file of ['LICENSE', 'README.md', 'dist/cli.js']) step(`the tarball holds ${file}`, 'tar', ['-tzf', tarball], work, { expect: new RegExp(`^package/${file.replace('.', '\\.')}$`, 'm') });

  // 1. Plain JavaScript, scaffolded by init, as the README's "Add it to your project" says.
  const js = join(work, 'js-project');
  write(js, { 'package.json': `${JSON.stringify({ name: 'js-agent', version: '1.0.0', private: true, scripts: { test: 'echo "Error: no test specified" && exit 1' } }, null, 2)}\n` });
  step('js: npm install the tarball and jest', 'npm', [...npmInstall, tarball, 'jest'], js);
  step('js: npx prompt-contract init', 'npx', ['prompt-contract', 'init'], js, { expect: /created\s+prompt-contract\.config\.mjs/ });
  step('js: npm test writes the first snapshots', 'npm', ['test', '--', '--ci=false'], js, { env: { CI: '' }, expect: /snapshots? written/ });
  step('js: npm test under CI passes on them', 'npm', ['test'], js, { env: { CI: 'true' } });
  step('js: npx prompt-contract check', 'npx', ['prompt-contract', 'check'], js, { expect: /No problems found/ });
  // init wrote `"test": "jest"` and a CommonJS suite: Jest needs no flag and no config of ours.
  step('js: the test script is plain jest', 'node', ['-e', "process.exit(require('./package.json').scripts.test === 'jest' ? 0 : 1)"], js);
  step('js: plain npx jest, no NODE_OPTIONS, passes', 'npx', ['jest', '--ci'], js, { env: { NODE_OPTIONS: '', CI: 'true' }, expect: /Tests:\s+\d+ passed/ });
  // The optional parts are not installed: a config that needs one says which and how.
  write(js, {
    'sqlite.config.mjs': "import base from './prompt-contract.config.mjs';\nexport default { ...base, persisted: [{ name: 'store', sqlite: 'store.db', query: 'SELECT id, message FROM messages' }] };\n",
    'handler.config.mjs': "import base from './prompt-contract.config.mjs';\nexport default { ...base, handlers: { get_weather: 'handler.ts#Args' } };\n",
    'handler.ts': 'export interface Args { city: string; unit?: "celsius" | "fahrenheit" }\n',
    'store.db': '',
  });
  step('js: a SQLite source without better-sqlite3 names the install', 'npx', ['prompt-contract', 'check', '--config', 'sqlite.config.mjs'], js, { code: 2, expect: /npm i -D better-sqlite3/ });
  step('js: a TypeScript handler without the generator names the install', 'npx', ['prompt-contract', 'check', '--config', 'handler.config.mjs'], js, { code: 2, expect: /npm i -D ts-json-schema-generator typescript/ });
  // Prebuilt binaries inside registry packages are fine (jest brings two); a compiled one lands in build/Release.
  step('js: no native module was compiled', 'node', ['-e', "const fs=require('fs');const walk=d=>fs.readdirSync(d,{withFileTypes:true}).flatMap(e=>e.isDirectory()?walk(d+'/'+e.name):/[\\/]build[\\/](Release|Debug)[\\/].*\\.node$/.test(d+'/'+e.name)?[d+'/'+e.name]:[]);const n=walk('node_modules');if(n.length){console.log(n.join(' '));process.exit(1)}"], js);
  edit(join(js, 'prompts/examples/assistant.yaml'), 'unit: fahrenheit', 'unit: kelvin');
  step('js: a stale example fails check', 'npx', ['prompt-contract', 'check'], js, { code: 1, expect: /example\/invalid-arguments/ });
  step('js: check --format github annotates it', 'npx', ['prompt-contract', 'check', '--format', 'github'], js, { code: 1, expect: /^::error file=prompts\/examples\/assistant\.yaml,line=\d+,col=\d+,title=example\/invalid-arguments \(get_weather\)::/m });
  step('js: a stale example fails npm test', 'npm', ['test'], js, { code: 1, env: { CI: 'true' }, expect: /assistant\.yaml/ });

  // 2. TypeScript: a .ts config, zod tools, ts-jest through the shipped Jest config helper.
  const ts = join(work, 'ts-project');
  write(ts, {
    'package.json': `${JSON.stringify({ name: 'ts-agent', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node --experimental-vm-modules node_modules/jest/bin/jest.js' } }, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, esModuleInterop: true, skipLibCheck: true, isolatedModules: true }, include: ['src', 'test', '*.ts'] }, null, 2)}\n`,
    'jest.config.mjs': "import { promptContractJestConfig } from 'prompt-contract/jest-config';\n\nexport default promptContractJestConfig();\n",
    'src/tools.ts': `import { z } from 'zod';
import { defineTool } from 'prompt-contract';

export const tools = [
  defineTool({ name: 'create_event', description: 'Create a calendar event for the user.', input: z.object({ title: z.string().min(1), start: z.string(), minutes: z.number().int().min(5).max(480) }) }),
  defineTool({ name: 'cancel_event', description: 'Cancel an event by its id.', input: z.object({ event_id: z.string().regex(/^evt_[0-9]+$/) }) }),
];
`,
    'prompt-contract.config.ts': `import { defineConfig } from 'prompt-contract';
import { tools } from './src/tools.js';

export default defineConfig({ prompts: 'prompts', tools, providers: ['anthropic', 'openai'] });
`,
    'prompts/calendar.prompt': `---
tools: [create_event, cancel_event]
examples: { file: examples/calendar.yaml, partial: call }
---
You manage {{user}}'s calendar.
{{#each examples}}
{{> call this}}
{{/each}}
`,
    'prompts/partials/_call.prompt': '<tool_call>\n{{json this}}\n</tool_call>\n',
    'prompts/examples/calendar.yaml': 'examples:\n  - name: create_event\n    arguments: { title: Standup, start: "2026-12-03T09:00", minutes: 15 }\n  - name: cancel_event\n    arguments: { event_id: evt_42 }\n',
    'prompts/cases/calendar.yaml': 'prompt: calendar\ncases:\n  weekday:\n    input: { user: Ana }\n  weekend:\n    input: { user: Ben }\n',
    'test/prompts.test.ts': "import { contractSuite } from 'prompt-contract/jest';\n\nawait contractSuite();\n",
  });
  step('ts: npm install the tarball, jest, ts-jest, typescript and zod', 'npm', [...npmInstall, tarball, 'jest', 'ts-jest', 'typescript', 'zod'], ts);
  step('ts: npm test writes the first snapshots', 'npm', ['test', '--', '--ci=false'], ts, { env: { CI: '' }, expect: /snapshots? written/ });
  step('ts: npm test under CI passes on them', 'npm', ['test'], ts, { env: { CI: 'true' } });
  step('ts: npx prompt-contract check', 'npx', ['prompt-contract', 'check'], ts, { expect: /No problems found/ });
  edit(join(ts, 'prompts/examples/calendar.yaml'), 'minutes: 15', 'minutes: 1');
  step('ts: a stale example fails check at its YAML line', 'npx', ['prompt-contract', 'check'], ts, { code: 1, expect: /prompts\/examples\/calendar\.yaml\n\s+3:\d+\s+error/ });
  step('ts: a stale example fails npm test', 'npm', ['test'], ts, { code: 1, env: { CI: 'true' }, expect: /example\/invalid-arguments/ });
  // The worker script from the installed package: the threads, not this one, check every case.
  step('ts: check --workers 2 finds it from a worker thread', 'npx', ['prompt-contract', 'check', '--no-cache', '--workers', '2'], ts, {
    code: 1,
    env: { PROMPT_CONTRACT_TEST_WORKERS_ONLY: '1', PROMPT_CONTRACT_THREAD_STATS: '1' },
    expect: /^(?=[\s\S]*prompts\/examples\/calendar\.yaml\n\s+3:\d+\s+error)(?=[\s\S]*prompt-contract threads: 0 \+ [1-9])/,
  });

  // 2b. The same TypeScript in a CommonJS package (no "type", `"module": "commonjs"`, an
  // extensionless import), as most existing TypeScript services are: ts-jest must still give
  // Jest ES modules for the config and the suite, and the package's own CommonJS tests still run.
  const cjs = join(work, 'ts-commonjs-project');
  write(cjs, {
    'package.json': `${JSON.stringify({ name: 'ts-cjs-agent', version: '1.0.0', private: true, scripts: { test: 'node --experimental-vm-modules node_modules/jest/bin/jest.js' } }, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'commonjs', strict: true, esModuleInterop: true, skipLibCheck: true }, include: ['src', 'test', '*.ts'] }, null, 2)}\n`,
    'jest.config.mjs': "import { promptContractJestConfig } from 'prompt-contract/jest-config';\n\nexport default promptContractJestConfig();\n",
    'src/tools.ts': readFileSync(join(ts, 'src/tools.ts'), 'utf8'),
    'src/sum.ts': 'export const sum = (a: number, b: number): number => a + b;\n',
    'src/sum.test.ts': "import { sum } from './sum';\n\ntest('adds', () => expect(sum(1, 2)).toBe(3));\n",
    'prompt-contract.config.ts': readFileSync(join(ts, 'prompt-contract.config.ts'), 'utf8').replace("'./src/tools.js'", "'./src/tools'"),
    'prompts/calendar.prompt': readFileSync(join(ts, 'prompts/calendar.prompt'), 'utf8'),
    'prompts/partials/_call.prompt': readFileSync(join(ts, 'prompts/partials/_call.prompt'), 'utf8'),
    'prompts/examples/calendar.yaml': readFileSync(join(ts, 'prompts/examples/calendar.yaml'), 'utf8').replace('minutes: 1', 'minutes: 15'),
    'prompts/cases/calendar.yaml': readFileSync(join(ts, 'prompts/cases/calendar.yaml'), 'utf8'),
    'test/prompts.test.ts': readFileSync(join(ts, 'test/prompts.test.ts'), 'utf8'),
  });
  step('ts-cjs: npm install the tarball, jest, ts-jest, typescript and zod', 'npm', [...npmInstall, tarball, 'jest', 'ts-jest', 'typescript', 'zod'], cjs);
  step('ts-cjs: npm test writes the first snapshots and runs the CommonJS tests too', 'npm', ['test', '--', '--ci=false'], cjs, { env: { CI: '' }, expect: /^(?=[\s\S]*snapshots? written)(?=[\s\S]*PASS src\/sum\.test\.ts)/ });
  step('ts-cjs: npx prompt-contract check', 'npx', ['prompt-contract', 'check'], cjs, { expect: /No problems found/ });

  // 3. Vitest: the same suite through prompt-contract/vitest, with Vitest's own -u and CI.
  const vt = join(work, 'vitest-project');
  write(vt, { 'package.json': `${JSON.stringify({ name: 'vitest-agent', version: '1.0.0', private: true, type: 'module', scripts: { test: 'vitest run' } }, null, 2)}\n` });
  step('vitest: npm install the tarball and vitest', 'npm', [...npmInstall, tarball, 'vitest'], vt);
  step('vitest: npx prompt-contract init finds Vitest', 'npx', ['prompt-contract', 'init'], vt, { expect: /Vitest: the test uses prompt-contract\/vitest/ });
  step('vitest: a CI run with no snapshots fails and writes none', 'npm', ['test'], vt, { code: 1, env: { CI: 'true' }, expect: /none was written/ });
  step('vitest: npm test -- -u writes them', 'npm', ['test', '--', '-u'], vt, { env: { CI: '' }, expect: /Snapshots\s+2 written/ });
  step('vitest: npm test under CI passes on them', 'npm', ['test'], vt, { env: { CI: 'true' } });
  edit(join(vt, 'prompts/examples/assistant.yaml'), 'unit: fahrenheit', 'unit: kelvin');
  step('vitest: a stale example fails npm test', 'npm', ['test'], vt, { code: 1, env: { CI: 'true' }, expect: /example\/invalid-arguments/ });
} catch (error) {
  failed++;
  console.log(`FAIL  ${error instanceof Error ? error.message : String(error)}`);
} finally {
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

console.log(`packtest: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
