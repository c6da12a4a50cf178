import { defineConfig } from 'prompt-contract';
import { demoConversationStore } from './prompts/observed/store.js';
import { tools } from './prompts/tools/index.js';

export default defineConfig({
  prompts: 'prompts',
  tools,
  descriptions: 'prompts/tools/descriptions.yaml',
  handlers: {
    // The one hand-written schema; every other tool is generated from its zod type.
    lookup_order: 'prompts/handlers/lookup-order.ts#LookupOrderArgs',
  },
  snapshots: 'snapshots',
  // Tool calls seen in production logs (identifiers scrubbed).
  recorded: ['prompts/observed/recorded_calls.jsonl'],
  // Stored conversations are replayed into the handlers when a conversation resumes.
  persisted: [
    {
      name: 'support-conversations',
      sqlite: demoConversationStore(),
      query: "SELECT id, message FROM messages WHERE role = 'assistant' ORDER BY random() LIMIT 500",
    },
  ],
  providers: ['anthropic', 'openai'],
});
