import type { Severity } from '../../report/diagnostic.js';
import type { ToolShape } from '../../tools/types.js';

/** The provider profiles `lintTools` knows, as named on the CLI (`lint --provider NAME`). */
export const providerNames = [
  'anthropic',
  'anthropic-strict',
  'openai',
  'openai-strict',
  'gemini',
  'gemini-json-schema',
  'bedrock',
  'mcp',
] as const;

export type ProviderName = (typeof providerNames)[number];

export function isProviderName(value: unknown): value is ProviderName {
  return typeof value === 'string' && (providerNames as readonly string[]).includes(value);
}

/** Where each fact was read: the provider documentation or SDK source behind it. */
export const sources = {
  anthropicDefineTools: 'https://platform.claude.com/docs/agents-and-tools/tool-use/define-tools',
  anthropicToolParam:
    'https://github.com/anthropics/anthropic-sdk-python/blob/main/src/anthropic/types/tool_param.py',
  anthropicStrict: 'https://platform.claude.com/docs/build-with-claude/structured-outputs#json-schema-limitations',
  anthropicStrictToolUse: 'https://platform.claude.com/docs/agents-and-tools/tool-use/strict-tool-use',
  anthropicTransform:
    'https://github.com/anthropics/anthropic-sdk-typescript/blob/main/src/lib/transform-json-schema.ts',
  openaiFunctionDefinition:
    'https://github.com/openai/openai-python/blob/main/src/openai/types/shared_params/function_definition.py',
  openaiFunctionCalling: 'https://platform.openai.com/docs/guides/function-calling',
  openaiStrictMode: 'https://developers.openai.com/api/docs/guides/function-calling#strict-mode',
  openaiStructuredOutputs: 'https://platform.openai.com/docs/guides/structured-outputs#supported-schemas',
  openaiTransform: 'https://github.com/openai/openai-node/blob/master/src/lib/transform.ts',
  geminiTypes: 'https://github.com/googleapis/js-genai/blob/main/src/types.ts',
  mcpTools: 'https://modelcontextprotocol.io/specification/2026-07-28/server/tools',
  bedrockToolSpec: 'https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html',
  bedrockToolInputSchema: 'https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolInputSchema.html',
} as const;

/**
 * A request the provider rejected, quoted in a public issue: the evidence for a fact the
 * docs do not state (or a confirmation of one they do). `error` is the provider's own text,
 * as quoted there.
 */
export interface Rejection {
  /** `owner/repo#number` of the public issue or pull request that quotes the error. */
  issue: string;
  error: string;
}

/** The web address of a `owner/repo#number` reference. */
export function issueUrl(issue: string): string {
  const [repo, number] = issue.split('#');
  return `https://github.com/${repo}/issues/${number}`;
}

/** The source and evidence of a fact known from a rejected request: findings link to the issue that quotes it. */
const seen = (issue: string, error: string): Pick<Fact, 'source' | 'rejected'> => ({ source: issueUrl(issue), rejected: { issue, error } });

/**
 * One provider fact. `reason` completes "for `<provider>`, which ..." in messages. Every fact
 * has evidence: `source` is the documentation (or SDK source) that states it, or the issue
 * quoting a rejected request (`rejected`) when the docs do not. A fact without either, or
 * where sources disagree, carries `severity: 'warning'` and says so in its reason.
 */
export interface Fact {
  /** Where the fact is stated; the `url` of its findings. */
  source: string;
  reason: string;
  severity?: Severity;
  /** A real rejected request quoting the provider's error, when there is one. */
  rejected?: Rejection;
}

export interface NameFact extends Fact {
  pattern: RegExp;
  /** What a valid name looks like, for the message. */
  expected: string;
}

export interface PropertyNameFact extends NameFact {
  /** `top`: only the root's own properties; `all`: every `properties` map. */
  scope: 'top' | 'all';
}

export interface KeywordFact extends Fact {
  keywords: readonly string[];
  fix: string;
  /** Values of the keyword that are fine (e.g. `minItems` 0 or 1). */
  allowedValues?: readonly unknown[];
  /** Only some uses are rejected: tuple `items` (an array), `allOf` with a `$ref` branch. */
  when?: 'array-value' | 'with-ref';
}

