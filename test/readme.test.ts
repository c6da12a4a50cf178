import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { cliInProcess, repo } from './cli/helpers.js';

// The README is followed by new users: its commands, its links and its CLI reference must stay
// true. The commands in its shell blocks are run in test/readme-commands.test.ts.
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { bin: Record<string, string>; scripts: Record<string, string> };
const docsPages = readdirSync(join(repo, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
const documents = new Map(['README.md', ...docsPages].map((path) => [path, readFileSync(join(repo, path), 'utf8')]));

/** The commands of each `sh`/`bash` fence in `markdown`, comments and blank lines left out. */
function shellBlocks(markdown: string): string[][] {
  return [...markdown.matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```/gm)].map((m) =>
    m[1]!.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter((line) => line !== ''),
  );
}

test('the README fits 300 lines, and its first 60 give the two repository commands and the three project commands', () => {
  expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  const [repository, project] = shellBlocks(readme.split('\n').slice(0, 60).join('\n'));
  expect(repository).toEqual(['git clone <this repository> prompt-contract && cd prompt-contract', 'npm ci && npm run check', 'npm test']);
  expect(project).toEqual(['npm install --save-dev prompt-contract jest', 'npx prompt-contract init', 'npm test']);
  // `check` builds first (the package has no install script), then runs the binary on the demo;
  // `npm test` builds, then runs the suite, as the comments beside the commands say.
  expect(pkg.scripts.precheck).toBe('npm run build');
  expect(pkg.scripts.check).toBe(`node ${pkg.bin['prompt-contract']} check`);
  expect(pkg.scripts.pretest).toBe('npm run build');
});

test('the table of contents lists every section of the README, in order', () => {
  const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]!).filter((title) => title !== 'Contents');
  const contents = /^## Contents\n\n((?:- .*\n)+)/m.exec(readme)![1]!;
  expect([...contents.matchAll(/^- \[(.+?)\]\(#(.+?)\)$/gm)].map((m) => [m[1], m[2]])).toEqual(sections.map((title) => [title, githubSlug(title)]));
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

test('every npm script the README and the docs pages name exists', () => {
  const named = new Set<string>();
  for (const text of documents.values()) for (const m of text.matchAll(/npm run (?:--silent )?([a-z][\w:-]*)/g)) named.add(m[1]!);
  expect([...named].filter((script) => pkg.scripts[script] === undefined)).toEqual([]);
  expect(named.size).toBeGreaterThan(5);
  // No install script: installing the package runs nothing of ours.
  for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[hook]).toBeUndefined();
});

test('the Jest setup is written in one place, docs/jest.md, marked for the lead to update in one edit', () => {
  const marked = [...documents].filter(([, text]) => text.includes('<!-- jest-flags -->')).map(([path]) => path);
  expect(marked).toEqual(['docs/jest.md']);
  const flagged = [...documents].filter(([, text]) => text.includes('--experimental-vm-modules')).map(([path]) => path);
  expect(flagged).toEqual(['docs/jest.md']);
});

// GitHub's heading anchors (github-slugger): the heading's text, lower-cased, with punctuation
// other than `-` and `_` removed and each space made a `-`; a repeated anchor gets `-1`, `-2`.
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '');
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings, code blocks left out. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = githubSlug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

const blank = (code: string): string => code.replace(/[^\n]/g, ' ');

/** `markdown` with fenced blocks blanked, so they give no headings. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, blank);
}

/** `markdown` with fenced blocks and code spans blanked, so neither gives links. */
function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/(`+)[^`\n][\s\S]*?\1/g, blank);
}

/**
 * Every relative link of `files` (path from the repository root -> text) whose file does not
 * exist, or whose `#anchor` is no heading of the Markdown file it names, as `file:line: target`.
 * `exists` and `read` look at other files; by default, the repository's.
 */
function brokenLinks(files: Map<string, string>, exists = (path: string) => existsSync(join(repo, path)), read = (path: string) => readFileSync(join(repo, path), 'utf8')): string[] {
  const broken: string[] = [];
  for (const [file, text] of files) {
    const plain = withoutCode(text);
    const targets = [...plain.matchAll(/\]\(([^)\s]*)(?:\s+"[^"]*")?\)/g), ...plain.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)];
    for (const m of targets) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const resolved = path === '' ? file : normalize(join(dirname(file), decodeURI(path)));
      const place = `${file}:${text.slice(0, m.index).split('\n').length}: ${target}`;
      if (resolved.startsWith('..') || !(files.has(resolved) || exists(resolved))) broken.push(place);
      else if (anchor !== undefined && (!resolved.endsWith('.md') || !anchors(files.get(resolved) ?? read(resolved)).has(anchor))) broken.push(place);
    }
  }
  return broken;
}

test('every relative link in the README and the docs pages reaches an existing file, and heading', () => {
  expect(brokenLinks(documents)).toEqual([]);
  // The pages are reached: each docs page is linked from the README or from a page it links.
  const linked = [...documents.values()].join('\n');
  for (const page of docsPages) expect({ page, linked: linked.includes(`(${relative('docs', page)}`) || linked.includes(`(${page}`) }).toEqual({ page, linked: true });
});

test('the link check finds a missing file, a missing heading and a repeated heading that is not there', () => {
  const files = new Map([
    ['README.md', '# Title\n\n## Add it `now`: fast\n\n## Add it `now`: fast\n\nSee [a](docs/a.md#tools-files-and-render---tools), [b](#add-it-now-fast-1), [c](#add-it-now-fast-2), [d](docs/gone.md).\n\n```md\n[e](docs/also-gone.md)\n```\n'],
    ['docs/a.md', '# A\n\n## Tools files and `render --tools`\n\nBack to [the top](../README.md#title) and [nowhere](../README.md#nowhere); [outside](../../x.md).\n'],
  ]);
  expect(brokenLinks(files, () => false, () => '')).toEqual(['README.md:7: #add-it-now-fast-2', 'README.md:7: docs/gone.md', 'docs/a.md:5: ../README.md#nowhere', 'docs/a.md:5: ../../x.md']);
});
