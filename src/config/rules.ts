import { defineRules } from '../report/rule.js';

/** Findings about the config file itself; what stops a run there is an InputError (`config/invalid`). */
export const configRules = defineRules('config', {
  'unknown-key': {
    severity: 'error',
    description: 'The config sets a key prompt-contract does not know, usually a misspelling: the key is ignored, so what it meant to set is not set.',
    fix: 'Rename the key to the one it means (the message suggests it), or delete it',
  },
});
