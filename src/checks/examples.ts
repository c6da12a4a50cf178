/**
 * Few-shot examples against the current tool schemas. An example outranks the schema in
 * what the model does, so an example the schema rejects is a bug in the prompt.
 */
import type { ToolCallExample } from '../extract/types.js';
import { exampleRules } from '../extract/rules.js';
import type { Diagnostic } from '../report/diagnostic.js';
import { report } from '../report/rule.js';
import { schemaProblems } from '../schema/problems.js';
import { SchemaCompiler, type Validator } from '../schema/validator.js';
import type { ToolSpec } from '../tools/types.js';
import { suggestName } from '../util/suggest.js';
import { show } from '../util/values.js';

export { exampleRules };

export interface CheckExamplesOptions {
  /** Validate as OpenAI strict mode reads the schema: every object closed, every property required. */
  strict?: boolean;
  /** Share one compiler (and its cache) across checks. */
  compiler?: SchemaCompiler;
}

/** The tool an unknown name most likely means; `close` marks the same tool, renamed. */
export function suggestTool(name: string, tools: readonly ToolSpec[]): { name: string; close: boolean } | undefined {
  return suggestName(name, tools.map((t) => t.name));
}

function backticks(names: string[]): string {
  const shown = names.slice(0, 8).map((n) => `\`${n}\``);
  return names.length > 8 ? `${shown.join(', ')} and ${names.length - 8} more` : shown.join(', ');
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

/** Each example against the schema of the tool it names. Never throws on bad content. */
export function checkExamples(examples: readonly ToolCallExample[], tools: readonly ToolSpec[], options: CheckExamplesOptions = {}): Diagnostic[] {
  const compiler = options.compiler ?? new SchemaCompiler();
  const byName = new Map<string, ToolSpec>();
  for (const tool of tools) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  const validators = new Map<ToolSpec, Validator | Error>();
  const reportedUnchecked = new Set<ToolSpec>();
  const reportedSkips = new Set<ToolSpec>();
  const out: Diagnostic[] = [];

  const validatorFor = (tool: ToolSpec): Validator | Error => {
    let v = validators.get(tool);
    if (!v) {
      try {
        v = compiler.compile(tool.inputSchema, { strict: options.strict === true });
      } catch (error) {
        v = error instanceof Error ? error : new Error(String(error));
      }
      validators.set(tool, v);
    }
    return v;
  };

  const validate = (example: ToolCallExample, tool: ToolSpec, via?: string) => {
    const where = { offset: example.range.start, line: example.line, column: example.column };
    const v = validatorFor(tool);
    if (v instanceof Error) {
      if (!reportedUnchecked.has(tool)) {
        reportedUnchecked.add(tool);
        // The keyword that is wrong, as the provider lint and recorded-call validation name it.
        const problems = schemaProblems(tool.inputSchema);
        const first = problems[0];
        const why = first === undefined ? `Unexpected schema that does not compile (${v.message}), expected a valid JSON Schema` : first.message;
        const more = problems.length > 1 ? `, and ${problems.length - 1} more (\`prompt-contract lint\` lists them)` : '';
        out.push(report(exampleRules.unchecked, {
          ...where,
          tool: tool.name,
          ...(first === undefined ? {} : { schemaPath: first.pointer, expected: first.expected, actual: first.actual }),
          message: `Examples of \`${tool.name}\` are not checked, because its input schema does not compile: ${why}${more}`,
          fix: `Make the input schema of \`${tool.name}\` valid JSON Schema${first?.fix === undefined ? '' : ` (${first.fix})`}; its examples are checked on the next run`,
        }));
      }
      return;
    }
    if (v.skippedPatterns.length > 0 && !reportedSkips.has(tool)) {
      reportedSkips.add(tool);
      for (const skip of v.skippedPatterns) {
        out.push(report(exampleRules['unsupported-pattern'], {
          ...where,
          tool: tool.name,
          schemaPath: skip.schemaPath,
          actual: skip.pattern,
          message: `Unexpected \`pattern\` ${show(skip.pattern, 60)} at \`${skip.schemaPath}\` of \`${tool.name}\`, which uses ${skip.reason} and cannot run on the linear-time regex engine; expected a pattern without backreferences or lookaround (examples are checked without this one)`,
          fix: 'Rewrite the pattern without backreferences or lookaround (check the rest in the handler), or accept that examples are not held to it',
        }));
      }
    }
    let errors;
    try {
      errors = v.errors(example.arguments);
    } catch (error) {
      out.push(report(exampleRules.unchecked, { ...where, tool: tool.name, message: `Unexpected failure validating the \`${example.name}\` example against \`${tool.name}\` (${String((error as Error)?.message ?? error)}), expected a result; it is not checked` }));
      return;
    }
    const subject = via ? `the \`${example.name}\` example (checked against \`${via}\`)` : `the \`${example.name}\` example`;
    for (const e of errors) {
      // A key whose value is an expression in code is left out, not missing.
      if (e.keyword === 'required' && example.unread !== undefined && (example.unread.includes('*') || example.unread.some((k) => e.instancePath === `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`))) continue;
      const finding: Parameters<typeof report>[1] = {
        ...where,
        tool: tool.name,
        instancePath: e.instancePath,
        schemaPath: e.schemaPath,
        message: `In ${subject}, ${lowerFirst(e.message)} (\`${e.keyword}\`${options.strict ? ', strict mode' : ''})`,
      };
      if (e.expected !== undefined) finding.expected = e.expected;
      if (e.actual !== undefined) finding.actual = e.actual;
      out.push(report(exampleRules['invalid-arguments'], finding));
    }
  };

  for (const example of examples) {
    const tool = byName.get(example.name);
    if (tool) {
      // The provider defines its arguments: a known tool, with nothing of ours to check them against.
      if (!tool.provided) validate(example, tool);
      continue;
    }
    const suggestion = suggestTool(example.name, tools);
    const known = tools.length === 0 ? 'no tools are defined' : `expected one of ${backticks([...byName.keys()])}`;
    const finding: Parameters<typeof report>[1] = {
      offset: example.range.start,
      line: example.line,
      column: example.column,
      tool: example.name,
      actual: example.name,
      message: `Unexpected tool \`${example.name}\` in an example, ${known}${suggestion ? `; did you mean \`${suggestion.name}\`?` : ''}`,
    };
    if (suggestion) {
      finding.expected = suggestion.name;
      finding.fix = `Rename the call to \`${suggestion.name}\``;
    }
    out.push(report(exampleRules['unknown-tool'], finding));
    // A renamed tool often changed its arguments too: check them against the tool it must mean.
    if (suggestion?.close) validate(example, byName.get(suggestion.name)!, suggestion.name);
  }
  return out;
}
