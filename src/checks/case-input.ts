/**
 * A case's inputs against the prompt's `input.schema` (Picoschema, as dotprompt writes it, or
 * JSON Schema): a case that leaves out a required input, or gives one of the wrong type,
 * renders a prompt nobody will send. The finding sits at the case's YAML line.
 */
import { report } from '../report/rule.js';
import { caseRules } from './case-input.rules.js';
import type { Diagnostic } from '../report/diagnostic.js';
import { PicoschemaError } from '../render/picoschema.js';
import { promptSchema } from '../render/prompt-schemas.js';
import type { CaseDefinition, PromptDefinition } from '../render/module.js';
import { SchemaCompiler } from '../schema/validator.js';
import type { JsonSchemaObject } from '../tools/types.js';
import { locate, type YamlNodePosition } from '../util/yaml.js';

/** The prompt's input schema as JSON Schema, or a finding when it does not expand. */
export function inputSchemaOf(prompt: PromptDefinition): { schema?: JsonSchemaObject; finding?: Diagnostic } {
  const { schema, error } = promptSchema(prompt, 'input');
  if (!error) return schema ? { schema } : {};
  const path = error instanceof PicoschemaError ? ` at \`${error.path}\`` : '';
  const at = (error instanceof PicoschemaError ? fieldPlace(prompt, error.path) : undefined) ?? { line: 1, column: 1 };
  return { finding: report(caseRules['invalid-input-schema'], { message: `Unexpected input.schema${path} in prompt \`${prompt.name}\`: ${error.message}`, file: prompt.source.file, ...at }) };
}

/**
 * The line of a Picoschema field (`address.city`) in the prompt's frontmatter: its key is
 * written with what Picoschema adds to a name (`city?`, `lines(array, ...)`). The deepest
 * key found; undefined when the frontmatter does not hold `input.schema`.
 */
function fieldPlace(prompt: PromptDefinition, field: string): { line: number; column: number } | undefined {
  const doc = prompt.frontmatter;
  const schema = doc?.root?.children?.get('input')?.children?.get('schema');
  if (!doc || !schema) return undefined;
  let node: YamlNodePosition = schema;
  for (const segment of field === '' ? [] : field.split('.')) {
    const children: Map<string | number, YamlNodePosition> = node.children ?? new Map();
    const key: string | number | undefined = [...children.keys()].find((k) => String(k).replace(/\(.*\)\s*$/, '').trim().replace(/\?$/, '') === segment);
    const child: YamlNodePosition | undefined = key === undefined ? undefined : children.get(key);
    if (!child) break;
    node = child;
  }
  return doc.lines.at(node.keyStart ?? node.start);
}

/** The findings for one case: each schema error at the case (or at the input it names). */
export function checkCaseInput(prompt: PromptDefinition, testCase: CaseDefinition, compiler = new SchemaCompiler()): Diagnostic[] {
  const { schema, finding } = inputSchemaOf(prompt);
  if (finding) return [finding];
  if (!schema) return [];
  const value = { ...prompt.input, ...testCase.input };
  const validator = compiler.compile(schema);
  if (validator(value)) return [];
  return validator.errors(value).map((e) => {
    const segments = e.instancePath.split('/').slice(1);
    // Down to the input's own line when the case writes it; the case's line otherwise.
    let line = testCase.line;
    let column = 1;
    // A missing input is added under `input:`; a wrong one is on its own line.
    if (testCase.doc) {
      const at = locate(testCase.doc, ['cases', testCase.name, 'input', ...segments]);
      if (at) ({ line, column } = at);
    }
    // The schema's own words, with the case put before their `, expected`: one "Unexpected ..., expected ..." sentence.
    const place = `in case \`${testCase.name}\` of prompt \`${prompt.name}\``;
    const cut = e.message.indexOf(', expected');
    const message = cut === -1 ? `${e.message} ${place} (its \`input.schema\`)` : `${e.message.slice(0, cut)} ${place}${e.message.slice(cut)} (its \`input.schema\`)`;
    return report(caseRules['invalid-input'], {
      message,
      file: testCase.file,
      line,
      column,
      instancePath: e.instancePath,
      schemaPath: e.schemaPath,
    });
  });
}
