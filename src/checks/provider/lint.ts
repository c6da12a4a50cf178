import type { Diagnostic } from '../../report/diagnostic.js';
import { report, type Finding } from '../../report/rule.js';
import { isStackOverflow, tooDeepAt, tooDeepMessage } from '../../schema/depth.js';
import { joinPointer } from '../../schema/pointer.js';
import { schemaProblems } from '../../schema/problems.js';
import { localRefFragment } from '../../schema/refs.js';
import { descriptionPlace, toolPlace } from '../../tools/places.js';
import type { ToolSpec } from '../../tools/types.js';
import { InputError } from '../../util/errors.js';
import { isRecord, show } from '../../util/values.js';
import { profiles, type Fact, type LimitFact, type Measure, type PatternFeature, type ProviderName, type ProviderProfile } from './profiles.js';
import { providerRules, type ProviderRuleName } from './rules.js';
import {
  children,
  isArraySchema,
  isObjectSchema,
  isUnion,
  patternFeatures,
  recursiveRefs,
  typesOf,
  type SchemaNode,
} from './walk.js';

type Detail = Omit<Finding, 'provider' | 'tool' | 'severity'>;
type Emit = (rule: ProviderRuleName, fact: Fact, detail: Detail) => void;

const at = (path: string): string => (path === '' ? 'the root' : `\`${path}\``);

/** A fix clause of a message ("drop the keyword") as the finding's `fix` ("Drop the keyword"). */
const fixText = (clause: string): string => clause.charAt(0).toUpperCase() + clause.slice(1);

const featureNames: Record<PatternFeature, string> = {
  backreference: 'backreference',
  lookaround: 'lookaround',
  'word-boundary': 'word boundary (`\\b`)',
};

