import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { InputError } from '../../src/util/errors.js';
import { parseYaml } from '../../src/util/yaml.js';
import { repo, withDemo } from '../cli/helpers.js';

/** A "billion laughs": nine levels of ten aliases each, 10^9 strings once expanded. */
function laughs(indent: string): string {
  const lines = [`${indent}lol: &l0 [${Array(10).fill('"lol"').join(', ')}]`];
  for (let i = 1; i <= 8; i++) lines.push(`${indent}l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(', ')}]`);
  return lines.join('\n');
}

/** `check` in `dir`, killed after 60 s: a hang shows as a signal on a machine however loaded (it takes about a second). */
function check(dir: string): { status: number | null; signal: string | null; stderr: string } {
  const r = spawnSync(process.execPath, [join(repo, 'dist', 'cli.js'), 'check'], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, signal: r.signal, stderr: r.stderr };
}

// What shows the bomb was not expanded is where the error stops, not the time taken: it names
// the first alias past the bound (a few lines in), so the aliases after it were never counted,
// let alone expanded.
describe('a YAML alias bomb', () => {
  // Loading was fast (js-yaml shares aliased nodes); walking and printing the value was not:
  // 58 s and 2.1 GB before `check` gave up on the examples file.
  test('in an examples file: `check` exits 2 at once, naming the file and line of the alias', () => {
    withDemo((demo) => {
      const file = 'prompts/examples/refund_agent.yaml';
      demo.write(file, `laughs:\n${laughs('  ')}\n${demo.read(file).replace('  - title: A damaged item, refunded in full\n', '  - title: A damaged item, refunded in full\n    extra: *l8\n')}`);
      const result = check(demo.dir);
      expect(result.signal).toBeNull();
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/prompts\/examples\/refund_agent\.yaml:6:\d+: Alias `\*l3` takes the nodes added by aliases past 100,000 \(an alias bomb\)/);
    });
  }, 90_000);

  // The description mapping ignored a non-string `description` silently: only the parse can catch it.
  test('in descriptions.yaml: `check` exits 2 at once, naming the file and line', () => {
    withDemo((demo) => {
      const file = 'prompts/tools/descriptions.yaml';
      demo.write(file, demo.read(file).replace(/^lookup_order:\n  description: .*$/m, `${laughs('')}\nlookup_order:\n  description: *l8`));
      const result = check(demo.dir);
      expect(result.signal).toBeNull();
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/prompts\/tools\/descriptions\.yaml:\d+:\d+: Alias `\*l\d` takes the nodes added by aliases past 100,000/);
    });
  }, 90_000);

  test('is refused by parseYaml at the first alias past the bound, while modest reuse loads', () => {
    let error: unknown;
    try {
      parseYaml(`${laughs('')}\n`, 'bomb.yaml');
    } catch (e) {
      error = e;
    }
    // Before the bound this ran for about 50 s. Now it stops at the alias that takes the count
    // past 100,000: lines 2-4 add 12,330 nodes, each `*l3` of line 5 11,111 more, so the eighth
    // (column 45) is the one; the aliases after it, which would add 10^9, are never counted.
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'config/yaml-aliases', file: 'bomb.yaml', line: 5, column: 45, message: expect.stringMatching(/^Alias `\*l3` takes the nodes added by aliases past 100,000/) });
    // A hundred aliases to a 200-node mapping: 20,000 nodes, real reuse.
    const base = `base: &base {${Array.from({ length: 100 }, (_, i) => `k${i}: v`).join(', ')}}`;
    const doc = parseYaml(`${base}\nuses: [${Array(100).fill('*base').join(', ')}]\n`, 'reuse.yaml');
    expect((doc.value as { uses: unknown[] }).uses).toHaveLength(100);
  });

  test('an alias inside the node it names (an endless value) is refused with its line', () => {
    expect(() => parseYaml('ok: 1\nloop: &a\n  - 1\n  - *a\n', 'loop.yaml')).toThrow(expect.objectContaining({ code: 'config/yaml-aliases', line: 4, message: expect.stringMatching(/refers to a node that contains it/) }) as unknown as Error);
  });
});
