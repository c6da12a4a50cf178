import type { Diagnostic } from '../report/diagnostic.js';
import type { RecordedItem } from '../sources/types.js';
import type { JsonSchemaObject, ToolSpec } from '../tools/types.js';
import { persistedRules } from './persisted.rules.js';
import { accumulate, RecordedAccumulator, type RecordedCheckOptions } from './recorded.js';

export { persistedRules };

/**
 * Validates persisted tool calls (from `readPersistedCalls`) against the current tool
 * schemas (`persisted/invalid`) and, where a handler's own argument type is known, against
 * that too (`persisted/handler-rejects`): resuming a conversation replays these calls into
 * the handler. Handler schemas come from `handlerSchemas`, else from a tool's
 * `handler: {kind: 'json-schema'}`. Unreadable rows are `persisted/corrupt`, calls to
 * tools that no longer exist `persisted/unknown-tool`.
 */
export async function checkPersisted(
  tools: readonly ToolSpec[],
  items: AsyncIterable<RecordedItem> | Iterable<RecordedItem>,
  handlerSchemas?: ReadonlyMap<string, JsonSchemaObject>,
  options: RecordedCheckOptions = {},
): Promise<Diagnostic[]> {
  const accumulator = new RecordedAccumulator(tools, { ...options, kind: 'persisted', ...(handlerSchemas === undefined ? {} : { handlerSchemas }) });
  return (await accumulate(accumulator, items)).toDiagnostics();
}
