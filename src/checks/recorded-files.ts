import type { Diagnostic } from '../report/diagnostic.js';
import { SchemaCompiler } from '../schema/validator.js';
import type { ToolSpec } from '../tools/types.js';

/** Reads every recorded-calls file and validates it against `tools`. */
export async function validateRecordedFiles(tools: readonly ToolSpec[], files: readonly string[], compiler = new SchemaCompiler()): Promise<Diagnostic[]> {
  const { readRecordedCalls } = await import('../sources/jsonl.js');
  const { RecordedAccumulator, accumulate } = await import('./recorded.js');
  const accumulator = new RecordedAccumulator(tools, { compiler, kind: 'recorded' });
  for (const file of files) await accumulate(accumulator, readRecordedCalls(file));
  return accumulator.toDiagnostics();
}

