// The benchmark's tool set: the demo agent's tools, written out as plain Anthropic-shape
// JSON Schemas so that Node and Python validate against the very same documents.
const orderId = { type: 'string', pattern: '^[AB]-\\d{4}$' };
const customerId = { type: 'string', pattern: '^C-\\d{5}$' };

const object = (properties, required) => ({ type: 'object', properties, required, additionalProperties: false });

export const benchTools = [
  { name: 'lookup_order', input_schema: object({ order_id: orderId, include_items: { type: 'boolean' } }, ['order_id']) },
  {
    name: 'create_refund',
    input_schema: object(
      {
        order_id: orderId,
        amount_cents: { type: 'integer', minimum: 1, maximum: 100000 },
        reason: { type: 'string', enum: ['damaged_item', 'not_delivered', 'wrong_item', 'duplicate_charge', 'goodwill'] },
        note: { type: 'string', maxLength: 500 },
      },
      ['order_id', 'amount_cents', 'reason'],
    ),
  },
  { name: 'check_refund_status', input_schema: object({ refund_id: { type: 'string', pattern: '^RF-\\d{6}$' } }, ['refund_id']) },
  {
    name: 'cancel_order',
    input_schema: object({ order_id: orderId, reason: { type: 'string', enum: ['customer_request', 'payment_failed', 'out_of_stock', 'fraud_suspected'] } }, ['order_id', 'reason']),
  },
  {
    name: 'update_shipping_address',
    input_schema: object(
      {
        order_id: orderId,
        address: object(
          {
            line1: { type: 'string', minLength: 1 },
            line2: { type: 'string' },
            city: { type: 'string', minLength: 1 },
            postal_code: { type: 'string', minLength: 2, maxLength: 10 },
            country: { type: 'string', pattern: '^[A-Z]{2}$' },
          },
          ['line1', 'city', 'postal_code', 'country'],
        ),
      },
      ['order_id', 'address'],
    ),
  },
  {
    name: 'issue_store_credit',
    input_schema: object(
      { customer_id: customerId, amount_cents: { type: 'integer', minimum: 1, maximum: 50000 }, expires_in_days: { type: 'integer', minimum: 1, maximum: 365 } },
      ['customer_id', 'amount_cents'],
    ),
  },
  {
    name: 'escalate_to_human',
    input_schema: object(
      {
        reason: { type: 'string', enum: ['refund_over_limit', 'fraud_suspected', 'angry_customer', 'policy_exception', 'other'] },
        priority: { type: 'string', enum: ['low', 'normal', 'urgent'] },
        summary: { type: 'string', minLength: 10, maxLength: 1000 },
      },
      ['reason', 'summary'],
    ),
  },
  {
    name: 'search_help_center',
    input_schema: object(
      { query: { type: 'string', minLength: 3 }, locale: { type: 'string', enum: ['en-GB', 'en-US', 'de-DE', 'fr-FR'] }, limit: { type: 'integer', minimum: 1, maximum: 10 } },
      ['query'],
    ),
  },
  {
    name: 'send_customer_email',
    input_schema: object(
      {
        customer_id: customerId,
        template: { type: 'string', enum: ['refund_confirmation', 'cancellation_confirmation', 'address_updated', 'store_credit_issued'] },
        variables: { type: 'object', additionalProperties: { type: 'string' } },
      },
      ['customer_id', 'template'],
    ),
  },
];
