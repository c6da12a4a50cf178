/**
 * Live smoke test: sends real tool definitions to each provider whose API key is set, capped
 * at one output token, and expects a 2xx. Not part of `npm test` (the name does not end in
 * `.test.ts`); run with `npm run test:smoke`. Keys: ANTHROPIC_API_KEY, OPENAI_API_KEY,
 * GEMINI_API_KEY; base URLs: <PROVIDER>_BASE_URL; models: <PROVIDER>_SMOKE_MODEL;
 * tools: SMOKE_TOOLS (a TOOLS file; default: the google-maps reference MCP server).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from '@jest/globals';
import { lintTools, runSmoke, smokeProviders, type ProviderName, type SmokeProvider } from '../../src/checks/provider/index.js';
import { normalizeTools } from '../../src/tools/normalize.js';

const file = process.env.SMOKE_TOOLS ?? new URL('../fixtures/acceptance/mcp-servers/schemas/google-maps.json', import.meta.url).pathname;
const tools = normalizeTools(JSON.parse(readFileSync(file, 'utf8')), file);

const keyEnv: Record<SmokeProvider, string> = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY', gemini: 'GEMINI_API_KEY' };
// The profile that predicts each request: Gemini tools are sent as `parametersJsonSchema`.
const profileFor: Record<SmokeProvider, ProviderName> = { anthropic: 'anthropic', openai: 'openai', gemini: 'gemini-json-schema' };

describe(`live smoke: ${tools.length} tools from ${file}`, () => {
  for (const provider of smokeProviders) {
    const hasKey = Boolean(process.env[keyEnv[provider]]);
    if (!hasKey) console.info(`smoke: skipping ${provider}: ${keyEnv[provider]} is not set`);
    (hasKey ? test : test.skip)(`${provider} accepts the tools the \`${profileFor[provider]}\` lint passes`, async () => {
      expect(lintTools(tools, profileFor[provider]).filter((d) => d.severity === 'error')).toEqual([]);
      const [result] = await runSmoke(tools, { providers: [provider] });
      expect(result).toMatchObject({ provider, status: 'ok' });
    }, 60_000);
  }
});
