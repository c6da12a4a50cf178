/**
 * Differential test: every template is rendered by the reference `dotprompt` package and by
 * the path users run (a prompts folder read by `loadPromptModule`, rendered by `renderCase`;
 * see user-path.ts), and the message lists must be the same, and the expanded `input` and
 * `output` schemas too. The templates are dotprompt's own specification
 * (test/fixtures/dotprompt-spec) and ours (dotprompt-templates.ts).
 *
 * The only differences allowed are the deliberate ones below, each where it is declared: a
 * template of ours says `differs`, a spec test is listed in SPEC_DIFFERENCES. A difference is
 * accepted only when it is exactly that one: the reference rendered with the same change
 * (its line ends made LF, the frontmatter's `input.default` passed as dotprompt's render
 * option) gives our messages, or our render stops with a missing-variable error at a line,
 * naming the variable.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Dotprompt } from 'dotprompt';
import { load } from 'js-yaml';
import { promptSchema } from '../../src/render/prompt-schemas.js';
import { InputError } from '../../src/util/errors.js';
import { templates, type DifferentialCase } from './dotprompt-templates.js';
import { messagesOf, renderThroughCase } from './user-path.js';

/** Where the rendering deliberately differs from dotprompt's, and why. */
export const DELIBERATE_DIFFERENCES = {
  'missing-variable': 'A variable the template reads and the case does not give is an error at its file:line (dotprompt renders it as an empty string): a prompt that silently loses a value is the bug a snapshot would freeze.',
  'input-default': "The frontmatter's `input.default` fills the input the case leaves out, as Genkit applies it when it loads a prompt (dotprompt's `render` applies only a default passed in its options).",
  crlf: 'CRLF line ends are read as LF, so a checkout with `core.autocrlf` renders as committed (dotprompt keeps the CR).',
} as const;

type Difference = keyof typeof DELIBERATE_DIFFERENCES;

/** Spec tests whose user-path render deliberately differs, keyed `file > suite > desc`. */
const SPEC_DIFFERENCES: Record<string, `missing-variable:${string}`> = {
  'metadata > metadata_state > handles missing state values': 'missing-variable:status',
  'metadata > metadata_context_variables > handles missing context variables gracefully': 'missing-variable:role',
};

interface SpecSuite {
  name: string;
  template: string;
  data?: { input?: Record<string, unknown>; context?: Record<string, unknown>; messages?: unknown[] };
  partials?: Record<string, string>;
  resolverPartials?: Record<string, string>;
  schemas?: Record<string, unknown>;
  tests: Array<{ desc?: string; data?: SpecSuite['data']; options?: { input?: { default?: Record<string, unknown> } }; expect: { messages?: unknown[] } }>;
}

