import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { buildSmokeRequest, runSmoke, smokeProviders } from '../../src/checks/provider/index.js';
import type { ToolSpec } from '../../src/tools/types.js';

// A fake provider on 127.0.0.1: records each request and answers with the queued status.
interface Recorded {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: unknown;
}
const recorded: Recorded[] = [];
let reply = { status: 200, body: '{"ok":true}' };
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      recorded.push({ method: req.method, url: req.url, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));
afterEach(() => {
  recorded.length = 0;
  reply = { status: 200, body: '{"ok":true}' };
  jest.restoreAllMocks();
});

const key = 'sk-test-not-a-real-key-1234';
const tools: ToolSpec[] = [
  {
    name: 'get_weather',
    description: 'Current weather',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    origin: { shape: 'plain' },
  },
  { name: 'get_time', inputSchema: { type: 'object', properties: {} }, origin: { shape: 'plain' }, strict: true },
];

const envFor = (provider: string) => ({ [`${provider.toUpperCase()}_API_KEY`]: key, [`${provider.toUpperCase()}_BASE_URL`]: base });

function watchConsole() {
  return (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => jest.spyOn(console, m).mockImplementation(() => undefined));
}
function expectKeyNeverLogged(spies: ReturnType<typeof watchConsole>) {
  for (const spy of spies) for (const call of spy.mock.calls) expect(JSON.stringify(call)).not.toContain(key);
}

describe('runSmoke against a local fake provider', () => {
  test('anthropic: POST /v1/messages, x-api-key, max_tokens 1, tools in input_schema shape', async () => {
    const spies = watchConsole();
    const results = await runSmoke(tools, { env: envFor('anthropic'), providers: ['anthropic'] });
    expect(results).toEqual([{ provider: 'anthropic', status: 'ok', httpStatus: 200, url: `${base}/v1/messages` }]);
    expect(recorded).toHaveLength(1);
    const [r] = recorded as [Recorded];
    expect(r.method).toBe('POST');
    expect(r.url).toBe('/v1/messages');
    expect(r.headers['x-api-key']).toBe(key);
    expect(r.headers['anthropic-version']).toBe('2023-06-01');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.body).toMatchObject({ max_tokens: 1, messages: [{ role: 'user' }] });
    const sent = (r.body as { tools: unknown[] }).tools;
    expect(sent).toHaveLength(2);
    expect(sent).toEqual([
      { name: 'get_weather', description: 'Current weather', input_schema: tools[0]?.inputSchema },
      { name: 'get_time', input_schema: tools[1]?.inputSchema, strict: true },
    ]);
    expect(JSON.stringify(results)).not.toContain(key);
    expectKeyNeverLogged(spies);
  });

  test('openai: POST /chat/completions under the base URL, bearer token, function tools', async () => {
    await runSmoke(tools, { env: { ...envFor('openai'), OPENAI_BASE_URL: `${base}/v1/` }, providers: ['openai'], models: { openai: 'test-model' } });
    const [r] = recorded as [Recorded];
    expect(r.method).toBe('POST');
    expect(r.url).toBe('/v1/chat/completions');
    expect(r.headers.authorization).toBe(`Bearer ${key}`);
    expect(r.body).toMatchObject({ model: 'test-model', max_completion_tokens: 1 });
    const sent = (r.body as { tools: unknown[] }).tools;
    expect(sent).toHaveLength(2);
    expect(sent[0]).toEqual({ type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters: tools[0]?.inputSchema } });
    expect(sent[1]).toEqual({ type: 'function', function: { name: 'get_time', parameters: tools[1]?.inputSchema, strict: true } });
  });

  test('gemini: POST generateContent, x-goog-api-key, one functionDeclarations group, maxOutputTokens 1', async () => {
    await runSmoke(tools, { env: { ...envFor('gemini'), GEMINI_SMOKE_MODEL: 'test-model' }, providers: ['gemini'] });
    const [r] = recorded as [Recorded];
    expect(r.url).toBe('/v1beta/models/test-model:generateContent');
    expect(r.headers['x-goog-api-key']).toBe(key);
    expect(r.url).not.toContain(key);
    const body = r.body as { tools: Array<{ functionDeclarations: unknown[] }>; generationConfig: unknown };
    expect(body.generationConfig).toEqual({ maxOutputTokens: 1 });
    expect(body.tools).toHaveLength(1);
    expect(body.tools[0]?.functionDeclarations).toEqual([
      { name: 'get_weather', description: 'Current weather', parametersJsonSchema: tools[0]?.inputSchema },
      { name: 'get_time', parametersJsonSchema: tools[1]?.inputSchema },
    ]);
  });

  test('a non-2xx answer fails with provider, status and body, and the key redacted', async () => {
    const spies = watchConsole();
    reply = { status: 400, body: `{"error":{"message":"tools.0.custom.name: String should match pattern","echo":"${key}"}}` };
    const run = runSmoke(tools, { env: envFor('anthropic'), providers: ['anthropic'] });
    await expect(run).rejects.toThrow(/anthropic: HTTP 400 from http:\/\/127\.0\.0\.1:\d+\/v1\/messages: .*String should match pattern/);
    const message = await run.catch((e: Error) => e.message);
    expect(message).not.toContain(key);
    expect(message).toContain('[redacted]');
    expectKeyNeverLogged(spies);
  });

  test('a provider without a key is skipped and sent nothing', async () => {
    const results = await runSmoke(tools, { env: envFor('openai') });
    expect(results).toEqual([
      { provider: 'anthropic', status: 'skipped', reason: 'ANTHROPIC_API_KEY is not set' },
      { provider: 'openai', status: 'ok', httpStatus: 200, url: `${base}/chat/completions` },
      { provider: 'gemini', status: 'skipped', reason: 'GEMINI_API_KEY is not set' },
    ]);
    expect(recorded).toHaveLength(1);
  });
});

describe('buildSmokeRequest', () => {
  test('defaults to the providers’ public base URLs and needs a key', () => {
    for (const provider of smokeProviders) {
      const request = buildSmokeRequest(provider, tools, 'm', { [`${provider.toUpperCase()}_API_KEY`]: key });
      expect(request.url).toMatch(/^https:\/\//);
      expect(() => buildSmokeRequest(provider, tools, 'm', {})).toThrow(`${provider.toUpperCase()}_API_KEY`);
    }
  });

  test('leaves `tools` out when there are none', () => {
    for (const provider of smokeProviders) {
      const { body } = buildSmokeRequest(provider, [], 'm', envFor(provider));
      expect(body).not.toHaveProperty('tools');
    }
  });
});
