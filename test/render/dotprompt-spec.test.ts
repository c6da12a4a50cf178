/**
 * dotprompt's rendering specification (github.com/google/dotprompt, spec/*.yaml, vendored
 * verbatim in test/fixtures/dotprompt-spec; see PROVENANCE.md) run against renderDotprompt.
 *
 * Each file is a list of suites `{name, template, data?, partials?, resolverPartials?,
 * schemas?, tools?, tests}`; each test renders the suite's template with the suite's data
 * shallowly overlaid by the test's data and the test's `options` as metadata overrides, then
 * compares the result with `expect`, as dotprompt's own runner does: the messages and every
 * metadata field (`config`, `ext`, `metadata` default to `{}`), and `raw` when the test gives it.
 * A test listed in skips.json (key `file > suite > desc`, value the reason) is skipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { renderDotprompt, type DotpromptData, type DotpromptMetadata, type ToolDefinition } from '../../src/render/dotprompt.js';
import type { JsonSchema } from '../../src/render/picoschema.js';

interface SpecTest {
  desc?: string;
  data?: DotpromptData;
  options?: DotpromptMetadata;
  expect: Record<string, unknown>;
}

interface SpecSuite {
  name: string;
  template: string;
  data?: DotpromptData;
  partials?: Record<string, string>;
  resolverPartials?: Record<string, string>;
  schemas?: Record<string, JsonSchema>;
  tools?: Record<string, ToolDefinition>;
  tests: SpecTest[];
}

const SPEC_DIR = fileURLToPath(new URL('../fixtures/dotprompt-spec/', import.meta.url));
const skips = JSON.parse(readFileSync(join(SPEC_DIR, 'skips.json'), 'utf8')) as Record<string, string>;

const files = (readdirSync(SPEC_DIR, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => relative(SPEC_DIR, join(SPEC_DIR, f)).split('\\').join('/'))
  .sort();

const cases: Array<{ key: string; suite: SpecSuite; test: SpecTest }> = [];
for (const file of files) {
  const suites = load(readFileSync(join(SPEC_DIR, file), 'utf8')) as SpecSuite[];
  for (const suite of suites) {
    for (const test of suite.tests) {
      cases.push({ key: `${file.replace(/\.yaml$/, '')} > ${suite.name} > ${test.desc ?? 'should match expected output'}`, suite, test });
    }
  }
}

function run(suite: SpecSuite, test: SpecTest) {
  return renderDotprompt(suite.template, { ...suite.data, ...test.data }, {
    ...(suite.partials ? { partials: suite.partials } : {}),
    ...(suite.resolverPartials ? { resolvePartial: (name: string) => suite.resolverPartials?.[name] } : {}),
    ...(suite.schemas ? { schemas: suite.schemas } : {}),
    ...(suite.tools ? { tools: suite.tools } : {}),
    ...(test.options ? { metadata: test.options } : {}),
  });
}

describe('dotprompt specification', () => {
  test('the vendored spec is all there, and every skip names a spec test', () => {
    expect(files.length).toBeGreaterThanOrEqual(13);
    expect(cases.length).toBeGreaterThanOrEqual(100);
    const keys = new Set(cases.map((c) => c.key));
    expect(keys.size).toBe(cases.length);
    expect(Object.keys(skips).filter((k) => !keys.has(k))).toEqual([]);
    for (const reason of Object.values(skips)) expect(reason.trim()).not.toBe('');
    const skipped = cases.filter((c) => Object.hasOwn(skips, c.key)).length;
    // One plain line (console.info would add its source location); the counts are also Jest's own pass/skip totals.
    process.stderr.write(`dotprompt spec: ${cases.length} tests, ${cases.length - skipped} run, ${skipped} skipped\n`);
  });

  for (const { key, suite, test: tc } of cases) {
    const reason = skips[key];
    if (reason !== undefined) {
      test.skip(`${key} (skipped: ${reason})`, () => {});
      continue;
    }
    test(key, () => {
      const { raw, ...result } = run(suite, tc);
      const { raw: expectRaw, ...expected } = tc.expect;
      expect(result).toEqual({
        ...expected,
        ext: expected.ext ?? {},
        config: expected.config ?? {},
        metadata: expected.metadata ?? {},
      });
      if (expectRaw !== undefined) expect(raw).toEqual(expectRaw);
    });
  }
});

describe('renderDotprompt beyond the spec', () => {
  test('frontmatter input.default fills missing input (as Genkit applies it)', () => {
    const source = '---\ninput:\n  default: { name: User }\n  schema: { name?: string }\n---\nHi {{name}}';
    const out = renderDotprompt(source, {});
    expect(out.messages).toEqual([{ role: 'user', content: [{ text: 'Hi User' }] }]);
    expect(out.input).toEqual({ default: { name: 'User' }, schema: { type: 'object', properties: { name: { type: ['string', 'null'] } }, additionalProperties: false } });
    expect(renderDotprompt(source, { input: { name: 'Ana' } }).messages[0]!.content).toEqual([{ text: 'Hi Ana' }]);
  });

  test('tools found in options.tools move to toolDefs; model config sits under the prompt config', () => {
    const lookup = { name: 'lookup', inputSchema: { type: 'object' } };
    const out = renderDotprompt('---\nmodel: m\nconfig: { temperature: 1 }\ntools: [lookup, other]\n---\nx', {}, { tools: { lookup }, modelConfigs: { m: { temperature: 0, topK: 3 } } });
    expect(out.tools).toEqual(['other']);
    expect(out.toolDefs).toEqual([lookup]);
    expect(out.config).toEqual({ temperature: 1, topK: 3 });
  });

  test('history goes before the last user message when there is no {{history}}; @metadata is readable', () => {
    const history = [{ role: 'user' as const, content: [{ text: 'earlier' }] }, { role: 'model' as const, content: [{ text: 'reply' }] }];
    const out = renderDotprompt('---\nmodel: m\n---\n{{role "system"}}S {{@metadata.prompt.model}}\n{{role "user"}}Q', { messages: history });
    expect(out.messages).toEqual([
      { role: 'system', content: [{ text: 'S m\n' }] },
      ...history,
      { role: 'user', content: [{ text: 'Q' }] },
    ]);
  });

  test('an unknown helper is a compile error; a bad frontmatter is a YAML error', () => {
    expect(() => renderDotprompt('{{shout "x"}}')).toThrow(/unknown helper shout/);
    expect(() => renderDotprompt('---\na: [\n---\nbody')).toThrow(/YAML syntax error in the frontmatter/);
  });
});
