import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { allRules } from '../../src/report/registry.js';
import { report, rulesDocsBase, webUrl } from '../../src/report/rule.js';

const local = new URL('file:///opt/pkg/docs/rules/');

describe('rule URLs', () => {
  test('are absolute, and lead to the docs file and section of the rule', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string; homepage?: string; repository?: unknown };
    for (const rule of allRules) {
      const url = new URL(rule.url);
      const [file, anchor] = rule.docs.split('#');
      expect(url.hash).toBe(`#${anchor}`);
      if (pkg.homepage === undefined && pkg.repository === undefined) {
        expect(url.protocol).toBe('file:');
        expect(existsSync(fileURLToPath(url))).toBe(true);
        expect(fileURLToPath(url)).toBe(fileURLToPath(new URL(`../../${file}`, import.meta.url)));
      } else {
        expect(url.href).toContain(`/blob/v${pkg.version}/${file}#`);
      }
      // A finding carries the rule's URL unless the check names another (a provider's docs).
      expect(report(rule, { message: 'x' }).url).toBe(rule.url);
    }
  });

  test('use the repository at the released version when package.json names one', () => {
    expect(rulesDocsBase({ version: '1.2.0', repository: { type: 'git', url: 'git+https://github.com/acme/prompt-contract.git' } }, local)).toBe(
      'https://github.com/acme/prompt-contract/blob/v1.2.0/docs/rules/',
    );
    expect(rulesDocsBase({ version: '1.2.0', repository: 'acme/pc' }, local)).toBe('https://github.com/acme/pc/blob/v1.2.0/docs/rules/');
    expect(rulesDocsBase({ version: '1.2.0', repository: { url: 'https://github.com/acme/mono', directory: 'packages/pc' } }, local)).toBe(
      'https://github.com/acme/mono/blob/v1.2.0/packages/pc/docs/rules/',
    );
    expect(rulesDocsBase({ version: '1.2.0', homepage: 'https://github.com/acme/pc#readme' }, local)).toBe('https://github.com/acme/pc/blob/v1.2.0/docs/rules/');
  });

  test('fall back to the installed package\'s own docs without a repository or homepage', () => {
    expect(rulesDocsBase({ version: '0.1.0' }, local)).toBe('file:///opt/pkg/docs/rules/');
    expect(rulesDocsBase(undefined, local)).toBe('file:///opt/pkg/docs/rules/');
    expect(rulesDocsBase({ version: '0.1.0', repository: 'not a url' }, local)).toBe('file:///opt/pkg/docs/rules/');
  });

  test('read the common ways package.json writes a repository', () => {
    expect(webUrl('github:acme/pc')).toBe('https://github.com/acme/pc');
    expect(webUrl('gitlab:acme/pc')).toBe('https://gitlab.com/acme/pc');
    expect(webUrl('git@github.com:acme/pc.git')).toBe('https://github.com/acme/pc');
    expect(webUrl('git://github.com/acme/pc.git')).toBe('https://github.com/acme/pc');
    expect(webUrl('ssh://git@github.com/acme/pc.git')).toBe('https://github.com/acme/pc');
  });
});
