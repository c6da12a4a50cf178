import type { z } from 'zod';
import { inputExamplesOf, zodToJsonSchema } from './normalize.js';
import type { ToolSpec } from './types.js';

export interface DefineToolOptions<Input extends z.ZodType> {
  name: string;
  /** Usually left out: descriptions live in the YAML description mapping, next to the prompts. */
  description?: string;
  /** The handler's own argument type; the schema sent to the model is generated from its input side. */
  input: Input;
  /**
   * Example inputs sent with the tool, in the AI SDK's shape (`inputExamples`). Anthropic
   * sends them as `input_examples` and refuses a request whose example the schema rejects;
   * `check` validates each against the schema.
   */
  inputExamples?: ReadonlyArray<{ input: z.input<Input> }>;
}

/**
 * A tool whose schema is generated from the handler's zod type, so schema and handler
 * cannot drift structurally. Descriptions are merged in later from the YAML mapping, so the
 * wording can be tuned without touching handler code.
 */
export function defineTool<Input extends z.ZodType>(options: DefineToolOptions<Input>): ToolSpec {
  const tool: ToolSpec = {
    name: options.name,
    inputSchema: zodToJsonSchema(options.input, `\`${options.name}\``),
    origin: { shape: 'zod' },
    handler: { kind: 'zod', schema: options.input },
    generated: true,
  };
  if (options.description !== undefined) tool.description = options.description;
  // Read as any definition's are, so that an entry without `input` is reported, not dropped; a value has no JSON pointer.
  const examples = inputExamplesOf({ inputExamples: options.inputExamples }).map(({ pointer: _pointer, ...example }) => example);
  if (examples.length > 0) tool.inputExamples = examples;
  return tool;
}
