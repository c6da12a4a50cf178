import type { Diagnostic, Witness } from '../report/diagnostic.js';
import { report, type RuleMeta } from '../report/rule.js';
import { formatCondition, showPattern } from '../schema/formats.js';
import { unescapeSegment } from '../schema/pointer.js';
import { schemaProblems } from '../schema/problems.js';
import { SchemaCompiler, type SchemaPlace, type Validator } from '../schema/validator.js';
import type { CorruptRecord, RecordedCall, RecordedItem } from '../sources/types.js';
import type { RecordedCallRead, UnsafeInteger } from '../sources/jsonl.js';
import { toolPlace } from '../tools/places.js';
import type { JsonSchemaObject, ToolSpec } from '../tools/types.js';
import { InputError, errorMessage } from '../util/errors.js';
import { isRecord, show, shownValue } from '../util/values.js';
import { persistedRules } from './persisted.rules.js';
import { recordedRules } from './recorded.rules.js';
import { suggestName } from '../util/suggest.js';

export { recordedRules };

/** Calls seen in logs (`recorded`) or stored in conversation databases (`persisted`). */
export type ObservedKind = 'recorded' | 'persisted';

export interface RecordedCheckOptions {
  /** Share compiled validators with other checks; a fresh compiler by default. */
  compiler?: SchemaCompiler;
  /** Witnesses kept per finding; 5 by default. */
  maxWitnesses?: number;
  /** Unreadable records reported one by one before the rest are counted in one finding; 20 by default. */
  maxCorrupt?: number;
}

export interface AccumulatorOptions extends RecordedCheckOptions {
  kind?: ObservedKind;
  /** The handlers' own argument types as JSON Schema, by tool name (persisted calls only: resuming replays them). */
  handlerSchemas?: ReadonlyMap<string, JsonSchemaObject>;
}

/** Calls to one tool that fail one keyword at one place, as plain data. */
export interface FailureGroup {
  /** `schema`: the current tool schema; `handler`: the handler's own argument type. */
  against: 'schema' | 'handler';
  tool: string;
  keyword: string;
  /** Ajv's instance path, with array indices written `*` so that all items of a list share a group. */
  instancePath: string;
  schemaPath: string;
  condition: string;
  expected?: unknown;
  count: number;
  witnesses: Witness[];
  /** The source of the failures, or null when they come from several. */
  source: string | null;
  /** Line of the first failure, for JSONL sources. */
  line?: number;
}

/** Calls naming a tool that does not exist, as plain data. */
export interface UnknownToolGroup {
  name: string;
  count: number;
  witnesses: Witness[];
  source: string | null;
  line?: number;
}

/**
 * Everything an accumulator has counted, as structured-clone-safe data: a worker thread
 * posts this and the main thread merges it.
 */
export interface AccumulatorState {
  kind: ObservedKind;
  /** Readable calls seen, to any tool. */
  calls: number;
  /** Readable calls seen per known tool. */
  totals: Array<[tool: string, calls: number]>;
  failures: FailureGroup[];
  unknown: UnknownToolGroup[];
  corrupt: CorruptRecord[];
  corruptCount: number;
  /** Schema patterns validation skipped (the linear-time engine cannot run them), by tool. */
  skipped: SkippedGroup[];
  /** Calls to tools whose input schema does not compile, which are counted but not checked. */
  unchecked: UncheckedGroup[];
  /** Calls holding an integer past 2^53, which are counted but not compared with the schema. */
  unsafe: UnsafeGroup[];
}

/** Calls to one tool holding an integer past 2^53 at one place: the digits as first written there. */
export interface UnsafeGroup {
  tool: string;
  instancePath: string;
  digits: string;
  count: number;
  witnesses: Witness[];
  source: string | null;
  line?: number;
}

/** Calls to one tool whose input schema does not compile: counted, not checked. */
export interface UncheckedGroup {
  tool: string;
  /** Where the schema first goes wrong (a JSON Pointer into it) and why, in the house message grammar. */
  schemaPath: string;
  problem: string;
  /** How many places of the schema are wrong. */
  problems: number;
  fix?: string;
  count: number;
  witnesses: Witness[];
  source: string | null;
  line?: number;
}