export interface SupportedKeywordsFact extends Fact {
  keywords: readonly string[];
  fix: string;
}

export type PatternFeature = 'backreference' | 'lookaround' | 'word-boundary';

/** What a limit counts; the walker in lint.ts implements each measure. */
export type Measure =
  | 'tools'
  | 'optional-params'
  | 'union-params'
  | 'properties'
  | 'nesting'
  | 'enum-values'
  | 'schema-chars'
  | 'large-enum-chars';

export interface LimitFact extends Fact {
  measure: Measure;
  max: number;
  /** For `large-enum-chars`: the enum size above which `max` applies. */
  threshold?: number;
}

/**
 * How a tool's own `strict` flag picks the facts it is held to, for a provider whose API has
 * one (OpenAI `strict` on a function, Anthropic `strict` on a tool). The flag belongs to the
 * wire shape it is written in: a tool in the provider's own shape is strict exactly when it
 * says `strict: true` (absent, the API's default applies: not strict, or for OpenAI
 * Responses a best-effort normalization that falls back instead of rejecting). A flag written
 * in the other provider's shape is not carried over (converters drop it), and a shape with no
 * flag of its own (MCP, zod, a plain schema) says nothing unless it carries one: for both,
 * `unflagged` decides.
 */
export interface StrictFlag {
  /** The profile whose facts a strict tool is held to. */
  strict: ProviderName;
  /** The profile whose facts any other tool is held to. */
  plain: ProviderName;
  /** The shapes whose `strict` is this provider's own flag. */
  ownShapes: readonly ToolShape[];
  /** The shapes whose `strict` is another provider's flag, not read here. */
  foreignShapes: readonly ToolShape[];
  /** Whether a tool the flag does not decide for is taken as strict (the `-strict` profiles) or not. */
  unflagged: boolean;
  /** Where the flag and its default are documented. */
  source: string;
}

export interface ProviderProfile {
  name: ProviderName;
  /** Set for the OpenAI and Anthropic profiles: each tool's own `strict` flag picks strict or plain facts. */
  strictFlag?: StrictFlag;
  /**
   * The schema must be valid JSON Schema (it compiles with the Ajv that validation uses).
   * `draft`: the provider reads every schema as this draft, whatever its `$schema` declares.
   */
  validSchema: Fact & { draft?: '2020-12' };
  toolNames: readonly NameFact[];
  propertyNames: readonly PropertyNameFact[];
  descriptionNonEmpty?: Fact;
  descriptionRecommended?: Fact;
  /** An allow-list: any other keyword is reported, at the fact's severity. */
  supportedKeywords?: SupportedKeywordsFact;
  rejectedKeywords: readonly KeywordFact[];
  rootObject?: Fact;
  /** The root object must have `properties` (`{}` when the tool takes no arguments). */
  rootProperties?: Fact;
  /** Keywords not allowed at the root: `anyOf`, `oneOf`, `allOf` unless `keywords` says otherwise. */
  rootUnion?: Fact & { keywords?: readonly string[] };
  /** Every schema node must say what it is: a `type`, or a `$ref`, `anyOf`, `enum` or `const` standing for one. */
  typeRequired?: Fact;
  closedObjects?: Fact;
  allRequired?: Fact;
  formats?: Fact & { allowed: readonly string[] };
  patternFeatures?: Fact & { forbidden: readonly PatternFeature[] };
  enumValues?: Fact & { allowed: 'primitive' | 'string' };
  typeArrays?: Fact;
  refSiblings?: Fact & { allowed: readonly string[] };
  recursion?: Fact;
  externalRef?: Fact;
  booleanSchemas?: Fact;
  /** `typed`: the fix must name the elements' type (`items: {}` is refused too). */
  arrayItems?: Fact & { typed?: boolean };
  limits: readonly LimitFact[];
}

// Wording for a fact known from rejected requests, not from the docs.
const seenInErrors = (error: string): string => `not in the docs; the API answers 400 ${error}`;

const describeTools: Fact = {
  source: sources.anthropicDefineTools,
  reason: 'picks tools by their descriptions',
};

