// Types for realworld.mjs, for the test that imports it.
export const LINE_TOLERANCE: number;
export interface Fixture {
  name: string;
  text: string;
  notation: string;
  expected: Array<{ name: string; arguments: unknown; line: number }>;
  tools?: unknown[];
}
export interface Summary {
  fixtures: number;
  expected: number;
  found: number;
  truePositives: number;
  tolerantMatches: number;
  recall: number | null;
  precision: number | null;
  argsEqualRate: number | null;
  /** Misses with no diagnostic within ±LINE_TOLERANCE lines of the labelled call. */
  silentMisses: number;
  diagnostics: number;
  negativeDiagnostics: number;
  negativeErrors: number;
  slowest: { fixture: string; ms: number; bytes: number };
}
export function loadCorpus(corpus: string, normalizeTools: (tools: unknown, file?: string) => unknown[]): Fixture[];
export function scoreCorpus(
  fixtures: Fixture[],
  extract: (f: Fixture) => { examples: Array<{ name: string; arguments: unknown; line: number }>; diagnostics: Array<{ severity: string }> },
): { results: unknown[]; notations: string[]; byNotation: Record<string, Summary>; total: Summary };
