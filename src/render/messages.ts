/**
 * A prompt rendered as a list of messages, in dotprompt's (and Genkit's) shape: each message
 * has a role and a list of parts. Text parts are what the template wrote; tool requests and
 * tool responses are few-shot turns built from YAML; media parts come from `{{media}}`.
 * A provider's wire shape (Anthropic `tool_use`, OpenAI `tool_calls`, Gemini `functionCall`)
 * is made from this list when a snapshot shows what is sent.
 */

/** dotprompt's roles: `model` is the assistant; `tool` carries tool responses. */
export type Role = 'system' | 'user' | 'model' | 'tool';

export interface TextPart {
  text: string;
  metadata?: Record<string, unknown>;
}

export interface MediaPart {
  media: { url: string; contentType?: string };
  metadata?: Record<string, unknown>;
}

/** A structured tool call in an assistant (`model`) turn. `ref` pairs it with its response. */
export interface ToolRequestPart {
  toolRequest: { name: string; input: unknown; ref?: string };
  metadata?: Record<string, unknown>;
}

/** The result of a tool call, in a `tool` turn; `ref` names the request it answers. */
export interface ToolResponsePart {
  toolResponse: { name: string; output: unknown; ref?: string };
  metadata?: Record<string, unknown>;
}

export type Part = TextPart | MediaPart | ToolRequestPart | ToolResponsePart;

export interface Message {
  role: Role;
  content: Part[];
  metadata?: Record<string, unknown>;
}

/** Where a part was written: the YAML node a few-shot turn came from, or the template line. */
export interface PartOrigin {
  file: string;
  line: number;
  column?: number;
}

export const isText = (p: Part): p is TextPart => 'text' in p;
export const isToolRequest = (p: Part): p is ToolRequestPart => 'toolRequest' in p;
export const isToolResponse = (p: Part): p is ToolResponsePart => 'toolResponse' in p;
export const isMedia = (p: Part): p is MediaPart => 'media' in p;
