/**
 * A JSON Schema object. Schemas reach us from many providers and drafts, so values stay
 * `unknown` and each walker narrows what it reads.
 */
export interface JsonSchemaObject {
  [keyword: string]: unknown;
}
export type JsonSchema = JsonSchemaObject | boolean;

/** The provider shape a tool definition was written in. */
export type ToolShape =
  | 'anthropic'
  | 'openai-chat'
  | 'openai-responses'
  | 'mcp'
  | 'gemini'
  | 'gemini-json-schema'
  | 'bedrock'
  | 'vercel-ai'
  | 'zod'
  | 'plain';

/** Where a tool definition came from, for messages. */
export interface ToolOrigin {
  shape: ToolShape;
  file?: string;
  /** Position of the tool in its file's list. */
  index?: number;
}

/** How to find the handler's own argument type, for the schema-vs-handler check. */
export type HandlerRef =
  | { kind: 'typescript'; file: string; type: string }
  | { kind: 'json-schema'; schema: JsonSchemaObject }
  | { kind: 'zod'; schema: unknown };

/** One tool, whatever shape it was declared in. */
export interface ToolSpec {
  name: string;
  description?: string;
  inputSchema: JsonSchemaObject;
  origin: ToolOrigin;
  /** The provider's strict flag, when the definition carries one. */
  strict?: boolean;
  /** Per-parameter descriptions merged from the description mapping, already inside `inputSchema`. */
  handler?: HandlerRef;
  /** True when the schema was generated from the handler's own type (zod): the schema-vs-handler comparison is a tautology there. */
  generated?: boolean;
}
