// The peer of the `jest-vs-plain` benchmark: the snapshot suite a team writes for its prompts
// without prompt-contract. bench/lib/project-gen.js copies it into every generated project as
// plain.test.ts, beside contract.test.ts. It reads the templates, partials, examples, stubs
// and cases itself, renders each case with Handlebars, and keeps one Jest snapshot a case.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { load as parseYaml } from 'js-yaml';

type Data = Record<string, any>;
const root = join(process.cwd(), 'prompts');
const read = (...path: string[]): string => readFileSync(join(root, ...path), 'utf8');
const load = (...path: string[]): Data => parseYaml(read(...path)) as Data;

const hb = Handlebars.create();
hb.registerHelper('json', (value: unknown, options: Handlebars.HelperOptions) => JSON.stringify(value, null, options.hash.indent));
for (const file of readdirSync(join(root, 'partials'))) hb.registerPartial(file.slice(1, -'.prompt'.length), read('partials', file));

for (const file of readdirSync(join(root, 'cases')).sort()) {
  const { prompt, cases } = load('cases', file);
  const [, front = '', body = ''] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(read(`${prompt}.prompt`)) ?? [];
  const meta = parseYaml(front) as Data;
  const template = hb.compile(body, { noEscape: true, strict: true });
  const examples = meta.examples ? load(meta.examples.file).examples : [];
  const stubs = meta.retrieval ? load(meta.retrieval.file).stubs : {};
  describe(prompt, () => {
    for (const name of Object.keys(cases).sort()) {
      test(name, () => {
        const { input, retrieval } = cases[name];
        const text = template({ ...meta.input?.default, ...input, examples, retrieved: stubs[retrieval] ?? [] });
        expect(text).toMatchSnapshot();
      });
    }
  });
}