/** A schema pattern the accumulator's validators skip. */
export interface SkippedGroup {
  tool: string;
  against: 'schema' | 'handler';
  pattern: string;
  reason: string;
  schemaPath: string;
}

interface CompiledTool {
  name: string;
  /** The definition, for the place a finding about its schema points at. */
  spec: ToolSpec;
  /** Undefined when the input schema does not compile: its calls are counted as unchecked (see `unchecked`). */
  schema: Validator | undefined;
  /** Why the input schema does not compile, when it does not. */
  unchecked?: Pick<UncheckedGroup, 'schemaPath' | 'problem' | 'problems' | 'fix'>;
  handler: Validator | undefined;
  /** Readable calls to this tool counted so far. */
  calls: number;
}

/** The value at an instance path, and the path with array indices generalised to `*`. */
function locate(args: unknown, pointer: string): { path: string; found: boolean; value: unknown } {
  if (pointer === '') return { path: '', found: true, value: args };
  const parts = pointer.split('/');
  let current: unknown = args;
  let found = true;
  let path = '';
  for (let i = 1; i < parts.length; i++) {
    const raw = parts[i]!;
    if (Array.isArray(current)) {
      path += '/*';
      const index = Number(raw);
      found = found && Number.isInteger(index) && index >= 0 && index < current.length;
      current = found ? current[index] : undefined;
    } else {
      path += `/${raw}`;
      const key = unescapeSegment(raw);
      found = found && isRecord(current) && Object.hasOwn(current, key);
      current = found ? (current as Record<string, unknown>)[key] : undefined;
    }
  }
  return { path, found, value: current };
}

/** The failed condition in a few words, for "(must be <= 50000)". */
function condition(error: SchemaPlace): string {
  const x = error.expected;
  switch (error.keyword) {
    case 'maximum':
      return `must be <= ${show(x)}`;
    case 'minimum':
      return `must be >= ${show(x)}`;
    case 'exclusiveMaximum':
      return `must be < ${show(x)}`;
    case 'exclusiveMinimum':
      return `must be > ${show(x)}`;
    case 'maxLength':
      return `must be at most ${show(x)} characters`;
    case 'minLength':
      return `must be at least ${show(x)} characters`;
    case 'maxItems':
      return `must have at most ${show(x)} items`;
    case 'minItems':
      return `must have at least ${show(x)} items`;
    case 'maxProperties':
      return `must have at most ${show(x)} properties`;
    case 'minProperties':
      return `must have at least ${show(x)} properties`;
    case 'multipleOf':
      return `must be a multiple of ${show(x)}`;
    case 'pattern':
      return error.format !== undefined ? formatCondition(error.format) : `must match ${showPattern(String(x))}`;
    case 'format':
      return formatCondition(String(x));
    case 'enum':
      return `must be one of ${show(x, 80)}`;
    case 'const':
      return `must be ${show(x)}`;
    case 'type':
      return `must be ${Array.isArray(x) ? x.join(' or ') : String(x)}`;
    case 'required':
      return 'is required';
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'is not allowed';
    case 'uniqueItems':
      return 'must not repeat items';
    default:
      return `fails \`${error.schemaPath}\``;
  }
}

function witnessId(call: RecordedCall): string {
  return call.where.row ?? call.id ?? `${call.where.source}:${call.where.line ?? '?'}`;
}

/** The closest tool name, when one is close enough to be a likely rename or typo. */
export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  return suggestName(name, candidates)?.name;
}

const count = (n: number) => n.toLocaleString('en-US');

/** The integer a JavaScript number holds for `digits`, written out in full (`9223372036854775807` reads as `9223372036854775808`). */
/**
 * Whether a number past 2^53 at `instancePath` (array items as `*`) must be read exactly to be
 * compared with `schema`: where the schema asks an integer, or bounds or lists numbers past
 * 2^53, and wherever it cannot be told (a `$ref`, `anyOf` and the like on the way), so that
 * nothing is passed as compared. A place no keyword constrains does not matter.
 */