// Anthropic's `strict` on a tool turns on strict tool use; without it a tool is not strict.
const anthropicFlag: StrictFlag = {
  strict: 'anthropic-strict',
  plain: 'anthropic',
  ownShapes: ['anthropic'],
  foreignShapes: ['openai-chat', 'openai-responses'],
  unflagged: false,
  source: sources.anthropicStrictToolUse,
};

const anthropic: ProviderProfile = {
  name: 'anthropic',
  toolNames: [
    {
      pattern: /^[a-zA-Z0-9_-]{1,128}$/,
      expected: '^[a-zA-Z0-9_-]{1,128}$',
      reason: 'accepts only letters, digits, `_` and `-`, 1 to 128 characters',
      source: sources.anthropicToolParam,
    },
    {
      pattern: /^[\s\S]{0,64}$/,
      expected: 'at most 64 characters',
      reason: 'limited names to 64 characters in older docs and errors (the current limit is 128; sources disagree)',
      severity: 'warning',
      source: sources.anthropicDefineTools,
    },
  ],
  propertyNames: [
    {
      scope: 'top',
      pattern: /^[a-zA-Z0-9_.-]{1,64}$/,
      expected: '^[a-zA-Z0-9_.-]{1,64}$',
      reason: `rejects other top-level property keys (${seenInErrors('"Property keys should match pattern"')})`,
      ...seen('beautyfree/appstore-connect-mcp#2', "tools.14.custom.input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'"),
    },
  ],
  validSchema: {
    draft: '2020-12',
    source: sources.anthropicDefineTools,
    reason: 'requires `input_schema` to be valid JSON Schema draft 2020-12 (whatever its `$schema` declares)',
    rejected: {
      issue: 'anthropics/anthropic-sdk-java#241',
      error: 'tools.1.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).',
    },
  },
  descriptionRecommended: describeTools,
  rejectedKeywords: [],
  rootObject: {
    source: sources.anthropicDefineTools,
    reason: 'requires `input_schema.type` to be `"object"`',
    rejected: { issue: 'Kilo-Org/kilocode#12238', error: 'tools.0.custom.input_schema.type: Field required' },
  },
  rootUnion: {
    reason: `rejects \`oneOf\`, \`anyOf\` and \`allOf\` at the top level (${seenInErrors('"input_schema does not support oneOf, allOf, or anyOf at the top level"')})`,
    ...seen('anthropics/claude-code#5973', 'tools.21.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level'),
  },
  strictFlag: anthropicFlag,
  limits: [],
};

const numericFix = 'move the bound into the description and check it in the handler';

const anthropicStrict: ProviderProfile = {
  ...anthropic,
  name: 'anthropic-strict',
  strictFlag: { ...anthropicFlag, unflagged: true },
  supportedKeywords: {
    keywords: [
      'type', 'enum', 'const', 'default', 'anyOf', 'allOf', '$ref', '$defs', 'definitions', 'required',
      'additionalProperties', 'properties', 'items', 'format', 'minItems', 'pattern',
      // Annotations: they change nothing the grammar has to enforce.
      'description', 'title', '$schema', '$id', '$comment', 'examples',
    ],
    reason: 'does not list it among the keywords strict tool use supports (not documented as rejected either)',
    fix: 'drop it or move it into the description',
    severity: 'warning',
    source: sources.anthropicStrict,
  },
  rejectedKeywords: [
    { keywords: ['minimum', 'maximum', 'multipleOf'], reason: 'rejects numeric bounds', fix: numericFix, source: sources.anthropicStrict },
    { keywords: ['minLength', 'maxLength'], reason: 'rejects string length bounds', fix: numericFix, source: sources.anthropicStrict },
    { keywords: ['maxItems'], reason: 'rejects `maxItems`', fix: numericFix, source: sources.anthropicStrict },
    {
      keywords: ['minItems'],
      allowedValues: [0, 1],
      reason: 'accepts `minItems` only as 0 or 1',
      fix: 'use 0 or 1 and state the real minimum in the description',
      source: sources.anthropicStrict,
    },
    {
      keywords: ['allOf'],
      when: 'with-ref',
      reason: 'rejects `allOf` combined with `$ref`',
      fix: 'inline the referenced schema into the `allOf` branch',
      source: sources.anthropicStrict,
    },
  ],
  closedObjects: { source: sources.anthropicStrict, reason: 'requires `additionalProperties: false` on every object' },
  formats: {
    allowed: ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid'],
    reason: 'supports only a fixed set of string formats',
    source: sources.anthropicStrict,
  },
  patternFeatures: {
    forbidden: ['backreference', 'lookaround', 'word-boundary'],
    reason: 'rejects backreferences, lookaround and `\\b` in `pattern`',
    source: sources.anthropicStrict,
  },
  enumValues: { allowed: 'primitive', reason: 'accepts only primitive `enum` values', source: sources.anthropicStrict },
  recursion: { source: sources.anthropicStrict, reason: 'rejects recursive schemas' },
  externalRef: { source: sources.anthropicStrict, reason: 'resolves only local `$ref`s (`#/...`)' },
  limits: [
    { measure: 'tools', max: 20, reason: 'accepts at most 20 strict tools a request', source: sources.anthropicStrict },
    {
      measure: 'optional-params',
      max: 24,
      reason: 'accepts at most 24 optional parameters across all strict tools of a request',
      source: sources.anthropicStrict,
    },
    {
      measure: 'union-params',
      max: 16,
      reason: 'accepts at most 16 parameters with unions (`anyOf` or type arrays) a request',
      source: sources.anthropicStrict,
    },
  ],
};

