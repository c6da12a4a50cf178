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
  'no-case': {
    severity: 'warning',
    description: 'A `.prompt` file that no cases file names, or whose cases file holds no case: it is never rendered, so its snapshot, its inputs and the tool calls written in it are never checked.',
    fix: 'Add a case for the prompt in a cases file (`prompt: <name>` and `cases:` with at least one named input), or delete the prompt if nothing sends it',
  },
});
