import { defineRules } from '../report/rule.js';

/** Rules of the persisted-calls check: `tool_use` blocks stored in conversation databases. */
export const persistedRules = defineRules('persisted', {
  invalid: {
    severity: 'error',
    description: 'Stored tool calls that the current schema rejects: a schema change is a migration on persisted conversations.',
  },
  'handler-rejects': {
    severity: 'error',
    description: "Stored tool calls that the handler's own argument type rejects: resuming a conversation replays them into the handler.",
  },
  'unknown-tool': {
    severity: 'error',
    description: 'Stored tool calls that name a tool the current tool set does not have: replaying them finds no handler.',
  },
  corrupt: {
    severity: 'warning',
    description: 'A row whose message is not JSON or holds no message or tool call; it is reported and the run goes on.',
  },
  'unsupported-pattern': {
    severity: 'warning',
    description: 'A schema pattern the linear-time regex engine cannot run; stored calls are validated without it.',
  },
});
