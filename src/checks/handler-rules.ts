import { defineRules } from '../report/rule.js';

/** The `handler/` family: the tool schema (what the model is told) against the handler's argument type (what the code demands). */
export const handlerRules = defineRules('handler', {
  'required-not-in-schema': {
    severity: 'error',
    description: 'The handler requires a field the schema does not require, so the model will leave it out and every such call fails.',
    fix: "Add the field to the schema's `required` (and `properties`), or make it optional in the handler",
  },
  'type-mismatch': {
    severity: 'error',
    description: 'The schema lets the model send a type or enum value the handler type does not accept.',
    fix: "Make the schema's `type` or `enum` what the handler accepts, or widen the handler type",
  },
  'field-ignored': {
    severity: 'warning',
    description: 'The schema offers a field the handler type does not have, so the model spends tokens on a value that goes nowhere.',
    fix: 'Remove the field from the schema, or read it in the handler',
  },
  'constraint-not-in-schema': {
    severity: 'warning',
    description: 'The handler type declares a bound, length, pattern or format the schema does not, so the model may send values the handler rejects.',
    fix: 'Copy the constraint into the schema, or relax the handler type',
  },
  'optional-in-handler': {
    severity: 'info',
    description: 'The schema requires a field the handler treats as optional: allowed, and it costs tokens on every call.',
    fix: 'None needed; make the field optional in the schema if the model may leave it out',
  },
});
