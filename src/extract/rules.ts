import { defineRules } from '../report/rule.js';

/**
 * The `example/*` rules: few-shot tool calls in a prompt, found by the extractor
 * (`unparseable`, `placeholder`) and checked against the tools (`invalid-arguments`,
 * `unknown-tool`, `unchecked`).
 */
export const exampleRules = defineRules('example', {
  'invalid-arguments': {
    severity: 'error',
    description: 'A few-shot example passes arguments that the tool schema rejects; the model copies the example, not the schema.',
  },
  'unknown-tool': {
    severity: 'error',
    description: 'A few-shot example calls a tool that is not defined (renamed, removed or misspelt); the model learns to call a tool that does not exist.',
  },
  unparseable: {
    severity: 'error',
    description: 'A block written as a tool call (a call fence or tag, a call-shaped JSON) does not parse, so it cannot be checked and the model sees malformed output as the norm.',
  },
  placeholder: {
    severity: 'warning',
    description: 'A call block holds placeholders (`$FUNCTION_NAME`, `<function-name>`, `...`) or unrendered template variables instead of a concrete call; it is not checked as an example.',
  },
  unchecked: {
    severity: 'warning',
    description: 'An example could not be checked because the schema of the tool it calls does not compile.',
  },
  'unsupported-pattern': {
    severity: 'warning',
    description: 'A `pattern` in the schema of a tool an example calls needs a backtracking regex engine (backreferences, lookaround), so examples are checked without it.',
  },
});
