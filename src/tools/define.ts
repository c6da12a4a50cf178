import type { z } from 'zod';
import { zodToJsonSchema } from './normalize.js';
import type { ToolSpec } from './types.js';

export interface DefineToolOptions<Input extends z.ZodType> {
  name: string;
  /** Usually left out: descriptions live in the YAML description mapping, next to the prompts. */
  description?: string;
  /** The handler's own argument type; the schema sent to the model is generated from its input side. */
  input: Input;
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
  return tool;
}
