import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { cliInProcess as cli, withDemo } from '../cli/helpers.js';

// The review page opened in a real headless Chromium (Debian's, at /usr/bin/chromium; CI
// installs it): every changed case is on it, hostile prompt text stays text, and the page asks
// for nothing but itself. Locally without Chromium the test is skipped and says why; on CI
// (CI=true) a missing Chromium fails it, so the check cannot silently stop running.

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
const why = `no Chromium at ${CHROMIUM}: install Debian's \`chromium\` (apt-get install -y chromium) or set CHROMIUM`;
const env = { GITHUB_BASE_REF: undefined, PROMPT_CONTRACT_AGAINST: undefined };

if (!present && process.env.CI !== 'true') {
  test.skip(`the review page in headless Chromium (skipped: ${why})`, () => undefined);
} else {
  test('the review page in headless Chromium: every changed case shown, hostile text inert, nothing fetched, no console error', () =>
    withDemo(async (demo) => {
      if (!present) throw new Error(`CI must run the browser test: ${why}`);
      demo.edit('prompts/partials/_refund_policy.prompt', '- Offer store credit when the original payment method has expired.', '- Offer store credit when the original payment method has expired.\n- Never send </script><img src=x onerror=window.__pwned=1><script>window.__pwned=2</script> to anyone.');
      demo.edit('prompts/tools/descriptions.yaml', 'Report where a refund is (pending, sent, failed) by its refund id.', 'Report the state of a refund <img src=https://example.invalid/t.png> by its id.');
      const file = join(demo.dir, 'review.html');
      const result = await cli(['check', '--no-cache', '--format', 'html', '--output', file], { cwd: demo.dir, env });
      expect(result.code).toBe(1);
      const url = pathToFileURL(file).href;
      const browser = await chromium.launch({ executablePath: CHROMIUM });
      try {
        const page = await browser.newPage();
        const requested: string[] = [];
        const problems: string[] = [];
        await page.route('**/*', (route) => {
          requested.push(route.request().url());
          return route.request().url() === url ? route.continue() : route.abort();
        });
        page.on('console', (m) => {
          if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
        });
        page.on('pageerror', (e) => problems.push(e.message));
        await page.goto(url, { waitUntil: 'load' });
        // Every changed case has a section, or is named in the section of the case with the same change.
        const cases = await page.locator('[data-case]').evaluateAll((nodes) => nodes.map((n) => `${n.getAttribute('data-prompt')}/${n.getAttribute('data-case')}`));
        // The policy partial is sent by every refund case; the reworded status tool by refund_agent and status_chat.
        expect(cases.sort()).toEqual(['refund_agent/empty_retrieval', 'refund_agent/legacy_order', 'refund_agent/standard_refund', 'status_chat/first_message', 'status_chat/follow_up_openai', 'status_chat/refund_gemini']);
        expect(await page.locator('nav li').count()).toBe(6);
        expect(await page.locator('text=unchanged case').count()).toBe(1);
        // The hostile line is on the page as text, and nothing it holds ran or was made an element.
        expect(await page.locator('td.add', { hasText: '<script>window.__pwned=2</script>' }).count()).toBe(1);
        expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
        expect(await page.locator('img, script').count()).toBe(0);
        // The inline style sheet applied (the policy allowed it by its hash): an added line is green.
        expect(await page.locator('td.add').first().evaluate((td) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(td).backgroundColor)).toBe('rgb(230, 255, 236)');
        expect(await page.locator('table.tools td', { hasText: 'Report the state of a refund <img' }).count()).toBe(1);
        expect(requested).toEqual([url]);
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    }), 120_000);
}
