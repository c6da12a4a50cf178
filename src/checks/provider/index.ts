export { lintTools } from './lint.js';
export { formatLintMatrix } from './matrix.js';
export type { ToolSet } from './matrix.js';
export { isProviderName, issueUrl, profiles, providerNames, sources } from './profiles.js';
export type {
  Fact,
  KeywordFact,
  LimitFact,
  Measure,
  NameFact,
  PatternFeature,
  PropertyNameFact,
  ProviderName,
  ProviderProfile,
  Rejection,
  StrictFlag,
  SupportedKeywordsFact,
} from './profiles.js';
export { providerRules } from './rules.js';
export type { ProviderRuleName } from './rules.js';
export { buildSmokeRequest, runSmoke, smokeProviders } from './smoke.js';
export type { SmokeOptions, SmokeProvider, SmokeRequest, SmokeResult } from './smoke.js';
