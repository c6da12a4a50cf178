/**
 * A message list in the shape one provider's API takes, so that a snapshot shows what is
 * sent: Anthropic's `tool_use` / `tool_result` blocks (results in a user turn, system apart),
 * OpenAI's `tool_calls` with JSON-string `arguments` and `role: tool` messages, Gemini's
 * `functionCall` / `functionResponse` parts (system apart, `model` for the assistant).
 */
import { isMedia, isText, isToolRequest, isToolResponse, type Message, type Part } from './messages.js';

export type Shape = 'anthropic' | 'openai' | 'gemini';
export const shapes: readonly Shape[] = ['anthropic', 'openai', 'gemini'];

/** One message as sent, with the message it came from (an index into the list). */
export interface WireMessage {
  role: string;
  /** Blocks in the provider's own JSON; a text block also keeps its verbatim text for display. */
  blocks: Array<{ text: string } | { json: unknown }>;
  from: number;
}

/** The provider a dotprompt `model` name points at (`anthropic/claude-…`, `openai/gpt-…`, `googleai/gemini-…`). */
export function shapeOfModel(model: unknown): Shape | undefined {
  if (typeof model !== 'string') return undefined;
  const prefix = model.split('/')[0]!.toLowerCase();
  if (prefix === 'anthropic' || prefix.startsWith('claude')) return 'anthropic';
  if (prefix === 'openai' || prefix.startsWith('gpt') || prefix === 'azure-openai') return 'openai';
  if (prefix === 'googleai' || prefix === 'vertexai' || prefix === 'google' || prefix.startsWith('gemini')) return 'gemini';
  return undefined;
}

function block(part: Part, shape: Shape): { text: string } | { json: unknown } {
  if (isText(part)) return { text: part.text };
  if (isMedia(part)) {
    if (shape === 'anthropic') return { json: { type: 'image', source: { type: 'url', url: part.media.url } } };
    if (shape === 'openai') return { json: { type: 'image_url', image_url: { url: part.media.url } } };
    return { json: { fileData: { fileUri: part.media.url, ...(part.media.contentType ? { mimeType: part.media.contentType } : {}) } } };
  }
  if (isToolRequest(part)) {
    const { name, input, ref } = part.toolRequest;
    if (shape === 'anthropic') return { json: { type: 'tool_use', id: ref ?? '', name, input } };
    if (shape === 'openai') return { json: { id: ref ?? '', type: 'function', function: { name, arguments: JSON.stringify(input) } } };
    return { json: { functionCall: { name, args: input } } };
  }
  // A section marker (dotprompt's pending part) is not sent; show it as written.
  if (!isToolResponse(part)) return { json: part };
  const { name, output, ref } = part.toolResponse;
  if (shape === 'anthropic') return { json: { type: 'tool_result', tool_use_id: ref ?? '', content: typeof output === 'string' ? output : JSON.stringify(output) } };
  if (shape === 'openai') return { json: { content: typeof output === 'string' ? output : JSON.stringify(output) } };
  return { json: { functionResponse: { name, response: typeof output === 'object' && output !== null && !Array.isArray(output) ? output : { result: output } } } };
}

/** The messages as `shape` sends them, one wire message per message (OpenAI: one `tool` message per result). */
export function toWire(messages: readonly Message[], shape: Shape): WireMessage[] {
  const out: WireMessage[] = [];
  messages.forEach((m, from) => {
    if (shape === 'openai' && m.role === 'tool') {
      for (const p of m.content) {
        if (!isToolResponse(p)) continue;
        out.push({ role: `tool (tool_call_id ${p.toolResponse.ref ?? '?'})`, blocks: [block(p, shape)], from });
      }
      return;
    }
    const role =
      m.role === 'system' ? 'system'
      : m.role === 'model' ? (shape === 'gemini' ? 'model' : 'assistant')
      : m.role === 'tool' ? (shape === 'anthropic' || shape === 'gemini' ? 'user' : 'tool')
      : 'user';
    const requests = shape === 'openai' ? m.content.filter(isToolRequest) : [];
    const blocks = m.content.filter((p) => !(shape === 'openai' && isToolRequest(p))).map((p) => block(p, shape));
    if (requests.length > 0) blocks.push({ json: { tool_calls: requests.map((p) => (block(p, shape) as { json: unknown }).json) } });
    out.push({ role, blocks, from });
  });
  return out;
}