// OpenAI's `strict` on a function: Chat Completions defaults to non-strict; Responses, without
// the flag, normalizes the schema into strict mode where it can and falls back where it cannot
// (never a 400), so only `strict: true` brings the strict rules.
const openaiFlag: StrictFlag = {
  strict: 'openai-strict',
  plain: 'openai',
  ownShapes: ['openai-chat', 'openai-responses'],
  foreignShapes: ['anthropic'],
  unflagged: false,
  source: sources.openaiStrictMode,
};

const openai: ProviderProfile = {
  name: 'openai',
  strictFlag: openaiFlag,
  toolNames: [
    {
      pattern: /^[a-zA-Z0-9_-]{1,64}$/,
      expected: '^[a-zA-Z0-9_-]{1,64}$',
      reason: 'accepts only letters, digits, `_` and `-`, 1 to 64 characters',
      source: sources.openaiFunctionDefinition,
    },
  ],
  propertyNames: [],
  validSchema: {
    source: sources.openaiFunctionCalling,
    reason: 'requires `parameters` to be valid JSON Schema (400 `invalid_function_parameters`)',
    rejected: {
      issue: 'FoundationAgents/OpenManus#1162',
      error: "Invalid schema for function 'mcp_home_zz_conda_envs_open_manus_bin_python_str_replace_editor': [] is not of type 'object', 'boolean'.",
    },
  },
  descriptionRecommended: { source: sources.openaiFunctionCalling, reason: 'picks tools by their descriptions' },
  rejectedKeywords: [],
  arrayItems: {
    reason: `rejects array schemas without \`items\`, strict or not (${seenInErrors('`invalid_function_parameters`: "array schema missing items"')})`,
    ...seen('modelscope/ms-agent#610', "Invalid schema for function 'get_room_layout': In context=('properties', 'objects'), array schema missing items."),
  },
  rootObject: {
    reason: `requires \`parameters\` to be an object schema, strict or not (${seenInErrors('"schema must have type \'object\'"')})`,
    ...seen('cecli-dev/cecli#281', "Invalid schema for function 'InsertBlock': schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level."),
  },
  rootUnion: {
    keywords: ['anyOf', 'oneOf', 'allOf', 'enum', 'not'],
    reason: `rejects \`oneOf\`, \`anyOf\`, \`allOf\`, \`enum\` and \`not\` at the top level, strict or not (${seenInErrors('"... not have \'oneOf\'/\'anyOf\'/\'allOf\'/\'enum\'/\'not\' at the top level"')})`,
    ...seen('cecli-dev/cecli#281', "Invalid schema for function 'InsertBlock': schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level."),
  },
  rootProperties: {
    reason: `rejects a root object without \`properties\`, strict or not, even for a tool that takes no arguments (${seenInErrors('"object schema missing properties"')})`,
    ...seen('evalstate/fast-agent#143', "Invalid schema for function 'mongodb-list-databases': In context=(), object schema missing properties."),
  },
  limits: [],
};

