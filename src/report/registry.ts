import { caseRules } from '../checks/case-input.rules.js';
import { handlerRules } from '../checks/handler-rules.js';
import { compatRules } from '../checks/compat/rules.js';
import { configRules } from '../config/rules.js';
import { persistedRules } from '../checks/persisted.rules.js';
import { providerRules } from '../checks/provider/rules.js';
import { recordedRules } from '../checks/recorded.rules.js';
import { exampleRules } from '../extract/rules.js';
import { snapshotRules } from '../snapshot/rules.js';
import { descriptionRules } from '../tools/descriptions.js';
import { budgetRules } from '../tokens/rules.js';
import type { RuleMeta } from './rule.js';

/** Every rule prompt-contract reports, by family. A test walks it: each rule has docs and a test. */
export const ruleFamilies: Readonly<Record<string, Readonly<Record<string, RuleMeta>>>> = {
  example: exampleRules,
  handler: handlerRules,
  recorded: recordedRules,
  persisted: persistedRules,
  provider: providerRules,
  compat: compatRules,
  snapshot: snapshotRules,
  config: { ...descriptionRules, ...configRules },
  render: caseRules,
  budget: budgetRules,
};

export const allRules: readonly RuleMeta[] = Object.values(ruleFamilies).flatMap((family) => Object.values(family));

export function ruleById(id: string): RuleMeta | undefined {
  return allRules.find((r) => r.id === id);
}
