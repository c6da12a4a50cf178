import type { Diagnostic } from '../../src/report/diagnostic.js';
import type { JsonSchemaObject, ToolSpec } from '../../src/tools/types.js';
import { diffTools, type DiffOptions } from '../../src/checks/compat/index.js';

export function tool(name: string, inputSchema: JsonSchemaObject): ToolSpec {
  return { name, inputSchema, origin: { shape: 'plain' } };
}

/** An object schema with one property `x`, the usual frame for a keyword test. */
export function withX(x: unknown, extra: JsonSchemaObject = {}): JsonSchemaObject {
  return { type: 'object', properties: { x }, ...extra };
}

/** Diff of one tool `t` between two schemas. */
export function diff(before: JsonSchemaObject, after: JsonSchemaObject, options?: DiffOptions): Diagnostic[] {
  return diffTools([tool('t', before)], [tool('t', after)], options);
}

export function ids(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => d.ruleId);
}