const strictFix = 'rewrite it with `anyOf` or move the rule into the description';

const openaiStrict: ProviderProfile = {
  ...openai,
  name: 'openai-strict',
  strictFlag: { ...openaiFlag, unflagged: true },
  rejectedKeywords: [
    {
      keywords: ['allOf', 'not', 'dependentRequired', 'dependentSchemas', 'if', 'then', 'else'],
      reason: 'does not permit it in strict mode',
      fix: strictFix,
      source: sources.openaiStructuredOutputs,
      rejected: {
        issue: 'makenotion/notion-mcp-server#117',
        error: "Invalid schema for function 'notion-create-comment': In context=('properties', 'rich_text', 'items'), 'allOf' is not permitted.",
      },
    },
    {
      keywords: ['oneOf'],
      reason: `does not permit \`oneOf\` in strict mode, only \`anyOf\` (${seenInErrors('"\'oneOf\' is not permitted"')})`,
      fix: 'write the union with `anyOf` (a discriminated union stays one: each branch fixes its tag with `const` or `enum`)',
      ...seen('livekit/agents#5302', "Invalid schema for function '<function>': In context=(), 'oneOf' is not permitted."),
    },
    {
      keywords: [
        'patternProperties', 'propertyNames', 'prefixItems', 'uniqueItems', 'unevaluatedProperties',
        'unevaluatedItems', 'contains', 'dependencies', 'contentSchema',
      ],
      reason: "cannot represent it in strict mode (the SDK's strict transform refuses it)",
      fix: strictFix,
      source: sources.openaiTransform,
    },
    {
      keywords: ['items'],
      when: 'array-value',
      reason: "cannot represent tuple `items` in strict mode (the SDK's strict transform refuses it)",
      fix: 'use one `items` schema, or an object with named properties',
      source: sources.openaiTransform,
    },
    {
      keywords: ['minLength', 'maxLength'],
      reason: 'may reject string length bounds in strict mode (sources disagree: the guide omits them, some reports accept them)',
      fix: 'move the bound into the description and check it in the handler',
      severity: 'warning',
      source: sources.openaiStructuredOutputs,
    },
    {
      keywords: ['default'],
      reason: 'may reject `default` in strict mode (sources disagree: reported rejected by Azure OpenAI, accepted by api.openai.com in a maintainer\'s test)',
      fix: 'state the default in the description and apply it in the handler',
      severity: 'warning',
      source: issueUrl('openai/openai-agents-python#4390'),
    },
  ],
  rootObject: { source: sources.openaiStructuredOutputs, reason: 'requires the root to be an object in strict mode' },
  rootUnion: { keywords: ['anyOf', 'oneOf', 'allOf', 'enum', 'not'], source: sources.openaiStructuredOutputs, reason: 'rejects a root `anyOf` (or any other root that is not a plain object) in strict mode' },
  closedObjects: {
    source: sources.openaiStructuredOutputs,
    reason: 'requires `additionalProperties: false` on every object in strict mode',
    rejected: {
      issue: 'lastmile-ai/openai-agents-mcp#2',
      error: "Invalid schema for function 'filesystem-set_permissions': In context=('properties', 'permissions'), 'additionalProperties' is required to be supplied and to be false.",
    },
  },
  allRequired: {
    source: sources.openaiStructuredOutputs,
    reason: 'requires every property in `required` in strict mode',
    rejected: {
      issue: 'kevinwatt/mysql-mcp#5',
      error: "Invalid schema for function 'mysql_execute': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'params'.",
    },
  },
  formats: {
    allowed: ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'],
    reason: 'supports only a fixed set of string formats in strict mode (no `uri`)',
    source: sources.openaiStructuredOutputs,
  },
  booleanSchemas: {
    source: sources.openaiTransform,
    reason: "cannot represent boolean subschemas in strict mode (the SDK's strict transform refuses them)",
  },
  typeRequired: {
    reason: `requires every schema in strict mode to say its type (${seenInErrors('"schema must have a \'type\' key"')}); \`{}\`, "anything", cannot be written`,
    ...seen('can1357/oh-my-pi#211', "Invalid schema for function 'mcp_notebooklm_mcp_studio_revise': In context=('properties', 'slide_instructions', 'items'), schema must have a 'type' key."),
  },
  refSiblings: {
    allowed: [],
    reason: `allows nothing beside a \`$ref\` in strict mode, not even \`description\` (${seenInErrors('"$ref cannot have keywords"')})`,
    ...seen('vectorize-io/hindsight#3944', "Invalid schema for response_format 'response': context=('properties', 'labels'), $ref cannot have keywords {'description'}"),
  },
  limits: [
    { measure: 'properties', max: 5000, reason: 'accepts at most 5000 object properties a schema', source: sources.openaiStructuredOutputs },
    { measure: 'nesting', max: 10, reason: 'accepts at most 10 levels of object nesting', source: sources.openaiStructuredOutputs },
    { measure: 'enum-values', max: 1000, reason: 'accepts at most 1000 enum values a schema', source: sources.openaiStructuredOutputs },
    {
      measure: 'schema-chars',
      max: 120_000,
      reason: 'accepts at most 120,000 characters of property names and enum values a schema',
      source: sources.openaiStructuredOutputs,
    },
    {
      measure: 'large-enum-chars',
      max: 15_000,
      threshold: 250,
      reason: 'accepts at most 15,000 characters in one string enum of more than 250 values',
      source: sources.openaiStructuredOutputs,
    },
  ],
};

