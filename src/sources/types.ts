/** One tool call seen outside the prompt: a log line or a stored `tool_use` block. */
export interface RecordedCall {
  /** The call's own id when it has one (`id`, `tool_use_id`, `call_...`). */
  id?: string;
  name: string;
  arguments: unknown;
  /** Where it came from: a JSONL file and line, or a database source and row key. */
  where: { source: string; line?: number; row?: string };
}

/** A line or row that held no readable call; reported as a finding, the run goes on. */
export interface CorruptRecord {
  corrupt: true;
  message: string;
  /** Set for a JSONL line longer than the line cap: its length in bytes (it was not read). */
  tooLong?: number;
  where: { source: string; line?: number; row?: string };
}

export type RecordedItem = RecordedCall | CorruptRecord;
