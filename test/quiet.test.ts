import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addJestSuite, runJestAsync, stableDemoCopy, type Demo } from './cli/helpers.js';

// A passing run of a project's Jest tests prints what the tests print and Jest's summary,
// nothing of ours besides: no console lines from Handlebars (with their stack), and no Jest
// worker left holding a handle ("A worker process has failed to exit gracefully"). The
// project has two test files, so Jest runs them in worker processes as a user's run does:
// the contract suite, and one that renders through the exported `renderDotprompt` with a
// template that reads an inherited member (Handlebars logs one to the console by default).

let demo: Demo;
let run: { code: number; out: string };

beforeAll(async () => {
  demo = stableDemoCopy('quiet');
  addJestSuite(demo.dir);
  writeFileSync(
    join(demo.dir, 'test', 'render-api.test.ts'),
    [
      "import { renderDotprompt } from 'prompt-contract';",
      '',
      "test('an inherited member renders as nothing', () => {",
      "  const { messages } = renderDotprompt('Hello {{customer.toString}}{{lookup customer \"constructor\"}}!', { input: { customer: { id: 1 } } });",
      "  expect(messages).toEqual([{ role: 'user', content: [{ text: 'Hello !' }] }]);",
      '});',
      '',
    ].join('\n'),
  );
  // The check cache in the project, as it is in a user's (the default folder is under node_modules).
  run = await runJestAsync(demo.dir, ['--ci', '--maxWorkers=2'], { PROMPT_CONTRACT_CACHE_DIR: join(demo.dir, '.cache') });
}, 300_000);
afterAll(() => demo?.remove());

test('a passing run prints no console lines, no Handlebars stack and no worker that failed to exit', () => {
  expect(run.out).toMatch(/Tests: +\d+ passed, \d+ total/);
  expect(run.out).toMatch(/PASS test\/render-api\.test\.ts/);
  expect(run.code).toBe(0);
  expect(run.out).not.toMatch(/failed to exit gracefully/);
  expect(run.out).not.toMatch(/Access has been denied/);
  expect(run.out).not.toMatch(/console\.(?:error|warn|log)/);
  expect(run.out).not.toMatch(/^\s+at .*handlebars/im);
});