const geminiToolNames: readonly NameFact[] = [
  {
    pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$/,
    expected: '^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$',
    reason: 'accepts names that start with a letter or `_`, then letters, digits, `_`, `.`, `:`, `-`, at most 128',
    source: sources.geminiTypes,
  },
  {
    pattern: /^[\s\S]{0,64}$/,
    expected: 'at most 64 characters',
    reason: 'limited names to 64 characters in older docs (sources disagree: 64 or 128)',
    severity: 'warning',
    source: sources.geminiTypes,
  },
];

const geminiPropertyNames: readonly PropertyNameFact[] = [
  {
    scope: 'top',
    pattern: /^[A-Za-z_][A-Za-z0-9_]{0,63}$/,
    expected: '^[A-Za-z_][A-Za-z0-9_]{0,63}$',
    reason: 'accepts parameter names of letters, digits and `_` that do not start with a digit, at most 64',
    source: sources.geminiTypes,
  },
];

const geminiLimits: readonly LimitFact[] = [
  { measure: 'tools', max: 128, reason: 'accepts at most 128 function declarations a request', source: sources.geminiTypes },
];

const gemini: ProviderProfile = {
  name: 'gemini',
  toolNames: geminiToolNames,
  propertyNames: geminiPropertyNames,
  validSchema: {
    source: sources.geminiTypes,
    reason: 'reads `parameters` into its own `Schema` type, and rejects a value that type cannot hold (a `type` outside its `Type` enum)',
    rejected: {
      issue: 'zereight/gitlab-mcp#166',
      error: "Invalid value at 'tools[0].function_declarations[44].parameters.properties[7].value.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), \"\"",
    },
  },
  descriptionRecommended: { source: sources.geminiTypes, reason: 'picks functions by their descriptions' },
  supportedKeywords: {
    keywords: [
      'type', 'format', 'description', 'title', 'nullable', 'enum', 'properties', 'required', 'items', 'anyOf',
      'minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties', 'minimum', 'maximum',
      'pattern', 'default', 'example', 'propertyOrdering',
    ],
    reason: 'accepts only its OpenAPI subset in `parameters` ("Cannot find field")',
    fix: 'drop it, or declare the tool with `parametersJsonSchema` (profile `gemini-json-schema`)',
    source: sources.geminiTypes,
    rejected: {
      issue: 'nanbingxyz/5ire#42',
      error: "Invalid JSON payload received. Unknown name \"additionalProperties\" at 'tools[0].function_declarations[8].parameters.properties[1].value.items': Cannot find field.",
    },
  },
  rejectedKeywords: [],
  enumValues: {
    allowed: 'string',
    reason: 'accepts only string `enum` values in `parameters`',
    source: sources.geminiTypes,
    rejected: {
      issue: 'microsoft/azure-devops-mcp#145',
      error: "Invalid value at 'request.tools[0].function_declarations[23].parameters.properties[16].value.enum[0]' (TYPE_STRING), 2",
    },
  },
  arrayItems: {
    typed: true,
    reason: `rejects an ARRAY without \`items\` (${seenInErrors('"items: missing field"')})`,
    ...seen('jackmusick/bifrost#225', 'GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[system_tools].items: missing field.'),
  },
  typeArrays: {
    source: sources.geminiTypes,
    reason: 'cannot take a list in `type` ("Proto field is not repeating")',
    rejected: {
      issue: 'zed-industries/zed#53919',
      error: "Invalid JSON payload received. Unknown name \"type\" at 'tools[0].function_declarations[6].parameters.properties[4].value.properties[10].value': Proto field is not repeating, cannot start list.",
    },
  },
  limits: geminiLimits,
};

