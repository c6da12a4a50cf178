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
    fix: 'Update the example (or the YAML file it is rendered from) to arguments the schema accepts now',
  },
  'unknown-tool': {
    severity: 'error',
    description: 'A few-shot example calls a tool that is not defined (renamed, removed or misspelt); the model learns to call a tool that does not exist.',
    fix: 'Call the tool by its current name with its current arguments',
  },
  unparseable: {
    severity: 'error',
    description: 'A block written as a tool call (a call fence or tag, a call-shaped JSON) does not parse, so it cannot be checked and the model sees malformed output as the norm.',
    fix: "Write the call in the notation's own syntax and close its tag or fence; a block not meant as a call goes in a fence of its language (`python`, `js`)",
  },
  placeholder: {
    severity: 'warning',
    description: 'A call block holds placeholders (`$FUNCTION_NAME`, `<function-name>`, `...`) or unrendered template variables instead of a concrete call; it is not checked as an example.',
    fix: 'Follow a format description with at least one concrete example; for unrendered `{{...}}` text, give the case the variable or fix its name in the template',
  },
  unchecked: {
    severity: 'warning',
    description: 'An example could not be checked because the schema of the tool it calls does not compile.',
    fix: "Make the tool's schema valid JSON Schema; its examples are checked on the next run",
  },
  'unsupported-pattern': {
    severity: 'warning',
    description: 'A `pattern` in the schema of a tool an example calls needs a backtracking regex engine (backreferences, lookaround), so examples are checked without it.',
    fix: 'Rewrite the pattern without backreferences or lookaround (check the rest in the handler), or accept that examples are not held to it',
  },
});
