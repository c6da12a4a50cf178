/**
 * Keywords whose value holds subschemas, by shape: a map of name -> schema, a list of
 * schemas, or one schema (`items` is a list in draft-07 tuples and one schema otherwise).
 * Literal payloads (`enum`, `const`, `default`, `examples`) hold no schema.
 */
export const mapKeywords: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
export const listKeywords: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
export const singleKeywords: ReadonlySet<string> = new Set([
  'additionalProperties', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames',
  'contentSchema', 'not', 'if', 'then', 'else',
]);
