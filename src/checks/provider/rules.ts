import { defineRules } from '../../report/rule.js';

/**
 * The `provider/` family. Default severities are what the rule usually means; each finding
 * takes the severity of the profile fact behind it, and a fact without evidence (neither
 * documented nor a quoted rejected request), or where sources disagree, is a warning.
 */
export const providerRules = defineRules('provider', {
  'invalid-schema': {
    severity: 'error',
    description: "The input schema is not valid JSON Schema (`\"type\": \"dict\"`, `\"properties\": [...]`, a `$ref` to nothing): it does not compile with the Ajv that validation uses, and the provider rejects the tool.",
    fix: 'Write the keyword the way JSON Schema defines it (`"type": "object"`, `properties` as an object from name to schema)',
  },
  'unsupported-keyword': {
    severity: 'error',
    description: 'A schema keyword the provider rejects, or does not list as supported, in this position.',
    fix: 'Move the constraint into the description and check it in the handler, or drop the keyword',
  },
  'root-union': {
    severity: 'error',
    description: 'The input schema is a union (`anyOf`, `oneOf`, `allOf`) at the top level.',
    fix: 'Make the root a plain object and move the variants into one property, or split the tool',
  },
  'object-missing-properties': {
    severity: 'error',
    description: 'The input schema root is an object without `properties`, which the provider rejects even for a tool that takes no arguments.',
    fix: 'Add `"properties": {}` to the root object',
  },
  'missing-type': {
    severity: 'error',
    description: 'A schema that does not say its type (`{}`, or one with only a `description`), where strict mode needs every schema typed.',
    fix: 'Add the `type` of the values it takes, or `anyOf` with one typed branch each',
  },
  'root-not-object': {
    severity: 'error',
    description: 'The input schema root does not declare `type: "object"`.',
    fix: 'Wrap the schema in an object: `{"type": "object", "properties": {...}, "required": [...]}`',
  },
  'name-invalid': {
    severity: 'error',
    description: "The tool name does not match the provider's name pattern or length.",
    fix: "Rename the tool to match the provider's name pattern (letters, digits, `_` and `-`)",
  },
  'property-name-invalid': {
    severity: 'error',
    description: "A property key does not match the provider's parameter-name pattern.",
    fix: "Rename the property to match the provider's pattern, and map it in the handler if the backend needs the old name",
  },
  'limit-exceeded': {
    severity: 'error',
    description: 'A per-request or per-schema size limit of the provider is exceeded.',
    fix: 'Replace long enums with a string checked in the handler, send fewer tools a turn, or split the tool',
  },
  'open-object': {
    severity: 'error',
    description: 'An object schema without `additionalProperties: false` where strict mode requires it.',
    fix: 'Add `"additionalProperties": false` to every object, nested ones included',
  },
  'optional-property': {
    severity: 'error',
    description: 'A property missing from `required` where strict mode requires every property to be listed.',
    fix: 'List every property in `required` and allow `null` in its type to keep it optional',
  },
  'unsupported-format': {
    severity: 'error',
    description: 'A `format` value outside the set the provider accepts.',
    fix: 'Drop `format`, say the format in the description and check it in the handler (or use `pattern`)',
  },
  'pattern-unsupported': {
    severity: 'error',
    description: 'A `pattern` using a regular-expression feature the provider rejects (backreferences, lookaround, `\\b`).',
    fix: 'Rewrite the pattern without the feature, or check it in the handler',
  },
  'enum-invalid': {
    severity: 'error',
    description: 'An `enum` value of a kind the provider rejects (objects, arrays, or non-strings for Gemini).',
    fix: 'Use string enum values and convert them in the handler',
  },
  'type-array': {
    severity: 'error',
    description: 'A `type` given as an array, which the provider cannot represent.',
    fix: 'Use one type with `nullable: true`, or `anyOf` with one type a branch',
  },
  'ref-siblings': {
    severity: 'error',
    description: 'A `$ref` carrying sibling keywords the provider does not allow beside it.',
    fix: 'Move the keyword into the referenced definition, or inline the definition',
  },
  'recursive-schema': {
    severity: 'error',
    description: 'A `$ref` cycle (a schema that contains itself), where the provider rejects recursion.',
    fix: 'Unroll the recursion to a fixed depth, or send the tree as a JSON string parameter',
  },
  'external-ref': {
    severity: 'error',
    description: 'A `$ref` that points outside the schema, where the provider resolves only local references.',
    fix: 'Copy the referenced schema into `$defs` and point `$ref` at it',
  },
  'boolean-schema': {
    severity: 'error',
    description: 'A subschema written as `true` or `false`, where the provider needs schema objects.',
    fix: 'Write a schema object with a concrete type (`{}` accepts anything)',
  },
  'array-missing-items': {
    severity: 'error',
    description: 'An array schema without `items`.',
    fix: 'Add `items` (`{}` if anything goes)',
  },
  'description-empty': {
    severity: 'error',
    description: 'A tool description that is present but empty, where the provider requires at least one character.',
    fix: 'Write one sentence, or leave the field out',
  },
  'missing-description': {
    severity: 'info',
    description: 'A tool without a description: the model chooses tools by their descriptions.',
    fix: 'Say what the tool does, when to use it and when not to',
  },
});

export type ProviderRuleName = keyof typeof providerRules;
