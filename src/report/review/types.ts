import type { Diagnostic } from '../diagnostic.js';

import type { TokenCount } from '../../tokens/index.js';

/** A snapshot's token count, as its header states it (src/tokens). */
export type { TokenCount };

/** Where the "before" of a review came from. */
export type Baseline = { kind: 'disk'; folder: string } | { kind: 'git'; ref: string; folder: string };

/** A finding shown with a case, at the snapshot line (of the text rendered now) it was made at, when known. */
export interface PlacedFinding {
  diagnostic: Diagnostic;
  /** 1-based line of the current snapshot text. */
  line?: number;
}

export interface CaseReview {
  prompt: string;
  case: string;
  /** The snapshot file, as the user would type it. */
  file: string;
  /** `added`: no baseline snapshot; `failed`: it could not render (check reports why). */
  status: 'changed' | 'unchanged' | 'added' | 'failed';
  /** The baseline snapshot text; undefined when there is none. */
  before?: string;
  /** The snapshot text as `check` renders it now; undefined when it could not render. */
  after?: string;
  tokens: { before?: TokenCount; after?: TokenCount };
  findings: PlacedFinding[];
  /** Why it could not render. */
  error?: string;
}

/** A description the model reads: the tool's own (`path` empty) or a parameter's (`order_id`, `items[].sku`). */
export interface DescriptionChange {
  path: string;
  before?: string;
  after?: string;
}

export interface ToolChange {
  name: string;
  kind: 'added' | 'removed' | 'changed';
  /** For `changed`: every description that differs (added, removed or reworded). */
  descriptions: DescriptionChange[];
  /** For `changed`: whether anything else in the schema differs (the compat findings say what). */
  schemaChanged: boolean;
}

/** Everything a review page shows: each case before and after, the tools' changes, every finding. */
export interface Review {
  baseline: Baseline;
  cases: CaseReview[];
  tools: ToolChange[];
  /** When there is no tools baseline to compare with, tool changes are unknown. */
  toolsBaseline: boolean;
  /** Every finding of the run; those of a case are also in its `findings`. */
  findings: Diagnostic[];
}
