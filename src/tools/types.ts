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

/** A 1-based line and column. */
export type LineColumn = [line: number, column: number];

/** Where a tool definition came from, for messages and for the place a finding points at. */
export interface ToolOrigin {
  shape: ToolShape;
  /** The file that defines the tool: its JSON tools file, or the module where its `name` is written. */
  file?: string;
  /** Position of the tool in its file's list. */
  index?: number;
  /** JSON Pointer of the tool's entry in its JSON file (`/tools/2`). */
  pointer?: string;
  /** JSON Pointer, in the file, of the tool's name (its `name` member, or its key in a record of tools). */
  namePointer?: string;
  /** JSON Pointer, in the file, of the tool's input schema (`/tools/2/input_schema`). */
  schemaPointer?: string;
  /** Where the tool is defined in `file` (the line of its name), when known. */
  line?: number;
  column?: number;
  /** Position in `file` of each node of the input schema, by JSON Pointer into the schema (tools read from JSON). */
  schemaPlaces?: Map<string, LineColumn>;
  /** The tool's entry in the description mapping, when it has one. */
  descriptions?: DescriptionPlaces;
}

/** Where a tool's wording lives in the description mapping (descriptions.yaml). */
export interface DescriptionPlaces {
  file: string;
  /** The tool's entry (its key). */
  entry: LineColumn;
  /** The `description` key, when the entry has one (or the entry itself when it is a plain string). */
  description?: LineColumn;
  /** Each parameter's description, by its dotted name (`address.postal_code`). */
  parameters?: Map<string, LineColumn>;
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
  /**
   * A tool the provider defines (Anthropic's `{type: "bash_20250124", name: "bash"}`, an OpenAI
   * custom tool): its `type`, and the definition as written. It has no schema of its own
   * (`inputSchema` is `{}`): calls to it are known, and not checked.
   */
  provided?: { type: string; definition: Record<string, unknown> };
}