/** Keywords whose boolean value is a flag on the parent, not a boolean subschema. */
const booleanFlagKeywords = new Set(['additionalProperties', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems']);

/** Rules about a tool's wording: they point at its description (descriptions.yaml when it has an entry there). */
const wordingRules = new Set<ProviderRuleName>(['missing-description', 'description-empty']);

/** Which facts one tool is held to, and why, when the profile has a `strict` flag. */
interface Strictness {
  strict: boolean;
  /** Set when the tool's own flag made it strict: the clause findings of strict-only rules carry. */
  why?: string;
}

/**
 * Decides a tool's strictness for a profile with a `strict` flag (see `StrictFlag`): its own
 * flag in a shape that carries this provider's flag, the API's default (not strict) for a tool
 * in that shape that says nothing, and the profile's choice for everything else.
 */
function strictness(tool: ToolSpec, profile: ProviderProfile): Strictness | undefined {
  const flag = profile.strictFlag;
  if (flag === undefined) return undefined;
  const shape = tool.origin.shape;
  if (tool.strict !== undefined && !flag.foreignShapes.includes(shape)) {
    return tool.strict ? { strict: true, why: `\`${tool.name}\` sets \`strict: true\`` } : { strict: false };
  }
  if (flag.ownShapes.includes(shape)) return { strict: false };
  return { strict: flag.unflagged };
}

/** Every fact object a profile holds: a finding from a fact outside the plain profile's is a strict-only rule. */
function factsOf(profile: ProviderProfile): Set<unknown> {
  const found = new Set<unknown>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (isRecord(value) && !(value instanceof RegExp)) {
      if ('reason' in value) found.add(value);
      else Object.values(value).forEach(walk);
    }
  };
  walk(Object.values(profile));
  return found;
}

/**
 * Lints tool definitions against one provider's profile. Checks are driven by the profile's
 * facts (profiles.ts); a provider without a fact for a check is not checked for it. For the
 * OpenAI and Anthropic profiles each tool's own `strict` flag picks the strict or the plain
 * facts (see `strictness`); findings keep the profile asked for as their `provider`. Returns
 * diagnostics in tool order, request-wide limits last; never throws for bad content.
 */
export function lintTools(tools: readonly ToolSpec[], provider: ProviderName): Diagnostic[] {
  const profile = profiles[provider];
  const flag = profile.strictFlag;
  const plainFacts = flag === undefined ? new Set<unknown>() : factsOf(profiles[flag.plain]);
  const out: Diagnostic[] = [];
  const emitFor =
    (tool: ToolSpec | undefined, why?: string): Emit =>
    (rule, fact, detail) => {
      const meta = providerRules[rule];
      // The line a person edits: the description, the schema node, or the tool's name.
      const where = tool === undefined ? {} : wordingRules.has(rule) ? descriptionPlace(tool) : toolPlace(tool, detail.schemaPath);
      const place = tool === undefined ? {} : { tool: tool.name, ...where };
      // A strict-only rule says which flag made it apply: "for `openai` (`read_file` sets `strict: true`), which ...".
      const named = `for \`${provider}\``;
      const message = why !== undefined && !plainFacts.has(fact) ? detail.message.replace(named, `${named} (${why})`) : detail.message;
      out.push(report(meta, { severity: fact.severity ?? meta.severity, provider, ...place, ...detail, message, url: fact.source ?? meta.url }));
    };
  const strictTools: ToolSpec[] = [];
  for (const tool of tools) {
    // The provider defines it: nothing of ours to lint (it still counts toward the request's limits below).
    if (tool.provided) continue;
    // Tools read through normalizeTools are bounded already; this guards tools built by hand.
    const deep = tooDeepAt(tool.inputSchema);
    if (deep !== undefined) throw new InputError('config/tool-shape', `The input schema of tool \`${tool.name}\` ${tooDeepMessage(deep)}`, { file: tool.origin.file });
    const mode = strictness(tool, profile);
    if (mode?.strict) strictTools.push(tool);
    // The strict or plain facts, under the name asked for: messages say "for `openai`".
    const facts = flag === undefined || mode === undefined ? profile : { ...profiles[mode.strict ? flag.strict : flag.plain], name: provider };
    try {
      lintTool(tool, facts, emitFor(tool, mode?.why));
    } catch (error) {
      if (!isStackOverflow(error)) throw error;
      throw new InputError('config/tool-shape', `Cannot lint tool \`${tool.name}\` for \`${provider}\`: its schema nests too deeply to walk; expected a schema of at most a few hundred levels`, { file: tool.origin.file });
    }
  }
  if (flag === undefined) {
    for (const limit of profile.limits) requestLimit(tools, limit, profile, emitFor(undefined));
    return out;
  }
  // Limits of strict mode count the strict tools only ("20 strict tools a request"); the others count every tool.
  const plain = profiles[flag.plain];
  const named = (p: ProviderProfile): ProviderProfile => ({ ...p, name: provider });
  for (const limit of plain.limits) requestLimit(tools, limit, named(plain), emitFor(undefined));
  const flagged = strictTools.filter((t) => t.strict === true && !flag.foreignShapes.includes(t.origin.shape)).length;
  const why = flag.unflagged ? undefined : `${flagged} ${flagged === 1 ? 'tool sets' : 'tools set'} \`strict: true\``;
  for (const limit of profiles[flag.strict].limits) {
    if (!plain.limits.includes(limit)) requestLimit(strictTools, limit, named(profiles[flag.strict]), emitFor(undefined, why));
  }
  return out;
}

function lintTool(tool: ToolSpec, profile: ProviderProfile, emit: Emit): void {
  const p = `\`${profile.name}\``;
  // First, what every provider and our own validation need: a schema that is JSON Schema at all.
  // Compiled with the Ajv that `validate` and the example check use, so lint and validation agree.
  const read = { ...(profile.validSchema.draft ? { draft: profile.validSchema.draft } : {}), typeLists: profile.typeArrays === undefined };
  for (const problem of schemaProblems(tool.inputSchema, read)) {
    const fix = problem.fix ?? 'write it the way JSON Schema defines it';
    emit('invalid-schema', profile.validSchema, {
      message: `${problem.message}, for ${p}, which ${profile.validSchema.reason}; ${fix}`,
      fix: fixText(fix),
      schemaPath: problem.pointer,
      expected: problem.expected,
      actual: problem.actual,
    });
  }
  for (const fact of profile.toolNames) {
    if (!fact.pattern.test(tool.name)) {
      emit('name-invalid', fact, {
        message: `Unexpected tool name \`${tool.name}\` for ${p}, which ${fact.reason}; rename it to match \`${fact.expected}\``,
        fix: `Rename the tool to match \`${fact.expected}\``,
        expected: fact.expected,
        actual: tool.name,
      });
    }
  }
  describe(tool, profile, emit);

  const root = tool.inputSchema;
  if (profile.rootObject && root.type !== 'object') {
    emit('root-not-object', profile.rootObject, {
      message: `Unexpected root type ${root.type === undefined ? '(none)' : `\`${show(root.type, Infinity)}\``} for ${p}, which ${profile.rootObject.reason}; declare \`type: "object"\` with \`properties\``,
      schemaPath: '',
      expected: 'object',
      actual: root.type,
    });
  }
  if (profile.rootProperties && root.type === 'object' && root.properties === undefined) {
    emit('object-missing-properties', profile.rootProperties, {
      message: `Missing \`properties\` on the root object for ${p}, which ${profile.rootProperties.reason}; add \`"properties": {}\``,
      schemaPath: '',
    });
  }
  if (profile.rootUnion) {
    for (const keyword of profile.rootUnion.keywords ?? ['anyOf', 'oneOf', 'allOf']) {
      if (root[keyword] === undefined) continue;
      emit('root-union', profile.rootUnion, {
        message: `Unexpected \`${keyword}\` at the root for ${p}, which ${profile.rootUnion.reason}; make the root an object and move the variants into a property, or split the tool`,
        schemaPath: joinPointer('', keyword),
      });
    }
  }

  visit(root, '', undefined, tool, profile, emit);

  if (profile.recursion) {
    for (const { at: path, ref } of recursiveRefs(root)) {
      emit('recursive-schema', profile.recursion, {
        message: `Unexpected recursive \`$ref\` \`${ref}\` at ${at(path)} for ${p}, which ${profile.recursion.reason}; unroll the recursion to a fixed depth`,
        schemaPath: joinPointer(path, '$ref'),
      });
    }
  }

  if (profile.limits.length > 0) {
    const stats = measure(root);
    for (const limit of profile.limits) schemaLimit(stats, limit, profile, emit);
  }
}

