import { defineRules } from '../report/rule.js';

/** The `render/` rules: a case's inputs against the prompt's `input.schema`. */
export const caseRules = defineRules('render', {
  'invalid-input': {
    severity: 'error',
    description: "A case's inputs do not fit the prompt's `input.schema`: a required input is missing or has the wrong type, so the snapshot shows a prompt production never renders.",
    fix: "Give the case the input the schema asks for, or change the prompt's `input.schema` if the input really is optional now",
  },
  'invalid-input-schema': {
    severity: 'error',
    description: "The prompt's `input.schema` (or `output.schema`) is not valid Picoschema or JSON Schema, so no case can be checked against it.",
    fix: 'Write each field as `name: type, description` (`name?:` when optional), with `(object)`, `(array)` or `(enum)` for nested fields',
  },
});
