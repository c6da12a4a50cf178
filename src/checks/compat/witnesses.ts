import type { Diagnostic, Witness } from '../../report/diagnostic.js';
import { SchemaCompiler, type SchemaError, type Validator } from '../../schema/validator.js';
import type { CorruptRecord, RecordedCall, RecordedItem } from '../../sources/types.js';
import { report } from '../../report/rule.js';
import { recordedRules } from '../recorded.rules.js';
import type { ToolSpec } from '../../tools/types.js';
import { compatRules, type CompatRuleName } from './rules.js';
import { getAt, show, splitPointer } from './schema.js';
import { genericKeywords } from './walk.js';
import { shownValue } from '../../util/values.js';

export interface WitnessOptions {
  /** How many witnesses each finding keeps (default 5); all are counted. */
  maxWitnesses?: number;
  compiler?: SchemaCompiler;
}

/**
 * The Ajv keywords that reject a value for each rule; undefined means any error at or
 * below the finding's location counts (unions, keywords modelled only loosely).
 */
const keywordsOf: Partial<Record<CompatRuleName, readonly string[]>> = {
  'type-narrowed': ['type', 'false schema'],
  'enum-narrowed': ['enum'],
  'enum-added': ['enum'],
  'const-added': ['const'],
  'const-changed': ['const'],
  'maximum-decreased': ['maximum', 'exclusiveMaximum'],
  'maximum-added': ['maximum', 'exclusiveMaximum'],
  'exclusive-maximum-decreased': ['maximum', 'exclusiveMaximum'],
  'exclusive-maximum-added': ['maximum', 'exclusiveMaximum'],
  'minimum-increased': ['minimum', 'exclusiveMinimum'],
  'minimum-added': ['minimum', 'exclusiveMinimum'],
  'exclusive-minimum-increased': ['minimum', 'exclusiveMinimum'],
  'exclusive-minimum-added': ['minimum', 'exclusiveMinimum'],
  'multiple-of-added': ['multipleOf'],
  'multiple-of-changed': ['multipleOf'],
  'min-length-increased': ['minLength'],
  'min-length-added': ['minLength'],
  'max-length-decreased': ['maxLength'],
  'max-length-added': ['maxLength'],
  'pattern-added': ['pattern'],
  'pattern-changed': ['pattern'],
  'format-added': ['format'],
  'format-changed': ['format'],
  'min-items-increased': ['minItems'],
  'min-items-added': ['minItems'],
  'max-items-decreased': ['maxItems'],
  'max-items-added': ['maxItems'],
  'unique-items-added': ['uniqueItems'],
  'items-closed': ['items', 'additionalItems', 'false schema'],
  'required-added': ['required'],
  'property-removed': ['additionalProperties', 'unevaluatedProperties', 'false schema'],
  'additional-properties-closed': ['additionalProperties', 'unevaluatedProperties'],
  'min-properties-increased': ['minProperties'],
  'min-properties-added': ['minProperties'],
  'max-properties-decreased': ['maxProperties'],
  'max-properties-added': ['maxProperties'],
};

/** Keywords the walk compares only loosely: a finding on one is witnessed by the errors that come from inside it. */
const looseKeywords: ReadonlySet<string> = new Set(genericKeywords);

/** Ajv reports a closed tuple at the array, one level above the finding's `/*`. */
const reportedAtParent = new Set<CompatRuleName>(['items-closed']);

function segmentsMatch(pattern: string[], actual: string[], prefix: boolean): boolean {
  if (prefix ? actual.length < pattern.length : actual.length !== pattern.length) return false;
  return pattern.every((p, i) => p === '*' || p === actual[i]);
}

interface Tracked {
  index: number;
  rule: CompatRuleName;
  instancePath: string;
  pattern: string[];
  /** For a keyword compared only loosely (`not`, `if`, `dependentSchemas`...): where it is in the new schema, which an error must come from. */
  keywordPath: string | undefined;
  count: number;
  witnesses: Witness[];
}

