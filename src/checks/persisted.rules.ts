import { defineRules } from '../report/rule.js';

/** Rules of the persisted-calls check: `tool_use` blocks stored in conversation databases. */
export const persistedRules = defineRules('persisted', {
  invalid: {
    severity: 'error',
    description: 'Stored tool calls that the current schema rejects: a schema change is a migration on persisted conversations.',
    fix: 'Migrate the stored rows, or keep the schema accepting them until those conversations can no longer be resumed',
  },
  'handler-rejects': {
    severity: 'error',
    description: "Stored tool calls that the handler's own argument type rejects: resuming a conversation replays them into the handler.",
    fix: 'Make the handler accept the stored shape (a default for a new field), or migrate the rows before deploying the handler',
  },
  'unknown-tool': {
    severity: 'error',
    description: 'Stored tool calls that name a tool the current tool set does not have: replaying them finds no handler.',
    fix: 'Keep the old name as an alias until the conversations that use it expire, or migrate the rows',
  },
  corrupt: {
    severity: 'warning',
    description: 'A row whose message is not JSON or holds no message or tool call; it is reported and the run goes on.',
    fix: 'Find out what wrote the row: a corrupt stored message breaks the resume of its conversation too',
  },
  'unchecked-schema': {
    severity: 'error',
    description: 'Stored calls to a tool whose input schema does not compile (not valid JSON Schema): they are counted and listed, not checked; the calls to every other tool are validated as usual.',
    fix: "Make the tool's input schema valid JSON Schema (`prompt-contract lint` points at each wrong keyword); its stored calls are checked on the next run",
  },
  'unsupported-pattern': {
    severity: 'warning',
    description: 'A schema pattern the linear-time regex engine cannot run; stored calls are validated without it.',
    fix: 'Rewrite the pattern without backreferences or lookaround (a character class and a length bound often say the same), or accept the warning',
  },
});