function describe(tool: ToolSpec, profile: ProviderProfile, emit: Emit): void {
  const p = `\`${profile.name}\``;
  const text = tool.description;
  if (text === undefined || text.trim() === '') {
    if (text !== undefined && profile.descriptionNonEmpty) {
      emit('description-empty', profile.descriptionNonEmpty, {
        message: `Unexpected empty description on tool \`${tool.name}\` for ${p}, which ${profile.descriptionNonEmpty.reason}; write one or drop the field`,
      });
    } else if (profile.descriptionRecommended) {
      emit('missing-description', profile.descriptionRecommended, {
        message: `Missing description on tool \`${tool.name}\`: ${p} ${profile.descriptionRecommended.reason}; say what the tool does and when to use it`,
      });
    }
  }
}

function visit(node: unknown, path: string, parentKeyword: string | undefined, tool: ToolSpec, profile: ProviderProfile, emit: Emit): void {
  const p = `\`${profile.name}\``;
  if (typeof node === 'boolean') {
    if (profile.booleanSchemas && !(parentKeyword !== undefined && booleanFlagKeywords.has(parentKeyword))) {
      emit('boolean-schema', profile.booleanSchemas, {
        message: `Unexpected boolean schema \`${node}\` at ${at(path)} for ${p}, which ${profile.booleanSchemas.reason}; ${profile.typeRequired ? 'write it as a schema object with a `type`' : 'write it as a schema object (`{}` accepts anything)'}`,
        schemaPath: path,
      });
    }
    return;
  }
  if (!isRecord(node)) return;

  // A keyword reported as unsupported is not descended into: what lies under it is noise.
  const reported = new Set<string>();
  for (const fact of profile.rejectedKeywords) {
    for (const keyword of fact.keywords) {
      if (!(keyword in node) || reported.has(keyword)) continue;
      const value = node[keyword];
      if (fact.allowedValues?.some((allowed) => allowed === value)) continue;
      if (fact.when === 'array-value' && !Array.isArray(value)) continue;
      if (fact.when === 'with-ref' && !(Array.isArray(value) && value.some((branch) => isRecord(branch) && '$ref' in branch))) continue;
      reported.add(keyword);
      emit('unsupported-keyword', fact, {
        message: `Unexpected keyword \`${keyword}\` at ${at(path)} for ${p}, which ${fact.reason}; ${fact.fix}`,
        fix: fixText(fact.fix),
        schemaPath: joinPointer(path, keyword),
        actual: value,
      });
    }
  }
  const supported = profile.supportedKeywords;
  if (supported) {
    for (const keyword of Object.keys(node)) {
      if (reported.has(keyword) || supported.keywords.includes(keyword)) continue;
      reported.add(keyword);
      emit('unsupported-keyword', supported, {
        message: `Unexpected keyword \`${keyword}\` at ${at(path)} for ${p}, which ${supported.reason}; ${supported.fix}`,
        fix: fixText(supported.fix),
        schemaPath: joinPointer(path, keyword),
        actual: node[keyword],
      });
    }
  }

  // `additionalProperties: {}` is reported as an open object where objects must be closed, and an untyped root as `root-not-object`.
  if (profile.typeRequired && path !== '' && !saysWhatItIs(node) && !(parentKeyword !== undefined && booleanFlagKeywords.has(parentKeyword) && profile.closedObjects)) {
    emit('missing-type', profile.typeRequired, {
      message: `Missing \`type\` at ${at(path)} for ${p}, which ${profile.typeRequired.reason}; add the \`type\` of the values it takes, or \`anyOf\` with one typed branch each`,
      schemaPath: path,
    });
  }
  checkProperties(node, path, profile, emit);
  checkValues(node, path, tool, profile, emit);

  for (const child of children(node, path)) {
    if (!reported.has(child.keyword)) visit(child.schema, child.path, child.keyword, tool, profile, emit);
  }
}