interface ToolState {
  old: Validator | undefined;
  new: Validator | undefined;
  usable: boolean;
  total: number;
  findings: Tracked[];
}

function callId(call: RecordedCall): string {
  if (call.id !== undefined) return call.id;
  const { source, line, row } = call.where;
  return line !== undefined ? `${source}:${line}` : row !== undefined ? `${source}#${row}` : source;
}

function compileOrNothing(compiler: SchemaCompiler, tool: ToolSpec | undefined): Validator | undefined {
  if (!tool) return undefined;
  try {
    return compiler.compile(tool.inputSchema);
  } catch {
    return undefined; // a schema Ajv cannot compile yields no witnesses; its findings stand as they are
  }
}

/**
 * Finds, for each compat finding, the recorded calls it would reject: valid under the old
 * schema, invalid under the new one at the finding's place. Calls stream through `add`;
 * memory holds one counter and a few witnesses per finding, never the calls.
 */
export class WitnessCollector {
  readonly #diagnostics: readonly Diagnostic[];
  readonly #tools = new Map<string, ToolState>();
  readonly #max: number;
  #corrupt = 0;
  #firstCorrupt: CorruptRecord | undefined;

  constructor(diagnostics: readonly Diagnostic[], oldTools: readonly ToolSpec[], newTools: readonly ToolSpec[], options: WitnessOptions = {}) {
    this.#diagnostics = diagnostics;
    this.#max = options.maxWitnesses ?? 5;
    const compiler = options.compiler ?? new SchemaCompiler();
    const olds = new Map(oldTools.map((t) => [t.name, t] as const));
    const news = new Map(newTools.map((t) => [t.name, t] as const));
    diagnostics.forEach((d, index) => {
      if (!d.ruleId.startsWith('compat/') || d.tool === undefined) return;
      const rule = d.ruleId.slice('compat/'.length) as CompatRuleName;
      if (!(rule in compatRules)) return;
      let state = this.#tools.get(d.tool);
      if (!state) {
        const old = compileOrNothing(compiler, olds.get(d.tool));
        const fresh = compileOrNothing(compiler, news.get(d.tool));
        const usable = old !== undefined && (fresh !== undefined || !news.has(d.tool));
        this.#tools.set(d.tool, (state = { old, new: fresh, usable, total: 0, findings: [] }));
      }
      const last = (d.schemaPath ?? '').split('/').pop() ?? '';
      const keywordPath = keywordsOf[rule] === undefined && looseKeywords.has(last) ? `#${d.schemaPath}` : undefined;
      state.findings.push({ index, rule, instancePath: d.instancePath ?? '', pattern: splitPointer(d.instancePath ?? ''), keywordPath, count: 0, witnesses: [] });
    });
  }

  add(item: RecordedItem): void {
    if ('corrupt' in item) {
      // Nothing to match, but counted: witness counts that left records out must say so.
      this.#corrupt++;
      this.#firstCorrupt ??= item;
      return;
    }
    const state = this.#tools.get(item.name);
    if (!state || !state.usable || !state.old) return;
    state.total++;
    // A call the old schema already rejected shows nothing about the change.
    if (!state.old(item.arguments)) return;
    const errors: SchemaError[] = state.new ? state.new.errors(item.arguments) : [];
    for (const f of state.findings) {
      const hit = this.#match(f, errors, item.arguments);
      if (!hit) continue;
      f.count++;
      if (f.witnesses.length < this.#max) {
        const witness: Witness = { id: callId(item), source: item.where.source };
        if (hit.value !== undefined) witness.value = hit.value;
        f.witnesses.push(witness);
      }
    }
  }

