import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { defineTool } from 'prompt-contract';

// Order ids: `A-1234`, and `B-1234` for legacy orders (about 3% of what the agent sees).
const orderId = z.string().regex(/^[AB]-\d{4}$/);
const customerId = z.string().regex(/^C-\d{5}$/);

/** The one legacy tool: a hand-written Anthropic-shape schema with a TypeScript handler type. */
const lookupOrder: unknown = JSON.parse(readFileSync(new URL('./lookup_order.schema.json', import.meta.url), 'utf8'));

export const tools = [
  lookupOrder,
  defineTool({
    name: 'create_refund',
    input: z.object({
      order_id: orderId,
      amount_cents: z.number().int().min(1).max(100_000),
      reason: z.enum(['damaged_item', 'not_delivered', 'wrong_item', 'duplicate_charge', 'goodwill']),
      note: z.string().max(500).optional(),
    }),
  }),
  defineTool({
    name: 'check_refund_status',
    input: z.object({ refund_id: z.string().regex(/^RF-\d{6}$/) }),
  }),
  defineTool({
    name: 'cancel_order',
    input: z.object({
      order_id: orderId,
      reason: z.enum(['customer_request', 'payment_failed', 'out_of_stock', 'fraud_suspected']),
    }),
  }),
  defineTool({
    name: 'update_shipping_address',
    input: z.object({
      order_id: orderId,
      address: z.object({
        line1: z.string().min(1),
        line2: z.string().optional(),
        city: z.string().min(1),
        postal_code: z.string().min(2).max(10),
        country: z.string().regex(/^[A-Z]{2}$/),
      }),
    }),
    // Sent with the tool (Anthropic's `input_examples`): the nested address is where models go wrong.
    inputExamples: [{ input: { order_id: 'A-2077', address: { line1: '14 Harbour Street', city: 'Leith', postal_code: 'EH6 6QR', country: 'GB' } } }],
  }),
  defineTool({
    name: 'issue_store_credit',
    input: z.object({
      customer_id: customerId,
      amount_cents: z.number().int().min(1).max(50_000),
      expires_in_days: z.number().int().min(1).max(365).default(180),
    }),
  }),
  defineTool({
    name: 'escalate_to_human',
    input: z.object({
      reason: z.enum(['refund_over_limit', 'fraud_suspected', 'angry_customer', 'policy_exception', 'other']),
      priority: z.enum(['low', 'normal', 'urgent']).default('normal'),
      summary: z.string().min(10).max(1000),
    }),
  }),
  defineTool({
    name: 'search_help_center',
    input: z.object({
      query: z.string().min(3),
      locale: z.enum(['en-GB', 'en-US', 'de-DE', 'fr-FR']).optional(),
      limit: z.number().int().min(1).max(10).default(3),
    }),
  }),
  defineTool({
    name: 'send_customer_email',
    input: z.object({
      customer_id: customerId,
      template: z.enum(['refund_confirmation', 'cancellation_confirmation', 'address_updated', 'store_credit_issued']),
      variables: z.record(z.string(), z.string()).optional(),
    }),
  }),
];