const geminiJsonSchema: ProviderProfile = {
  name: 'gemini-json-schema',
  toolNames: geminiToolNames,
  propertyNames: geminiPropertyNames,
  validSchema: { source: sources.geminiTypes, reason: 'requires `parametersJsonSchema` to be a JSON Schema' },
  descriptionRecommended: gemini.descriptionRecommended ?? describeTools,
  rejectedKeywords: [],
  rootObject: { source: sources.geminiTypes, reason: 'requires an object root in `parametersJsonSchema`' },
  refSiblings: {
    allowed: ['description', 'default'],
    reason: 'allows only `description` and `default` beside a `$ref`',
    source: sources.geminiTypes,
  },
  limits: geminiLimits,
};

const bedrock: ProviderProfile = {
  name: 'bedrock',
  toolNames: [
    {
      pattern: /^[a-zA-Z0-9_-]{1,64}$/,
      expected: '^[a-zA-Z0-9_-]{1,64}$',
      reason: 'accepts only letters, digits, `_` and `-`, 1 to 64 characters',
      source: sources.bedrockToolSpec,
    },
  ],
  propertyNames: [],
  validSchema: {
    draft: '2020-12',
    source: sources.bedrockToolInputSchema,
    reason: 'requires `inputSchema.json` to be valid JSON Schema draft 2020-12 for Claude models (whatever its `$schema` declares)',
    rejected: {
      issue: 'acomagu/vscode-as-mcp-server#6',
      error: 'Error processing Bedrock stream: The model returned the following errors: tools.18.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).',
    },
  },
  descriptionNonEmpty: { source: sources.bedrockToolSpec, reason: 'requires a description of at least 1 character when present' },
  descriptionRecommended: { source: sources.bedrockToolSpec, reason: 'passes the description to the model to pick tools' },
  rejectedKeywords: [],
  rootObject: {
    reason: `requires \`inputSchema.json.type\` to be \`"object"\` (${seenInErrors('`ValidationException`')})`,
    ...seen('cognitect-labs/aws-api#272', 'The value at toolConfig.tools.0.toolSpec.inputSchema.json.type must be one of the following: object.'),
  },
  limits: [],
};

const mcp: ProviderProfile = {
  name: 'mcp',
  toolNames: [
    {
      pattern: /^[A-Za-z0-9_.-]{1,128}$/,
      expected: '^[A-Za-z0-9_.-]{1,128}$',
      reason: 'says names SHOULD be 1 to 128 of letters, digits, `_`, `.` and `-`',
      severity: 'warning',
      source: sources.mcpTools,
    },
  ],
  propertyNames: [],
  validSchema: { source: sources.mcpTools, reason: 'requires `inputSchema` to be a valid JSON Schema object' },
  rejectedKeywords: [],
  rootObject: { source: sources.mcpTools, reason: 'requires `inputSchema` to be `{type: "object", ...}`' },
  limits: [],
};

/** Every profile, by name. Data only: lint.ts walks schemas and consults these. */
export const profiles: Readonly<Record<ProviderName, ProviderProfile>> = {
  anthropic,
  'anthropic-strict': anthropicStrict,
  openai,
  'openai-strict': openaiStrict,
  gemini,
  'gemini-json-schema': geminiJsonSchema,
  bedrock,
  mcp,
};
