/**
 * Few-shot examples as message turns. The template's own messages come from dotprompt's
 * markers (`{{role}}`, `{{history}}`; see `toMessages` in dotprompt.ts); an examples file
 * declared with `turns: true` adds, after the system messages, one user turn, one assistant
 * turn of structured calls, one tool turn of results and the assistant's reply per example.
 */
import type { Message, Part, PartOrigin } from './messages.js';

export function hasMessageMarkers(text: string): boolean {
  return text.includes('<<<dotprompt:');
}

/** A few-shot example as message turns: the user's words, the model's calls, the tools' results, the model's reply. */
export interface FewShotExample<O = PartOrigin> {
  user?: string;
  calls: Array<{ name: string; arguments: unknown; result?: unknown; hasResult: boolean; origin: O; resultOrigin?: O }>;
  reply?: string;
  origin: O;
}

/** The turns of every example, in order; `ref`s are stable per example and call (`ex1_call1`). */
export function fewShotTurns<O>(examples: readonly FewShotExample<O>[], origins: WeakMap<object, O>): Message[] {
  const out: Message[] = [];
  examples.forEach((ex, i) => {
    if (ex.user !== undefined) {
      const part = { text: ex.user };
      origins.set(part, ex.origin);
      out.push({ role: 'user', content: [part], metadata: { purpose: 'example' } });
    }
    const requests: Part[] = ex.calls.map((c, k) => {
      const part = { toolRequest: { name: c.name, input: c.arguments, ref: `ex${i + 1}_call${k + 1}` } };
      origins.set(part, c.origin);
      return part;
    });
    if (requests.length > 0) out.push({ role: 'model', content: requests, metadata: { purpose: 'example' } });
    const responses: Part[] = [];
    ex.calls.forEach((c, k) => {
      if (!c.hasResult) return;
      const part = { toolResponse: { name: c.name, output: c.result, ref: `ex${i + 1}_call${k + 1}` } };
      origins.set(part, c.resultOrigin ?? c.origin);
      responses.push(part);
    });
    if (responses.length > 0) out.push({ role: 'tool', content: responses, metadata: { purpose: 'example' } });
    if (ex.reply !== undefined) {
      const part = { text: ex.reply };
      origins.set(part, ex.origin);
      out.push({ role: 'model', content: [part], metadata: { purpose: 'example' } });
    }
  });
  return out;
}

/** Few-shot turns go after the leading system messages, before the conversation proper. */
export function withFewShot(messages: Message[], turns: readonly Message[]): Message[] {
  if (turns.length === 0) return messages;
  let i = 0;
  while (i < messages.length && messages[i]!.role === 'system') i++;
  return [...messages.slice(0, i), ...turns, ...messages.slice(i)];
}