/** A schema that says what its values are: a `type`, or a keyword that stands for one (a `$ref`, a union, an `enum`, a `const`). */
function saysWhatItIs(node: SchemaNode): boolean {
  return ['type', '$ref', 'anyOf', 'oneOf', 'allOf', 'enum', 'const'].some((keyword) => node[keyword] !== undefined);
}

function checkProperties(node: SchemaNode, path: string, profile: ProviderProfile, emit: Emit): void {
  const p = `\`${profile.name}\``;
  const properties = isRecord(node.properties) ? Object.keys(node.properties) : [];
  for (const fact of profile.propertyNames) {
    if (fact.scope === 'top' && path !== '') continue;
    for (const key of properties) {
      if (fact.pattern.test(key)) continue;
      emit('property-name-invalid', fact, {
        message: `Unexpected property name \`${key}\` at ${at(joinPointer(path, 'properties', key))} for ${p}, which ${fact.reason}; rename it to match \`${fact.expected}\``,
        fix: `Rename \`${key}\` to match \`${fact.expected}\`, and map it in the handler if the backend needs the old name`,
        schemaPath: joinPointer(path, 'properties', key),
        expected: fact.expected,
        actual: key,
      });
    }
  }
  if (!isObjectSchema(node)) return;
  if (profile.closedObjects && node.additionalProperties !== false) {
    const found = node.additionalProperties === undefined ? '`additionalProperties` is missing' : `found \`${show(node.additionalProperties, Infinity)}\``;
    emit('open-object', profile.closedObjects, {
      message: `Unexpected open object at ${at(path)} for ${p}, which ${profile.closedObjects.reason} (${found}); add \`additionalProperties: false\``,
      schemaPath: node.additionalProperties === undefined ? path : joinPointer(path, 'additionalProperties'),
      expected: false,
      actual: node.additionalProperties,
    });
  }
  if (profile.allRequired) {
    const required = Array.isArray(node.required) ? node.required : [];
    for (const key of properties) {
      if (required.includes(key)) continue;
      emit('optional-property', profile.allRequired, {
        message: `Unexpected optional property \`${key}\` at ${at(joinPointer(path, 'properties', key))} for ${p}, which ${profile.allRequired.reason}; list it in \`required\` and allow \`null\` in its type to keep it optional`,
        schemaPath: joinPointer(path, 'properties', key),
      });
    }
  }
}