  #match(f: Tracked, errors: SchemaError[], args: unknown): { value: unknown } | undefined {
    if (f.rule === 'tool-removed' || f.rule === 'tool-renamed') return { value: undefined };
    if (f.rule === 'property-ignored') {
      // Nothing is rejected; the witnesses are the calls that still send the value.
      const value = f.pattern.includes('*') ? undefined : getAt(args, f.instancePath);
      return value === undefined ? undefined : { value };
    }
    const keywords = keywordsOf[f.rule];
    const pattern = reportedAtParent.has(f.rule) ? f.pattern.slice(0, -1) : f.pattern;
    for (const e of errors) {
      if (keywords && !keywords.includes(e.keyword)) continue;
      // A call another keyword rejects (a `maxLength` beside an added `not`) is no witness of this one.
      if (f.keywordPath !== undefined && e.schemaPath !== f.keywordPath && !e.schemaPath.startsWith(`${f.keywordPath}/`)) continue;
      const actual = splitPointer(e.instancePath);
      const ok = segmentsMatch(pattern, actual, keywords === undefined) || (reportedAtParent.has(f.rule) && segmentsMatch(f.pattern, actual, false));
      if (ok) return { value: shownValue(getAt(args, e.instancePath)) };
    }
    return undefined;
  }

  /**
   * One `recorded/corrupt` warning when records could not be read, so that nobody takes the
   * witness counts for complete: how many, and where the first one is. Undefined when none.
   */
  corruptWarning(): Diagnostic | undefined {
    const first = this.#firstCorrupt;
    if (first === undefined) return undefined;
    const n = this.#corrupt;
    const { source, line, row } = first.where;
    const place = line !== undefined ? `${source}:${line}` : row !== undefined ? `row \`${row}\` of \`${source}\`` : `\`${source}\``;
    const noun = line !== undefined ? 'line' : row !== undefined ? 'row' : 'record';
    const were = n === 1 ? `${noun} in the observed calls was not used as a witness` : `${noun}s in the observed calls were not used as witnesses`;
    return report(recordedRules.corrupt, {
      message: `${n} unreadable ${were} (the first at ${place}); the witness counts may be incomplete`,
      ...(line !== undefined ? { file: source, line } : {}),
      witnessCount: n,
    });
  }

  /** The diagnostics with `witnesses`, `witnessCount`, `total` and the message's tail filled in. */
  finish(): Diagnostic[] {
    const out = [...this.#diagnostics];
    for (const [tool, state] of this.#tools) {
      if (!state.usable || state.total === 0) continue;
      for (const f of state.findings) {
        const d = out[f.index]!;
        const sends = f.rule === 'property-ignored';
        let tail: string;
        if (f.count === 0) {
          tail = sends ? `none of the ${state.total} observed calls to \`${tool}\` sends it` : `none of the ${state.total} observed calls to \`${tool}\` is affected`;
        } else {
          const shown = f.witnesses.map((w) => (w.value === undefined ? w.id : `${w.id} (${show(w.value, 30)})`)).join(', ');
          const more = f.count > f.witnesses.length ? `, and ${f.count - f.witnesses.length} more` : '';
          tail = `${f.count} of ${state.total} observed calls to \`${tool}\` ${sends ? 'still send it' : 'are no longer expressible'}: ${shown}${more}`;
        }
        out[f.index] = { ...d, message: `${d.message}; ${tail}`, witnesses: f.witnesses, witnessCount: f.count, total: state.total };
      }
    }
    return out;
  }
}

/**
 * Adds recorded-call witnesses to `diffTools` findings. Takes a stream (JSONL reader,
 * database cursor) and reads it once. Corrupt records cannot be witnesses: when there are
 * any, one `recorded/corrupt` warning is appended with their count and the first one's
 * place (each is reported on its own by the `recorded/` check).
 */
export async function attachWitnesses(
  diagnostics: readonly Diagnostic[],
  calls: AsyncIterable<RecordedItem> | Iterable<RecordedItem>,
  oldTools: readonly ToolSpec[],
  newTools: readonly ToolSpec[],
  options: WitnessOptions = {},
): Promise<Diagnostic[]> {
  const collector = new WitnessCollector(diagnostics, oldTools, newTools, options);
  for await (const call of calls) collector.add(call);
  const warning = collector.corruptWarning();
  return warning === undefined ? collector.finish() : [...collector.finish(), warning];
}
