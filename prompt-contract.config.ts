import { defineConfig } from 'prompt-contract';
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
  providers: ['anthropic', 'openai'],
});