function checkValues(node: SchemaNode, path: string, tool: ToolSpec, profile: ProviderProfile, emit: Emit): void {
  const p = `\`${profile.name}\``;
  const { formats, patternFeatures: patterns, enumValues, typeArrays, refSiblings, externalRef, arrayItems } = profile;
  if (formats && typeof node.format === 'string' && !formats.allowed.includes(node.format)) {
    emit('unsupported-format', formats, {
      message: `Unexpected format \`${node.format}\` at ${at(path)} for ${p}, which ${formats.reason}; use one of ${formats.allowed.map((f) => `\`${f}\``).join(', ')}, or drop \`format\` and say it in the description`,
      schemaPath: joinPointer(path, 'format'),
      expected: formats.allowed,
      actual: node.format,
    });
  }
  if (patterns && typeof node.pattern === 'string') {
    const used = patternFeatures(node.pattern).filter((f) => patterns.forbidden.includes(f));
    if (used.length > 0) {
      emit('pattern-unsupported', patterns, {
        message: `Unexpected ${used.map((f) => featureNames[f]).join(', ')} in \`pattern\` at ${at(path)} for ${p}, which ${patterns.reason}; rewrite the pattern without it or check it in the handler`,
        schemaPath: joinPointer(path, 'pattern'),
        actual: node.pattern,
      });
    }
  }
  if (enumValues && Array.isArray(node.enum)) {
    const bad = node.enum.findIndex((v) => (enumValues.allowed === 'string' ? typeof v !== 'string' : typeof v === 'object' && v !== null));
    if (bad >= 0) {
      const fix =
        enumValues.allowed === 'string'
          ? 'use `type: "string"` with string values and convert them in the handler'
          : 'use primitive values and map them to objects in the handler';
      emit('enum-invalid', enumValues, {
        message: `Unexpected enum value \`${show(node.enum[bad], Infinity)}\` at ${at(path)} for ${p}, which ${enumValues.reason}; ${fix}`,
        fix: fixText(fix),
        schemaPath: joinPointer(path, 'enum', bad),
        actual: node.enum[bad],
      });
    }
  }
  if (typeArrays && Array.isArray(node.type)) {
    const nonNull = typesOf(node).filter((t) => t !== 'null');
    const nullablePair = node.type.length === 2 && nonNull.length === 1;
    // The normalizer turns Gemini's own `nullable: true` into `[T, "null"]`: not the author's doing.
    if (!(nullablePair && tool.origin.shape === 'gemini')) {
      const fix = nullablePair ? `use \`type: "${nonNull[0]}"\` with \`nullable: true\`` : 'use `anyOf` with one type a branch';
      emit('type-array', typeArrays, {
        message: `Unexpected type list \`${show(node.type, Infinity)}\` at ${at(path)} for ${p}, which ${typeArrays.reason}; ${fix}`,
        fix: fixText(fix),
        schemaPath: joinPointer(path, 'type'),
        actual: node.type,
      });
    }
  }
  if (typeof node.$ref === 'string') {
    if (refSiblings) {
      for (const key of Object.keys(node)) {
        if (key === '$ref' || refSiblings.allowed.includes(key)) continue;
        emit('ref-siblings', refSiblings, {
          message: `Unexpected keyword \`${key}\` beside \`$ref\` at ${at(path)} for ${p}, which ${refSiblings.reason}; move it into the referenced schema`,
          schemaPath: joinPointer(path, key),
        });
      }
    }
    if (externalRef && localRefFragment(node.$ref) === undefined) {
      emit('external-ref', externalRef, {
        message: `Unexpected external \`$ref\` \`${node.$ref}\` at ${at(path)} for ${p}, which ${externalRef.reason}; copy the schema into \`$defs\` and point at it`,
        schemaPath: joinPointer(path, '$ref'),
        actual: node.$ref,
      });
    }
  }
  if (arrayItems && isArraySchema(node) && node.items === undefined && node.prefixItems === undefined) {
    emit('array-missing-items', arrayItems, {
      message: `Unexpected array without \`items\` at ${at(path)} for ${p}, which ${arrayItems.reason}; ${profile.typeRequired || arrayItems.typed ? 'add `items` with the `type` of the elements' : 'add `items` (`{}` if anything goes)'}`,
      schemaPath: path,
    });
  }
}

/** What the size measures of one schema add up to. */
interface SchemaStats {
  properties: number;
  optional: number;
  unions: number;
  nesting: { depth: number; path: string };
  enumValues: number;
  chars: number;
  /** String enums with their value count and total characters. */
  enums: Array<{ path: string; count: number; chars: number }>;
}

