// The public surface. Named exports only; test/exports.test.ts pins this list.
export { defineConfig, loadConfig } from './config/index.js';
export type { PromptContractConfig, ResolvedConfig, PersistedSourceConfig, HandlerConfig } from './config/index.js';
export { loadProject, readToolsFile } from './project.js';
export type { Project } from './project.js';

export { defineTool } from './tools/define.js';
export type { DefineToolOptions } from './tools/define.js';
export { normalizeTool, normalizeTools, zodToJsonSchema, ToolShapeError } from './tools/normalize.js';
export type { ToolSpec, ToolShape, ToolOrigin, HandlerRef, JsonSchema, JsonSchemaObject } from './tools/types.js';

export { loadPromptModule } from './render/module.js';
export type { PromptModule, PromptDefinition, CaseDefinition } from './render/module.js';
export { renderCase, renderAnyCase, renderDataItems, listCases } from './render/render.js';
export { definePrompt } from './render/code.js';
export { aiSdkAgent, aiSdkCall, openAiAgent, langChainPrompt, mastraAgent } from './adapters/index.js';
export type { AgentSource, CaseMessages, AiSdkAgentLike, OpenAiAgentLike, LangChainPromptLike, LangChainTools, MastraAgentLike } from './adapters/index.js';
export type { CodePrompt, PromptContext, PromptModuleOptions, PromptOutput, PromptTools, SentTool } from './render/code.js';
export type { RenderedCase, RenderedItem } from './render/render.js';
export { renderDotprompt } from './render/dotprompt.js';
export type { DotpromptData, DotpromptMessage, DotpromptMetadata, DotpromptOptions, RenderedDotprompt } from './render/dotprompt.js';
export type { Message, Part, Role } from './render/messages.js';
export type { SourceMap, SourceLocation } from './render/source-map.js';
export { formatSnapshot } from './snapshot/format.js';
export { countRenderedCase, formatTokenLine, parseSnapshotTokens } from './tokens/index.js';
export type { TokenCount, TokenizerSetting } from './tokens/index.js';

export { defineNotation, extractToolCalls } from './extract/index.js';
export { preloadMarkdown } from './extract/markdown.js';
export type { ExtractOptions, ExtractResult, ToolCallExample, Notation, NotationContext, NotationDefinition, NotationMatch, ParsedCall, ParseFailure, ParseResult } from './extract/index.js';
export { checkExamples } from './checks/examples.js';
export { checkRenderedExamples } from './checks/rendered.js';
export { checkHandler, checkHandlers } from './checks/handler.js';
export { resolveHandlerSchema } from './handlers/resolve.js';
export { checkRecorded } from './checks/recorded.js';
export { checkPersisted } from './checks/persisted.js';
export { readRecordedCalls } from './sources/jsonl.js';
export { readPersistedCalls } from './sources/persisted.js';
export type { PersistedSource } from './sources/persisted.js';
export type { RecordedCall, RecordedItem, CorruptRecord } from './sources/types.js';
export { diffTools, attachWitnesses, applyPolicy, loadPolicy } from './checks/compat/index.js';
export type { Policy, IgnoreEntry } from './checks/compat/index.js';
export { lintTools, providerNames } from './checks/provider/index.js';
export type { ProviderName } from './checks/provider/index.js';
export { runCheck } from './checks/run.js';

export { allRules, ruleById } from './report/registry.js';
export { format, toJsonReport } from './report/format.js';
export type { FormatName } from './report/format.js';
export type { Diagnostic, Severity, Summary, Witness } from './report/diagnostic.js';
export type { RuleMeta } from './report/rule.js';
export { InputError } from './util/errors.js';
