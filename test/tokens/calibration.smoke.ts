/**
 * Live calibration of the token estimates: Anthropic and Gemini publish no offline tokenizer
 * for current models, so their snapshots carry an o200k_base count marked as an estimate. This
 * asks each provider's count-tokens endpoint (Anthropic `POST /v1/messages/count_tokens`, Gemini
 * `models.countTokens`) for the demo's rendered cases with their tools, prints the ratio of the
 * provider's count to the estimate, and expects it within a broad band. Not part of `npm test`;
 * run with `npm run test:smoke`. It skips a provider whose key (ANTHROPIC_API_KEY,
 * GEMINI_API_KEY) is not set; <PROVIDER>_BASE_URL and <PROVIDER>_SMOKE_MODEL as in
 * providers.smoke.ts. The provider's figure also holds what it adds around a request (the
 * tool-use system prompt, message framing), so the band is wide: it catches an estimate that
 * is off by a factor, not by a few percent.
 */
import { describe, expect, test } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { countRenderedCase, listCases, loadProject, renderAnyCase, type RenderedCase } from '../../src/index.js';
import { toolsAsSent } from '../../src/snapshot/tools-wire.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

interface Provider {
  key: string;
  count(rendered: RenderedCase, key: string): Promise<number>;
}

const base = (name: string, fallback: string): string => (process.env[name] || fallback).replace(/\/+$/, '');

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const providers: Record<'anthropic' | 'gemini', Provider> = {
  anthropic: {
    key: 'ANTHROPIC_API_KEY',
    async count(rendered, key) {
      const model = process.env.ANTHROPIC_SMOKE_MODEL || 'claude-haiku-4-5';
      const json = await post(`${base('ANTHROPIC_BASE_URL', 'https://api.anthropic.com')}/v1/messages/count_tokens`, { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, {
        model,
        messages: [{ role: 'user', content: rendered.text }],
        ...(rendered.tools.length > 0 ? { tools: toolsAsSent(rendered.tools, 'anthropic') } : {}),
      });
      return Number(json.input_tokens);
    },
  },
  gemini: {
    key: 'GEMINI_API_KEY',
    async count(rendered, key) {
      const model = process.env.GEMINI_SMOKE_MODEL || 'gemini-2.5-flash-lite';
      const json = await post(`${base('GEMINI_BASE_URL', 'https://generativelanguage.googleapis.com')}/v1beta/models/${model}:countTokens`, { 'x-goog-api-key': key }, {
        generateContentRequest: {
          model: `models/${model}`,
          contents: [{ role: 'user', parts: [{ text: rendered.text }] }],
          ...(rendered.tools.length > 0 ? { tools: toolsAsSent(rendered.tools, 'gemini') } : {}),
        },
      });
      return Number(json.totalTokens);
    },
  },
};

describe('live calibration of the token estimates against the providers\' count-tokens endpoints', () => {
  for (const [name, provider] of Object.entries(providers)) {
    const key = process.env[provider.key];
    if (!key) console.info(`smoke: skipping ${name} calibration: ${provider.key} is not set`);
    (key ? test : test.skip)(`${name}: the estimate is within a factor of the provider's count`, async () => {
      const project = await loadProject({ cwd: repo });
      const setting = name === 'anthropic' ? 'anthropic-estimate' : 'gemini-estimate';
      const ratios: string[] = [];
      for (const ref of listCases(project.module)) {
        const rendered = await renderAnyCase(project.module, ref.prompt, ref.case, project.registry);
        const estimate = countRenderedCase(rendered, { setting, name: setting, from: 'config' });
        const actual = await provider.count(rendered, key!);
        const ratio = actual / estimate.total;
        ratios.push(`${ref.prompt}/${ref.case}: ${actual} / ${estimate.total} = ${ratio.toFixed(3)}`);
        expect(ratio).toBeGreaterThan(0.5);
        expect(ratio).toBeLessThan(2);
      }
      console.info(`${name} count / estimate:\n${ratios.join('\n')}`);
    }, 120_000);
  }
});