function measure(root: unknown): SchemaStats {
  const stats: SchemaStats = { properties: 0, optional: 0, unions: 0, nesting: { depth: 0, path: '' }, enumValues: 0, chars: 0, enums: [] };
  const walk = (node: unknown, path: string, depth: number, keyword: string | undefined): void => {
    if (!isRecord(node)) return;
    const level = depth + (isObjectSchema(node) ? 1 : 0);
    if (level > stats.nesting.depth) stats.nesting = { depth: level, path };
    if (keyword === 'properties' && isUnion(node)) stats.unions++;
    if (isRecord(node.properties)) {
      const keys = Object.keys(node.properties);
      const required = Array.isArray(node.required) ? node.required : [];
      stats.properties += keys.length;
      stats.optional += keys.filter((k) => !required.includes(k)).length;
      stats.chars += keys.reduce((n, k) => n + k.length, 0);
    }
    for (const defs of ['$defs', 'definitions']) {
      if (isRecord(node[defs])) stats.chars += Object.keys(node[defs]).reduce((n, k) => n + k.length, 0);
    }
    if (Array.isArray(node.enum)) {
      const chars = node.enum.reduce<number>((n, v) => n + (typeof v === 'string' ? v.length : show(v, Infinity).length), 0);
      stats.enumValues += node.enum.length;
      stats.chars += chars;
      if (node.enum.every((v) => typeof v === 'string')) stats.enums.push({ path, count: node.enum.length, chars });
    }
    for (const child of children(node, path)) walk(child.schema, child.path, level, child.keyword);
  };
  walk(root, '', 0, undefined);
  return stats;
}

const limitWording: Record<Measure, { noun: string; fix: string }> = {
  tools: { noun: 'tools in one request', fix: 'send fewer tools a request, or pick them per turn' },
  'optional-params': { noun: 'optional parameters', fix: 'make some parameters required, or send fewer strict tools' },
  'union-params': { noun: 'parameters with unions', fix: 'replace some unions with one type, or send fewer strict tools' },
  properties: { noun: 'object properties', fix: 'split the tool' },
  nesting: { noun: 'levels of object nesting', fix: 'flatten the schema' },
  'enum-values': { noun: 'enum values', fix: 'replace long enums with a string and validate it in the handler' },
  'schema-chars': { noun: 'characters of property names and enum values', fix: 'shorten names and enums, or split the tool' },
  'large-enum-chars': { noun: 'characters in a string enum', fix: 'replace the enum with a string and validate it in the handler' },
};

function exceeded(limit: LimitFact, profile: ProviderProfile, count: number, path: string | undefined, emit: Emit): void {
  const { noun, fix } = limitWording[limit.measure];
  emit('limit-exceeded', limit, {
    message: `Unexpected ${count} ${noun}${path === undefined ? '' : ` at ${at(path)}`} for \`${profile.name}\`, which ${limit.reason}; ${fix}`,
    fix: fixText(fix),
    ...(path === undefined ? {} : { schemaPath: path }),
    expected: limit.max,
    actual: count,
  });
}

function schemaLimit(stats: SchemaStats, limit: LimitFact, profile: ProviderProfile, emit: Emit): void {
  switch (limit.measure) {
    case 'properties': {
      const n = stats.properties;
      if (n > limit.max) exceeded(limit, profile, n, undefined, emit);
      return;
    }
    case 'nesting': {
      const { depth, path } = stats.nesting;
      if (depth > limit.max) exceeded(limit, profile, depth, path, emit);
      return;
    }
    case 'enum-values': {
      const n = stats.enumValues;
      if (n > limit.max) exceeded(limit, profile, n, undefined, emit);
      return;
    }
    case 'schema-chars': {
      const n = stats.chars;
      if (n > limit.max) exceeded(limit, profile, n, undefined, emit);
      return;
    }
    case 'large-enum-chars':
      for (const e of stats.enums) {
        if (e.count > (limit.threshold ?? 0) && e.chars > limit.max) exceeded(limit, profile, e.chars, joinPointer(e.path, 'enum'), emit);
      }
      return;
    default:
      return;
  }
}

function requestLimit(tools: readonly ToolSpec[], limit: LimitFact, profile: ProviderProfile, emit: Emit): void {
  let n: number;
  switch (limit.measure) {
    case 'tools':
      n = tools.length;
      break;
    case 'optional-params':
      n = tools.reduce((sum, t) => sum + measure(t.inputSchema).optional, 0);
      break;
    case 'union-params':
      n = tools.reduce((sum, t) => sum + measure(t.inputSchema).unions, 0);
      break;
    default:
      return;
  }
  if (n > limit.max) exceeded(limit, profile, n, undefined, emit);
}
