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
  /** JSON Pointer, in the file, of the tool's `description` string (tools read from JSON). */
  descriptionPointer?: string;
  /**
   * Where the lines of the tool's wording are written, for a finding inside that text: `''`
   * for the tool's description, a schema pointer (`/properties/path`) for a parameter's.
   */
  texts?: Map<string, TextPlaces>;
}

/** Where one description is written, line by line. */
export interface TextPlaces {
  file: string;
  /** Where the text as a whole is written (its key, or its string). */
  at: LineColumn;
  /** The place of a line of the text (by 0-based line index), for the lines found in the file. */
  lines?: Map<number, LineColumn>;
}

/**
 * An example input written on the tool definition itself: Anthropic's `input_examples` (an
 * array of inputs) or the Vercel AI SDK's `inputExamples` (an array of `{input}`). The
 * provider sends it to the model beside the schema, so it teaches as a few-shot example does.
 */
export interface ToolInputExample {
  /** The member it is written in. */
  key: 'input_examples' | 'inputExamples';
  index: number;
  /** The input; absent when the entry is not one (see `problem`). */
  input?: unknown;
  /** What is wrong with the entry's shape, when it cannot be read as an input. */
  problem?: string;
  /** JSON Pointer of the input in its JSON tools file (relative to the tool's entry until placed). */
  pointer?: string;
  /** Where the input is written in the tool's file, when known. */
  line?: number;
  column?: number;
  /** Position in the file of each node of the input, by JSON Pointer into the input (tools read from JSON). */
  places?: Map<string, LineColumn>;
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
  /** Example inputs written on the definition (`input_examples`, `inputExamples`), sent with it. */
  inputExamples?: ToolInputExample[];
}
