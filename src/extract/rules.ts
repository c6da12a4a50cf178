import { defineRules } from '../report/rule.js';

/**
 * The `example/*` rules: few-shot tool calls in a prompt, found by the extractor
 * (`unparseable`, `placeholder`, `notation-failed`) and checked against the tools (`invalid-arguments`,
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
  'notation-failed': {
    severity: 'error',
    description: "A custom notation (the config's `notations`) returned what the extractor cannot use: a Promise, a string, a call without a string name, a place outside the text, or places without end; what it found there is not checked.",
    fix: "Fix the notation as the message says: a synchronous `find` yielding `{ start, end }` inside its text, a synchronous `parse` returning `[{ name, arguments }]`, `undefined` or `{ error }`",
  },
  'unread-call': {
    severity: 'warning',
    description: "A known tool's name stands where a call puts it (`lookup_order(`, `<lookup_order>`, `\"name\": \"lookup_order\"` beside arguments, `Action: lookup_order`), but no notation read a call there: whatever it shows is not checked.",
    fix: 'Write the call in a notation the extractor reads, add a custom one (config `notations`), or accept it with a policy `ignore` entry and a reason',
  },
  coverage: {
    severity: 'info',
    description: 'What the extractor read in one rendered case: how many calls, in which notations. `check` and the suites sum these into one line (read N calls in K notations) instead of listing them.',
    fix: 'None needed: it says what was checked, beside `example/unread-call` for what was not',
  },
  'not-json': {
    severity: 'warning',
    description: "A call in a block that promises JSON (a `<tool_call>` tag, a `json` fence) is written as a Python literal (single quotes, a trailing comma, `None`, `True`); it is read and checked, but the model learns to write what is not JSON.",
    fix: 'Write the call as JSON: double quotes, no trailing commas, `null`, `true` and `false`',
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
  'orphan-result': {
    severity: 'error',
    description: 'A tool result in the rendered conversation does not follow a turn that calls the tool (no call before it, or a user turn in between); Anthropic, OpenAI and Gemini reject the request.',
    fix: 'Put the result in the `tool` turn right after the `model` turn that calls the tool, or add that call',
  },
  'unknown-call-id': {
    severity: 'error',
    description: "A tool result names a call id (`ref`, OpenAI's `tool_call_id`, Anthropic's `tool_use_id`) that no call of the turn before it has; the provider cannot pair it and rejects the request.",
    fix: 'Give the result the id of the call it answers',
  },
  'result-name-mismatch': {
    severity: 'error',
    description: 'A tool result answers a call of another tool (the call id pairs them, the names differ): one side of the example was renamed and the other was not.',
    fix: 'Rename the result or the call, whichever is stale, so both name the same tool',
  },
  'missing-result': {
    severity: 'error',
    description: 'A tool call in the conversation has no result before the next user or model turn; Anthropic and OpenAI reject a call left unanswered, and Gemini one answered by too few results.',
    fix: 'Add the result in a `tool` turn right after the call, or drop the call from the example',
  },
  'duplicate-call-id': {
    severity: 'error',
    description: 'Two calls of one turn share a call id, or one call has two results; the provider cannot pair calls with results and rejects the request.',
    fix: 'Give every call of a turn its own id, and every call exactly one result',
  },
});
