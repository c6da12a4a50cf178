// The public surface. Named exports only; a test pins this list.
export { defineConfig, loadConfig } from './config/index.js';
export type { PromptContractConfig, ResolvedConfig, PersistedSourceConfig, HandlerConfig } from './config/index.js';
export { defineTool } from './tools/define.js';
export type { DefineToolOptions } from './tools/define.js';
export { normalizeTool, normalizeTools, zodToJsonSchema, ToolShapeError } from './tools/normalize.js';
export type { ToolSpec, ToolShape, ToolOrigin, HandlerRef, JsonSchema, JsonSchemaObject } from './tools/types.js';
export { loadPromptModule } from './render/module.js';
export type { PromptModule, PromptDefinition, CaseDefinition } from './render/module.js';
export { renderCase, renderDataItems, listCases } from './render/render.js';
export type { RenderedCase, RenderedItem } from './render/render.js';
export type { SourceMap, SourceLocation } from './render/source-map.js';
export type { Diagnostic, Severity, Summary, Witness } from './report/diagnostic.js';
export type { RuleMeta } from './report/rule.js';
export { InputError } from './util/errors.js';