const SPEC_DIR = fileURLToPath(new URL('../fixtures/dotprompt-spec/', import.meta.url));
const specFiles = (readdirSync(SPEC_DIR, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => relative(SPEC_DIR, join(SPEC_DIR, f)).split('\\').join('/'))
  .sort();

/** A spec test as one of our cases: the spec's default options become the case's input under its own. */
const specCases: Array<DifferentialCase & { expected?: unknown[] }> = [];
for (const file of specFiles) {
  for (const suite of load(readFileSync(join(SPEC_DIR, file), 'utf8')) as SpecSuite[]) {
    for (const test of suite.tests) {
      const name = `${file.replace(/\.yaml$/, '')} > ${suite.name} > ${test.desc ?? 'should match expected output'}`;
      const data = { ...suite.data, ...test.data };
      const partials = { ...suite.partials, ...suite.resolverPartials };
      specCases.push({
        name,
        source: suite.template,
        input: { ...(test.options?.input?.default ?? {}), ...(data.input ?? {}) },
        ...(data.context ? { context: data.context } : {}),
        ...(data.messages ? { messages: data.messages } : {}),
        ...(Object.keys(partials).length ? { partials } : {}),
        ...(suite.schemas ? { schemas: suite.schemas } : {}),
        ...(SPEC_DIFFERENCES[name] ? { differs: SPEC_DIFFERENCES[name] } : {}),
        ...(test.expect.messages ? { expected: test.expect.messages } : {}),
      });
    }
  }
}

interface Reference {
  messages: unknown[];
  input?: { schema?: unknown };
  output?: { schema?: unknown };
}

/** The reference render. Partials live in one Handlebars shared by every Dotprompt: each render removes its own. */
async function reference(c: DifferentialCase, change: { lf?: boolean; defaults?: boolean } = {}): Promise<Reference> {
  const source = change.lf ? c.source.replace(/\r\n?/g, '\n') : c.source;
  const dotprompt = new Dotprompt({ partials: c.partials ?? {}, schemas: (c.schemas ?? {}) as never });
  try {
    const defaults = change.defaults ? (dotprompt.parse(source) as { input?: { default?: Record<string, unknown> } }).input?.default : undefined;
    const rendered = (await dotprompt.render(source, { input: c.input ?? {}, ...(c.context ? { context: c.context } : {}), ...(c.messages ? { messages: c.messages as never } : {}) }, defaults ? { input: { default: defaults } } : undefined)) as Reference;
    // `render` leaves `input` out of what it returns: the expanded input schema is in the metadata.
    const { input } = (await dotprompt.renderMetadata(source)) as Reference;
    return { ...rendered, ...(input ? { input } : {}) };
  } finally {
    for (const name of Object.keys(c.partials ?? {})) (dotprompt as unknown as { handlebars: { unregisterPartial(n: string): void } }).handlebars.unregisterPartial(name);
  }
}

/** A case rendered on the user path. */
const userPath = (c: DifferentialCase): ReturnType<typeof renderThroughCase> =>
  renderThroughCase({ template: c.source, ...(c.partials ? { partials: c.partials } : {}), ...(c.schemas ? { schemas: c.schemas } : {}), input: c.input ?? {}, ...(c.context ? { context: c.context } : {}), ...(c.messages ? { messages: c.messages } : {}) });

type Outcome = { kind: 'same' } | { kind: 'deliberate'; difference: Difference; variable?: string } | { kind: 'differs'; ours: unknown; theirs: unknown };

/** Renders a case both ways and says how they compare. */
async function compare(c: DifferentialCase): Promise<Outcome> {
  let ours: ReturnType<typeof renderThroughCase>;
  try {
    ours = userPath(c);
  } catch (error) {
    if (error instanceof InputError && error.code === 'render/missing-variable' && error.line !== undefined) {
      const variable = /^Missing template variable `([^`]+)`/.exec(error.message)?.[1];
      return { kind: 'deliberate', difference: 'missing-variable', ...(variable ? { variable } : {}) };
    }
    return { kind: 'differs', ours: error instanceof Error ? `${error.constructor.name}: ${error.message}` : error, theirs: (await reference(c)).messages };
  }
  const prompt = ours.module.prompts.get('p')!;
  const mine = { messages: messagesOf(ours), input: promptSchema(prompt, 'input').schema, output: ours.outputSchema };
  const same = (theirs: Reference): boolean => {
    try {
      expect(mine.messages).toEqual(theirs.messages);
      expect(mine.input).toEqual(theirs.input?.schema ?? undefined);
      expect(mine.output).toEqual(theirs.output?.schema ?? undefined);
      return true;
    } catch {
      return false;
    }
  };
  const plain = await reference(c);
  if (same(plain)) return { kind: 'same' };
  if (same(await reference(c, { lf: true }))) return { kind: 'deliberate', difference: 'crlf' };
  if (same(await reference(c, { defaults: true }))) return { kind: 'deliberate', difference: 'input-default' };
  return { kind: 'differs', ours: mine, theirs: { messages: plain.messages, input: plain.input?.schema, output: plain.output?.schema } };
}

const tally = { same: 0, deliberate: 0 };

describe('the user path renders as the dotprompt package does', () => {
  test('there are enough templates: the whole spec and at least 60 of ours', () => {
    expect(specCases.length).toBeGreaterThanOrEqual(117);
    expect(templates.length).toBeGreaterThanOrEqual(60);
    expect(new Set(templates.map((t) => t.name)).size).toBe(templates.length);
    expect(Object.keys(SPEC_DIFFERENCES).filter((k) => !specCases.some((c) => c.name === k))).toEqual([]);
  });

  describe.each([
    ['dotprompt spec', specCases],
    ['our templates', templates],
  ] as const)('%s', (_label, cases) => {
    test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const outcome = await compare(c);
      if (outcome.kind === 'differs') expect(outcome.ours).toEqual(outcome.theirs);
      if (c.differs === undefined) {
        expect(outcome).toEqual({ kind: 'same' });
        tally.same++;
      } else {
        const [difference, variable] = c.differs.split(':') as [Difference, string | undefined];
        expect(outcome).toEqual({ kind: 'deliberate', difference, ...(variable ? { variable } : {}) });
        tally.deliberate++;
      }
      // The spec's own expected messages hold on the user path too, where it does not differ on purpose.
      const expected = (c as { expected?: unknown[] }).expected;
      if (expected && c.differs === undefined) expect(messagesOf(userPath(c))).toEqual(expected);
    });
  });

  afterAll(() => {
    // The figures the README quotes, one plain line (console.info would add its source location, read as a stack).
    process.stderr.write(`dotprompt differential: ${specCases.length} spec tests and ${templates.length} templates of ours; ${tally.same} identical, ${tally.deliberate} deliberate differences\n`);
  });
});
