import { defineRules } from '../report/rule.js';

/** The `handler/` family: the tool schema (what the model is told) against the handler's argument type (what the code demands). */
export const handlerRules = defineRules('handler', {
  'required-not-in-schema': {
    severity: 'error',
    description: 'The handler requires a field the schema does not require, so the model will leave it out and every such call fails.',
  },
  'type-mismatch': {
    severity: 'error',
    description: 'The schema lets the model send a type or enum value the handler type does not accept.',
  },
  'field-ignored': {
    severity: 'warning',
    description: 'The schema offers a field the handler type does not have, so the model spends tokens on a value that goes nowhere.',
  },
  'constraint-not-in-schema': {
    severity: 'warning',
    description: 'The handler type declares a bound, length, pattern or format the schema does not, so the model may send values the handler rejects.',
  },
  'optional-in-handler': {
    severity: 'info',
    description: 'The schema requires a field the handler treats as optional: allowed, and it costs tokens on every call.',
  },
});
