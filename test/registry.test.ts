import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allRules, ruleFamilies } from '../src/report/registry.js';

// The rule registry audits itself: every rule has a docs section and is exercised by a test.
const pinnedFamilies = ['example', 'handler', 'recorded', 'persisted', 'provider', 'compat', 'render', 'config', 'snapshot', 'budget'];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : testFiles(path);
    return /\.(test|smoke)\.ts$/.test(e.name) && e.name !== 'registry.test.ts' ? [path] : [];
  });
}

const tests = testFiles('test').map((f) => readFileSync(f, 'utf8'));

/** A test names the rule id, or walks its family's rule table with a case keyed by the rule's short name. */
function exercised(id: string): boolean {
  const [family, short] = id.split('/') as [string, string];
  const table = Object.entries({ description: 'config' }).find(([, f]) => f === family)?.[0] ?? family;
  return tests.some((t) => t.includes(`'${id}'`) || t.includes(`"${id}"`) || t.includes(`\`${id}\``) || (t.includes(`${table}Rules`) && (new RegExp(`['"\\s]${short}['"]?\\s*:`).test(t) || t.includes(`rule: '${short}'`))));
}

test('rule ids are unique and belong to the pinned families', () => {
  const ids = allRules.map((r) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(pinnedFamilies).toContain(id.split('/')[0]);
  for (const [family, rules] of Object.entries(ruleFamilies)) for (const r of Object.values(rules)) expect(r.id.startsWith(`${family}/`)).toBe(true);
});

test.each(allRules.map((r) => [r.id, r] as const))('%s has a docs section and a test', (id, rule) => {
  const [file, anchor] = rule.docs.split('#');
  const docs = readFileSync(file!, 'utf8');
  expect(docs).toMatch(new RegExp(`^## \`?${anchor!.replace(/[-/]/g, '\\$&')}\`?\\s*$`, 'm'));
  expect(rule.description.length).toBeGreaterThan(20);
  expect(exercised(id)).toBe(true);
});
