export { diffTools, type DiffOptions } from './diff.js';
export { attachWitnesses, type WitnessOptions } from './witnesses.js';
export { compatRules, type CompatRuleName } from './rules.js';
export {
  applyPolicy, loadPolicy, parsePolicy,
  type ApplyPolicyOptions, type IgnoreEntry, type Policy, type SeverityOverride,
} from './policy.js';
