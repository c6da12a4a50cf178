import { defineRules } from '../report/rule.js';

/** The `budget/` rules: a case's token count against its budget and against its baseline. */
export const budgetRules = defineRules('budget', {
  exceeded: {
    severity: 'error',
    description: "A case sends more tokens (prompt + tools) than its `budget` allows: the prompt grew past what the team set for it, in cost, latency or the model's context.",
    fix: 'Shorten the prompt, its examples or its tools, or raise the `budget` where it is set',
  },
  grew: {
    severity: 'warning',
    description: 'A case sends a larger share more tokens than its baseline snapshot than `budgetGrowth` allows (10% by default): a change that costs on every request, seen before it is merged.',
    fix: 'Shorten what grew, or accept the growth with a policy `ignore` entry for `budget/grew` that says why (`-u` alone does not accept it)',
  },
});
