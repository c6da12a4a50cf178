import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HandlerRef, JsonSchemaObject, ToolSpec } from '../../src/tools/types.js';

export const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

export function tool(inputSchema: JsonSchemaObject, handler?: HandlerRef, name = 'create_refund'): ToolSpec {
  const spec: ToolSpec = { name, inputSchema, origin: { shape: 'anthropic', file: 'prompts/tools.json' } };
  if (handler) spec.handler = handler;
  return spec;
}

/** The published schema of `create_refund`, in agreement with `RefundArgs` in fixtures/refund.ts. */
export function refundSchema(): JsonSchemaObject {
  return {
    type: 'object',
    properties: {
      order_id: { type: 'string', description: 'The order to refund, e.g. A-9931.' },
      amount_cents: { type: 'integer', minimum: 1 },
      reason: { type: 'string', enum: ['duplicate_charge', 'goodwill', 'damaged'] },
      note: { type: 'string' },
    },
    required: ['order_id', 'amount_cents', 'reason'],
  };
}
