import type { Severity } from '../../report/diagnostic.js';

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
  anthropicTransform:
    'https://github.com/anthropics/anthropic-sdk-typescript/blob/main/src/lib/transform-json-schema.ts',
  openaiFunctionDefinition:
    'https://github.com/openai/openai-python/blob/main/src/openai/types/shared_params/function_definition.py',
  openaiFunctionCalling: 'https://platform.openai.com/docs/guides/function-calling',
  openaiStructuredOutputs: 'https://platform.openai.com/docs/guides/structured-outputs#supported-schemas',
  openaiTransform: 'https://github.com/openai/openai-node/blob/master/src/lib/transform.ts',
  geminiTypes: 'https://github.com/googleapis/js-genai/blob/main/src/types.ts',
  mcpTools: 'https://modelcontextprotocol.io/specification/2026-07-28/server/tools',
  bedrockToolSpec: 'https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html',
} as const;

/**
 * One provider fact. `reason` completes "for `<provider>`, which ..." in messages; a fact that
 * is only observed or disputed carries `severity: 'warning'` and says so in its reason.
 */
export interface Fact {
  source: string;
  reason: string;
  severity?: Severity;
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

export interface ProviderProfile {
  name: ProviderName;
  toolNames: readonly NameFact[];
  propertyNames: readonly PropertyNameFact[];
  descriptionMaxLength?: Fact & { max: number };
  descriptionNonEmpty?: Fact;
  descriptionRecommended?: Fact;
  /** An allow-list: any other keyword is reported, at the fact's severity. */
  supportedKeywords?: SupportedKeywordsFact;
  rejectedKeywords: readonly KeywordFact[];
  rootObject?: Fact;
  rootUnion?: Fact;
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
  arrayItems?: Fact;
  limits: readonly LimitFact[];
}

const observed = 'observed in API errors; the docs do not say';

const describeTools: Fact = {
  source: sources.anthropicDefineTools,
  reason: 'picks tools by their descriptions',
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
      reason: `rejects other top-level property keys (${observed})`,
      severity: 'warning',
      source: sources.anthropicDefineTools,
    },
  ],
  descriptionRecommended: describeTools,
  rejectedKeywords: [],
  rootObject: { source: sources.anthropicDefineTools, reason: 'requires `input_schema.type` to be `"object"`' },
  rootUnion: {
    source: sources.anthropicDefineTools,
    reason: `rejects \`oneOf\`, \`anyOf\` and \`allOf\` at the top level (${observed})`,
    severity: 'warning',
  },
  limits: [],
};

const numericFix = 'move the bound into the description and check it in the handler';

const anthropicStrict: ProviderProfile = {
  ...anthropic,
  name: 'anthropic-strict',
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

const openai: ProviderProfile = {
  name: 'openai',
  toolNames: [
    {
      pattern: /^[a-zA-Z0-9_-]{1,64}$/,
      expected: '^[a-zA-Z0-9_-]{1,64}$',
      reason: 'accepts only letters, digits, `_` and `-`, 1 to 64 characters',
      source: sources.openaiFunctionDefinition,
    },
  ],
  propertyNames: [],
  descriptionMaxLength: {
    max: 1024,
    reason: `accepts descriptions of at most 1024 characters (${observed})`,
    severity: 'warning',
    source: sources.openaiFunctionCalling,
  },
  descriptionRecommended: { source: sources.openaiFunctionCalling, reason: 'picks tools by their descriptions' },
  rejectedKeywords: [],
  arrayItems: {
    source: sources.openaiFunctionCalling,
    reason: `rejects array schemas without \`items\`, strict or not (${observed})`,
    severity: 'warning',
  },
  limits: [],
};

const strictFix = 'rewrite it with `anyOf` or move the rule into the description';

const openaiStrict: ProviderProfile = {
  ...openai,
  name: 'openai-strict',
  rejectedKeywords: [
    {
      keywords: ['allOf', 'not', 'dependentRequired', 'dependentSchemas', 'if', 'then', 'else'],
      reason: 'does not permit it in strict mode',
      fix: strictFix,
      source: sources.openaiStructuredOutputs,
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
      reason: `rejects \`default\` in strict mode (${observed})`,
      fix: 'state the default in the description and apply it in the handler',
      severity: 'warning',
      source: sources.openaiStructuredOutputs,
    },
  ],
  rootObject: { source: sources.openaiStructuredOutputs, reason: 'requires the root to be an object in strict mode' },
  rootUnion: { source: sources.openaiStructuredOutputs, reason: 'rejects a root `anyOf` in strict mode' },
  closedObjects: {
    source: sources.openaiStructuredOutputs,
    reason: 'requires `additionalProperties: false` on every object in strict mode',
  },
  allRequired: {
    source: sources.openaiStructuredOutputs,
    reason: 'requires every property in `required` in strict mode',
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
  arrayItems: {
    source: sources.openaiTransform,
    reason: "rejects array schemas without `items` (the SDK's strict transform refuses them)",
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
  },
  rejectedKeywords: [],
  enumValues: { allowed: 'string', reason: 'accepts only string `enum` values in `parameters`', source: sources.geminiTypes },
  typeArrays: {
    source: sources.geminiTypes,
    reason: 'cannot take a list in `type` ("Proto field is not repeating")',
  },
  limits: geminiLimits,
};

const geminiJsonSchema: ProviderProfile = {
  name: 'gemini-json-schema',
  toolNames: geminiToolNames,
  propertyNames: geminiPropertyNames,
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
  descriptionNonEmpty: { source: sources.bedrockToolSpec, reason: 'requires a description of at least 1 character when present' },
  descriptionRecommended: { source: sources.bedrockToolSpec, reason: 'passes the description to the model to pick tools' },
  rejectedKeywords: [],
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