export function exactnessMatters(schema: unknown, instancePath: string): boolean {
  let at: unknown = schema;
  for (const segment of instancePath.split('/').slice(1)) {
    if (typeof at !== 'object' || at === null) return false;
    const s = at as Record<string, unknown>;
    if (COMPOSED.some((k) => k in s)) return true;
    if (segment === '*') at = s.items ?? s.additionalItems;
    else {
      const name = unescapeSegment(segment);
      const properties = s.properties as Record<string, unknown> | undefined;
      if (typeof properties === 'object' && properties !== null && Object.hasOwn(properties, name)) at = properties[name];
      else if ('patternProperties' in s) return true;
      else at = s.additionalProperties;
    }
  }
  if (typeof at !== 'object' || at === null) return false;
  const s = at as Record<string, unknown>;
  if (COMPOSED.some((k) => k in s)) return true;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('integer')) return true;
  const past = (v: unknown): boolean => typeof v === 'number' && Math.abs(v) > Number.MAX_SAFE_INTEGER;
  return ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'const'].some((k) => past(s[k])) || (Array.isArray(s.enum) && s.enum.some(past));
}

/** Keywords whose sub-schemas the walk of `exactnessMatters` does not follow. */
const COMPOSED = ['$ref', '$dynamicRef', 'anyOf', 'oneOf', 'allOf', 'not', 'if', 'prefixItems', 'contains', 'dependentSchemas'];

function roundedDigits(digits: string): string {
  const n = Number(digits);
  return Number.isInteger(n) ? BigInt(n).toString() : String(n);
}

function list(witnesses: readonly Witness[], total: number): string {
  const shown = witnesses.map((w) => ('value' in w ? `${w.id} (${show(w.value)})` : w.id)).join(', ');
  return total > witnesses.length ? `${shown}, and ${count(total - witnesses.length)} more` : shown;
}

// `unchecked`: calls to a tool whose schema does not compile are counted and listed, not checked.
const ruleSets = {
  recorded: {
    invalid: recordedRules.invalid,
    handler: undefined,
    unknown: recordedRules['unknown-tool'],
    corrupt: recordedRules.corrupt,
    skipped: recordedRules['unsupported-pattern'],
    unchecked: recordedRules['unchecked-schema'],
  },
  persisted: {
    invalid: persistedRules.invalid,
    handler: persistedRules['handler-rejects'],
    unknown: persistedRules['unknown-tool'],
    corrupt: persistedRules.corrupt,
    skipped: persistedRules['unsupported-pattern'],
    unchecked: persistedRules['unchecked-schema'],
  },
} satisfies Record<
  ObservedKind,
  { invalid: RuleMeta; handler: RuleMeta | undefined; unknown: RuleMeta; corrupt: RuleMeta; skipped: RuleMeta | undefined; unchecked: RuleMeta | undefined }
>;

const NONE = Symbol('none');

/**
 * Counts recorded or persisted calls against the current tool schemas in constant memory:
 * a counter per tool and per failure group, and the first few witnesses of each. Groups
 * are keyed by tool, keyword and instance path. Accumulators over separate chunks of the
 * input (worker threads) merge into one with `merge`, in chunk order to keep the first witnesses first.
 */
export class RecordedAccumulator {
  readonly kind: ObservedKind;
  readonly #tools = new Map<string, CompiledTool>();
  /** The same tools by name length: names read from JSON are new strings each time, and comparing a few is cheaper than hashing each. */
  readonly #byLength: CompiledTool[][] = [];
  /** The arguments `addValid` last saw fail, so that `add` does not validate them twice. */
  #failedArgs: unknown = NONE;
  readonly #maxWitnesses: number;
  readonly #maxCorrupt: number;
  readonly #failures = new Map<string, FailureGroup>();
  readonly #unknown = new Map<string, UnknownToolGroup>();
  readonly #corrupt: CorruptRecord[] = [];
  readonly #skipped = new Map<string, SkippedGroup>();
  readonly #unchecked = new Map<string, UncheckedGroup>();
  readonly #unsafe = new Map<string, UnsafeGroup>();
  #corruptCount = 0;
  #calls = 0;

