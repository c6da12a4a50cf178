import { defineRules } from '../../report/rule.js';

/**
 * The `provider/` family. Default severities are what the rule usually means; a profile fact
 * that is only observed, or where sources disagree, lowers its finding to a warning.
 */
export const providerRules = defineRules('provider', {
  'unsupported-keyword': {
    severity: 'error',
    description: 'A schema keyword the provider rejects, or does not list as supported, in this position.',
  },
  'root-union': {
    severity: 'error',
    description: 'The input schema is a union (`anyOf`, `oneOf`, `allOf`) at the top level.',
  },
  'root-not-object': {
    severity: 'error',
    description: 'The input schema root does not declare `type: "object"`.',
  },
  'name-invalid': {
    severity: 'error',
    description: "The tool name does not match the provider's name pattern or length.",
  },
  'property-name-invalid': {
    severity: 'error',
    description: "A property key does not match the provider's parameter-name pattern.",
  },
  'limit-exceeded': {
    severity: 'error',
    description: 'A per-request or per-schema size limit of the provider is exceeded.',
  },
  'open-object': {
    severity: 'error',
    description: 'An object schema without `additionalProperties: false` where strict mode requires it.',
  },
  'optional-property': {
    severity: 'error',
    description: 'A property missing from `required` where strict mode requires every property to be listed.',
  },
  'unsupported-format': {
    severity: 'error',
    description: 'A `format` value outside the set the provider accepts.',
  },
  'pattern-unsupported': {
    severity: 'error',
    description: 'A `pattern` using a regular-expression feature the provider rejects (backreferences, lookaround, `\\b`).',
  },
  'enum-invalid': {
    severity: 'error',
    description: 'An `enum` value of a kind the provider rejects (objects, arrays, or non-strings for Gemini).',
  },
  'type-array': {
    severity: 'error',
    description: 'A `type` given as an array, which the provider cannot represent.',
  },
  'ref-siblings': {
    severity: 'error',
    description: 'A `$ref` carrying sibling keywords the provider does not allow beside it.',
  },
  'recursive-schema': {
    severity: 'error',
    description: 'A `$ref` cycle (a schema that contains itself), where the provider rejects recursion.',
  },
  'external-ref': {
    severity: 'error',
    description: 'A `$ref` that points outside the schema, where the provider resolves only local references.',
  },
  'boolean-schema': {
    severity: 'error',
    description: 'A subschema written as `true` or `false`, where the provider needs schema objects.',
  },
  'array-missing-items': {
    severity: 'error',
    description: 'An array schema without `items`.',
  },
  'description-too-long': {
    severity: 'warning',
    description: "A tool description longer than the provider's limit.",
  },
  'description-empty': {
    severity: 'error',
    description: 'A tool description that is present but empty, where the provider requires at least one character.',
  },
  'missing-description': {
    severity: 'info',
    description: 'A tool without a description: the model chooses tools by their descriptions.',
  },
});

export type ProviderRuleName = keyof typeof providerRules;
