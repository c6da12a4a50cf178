/**
 * Which tokenizer and which budget a case has (the most specific setting wins: the case's, the
 * prompt's frontmatter, the config's), and the `budget/` findings of its count.
 */
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { Shape } from '../render/wire.js';
import { locateConfigKey } from '../config/index.js';
import type { Diagnostic } from '../report/diagnostic.js';
import { report } from '../report/rule.js';
import type { CaseDefinition, PromptDefinition } from '../render/module.js';
import { InputError } from '../util/errors.js';
import { locate, type YamlDocument } from '../util/yaml.js';
import { defaultTokenizer, isTokenizerSetting, TOKENIZER_EXPECTED, tokenizerOfModel, type CaseTokenizer, type SettingPlace, type TokenCount, type TokenizerName, type TokenizerSetting } from './index.js';
import { budgetRules } from './rules.js';

/** What the budget checks read of the config. */
export interface BudgetConfig {
  file: string;
  root: string;
  tokenizer?: TokenizerSetting | undefined;
  budget?: number | undefined;
  budgetGrowth?: number | undefined;
  providers?: string[] | undefined;
}

/** The share a case may grow by before `budget/grew`, when the config sets none. */
export const DEFAULT_BUDGET_GROWTH = 0.1;

type Level = 'case' | 'prompt' | 'config';

/** A setting as written: its value, where it is written, and at which level. */
interface Written {
  value: unknown;
  from: Level;
  /** The folder a path in it is relative to. */
  base: string;
  at: () => SettingPlace;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function inDoc(doc: YamlDocument | undefined, path: ReadonlyArray<string | number>, file: string): () => SettingPlace {
  return () => (doc ? { file: doc.file, ...locate(doc, path) } : { file });
}

/** The `key` setting of a case, else of its prompt's frontmatter, else of the config: the most specific one written. */
function mostSpecific(key: 'budget' | 'tokenizer', config: BudgetConfig, prompt: PromptDefinition, testCase: CaseDefinition | undefined): Written | undefined {
  const spec = testCase?.doc && isRecord(testCase.doc.value) && isRecord(testCase.doc.value.cases) ? testCase.doc.value.cases[testCase.name] : undefined;
  if (isRecord(spec) && spec[key] !== undefined && spec[key] !== null) {
    return { value: spec[key], from: 'case', base: dirname(testCase!.file), at: inDoc(testCase!.doc, ['cases', testCase!.name, key], testCase!.file) };
  }
  if (prompt.meta[key] !== undefined && prompt.meta[key] !== null) {
    return { value: prompt.meta[key], from: 'prompt', base: dirname(prompt.source.file), at: inDoc(prompt.frontmatter, [key], prompt.source.file) };
  }
  if (config[key] !== undefined) return { value: config[key], from: 'config', base: config.root, at: () => ({ file: config.file, ...locateConfigKey(config.file, [key]) }) };
  return undefined;
}

/** The tokenizer a provider's models count with (an estimate where the provider publishes none). */
const byProvider: Record<Shape, TokenizerName> = { openai: 'o200k_base', anthropic: 'anthropic-estimate', gemini: 'gemini-estimate' };

/** The provider family of a `providers` profile name (`mcp` is none). */
function familyOfProfile(name: string): Shape | undefined {
  if (name.startsWith('anthropic') || name === 'bedrock') return 'anthropic';
  if (name.startsWith('openai')) return 'openai';
  if (name.startsWith('gemini')) return 'gemini';
  return undefined;
}

/**
 * The tokenizer a case counts with, the most specific first: the case's `tokenizer`, the
 * provider its `shape` sends to, the prompt's `tokenizer`, its `model`, its `shape`, the
 * config's `tokenizer`, the config's `providers` when they are all of one family, else
 * o200k_base. A setting that names no tokenizer is an InputError at its line.
 */
export function caseTokenizer(config: BudgetConfig, prompt: PromptDefinition, testCase?: CaseDefinition): CaseTokenizer {
  const written = mostSpecific('tokenizer', config, prompt, testCase);
  const named = (level: Level): CaseTokenizer | undefined => (written?.from === level ? fromSetting(config, written) : undefined);
  const implied = (setting: TokenizerName | undefined, from: CaseTokenizer['from']): CaseTokenizer | undefined => (setting === undefined ? undefined : { setting, name: setting, from });
  const families = new Set((config.providers ?? []).map(familyOfProfile));
  const [family] = families;
  return (
    named('case') ??
    implied(testCase?.shape === undefined ? undefined : byProvider[testCase.shape], 'shape') ??
    named('prompt') ??
    implied(tokenizerOfModel(prompt.meta.model), 'model') ??
    implied(prompt.shape === undefined ? undefined : byProvider[prompt.shape], 'shape') ??
    named('config') ??
    implied(families.size === 1 && family !== undefined ? byProvider[family] : undefined, 'providers') ??
    defaultTokenizer
  );
}

function fromSetting(config: BudgetConfig, written: Written): CaseTokenizer {
  if (!isTokenizerSetting(written.value)) {
    throw new InputError('config/invalid', `Unexpected \`tokenizer\` ${JSON.stringify(written.value)}, expected ${TOKENIZER_EXPECTED}`, written.at());
  }
  const setting = written.value;
  if (typeof setting === 'string') return { setting, name: setting, from: written.from, at: written.at() };
  const file = isAbsolute(setting.tokenizerJson) ? setting.tokenizerJson : resolve(written.base, setting.tokenizerJson);
  const name = relative(config.root, file).split(sep).join('/') || file;
  return { setting, name, file, from: written.from, at: written.at() };
}

/** A case's budget and where it is set, or undefined when none is. */
export interface CaseBudget {
  limit: number;
  from: Level;
  at: SettingPlace;
}

export function caseBudget(config: BudgetConfig, prompt: PromptDefinition, testCase?: CaseDefinition): CaseBudget | undefined {
  const written = mostSpecific('budget', config, prompt, testCase);
  if (written === undefined) return undefined;
  const { value } = written;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new InputError('config/invalid', `Unexpected \`budget\` ${JSON.stringify(value)}, expected a whole number of tokens, at least 1`, written.at());
  }
  return { limit: value, from: written.from, at: written.at() };
}

