import { defineRules } from '../../report/rule.js';

/**
 * The breaking-change rules. Direction: the model writes the call and the handler reads it,
 * so a change is breaking when some call that the old schema accepted is rejected by the new
 * one. Descriptions say what is rejected; docs/rules/compat.md says how to ship safely.
 */
export const compatRules = defineRules('compat', {
  'tool-removed': { severity: 'error', description: 'A tool was removed: calls naming it, from examples, replayed conversations or the model\'s habit, now fail.' },
  'tool-renamed': { severity: 'error', description: 'A tool was removed and another with the same schema added: calls still naming the old tool now fail.' },
  'type-narrowed': { severity: 'error', description: 'The `type` accepts fewer kinds of value than before (number to integer, [string, null] to string, a type where there was none).' },
  'enum-narrowed': { severity: 'error', description: 'Values were removed from an `enum`.' },
  'enum-added': { severity: 'error', description: 'An `enum` now restricts a value that was free before.' },
  'const-added': { severity: 'error', description: 'A `const` now pins a value that was free before.' },
  'const-changed': { severity: 'error', description: 'A `const` (or an enum of one) changed to a value that excludes old values.' },
  'maximum-decreased': { severity: 'error', description: 'The `maximum` is lower than the old upper bound.' },
  'maximum-added': { severity: 'error', description: 'A `maximum` was added where numbers had no upper bound.' },
  'exclusive-maximum-decreased': { severity: 'error', description: 'The `exclusiveMaximum` excludes values the old upper bound allowed (including a bound that became exclusive).' },
  'exclusive-maximum-added': { severity: 'error', description: 'An `exclusiveMaximum` was added where numbers had no upper bound.' },
  'minimum-increased': { severity: 'error', description: 'The `minimum` is higher than the old lower bound.' },
  'minimum-added': { severity: 'error', description: 'A `minimum` was added where numbers had no lower bound.' },
  'exclusive-minimum-increased': { severity: 'error', description: 'The `exclusiveMinimum` excludes values the old lower bound allowed (including a bound that became exclusive).' },
  'exclusive-minimum-added': { severity: 'error', description: 'An `exclusiveMinimum` was added where numbers had no lower bound.' },
  'multiple-of-added': { severity: 'error', description: 'A `multipleOf` was added to a number that had none.' },
  'multiple-of-changed': { severity: 'error', description: 'The `multipleOf` changed to a value the old one is not a multiple of.' },
  'min-length-increased': { severity: 'error', description: 'The `minLength` is higher than before.' },
  'min-length-added': { severity: 'error', description: 'A `minLength` was added to a string that had none.' },
  'max-length-decreased': { severity: 'error', description: 'The `maxLength` is lower than before.' },
  'max-length-added': { severity: 'error', description: 'A `maxLength` was added to a string that had none.' },
  'pattern-added': { severity: 'error', description: 'A `pattern` was added to a string that had none.' },
  'pattern-changed': { severity: 'error', description: 'The `pattern` changed and the new one is not a plain widening of the old one.' },
  'format-added': { severity: 'warning', description: 'A `format` was added; validators that assert formats reject strings that were valid.' },
  'format-changed': { severity: 'warning', description: 'The `format` changed; validators that assert formats may reject strings that were valid.' },
  'min-items-increased': { severity: 'error', description: 'The `minItems` is higher than before.' },
  'min-items-added': { severity: 'error', description: 'A `minItems` was added to an array that had none.' },
  'max-items-decreased': { severity: 'error', description: 'The `maxItems` is lower than before.' },
  'max-items-added': { severity: 'error', description: 'A `maxItems` was added to an array that had none.' },
  'unique-items-added': { severity: 'error', description: '`uniqueItems` was switched on: arrays with repeated items are rejected.' },
  'items-closed': { severity: 'error', description: 'Array positions that were accepted are now forbidden (`items: false`, a closed tuple).' },
  'required-added': { severity: 'error', description: 'A property became required: every call that left it out, including all calls written before the change, is rejected.' },
  'property-removed': { severity: 'error', description: 'A property was removed from an object that rejects unknown properties: calls that send it are rejected.' },
  'property-ignored': { severity: 'warning', description: 'A property was removed from an object that still accepts unknown properties: calls validate, but the handler no longer reads what the model sends.' },
  'additional-properties-closed': { severity: 'error', description: 'An object that accepted unknown properties now rejects them (`additionalProperties: false`).' },
  'min-properties-increased': { severity: 'error', description: 'The `minProperties` is higher than before.' },
  'min-properties-added': { severity: 'error', description: 'A `minProperties` was added to an object that had none.' },
  'max-properties-decreased': { severity: 'error', description: 'The `maxProperties` is lower than before.' },
  'max-properties-added': { severity: 'error', description: 'A `maxProperties` was added to an object that had none.' },
  'variant-removed': { severity: 'error', description: 'No branch of the new `anyOf`/`oneOf` accepts the values an old branch accepted.' },
  'constraint-added': { severity: 'error', description: 'An assertion keyword the checker does not model in detail (`not`, `contains`, `propertyNames`, `if`, `dependentRequired`, ...) was added.' },
  'constraint-changed': { severity: 'warning', description: 'An assertion keyword the checker does not model in detail changed; it may reject values that were valid.' },
  'unused-ignore': { severity: 'info', description: 'An ignore entry of the policy file matched no finding: the change it excused is gone, or the entry has a typo.' },
});

export type CompatRuleName = keyof typeof compatRules;
