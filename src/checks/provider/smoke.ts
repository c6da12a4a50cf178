import type { ToolSpec } from '../../tools/types.js';
import { errorMessage } from '../../util/errors.js';

/**
 * The live smoke test: one request a provider carrying the tool definitions, capped at one
 * output token, so the provider's own schema validation is the judge. Not part of the fast
 * suite; it needs API keys and the network.
 */
export const smokeProviders = ['anthropic', 'openai', 'gemini'] as const;
export type SmokeProvider = (typeof smokeProviders)[number];

export interface SmokeRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export type SmokeResult =
  | { provider: SmokeProvider; status: 'ok'; httpStatus: number; url: string }
  | { provider: SmokeProvider; status: 'skipped'; reason: string };

export type Env = Readonly<Record<string, string | undefined>>;

export interface SmokeOptions {
  /** Where keys, base URLs and models are read; `process.env` by default. */
  env?: Env;
  /** Which providers to try; all three by default (each only when its key is set). */
  providers?: readonly SmokeProvider[];
  models?: Partial<Record<SmokeProvider, string>>;
  fetch?: typeof fetch;
  /** Milliseconds a request may take; 30 s by default. */
  timeout?: number;
}

interface Settings {
  keyEnv: string;
  baseEnv: string;
  modelEnv: string;
  base: string;
  model: string;
}

const settings: Record<SmokeProvider, Settings> = {
  anthropic: {
    keyEnv: 'ANTHROPIC_API_KEY',
    baseEnv: 'ANTHROPIC_BASE_URL',
    modelEnv: 'ANTHROPIC_SMOKE_MODEL',
    base: 'https://api.anthropic.com',
    model: 'claude-haiku-4-5',
  },
  openai: {
    keyEnv: 'OPENAI_API_KEY',
    // As in the official SDKs, the OpenAI base URL includes `/v1`.
    baseEnv: 'OPENAI_BASE_URL',
    modelEnv: 'OPENAI_SMOKE_MODEL',
    base: 'https://api.openai.com/v1',
    model: 'gpt-4.1-mini',
  },
  gemini: {
    keyEnv: 'GEMINI_API_KEY',
    baseEnv: 'GEMINI_BASE_URL',
    modelEnv: 'GEMINI_SMOKE_MODEL',
    base: 'https://generativelanguage.googleapis.com',
    model: 'gemini-2.5-flash-lite',
  },
};

const prompt = 'Reply with one word.';

function withDescription(tool: ToolSpec): { description?: string } {
  return tool.description === undefined ? {} : { description: tool.description };
}

function toolsIn(provider: SmokeProvider, tools: readonly ToolSpec[]): unknown {
  switch (provider) {
    case 'anthropic':
      // Anthropic's own tools go as written; another provider's cannot be sent here.
      return tools.filter((t) => !t.provided || t.origin.shape === 'anthropic').map((t) => t.provided?.definition ?? ({
        name: t.name,
        ...withDescription(t),
        input_schema: t.inputSchema,
        ...(t.strict === undefined ? {} : { strict: t.strict }),
      }));
    case 'openai':
      // Another provider's own tools cannot be sent here.
      return tools.filter((t) => !t.provided).map((t) => ({
        type: 'function',
        function: { name: t.name, ...withDescription(t), parameters: t.inputSchema, ...(t.strict === undefined ? {} : { strict: t.strict }) },
      }));
    case 'gemini':
      // `parametersJsonSchema` takes the JSON Schema as is; `parameters` would need the OpenAPI subset.
      return [{ functionDeclarations: tools.filter((t) => !t.provided).map((t) => ({ name: t.name, ...withDescription(t), parametersJsonSchema: t.inputSchema })) }];
  }
}

/**
 * The one-token request that sends `tools` to `provider`. The API key comes from `env`
 * (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, `GEMINI_API_KEY`); the base URL from
 * `<PROVIDER>_BASE_URL` when set. Throws when the key is missing.
 */
export function buildSmokeRequest(provider: SmokeProvider, tools: readonly ToolSpec[], model?: string, env: Env = process.env): SmokeRequest {
  const s = settings[provider];
  const key = env[s.keyEnv];
  if (!key) throw new Error(`buildSmokeRequest: set ${s.keyEnv} to build a ${provider} request`);
  const base = (env[s.baseEnv] || s.base).replace(/\/+$/, '');
  const chosen = model ?? (env[s.modelEnv] || s.model);
  const json = { 'content-type': 'application/json' };
  // An empty `tools` list is itself rejected by some providers; leave the field out instead.
  const some = tools.length > 0;
  switch (provider) {
    case 'anthropic':
      return {
        url: `${base}/v1/messages`,
        headers: { ...json, 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        body: { model: chosen, max_tokens: 1, messages: [{ role: 'user', content: prompt }], ...(some ? { tools: toolsIn(provider, tools) } : {}) },
      };
    case 'openai':
      return {
        url: `${base}/chat/completions`,
        headers: { ...json, authorization: `Bearer ${key}` },
        body: {
          model: chosen,
          max_completion_tokens: 1,
          messages: [{ role: 'user', content: prompt }],
          ...(some ? { tools: toolsIn(provider, tools) } : {}),
        },
      };
    case 'gemini':
      return {
        url: `${base}/v1beta/models/${encodeURIComponent(chosen)}:generateContent`,
        headers: { ...json, 'x-goog-api-key': key },
        body: {
          contents: [{ role: 'user', parts: [{ text: prompt }] }],
          generationConfig: { maxOutputTokens: 1 },
          ...(some ? { tools: toolsIn(provider, tools) } : {}),
        },
      };
  }
}

function redact(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join('[redacted]');
}

/**
 * Sends the smoke request to every provider in `options.providers` whose key is set and
 * skips the others. Resolves with one result a provider; rejects when any provider answers
 * outside 2xx (or cannot be reached), naming the provider, the status and the response body.
 * The API key never appears in results or errors.
 */
export async function runSmoke(tools: readonly ToolSpec[], options: SmokeOptions = {}): Promise<SmokeResult[]> {
  const env = options.env ?? process.env;
  const send = options.fetch ?? fetch;
  const results: SmokeResult[] = [];
  const failures: string[] = [];
  for (const provider of options.providers ?? smokeProviders) {
    const key = env[settings[provider].keyEnv];
    if (!key) {
      results.push({ provider, status: 'skipped', reason: `${settings[provider].keyEnv} is not set` });
      continue;
    }
    const request = buildSmokeRequest(provider, tools, options.models?.[provider], env);
    try {
      const response = await send(request.url, {
        method: 'POST',
        headers: request.headers,
        body: JSON.stringify(request.body),
        signal: AbortSignal.timeout(options.timeout ?? 30_000),
      });
      const text = await response.text();
      if (response.ok) results.push({ provider, status: 'ok', httpStatus: response.status, url: request.url });
      else failures.push(`${provider}: HTTP ${response.status} from ${request.url}: ${redact(text.slice(0, 4000), key)}`);
    } catch (error) {
      failures.push(`${provider}: request to ${request.url} failed: ${redact(errorMessage(error), key)}`);
    }
  }
  if (failures.length > 0) throw new Error(`Smoke test failed for ${failures.length} provider(s):\n${failures.join('\n')}`);
  return results;
}
