import type { Diagnostic } from '../../report/diagnostic.js';
import { report, type Finding } from '../../report/rule.js';
import { isStackOverflow, SchemaDepthError, tooDeepAt, tooDeepMessage } from '../../schema/depth.js';
import type { SchemaCompiler } from '../../schema/validator.js';
import type { RecordedItem } from '../../sources/types.js';
import { toolPlace } from '../../tools/places.js';
import type { ToolSpec } from '../../tools/types.js';
import { InputError } from '../../util/errors.js';
import { describe, fixFor, type MessageContext } from './messages.js';
import { compatRules } from './rules.js';
import { deepEqual, stripAnnotations } from './schema.js';
import { SchemaWalker, type Change } from './walk.js';
import { WitnessCollector } from './witnesses.js';

export interface DiffOptions {
  /**
   * Recorded calls to look for witnesses in, read once. Only synchronous sources here;
   * for a stream (JSONL, a database) use `attachWitnesses`, which takes async iterables.
   */
  witnesses?: Iterable<RecordedItem>;
  /** How many witnesses each finding keeps (default 5); all are counted. */
  maxWitnesses?: number;
  /** A shared compiler, so validators are reused across checks. */
  compiler?: SchemaCompiler;
  /** The policy file the advice names, as shown to the user (default: `prompt-contract.policy.yaml` beside the config). */
  policyFile?: string;
}

function byName(tools: readonly ToolSpec[]): Map<string, ToolSpec> {
  const map = new Map<string, ToolSpec>();
  for (const tool of tools) if (!map.has(tool.name)) map.set(tool.name, tool);
  return map;
}

/** Where a change is made: the new schema's node at the change's schema path, or the tool itself. */
type Where = ReturnType<typeof toolPlace>;

function toDiagnostic(change: Change, context: MessageContext, where: Where): Diagnostic {
  const rule = compatRules[change.rule];
  const finding: Finding = {
    message: describe(change, context),
    tool: context.tool,
    schemaPath: change.schemaPath,
    instancePath: change.instancePath,
  };
  if (change.expected !== undefined) finding.expected = change.expected;
  if (change.actual !== undefined) finding.actual = change.actual;
  const fix = fixFor(change.rule, context);
  if (fix !== undefined) finding.fix = fix;
  return report(rule, { ...finding, ...where });
}

function mostCommonFile(tools: readonly ToolSpec[]): string | undefined {
  const counts = new Map<string, number>();
  for (const t of tools) if (t.origin.file !== undefined) counts.set(t.origin.file, (counts.get(t.origin.file) ?? 0) + 1);
  let best: string | undefined;
  for (const [file, n] of counts) if (best === undefined || n > counts.get(best)!) best = file;
  return best;
}

/**
 * The walk of one tool's two schemas. A schema too deep to walk cannot be compared at all:
 * that is a could-not-run error naming the tool, its file and where it gets too deep.
 */
function walk(before: ToolSpec, after: ToolSpec): Change[] {
  try {
    return new SchemaWalker(before.inputSchema, after.inputSchema).run();
  } catch (error) {
    if (error instanceof SchemaDepthError) throw new InputError('config/tool-shape', `Cannot compare tool \`${after.name}\`: ${error.message}`, { file: after.origin.file });
    if (isStackOverflow(error)) throw new InputError('config/tool-shape', `Cannot compare tool \`${after.name}\`: its schema nests too deeply, or through too long a chain of \`$ref\`s, to walk`, { file: after.origin.file });
    throw error;
  }
}

/**
 * Breaking changes between two versions of a tool set, in the direction that matters for
 * tool calls: the model writes arguments and the handler reads them, so every call the old
 * schema accepted must still be accepted by the new one. Each finding points at the
 * keyword in the new schema (`schemaPath`) and the argument it rejects (`instancePath`).
 */
export function diffTools(oldTools: readonly ToolSpec[], newTools: readonly ToolSpec[], options: DiffOptions = {}): Diagnostic[] {
  // Tools read through normalizeTools are bounded already; this guards tools built by hand.
  for (const [tools, side] of [[oldTools, 'old'], [newTools, 'new']] as const) {
    for (const tool of tools) {
      const deep = tooDeepAt(tool.inputSchema);
      if (deep !== undefined) throw new InputError('config/tool-shape', `The ${side} input schema of tool \`${tool.name}\` ${tooDeepMessage(deep)}`, { file: tool.origin.file });
    }
  }
  const policy = options.policyFile === undefined ? {} : { policyFile: options.policyFile };
  const olds = byName(oldTools);
  const news = byName(newTools);
  const out: Diagnostic[] = [];
  const added = [...news.values()].filter((t) => !olds.has(t.name));
  const claimed = new Set<ToolSpec>();
  for (const before of olds.values()) {
    const after = news.get(before.name);
    if (after) {
      for (const change of walk(before, after)) out.push(toDiagnostic(change, { tool: before.name, ...policy }, toolPlace(after, change.schemaPath)));
      continue;
    }
    // A rename keeps the schema: match a removed tool to an added one with the same meaning.
    const shape = stripAnnotations(before.inputSchema);
    // Provider-defined tools have no schema to match by (each is `{}`): one is never another renamed.
    const twin = before.provided ? undefined : added.find((t) => !claimed.has(t) && !t.provided && deepEqual(stripAnnotations(t.inputSchema), shape));
    // A removed tool has no line left: the file that defines most of the tools, where it would be restored.
    const file = mostCommonFile(newTools) ?? before.origin.file;
    const base = { schemaPath: '', instancePath: '', params: {} };
    if (twin) {
      claimed.add(twin);
      out.push(toDiagnostic({ ...base, rule: 'tool-renamed', expected: before.name, actual: twin.name }, { tool: before.name, renamedTo: twin.name, ...policy }, toolPlace(twin)));
    } else out.push(toDiagnostic({ ...base, rule: 'tool-removed', expected: before.name }, { tool: before.name, ...policy }, file === undefined ? {} : { file }));
  }
  if (!options.witnesses) return out;
  const collector = new WitnessCollector(out, oldTools, newTools, options);
  for (const call of options.witnesses) collector.add(call);
  return collector.finish();
}
