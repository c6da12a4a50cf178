/** Tool definitions as each provider's request carries them: what `render --tools` prints and what token counts are taken of. */
import type { Shape } from '../render/wire.js';
import type { ToolSpec } from '../tools/types.js';

/** The example inputs sent with a tool (`input_examples`): the entries that are inputs, as written. */
export function sentExamples(tool: ToolSpec): unknown[] {
  return (tool.inputExamples ?? []).flatMap((e) => (e.problem === undefined ? [e.input] : []));
}

/** Anthropic's tool list: the shape snapshots and the tools baseline use. */
export function baselineBody(tools: readonly ToolSpec[]): Array<Record<string, unknown>> {
  // A provider-defined tool as it is sent: read back, it is one again.
  return tools.map((t) => {
    if (t.provided) return providedAsSent(t);
    const examples = sentExamples(t);
    return { name: t.name, ...(t.description === undefined ? {} : { description: t.description }), input_schema: t.inputSchema, ...(examples.length === 0 ? {} : { input_examples: examples }) };
  });
}

/** A provider-defined tool's definition, with its name in it (an AI SDK tool is named by its key, not inside): read back, it is the same tool. */
function providedAsSent(t: ToolSpec): Record<string, unknown> {
  const definition = t.provided!.definition;
  return typeof definition.name === 'string' ? definition : { name: t.name, ...definition };
}

/**
 * The `tools` array of a request in `shape`: Anthropic's `[{name, description, input_schema}]`,
 * OpenAI Chat's `[{"type": "function", "function": {...}}]`, or Gemini's
 * `[{"functionDeclarations": [...]}]`. A provider-defined tool goes as it is written, whatever
 * the shape: it is that provider's to read.
 */
export function toolsAsSent(tools: readonly ToolSpec[], shape: Shape = 'anthropic'): unknown[] {
  const described = (t: ToolSpec) => (t.description === undefined ? { name: t.name } : { name: t.name, description: t.description });
  if (shape === 'openai') return tools.map((t) => (t.provided ? providedAsSent(t) : { type: 'function', function: { ...described(t), parameters: t.inputSchema, ...(t.strict === undefined ? {} : { strict: t.strict }) } }));
  if (shape === 'gemini') return [...tools.flatMap((t) => (t.provided ? [providedAsSent(t)] : [])), { functionDeclarations: tools.filter((t) => !t.provided).map((t) => ({ ...described(t), parametersJsonSchema: t.inputSchema })) }];
  return baselineBody(tools);
}