const levelName: Record<Level, string> = { case: "the case's", prompt: "the prompt's", config: "the config's" };
const n = (x: number): string => x.toLocaleString('en-US');

function described(count: TokenCount): string {
  return `prompt ${n(count.prompt)} + tools ${n(count.tools)}, ${count.tokenizer}`;
}

/** The token count a case is compared with, and what it was read from (for the message). */
export interface TokenBaseline {
  count: TokenCount;
  /** `snapshots/agent/basic.txt`, or `main:snapshots/agent/basic.txt`. */
  from: string;
}

/**
 * The `budget/` findings of one case: over its budget (an error at the prompt, with the
 * budget's line as related), and grown past `budgetGrowth` against its baseline (a warning
 * with both counts). A baseline counted with another tokenizer is not compared.
 */
export function budgetFindings(config: BudgetConfig, prompt: PromptDefinition, testCase: CaseDefinition, count: TokenCount, baseline?: TokenBaseline): Diagnostic[] {
  const out: Diagnostic[] = [];
  const what = `\`${prompt.name}\` case \`${testCase.name}\``;
  const place = { file: prompt.source.file, line: 1, column: 1 };
  const caseAt = { message: 'the case', file: testCase.file, line: testCase.line };
  const budget = caseBudget(config, prompt, testCase);
  if (budget !== undefined && count.total > budget.limit) {
    out.push(report(budgetRules.exceeded, {
      message: `Unexpected ${n(count.total)} tokens in ${what} (${described(count)}), over ${levelName[budget.from]} budget of ${n(budget.limit)}; expected at most ${n(budget.limit)}`,
      ...place,
      expected: budget.limit,
      actual: count.total,
      related: [{ message: `the budget of ${n(budget.limit)} tokens`, file: budget.at.file ?? config.file, ...(budget.at.line === undefined ? {} : { line: budget.at.line }), ...(budget.at.column === undefined ? {} : { column: budget.at.column }) }, caseAt],
    }));
  }
  const growth = config.budgetGrowth ?? DEFAULT_BUDGET_GROWTH;
  const before = baseline?.count;
  if (before !== undefined && before.tokenizer === count.tokenizer && before.total > 0 && count.total > before.total * (1 + growth)) {
    const share = Math.round(((count.total - before.total) / before.total) * 1000) / 10;
    out.push(report(budgetRules.grew, {
      message: `${what} grew from ${n(before.total)} to ${n(count.total)} tokens (+${share}%, ${described(count)}) against ${baseline!.from}, more than the ${Math.round(growth * 1000) / 10}% \`budgetGrowth\` allows; expected at most ${n(Math.floor(before.total * (1 + growth)))}`,
      ...place,
      expected: before.total,
      actual: count.total,
      related: [caseAt, { message: `the baseline count, ${n(before.total)} tokens`, file: baseline!.from }],
    }));
  }
  return out;
}
