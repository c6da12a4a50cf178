import { defineRules } from '../report/rule.js';

export const snapshotRules = defineRules('snapshot', {
  outdated: {
    severity: 'error',
    description: 'A rendered prompt or its tools differ from the committed snapshot: the change has not been reviewed.',
  },
  missing: {
    severity: 'error',
    description: 'A prompt and case have no committed snapshot yet, so no reviewer has seen the text it sends.',
  },
  obsolete: {
    severity: 'warning',
    description: 'A snapshot file belongs to no current prompt and case.',
  },
  'foreign-file': {
    severity: 'warning',
    description: 'A file under the snapshots folder was not written by prompt-contract; it is reported and never overwritten or removed.',
  },
  'interrupted-write': {
    severity: 'warning',
    description: 'A temporary file left by a snapshot write that was interrupted; `-u` removes it.',
  },
});