  constructor(tools: readonly ToolSpec[], options: AccumulatorOptions = {}) {
    this.kind = options.kind ?? 'recorded';
    this.#maxWitnesses = options.maxWitnesses ?? 5;
    this.#maxCorrupt = options.maxCorrupt ?? 20;
    const compiler = options.compiler ?? new SchemaCompiler();
    const cannotRun = (error: unknown, tool: string, what: string): InputError =>
      new InputError('config/invalid-schema', `The ${what} of tool \`${tool}\` does not compile (${errorMessage(error)}); expected a valid JSON Schema`, {}, { cause: error });
    const compile = (schema: JsonSchemaObject, tool: string, what: string): Validator => {
      try {
        return compiler.compile(schema);
      } catch (error) {
        throw cannotRun(error, tool, what);
      }
    };
    // Recorded calls to a tool whose schema does not compile are counted and reported as
    // unchecked; the other tools' calls are still validated (the provider lint reports the schema).
    const canSkip = ruleSets[this.kind].unchecked !== undefined;
    for (const tool of tools) {
      const handlerSchema =
        this.kind === 'persisted' ? (options.handlerSchemas?.get(tool.name) ?? (tool.handler?.kind === 'json-schema' ? tool.handler.schema : undefined)) : undefined;
      let schema: Validator | undefined;
      let unchecked: CompiledTool['unchecked'];
      try {
        schema = compiler.compile(tool.inputSchema);
      } catch (error) {
        if (!canSkip) throw cannotRun(error, tool.name, 'input schema');
        const problems = schemaProblems(tool.inputSchema);
        const first = problems[0];
        unchecked =
          first === undefined
            ? { schemaPath: '', problem: `Unexpected input schema that does not compile (${errorMessage(error)}), expected a valid JSON Schema`, problems: 1 }
            : { schemaPath: first.pointer, problem: first.message, problems: problems.length, ...(first.fix === undefined ? {} : { fix: first.fix }) };
      }
      this.#tools.set(tool.name, {
        name: tool.name,
        spec: tool,
        schema,
        ...(unchecked === undefined ? {} : { unchecked }),
        handler: handlerSchema === undefined ? undefined : compile(handlerSchema, tool.name, 'handler argument schema'),
        calls: 0,
      });
    }
    for (const tool of this.#tools.values()) {
      (this.#byLength[tool.name.length] ??= []).push(tool);
      for (const [against, validator] of [['schema', tool.schema], ['handler', tool.handler]] as const) {
        for (const skip of validator?.skippedPatterns ?? []) this.#addSkipped({ tool: tool.name, against, ...skip });
      }
    }
  }

  #addSkipped(group: SkippedGroup): void {
    const key = `${group.against}\0${group.tool}\0${group.schemaPath}\0${group.pattern}`;
    if (!this.#skipped.has(key)) this.#skipped.set(key, group);
  }

  #find(name: string): CompiledTool | undefined {
    const candidates = this.#byLength[name.length];
    if (candidates === undefined) return undefined;
    for (let i = 0; i < candidates.length; i++) if (candidates[i]!.name === name) return candidates[i];
    return undefined;
  }

  /** Counts one call or unreadable record, and reports it when it fails or names no tool (`addValid` is the cheaper way in for calls that pass). */
  add(item: RecordedItem): void {
    if ('corrupt' in item) {
      this.#corruptCount++;
      if (this.#corrupt.length < this.#maxCorrupt) this.#corrupt.push(item);
      return;
    }
    this.#calls++;
    const tool = this.#find(item.name);
    const failed = this.#failedArgs === item.arguments;
    this.#failedArgs = NONE;
    if (tool === undefined) {
      this.#unknownCall(item);
      return;
    }
    tool.calls++;
    if (tool.schema === undefined) {
      this.#uncheckedCall(tool, item);
      return;
    }
    const unsafe = (item as RecordedCallRead).unsafeIntegers?.filter((u) => u.exponent !== true || exactnessMatters(tool.spec.inputSchema, u.instancePath));
    // Compared as rounded, such a call could pass a bound it breaks: it is reported, not validated.
    if (unsafe !== undefined && unsafe.length > 0) {
      this.#unsafeCall(item, unsafe);
      return;
    }
    if (failed || !tool.schema(item.arguments)) this.#fail('schema', item, tool.schema);
    if (tool.handler !== undefined && !tool.handler(item.arguments)) this.#fail('handler', item, tool.handler);
  }

  /**
   * The fast path for a call whose shape is already known: counts it and returns true when
   * it names a tool and passes that tool's schema (with no handler schema to check as
   * well). Otherwise it counts nothing and returns false, and the caller passes the whole
   * item to `add` next, which reports it. Most calls in a log are valid: they cost a name
   * lookup and one compiled validation, and nothing is built for them.
   */
  addValid(name: string, args: unknown): boolean {
    const tool = this.#find(name);
    if (tool === undefined || tool.handler !== undefined || tool.schema === undefined) return false;
    if (!tool.schema(args)) {
      this.#failedArgs = args;
      return false;
    }
    this.#calls++;
    tool.calls++;
    return true;
  }

  #witness(call: RecordedCall, at?: { found: boolean; value: unknown }): Witness {
    const witness: Witness = { id: witnessId(call), source: call.where.source };
    if (at?.found) witness.value = shownValue(at.value);
    return witness;
  }

  #unknownCall(call: RecordedCall): void {
    let group = this.#unknown.get(call.name);
    if (group === undefined) {
      group = { name: call.name, count: 0, witnesses: [], source: call.where.source };
      if (call.where.line !== undefined) group.line = call.where.line;
      this.#unknown.set(call.name, group);
    }
    group.count++;
    if (group.source !== call.where.source) group.source = null;
    if (group.witnesses.length < this.#maxWitnesses) group.witnesses.push(this.#witness(call));
  }

  #uncheckedCall(tool: CompiledTool, call: RecordedCall): void {
    let group = this.#unchecked.get(tool.name);
    if (group === undefined) {
      group = { tool: tool.name, ...tool.unchecked!, count: 0, witnesses: [], source: call.where.source };
      if (call.where.line !== undefined) group.line = call.where.line;
      this.#unchecked.set(tool.name, group);
    }
    group.count++;
    if (group.source !== call.where.source) group.source = null;
    if (group.witnesses.length < this.#maxWitnesses) group.witnesses.push(this.#witness(call));
  }

  #unsafeCall(call: RecordedCall, unsafe: readonly UnsafeInteger[]): void {
    for (const { instancePath, digits } of unsafe) {
      const key = `${call.name}\0${instancePath}`;
      let group = this.#unsafe.get(key);
      if (group === undefined) {
        group = { tool: call.name, instancePath, digits, count: 0, witnesses: [], source: call.where.source };
        if (call.where.line !== undefined) group.line = call.where.line;
        this.#unsafe.set(key, group);
      }
      group.count++;
      if (group.source !== call.where.source) group.source = null;
      if (group.witnesses.length < this.#maxWitnesses) group.witnesses.push({ ...this.#witness(call), value: digits });
    }
  }

  #fail(against: FailureGroup['against'], call: RecordedCall, validator: Validator): void {
    let errors = validator.places(call.arguments);
    // Every error may sit inside an anyOf/oneOf that places() leaves out: still count the call.
    if (errors.length === 0) errors = [{ keyword: 'valid', instancePath: '', schemaPath: '#' }];
    let seen: Set<string> | undefined;
    for (const error of errors) {
      const at = locate(call.arguments, error.instancePath);
      const key = `${against}\0${call.name}\0${error.keyword}\0${at.path}`;
      // One call counts once per group, even when several items of one list fail the same way.
      if (errors.length > 1) {
        seen ??= new Set();
        if (seen.has(key)) continue;
        seen.add(key);
      }
      let group = this.#failures.get(key);
      if (group === undefined) {
        group = {
          against,
          tool: call.name,
          keyword: error.keyword,
          instancePath: at.path,
          schemaPath: error.schemaPath,
          condition: error.keyword === 'valid' ? 'does not match the schema' : condition(error),
          count: 0,
          witnesses: [],
          source: call.where.source,
        };
        if (error.expected !== undefined) group.expected = error.expected;
        if (call.where.line !== undefined) group.line = call.where.line;
        this.#failures.set(key, group);
      }
      group.count++;
      if (group.source !== call.where.source) group.source = null;
      if (group.witnesses.length < this.#maxWitnesses) group.witnesses.push(this.#witness(call, at));
    }
  }

  /** A copy of the counts as plain data (what a worker posts back). */
  state(): AccumulatorState {
    const copy = <T extends { witnesses: Witness[] }>(g: T): T => ({ ...g, witnesses: [...g.witnesses] });
    return {
      kind: this.kind,
      calls: this.#calls,
      totals: [...this.#tools].flatMap(([name, tool]): Array<[string, number]> => (tool.calls > 0 ? [[name, tool.calls]] : [])),
      failures: [...this.#failures.values()].map(copy),
      unknown: [...this.#unknown.values()].map(copy),
      corrupt: [...this.#corrupt],
      corruptCount: this.#corruptCount,
      skipped: [...this.#skipped.values()],
      unchecked: [...this.#unchecked.values()].map(copy),
      unsafe: [...this.#unsafe.values()].map(copy),
    };
  }

  /** Adds another accumulator's counts (a later chunk of the same input) to this one. */
  merge(other: RecordedAccumulator | AccumulatorState): this {
    const state = other instanceof RecordedAccumulator ? other.state() : other;
    if (state.kind !== this.kind) throw new TypeError(`Cannot merge ${state.kind} counts into ${this.kind} counts`);
    this.#calls += state.calls;
    for (const [name, n] of state.totals) {
      const tool = this.#tools.get(name);
      if (tool === undefined) throw new TypeError(`Cannot merge counts for \`${name}\`, which is not one of this accumulator's tools`);
      tool.calls += n;
    }
    const mergeInto = <T extends { count: number; witnesses: Witness[]; source: string | null }>(map: Map<string, T>, key: string, group: T) => {
      const mine = map.get(key);
      if (mine === undefined) {
        map.set(key, { ...group, witnesses: group.witnesses.slice(0, this.#maxWitnesses) });
        return;
      }
      mine.count += group.count;
      if (mine.source !== group.source) mine.source = null;
      for (const w of group.witnesses) if (mine.witnesses.length < this.#maxWitnesses) mine.witnesses.push(w);
    };
    for (const g of state.failures) mergeInto(this.#failures, `${g.against}\0${g.tool}\0${g.keyword}\0${g.instancePath}`, g);
    for (const g of state.unknown) mergeInto(this.#unknown, g.name, g);
    for (const g of state.unchecked) mergeInto(this.#unchecked, g.tool, g);
    for (const g of state.unsafe) mergeInto(this.#unsafe, `${g.tool}\0${g.instancePath}`, g);
    for (const record of state.corrupt) if (this.#corrupt.length < this.#maxCorrupt) this.#corrupt.push(record);
    this.#corruptCount += state.corruptCount;
    for (const group of state.skipped) this.#addSkipped(group);
    return this;
  }

  /** The findings, in a stable order: schema failures, handler rejections, calls not checked, unknown tools, unreadable records. */
  toDiagnostics(): Diagnostic[] {
    const rules = ruleSets[this.kind];
    const noun = this.kind;
    const out: Diagnostic[] = [];
    const failures = [...this.#failures.values()].sort(
      (a, b) =>
        Number(a.against === 'handler') - Number(b.against === 'handler') ||
        a.tool.localeCompare(b.tool) ||
        a.instancePath.localeCompare(b.instancePath) ||
        a.keyword.localeCompare(b.keyword),
    );
    for (const g of failures) {
      const rule = g.against === 'handler' ? rules.handler : rules.invalid;
      if (rule === undefined) continue;
      const total = this.#tools.get(g.tool)?.calls ?? g.count;
      const where = g.instancePath === '' ? 'the top level' : `\`${g.instancePath}\``;
      const inSource = noun === 'persisted' && g.source !== null ? ` in \`${g.source}\`` : '';
      const head = `${count(g.count)} of ${count(total)} ${noun} calls to \`${g.tool}\`${inSource}`;
      const what = `\`${g.keyword}\` at ${where} (${g.condition})`;
      const message =
        g.against === 'handler' ? `${head} would be rejected by its handler: ${what}: ${list(g.witnesses, g.count)}` : `${head} fail ${what}: ${list(g.witnesses, g.count)}`;
      const fix =
        g.against === 'handler'
          ? 'Make the handler accept these stored arguments (resuming a conversation replays them), or migrate the rows first'
          : noun === 'persisted'
            ? `Migrate the stored rows, or keep the schema of \`${g.tool}\` accepting them at ${where} until they age out`
            : `If these arguments are still legitimate, loosen the schema of \`${g.tool}\` at ${where}; tighten it only once the observed calls agree`;
      out.push(
        report(rule, {
          message,
          tool: g.tool,
          instancePath: g.instancePath,
          schemaPath: g.schemaPath,
          ...(g.expected === undefined ? {} : { expected: g.expected }),
          ...(noun === 'recorded' && g.source !== null ? { file: g.source, ...(g.line === undefined ? {} : { line: g.line }) } : {}),
          witnesses: g.witnesses,
          witnessCount: g.count,
          total,
          fix,
        }),
      );
    }
    for (const g of [...this.#unsafe.values()].sort((a, b) => a.tool.localeCompare(b.tool) || a.instancePath.localeCompare(b.instancePath))) {
      const total = this.#tools.get(g.tool)?.calls ?? g.count;
      const where = g.instancePath === '' ? 'the top level' : `\`${g.instancePath}\``;
      const ids = g.witnesses.map((w) => (w.value === g.digits ? w.id : `${w.id} (${String(w.value)})`)).join(', ');
      const more = g.count > g.witnesses.length ? `, and ${count(g.count - g.witnesses.length)} more` : '';
      out.push(
        report(recordedRules['unsafe-integer'], {
          message: `Unexpected integer ${g.digits} at ${where} in ${count(g.count)} of ${count(total)} ${noun} calls to \`${g.tool}\`, past ${Number.MAX_SAFE_INTEGER} (2^53 - 1), where a JavaScript number no longer holds every integer (\`JSON.parse\` reads this one as ${roundedDigits(g.digits)}); expected integers a JavaScript number holds exactly (these calls were not compared with the schema): ${ids}${more}`,
          tool: g.tool,
          instancePath: g.instancePath,
          actual: g.digits,
          ...(g.source !== null ? { file: g.source, ...(g.line === undefined ? {} : { line: g.line }) } : {}),
          witnesses: g.witnesses,
          witnessCount: g.count,
          total,
        }),
      );
    }
    if (rules.unchecked !== undefined) {
      for (const g of [...this.#unchecked.values()].sort((a, b) => a.tool.localeCompare(b.tool))) {
        const spec = this.#tools.get(g.tool)?.spec;
        // The place to fix is the schema: the offending keyword in the tools file, else the first call.
        const schemaPlace = spec === undefined ? {} : toolPlace(spec, g.schemaPath);
        const callPlace = g.source !== null ? { file: g.source, ...(g.line === undefined ? {} : { line: g.line }) } : {};
        const more = g.problems > 1 ? `, and ${count(g.problems - 1)} more (\`prompt-contract lint\` lists them)` : '';
        out.push(
          report(rules.unchecked, {
            message: `${count(g.count)} ${noun} ${g.count === 1 ? 'call' : 'calls'} to \`${g.tool}\` ${g.count === 1 ? 'is' : 'are'} not checked, because its input schema does not compile: ${g.problem}${more}; calls: ${list(g.witnesses, g.count)}`,
            tool: g.tool,
            schemaPath: g.schemaPath,
            ...('file' in schemaPlace ? schemaPlace : callPlace),
            witnesses: g.witnesses,
            witnessCount: g.count,
            total: g.count,
            fix: `Make the input schema of \`${g.tool}\` valid JSON Schema${g.fix === undefined ? '' : ` (${g.fix})`}; its calls are checked on the next run`,
          }),
        );
      }
    }
    const names = [...this.#tools.keys()];
    for (const g of [...this.#unknown.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      const suggestion = didYouMean(g.name, names);
      const hint = suggestion === undefined ? '' : ` (did you mean \`${suggestion}\`?)`;
      out.push(
        report(rules.unknown, {
          message: `${count(g.count)} of ${count(this.#calls)} ${noun} calls name \`${g.name}\`, which is not a tool${hint}: ${list(g.witnesses, g.count)}`,
          tool: g.name,
          actual: g.name,
          ...(suggestion === undefined ? {} : { expected: suggestion }),
          ...(noun === 'recorded' && g.source !== null ? { file: g.source, ...(g.line === undefined ? {} : { line: g.line }) } : {}),
          witnesses: g.witnesses,
          witnessCount: g.count,
          total: this.#calls,
          fix: suggestion === undefined ? `Restore \`${g.name}\`, or keep a handler for it while these calls exist` : `Rename \`${g.name}\` to \`${suggestion}\` in the calls, or restore \`${g.name}\` as an alias`,
        }),
      );
    }
    if (rules.skipped !== undefined) {
      for (const g of this.#skipped.values()) {
        const compiled = this.#tools.get(g.tool);
        const calls = compiled?.calls ?? 0;
        if (calls === 0) continue;
        const whose = g.against === 'handler' ? `the handler argument schema of \`${g.tool}\`` : `\`${g.tool}\``;
        out.push(
          report(rules.skipped, {
            message: `Unexpected \`pattern\` ${show(g.pattern, 60)} at \`${g.schemaPath}\` of ${whose}, which uses ${g.reason} and cannot run on the linear-time regex engine; expected a pattern without backreferences or lookaround (${count(calls)} ${noun} calls were checked without this one)`,
            tool: g.tool,
            schemaPath: g.schemaPath,
            // About the schema, not a line of calls: the pattern where it is written (the handler's type has no such place).
            ...(g.against === 'schema' && compiled !== undefined ? toolPlace(compiled.spec, g.schemaPath) : {}),
            actual: g.pattern,
            total: calls,
            fix: 'Rewrite the pattern without backreferences or lookaround, and check what it checked in the handler',
          }),
        );
      }
    }
    for (const record of this.#corrupt) {
      const { source, line, row } = record.where;
      if (record.tooLong !== undefined && noun === 'recorded') {
        out.push(
          report(recordedRules['line-too-long'], {
            message: `Line ${line ?? '?'} ${record.message.replace(/^The line /, '')}`,
            file: source,
            ...(line === undefined ? {} : { line }),
            actual: record.tooLong,
            witnesses: [{ id: `${source}:${line ?? '?'}`, source }],
            fix: 'Log tool calls without their bulk (truncate large arguments), or raise `maxLineBytes` if such lines are legitimate',
          }),
        );
        continue;
      }
      const place = row !== undefined ? `Row \`${row}\` of \`${source}\`` : `Line ${line ?? '?'}`;
      out.push(
        report(rules.corrupt, {
          message: `${place} is not a readable ${noun === 'persisted' ? 'message' : 'tool call'}: ${record.message}`,
          ...(noun === 'recorded' ? { file: source, ...(line === undefined ? {} : { line }) } : {}),
          witnesses: [{ id: row ?? `${source}:${line ?? '?'}`, source }],
        }),
      );
    }
    const unlisted = this.#corruptCount - this.#corrupt.length;
    if (unlisted > 0) {
      out.push(
        report(rules.corrupt, {
          message: `${count(unlisted)} more ${noun === 'persisted' ? 'rows' : 'lines'} are not readable (only the first ${count(this.#corrupt.length)} are listed)`,
          witnessCount: this.#corruptCount,
        }),
      );
    }
    return out;
  }
}

/**
 * Validates recorded tool calls (from `readRecordedCalls` or any iterable) against the
 * current tool schemas: `recorded/invalid` grouped by tool, keyword and place with the
 * first witnesses, `recorded/unknown-tool`, and `recorded/corrupt` for unreadable lines.
 */
export async function checkRecorded(
  tools: readonly ToolSpec[],
  calls: AsyncIterable<RecordedItem> | Iterable<RecordedItem>,
  options: RecordedCheckOptions = {},
): Promise<Diagnostic[]> {
  return (await accumulate(new RecordedAccumulator(tools, { ...options, kind: 'recorded' }), calls)).toDiagnostics();
}

/** Feeds every item to the accumulator; sync iterables skip the per-item await. */
export async function accumulate(
  accumulator: RecordedAccumulator,
  items: AsyncIterable<RecordedItem> | Iterable<RecordedItem>,
): Promise<RecordedAccumulator> {
  if (Symbol.iterator in items) for (const item of items) accumulator.add(item);
  else for await (const item of items) accumulator.add(item);
  return accumulator;
}
