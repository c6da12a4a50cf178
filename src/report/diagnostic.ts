/** How serious a finding is. `error` fails the build by default (`--fail-on error`). */
export type Severity = 'error' | 'warning' | 'info';

/** A place in a file a person can open: 1-based line and column. */
export interface Place {
  file: string;
  line?: number;
  column?: number;
}

/** A concrete call that shows a finding is real: a recorded or persisted call, or an example. */
export interface Witness {
  /** The call's id (recorded `id`, database row key) or `file:line` when it has none. */
  id: string;
  /** The offending value at the finding's instance path, when there is one. */
  value?: unknown;
  /** Where the witness came from: a JSONL file, a database source name. */
  source?: string;
}

/**
 * The one result type of every check, modelled on vfile's messages: a rule id, a severity,
 * a message, the place a person must edit, and the coordinates inside the schema.
 * Checks return these; they never throw for bad content.
 */
export interface Diagnostic {
  ruleId: string;
  severity: Severity;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  tool?: string;
  provider?: string;
  /** JSON Pointer into the arguments (Ajv's `instancePath`). */
  instancePath?: string;
  /** JSON Pointer into the schema (Ajv's `schemaPath`, or the compat walker's path). */
  schemaPath?: string;
  expected?: unknown;
  actual?: unknown;
  /** The first few calls that show the finding, and how many there were in all. */
  witnesses?: Witness[];
  witnessCount?: number;
  /** How many calls were looked at, for "17 of 10,000" messages. */
  total?: number;
  /** A second place that explains the first ("defined here", "rendered from"). */
  related?: Array<Place & { message: string }>;
  /** What to change, when it is known. */
  fix?: string;
  /** Supplementary text printed below the finding, such as a snapshot's line diff. */
  detail?: string;
  /** Docs entry of the rule. */
  url?: string;
  /** 0-based offset in the text the finding was made in (a rendered prompt); mapped to `file`/`line` by the source map. */
  offset?: number;
  /** End of the text the finding covers (exclusive), with `offset`; both are dropped once mapped to a source file. */
  endOffset?: number;
}

/** Counts by severity, as printed in the JSON report's `summary`. */
export interface Summary {
  errors: number;
  warnings: number;
  infos: number;
}

export function summarize(diagnostics: readonly Diagnostic[]): Summary {
  const summary: Summary = { errors: 0, warnings: 0, infos: 0 };
  for (const d of diagnostics) {
    if (d.severity === 'error') summary.errors++;
    else if (d.severity === 'warning') summary.warnings++;
    else summary.infos++;
  }
  return summary;
}

const rank: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

/** True when `severity` is at or above `threshold`. */
export function atLeast(severity: Severity, threshold: Severity): boolean {
  return rank[severity] >= rank[threshold];
}
