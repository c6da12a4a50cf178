#!/usr/bin/env node
// Makes docs/review-demo.png: the review page of the demo with one prompt line and one tool
// description edited, opened in Debian's Chromium (`/usr/bin/chromium`, or CHROMIUM) and
// captured. Run after `npm run build`: node scripts/review-screenshot.mjs
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const repo = fileURLToPath(new URL('../', import.meta.url));
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(executablePath)) {
  console.error(`No Chromium at ${executablePath}; install Debian's \`chromium\` or set CHROMIUM to a Chromium binary`);
  process.exit(2);
}
// Inside the repository, so the demo config's `import 'prompt-contract'` resolves to this package.
mkdirSync(join(repo, '.cache'), { recursive: true });
const dir = mkdtempSync(join(repo, '.cache', 'review-screenshot-'));
try {
  for (const entry of ['prompts', 'snapshots', 'prompt-contract.config.ts']) cpSync(join(repo, entry), join(dir, entry), { recursive: true });
  const edit = (file, from, to) => {
    const path = join(dir, file);
    const text = readFileSync(path, 'utf8');
    if (!text.includes(from)) throw new Error(`${file} no longer holds ${JSON.stringify(from)}: update this script`);
    writeFileSync(path, text.replace(from, to));
  };
  edit('prompts/partials/_refund_policy.prompt', '- Offer store credit when the original payment method has expired.', '- Offer store credit when the original payment method has expired, or when the customer asks for it.');
  edit('prompts/tools/descriptions.yaml', '    order_id: The order to refund.', '    order_id: The order to refund, exactly as `lookup_order` returned it.');
  const page = join(dir, 'review.html');
  const run = spawnSync(process.execPath, [join(repo, 'dist', 'cli.js'), 'check', '--format', 'html', '--output', page], { cwd: dir, encoding: 'utf8', env: { ...process.env, PROMPT_CONTRACT_CACHE_DIR: join(dir, '.cache') } });
  // 1: the edits are findings (outdated snapshots); anything else is a failure to run.
  if (run.status !== 1 || !existsSync(page)) throw new Error(`check --format html ended with ${run.status}: ${run.stderr}`);
  const browser = await chromium.launch({ executablePath });
  try {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    await tab.goto(pathToFileURL(page).href);
    await tab.screenshot({ path: join(repo, 'docs', 'review-demo.png'), fullPage: false });
  } finally {
    await browser.close();
  }
  console.log('wrote docs/review-demo.png');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
