import { defineRules } from '../report/rule.js';

/** Rules of the recorded-calls check: logged tool calls (JSONL) against the current schemas. */
export const recordedRules = defineRules('recorded', {
  invalid: {
    severity: 'error',
    description: 'Recorded tool calls that the current schema rejects: the schema no longer accepts arguments the model has been sending.',
    fix: 'If the calls are still legitimate, loosen the schema (or reject the value in the handler with a clear error); tighten it only once observed calls agree',
  },
  'unknown-tool': {
    severity: 'error',
    description: 'Recorded tool calls that name a tool the current tool set does not have: a removed or renamed tool.',
    fix: 'Rename the calls or the tool, or keep the old name as an alias while such calls can still arrive',
  },
  corrupt: {
    severity: 'warning',
    description: 'A JSONL line that is not JSON or holds no tool call; it is reported and the run goes on.',
    fix: 'Repair the logging that wrote the line, or drop the line',
  },
  'line-too-long': {
    severity: 'warning',
    description: 'A JSONL line longer than the line cap (16 MiB by default); it is reported without being read, and the rest of the file is read as usual.',
    fix: 'Log tool calls without their bulk (truncate large arguments), or raise `maxLineBytes` if such lines are legitimate',
  },
  'unsafe-integer': {
    severity: 'error',
    description: 'Recorded tool calls holding an integer past 2^53 - 1 (9007199254740991), which a JavaScript number cannot hold exactly: `JSON.parse` rounds it, so the call cannot be compared with the schema, and a handler in JavaScript would get another number than the model sent.',
    fix: 'Type the value as a string of digits in the schema (`"type": "string", "pattern": "^-?[0-9]+$"`) and in the handler, as int64 ids usually are',
  },
  'unchecked-schema': {
    severity: 'error',
    description: 'Recorded calls to a tool whose input schema does not compile (not valid JSON Schema): they are counted and listed, not checked; the calls to every other tool are validated as usual.',
    fix: "Make the tool's input schema valid JSON Schema (`prompt-contract lint` points at each wrong keyword); its calls are checked on the next run",
  },
  'unsupported-pattern': {
    severity: 'warning',
    description: 'A `pattern` in a tool schema needs a backtracking regex engine (backreferences, lookaround), so recorded calls are validated without it.',
    fix: 'Rewrite the pattern without backreferences or lookaround, and check the rest in the handler',
  },
});
