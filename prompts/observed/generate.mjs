// Regenerates the demo's observed data: recorded_calls.jsonl (tool calls as logged in
// production, identifiers scrubbed) and conversations.sql (a conversation store seed with
// stored tool_use blocks). Deterministic: the same seed gives the same files.
//   node prompts/observed/generate.mjs
import { writeFileSync } from 'node:fs';

let state = 20261202;
const rand = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (list) => list[Math.floor(rand() * list.length)];
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const pad = (n, w) => String(n).padStart(w, '0');
// About 3% of orders come from the old shop (B- ids).
const orderId = () => `${rand() < 0.03 ? 'B' : 'A'}-${pad(int(1, 9999), 4)}`;
const customerId = () => `C-${pad(int(10000, 99999), 5)}`;
// Refund sizes: mostly small, a long tail up to about £900.
const refundCents = () => (rand() < 0.9 ? int(199, 15000) : int(15001, 90000));

const makers = {
  lookup_order: () => (rand() < 0.5 ? { order_id: orderId() } : { order_id: orderId(), include_items: rand() < 0.5 }),
  create_refund: () => {
    const args = { order_id: orderId(), amount_cents: refundCents(), reason: pick(['damaged_item', 'not_delivered', 'wrong_item', 'duplicate_charge', 'goodwill']) };
    if (rand() < 0.2) args.note = pick(['Carrier confirmed loss.', 'Photos received.', 'Second complaint this month.']);
    return args;
  },
  check_refund_status: () => ({ refund_id: `RF-${pad(int(1, 999999), 6)}` }),
  cancel_order: () => ({ order_id: orderId(), reason: pick(['customer_request', 'payment_failed', 'out_of_stock', 'fraud_suspected']) }),
  update_shipping_address: () => ({
    order_id: orderId(),
    address: { line1: `${int(1, 200)} ${pick(['High Street', 'Station Road', 'Church Lane', 'Mill Road'])}`, city: pick(['Leeds', 'Bristol', 'York', 'Lyon', 'Köln']), postal_code: pick(['LS1 6HX', 'BS1 4DJ', 'YO1 7HH', '69003', '50667']), country: pick(['GB', 'GB', 'FR', 'DE']) },
  }),
  issue_store_credit: () => (rand() < 0.6 ? { customer_id: customerId(), amount_cents: int(500, 30000) } : { customer_id: customerId(), amount_cents: int(500, 30000), expires_in_days: pick([90, 180, 365]) }),
  escalate_to_human: () => ({ reason: pick(['refund_over_limit', 'fraud_suspected', 'angry_customer', 'policy_exception', 'other']), priority: pick(['low', 'normal', 'urgent']), summary: pick(['Customer asks for a refund above the automatic limit.', 'Several failed payments on one card this week.', 'Customer insists on a refund for a shipped, used item.']) }),
  search_help_center: () => ({ query: pick(['refund time', 'gift card refund', 'change delivery address', 'cancel shipped order']), limit: int(1, 5) }),
  send_customer_email: () => ({ customer_id: customerId(), template: pick(['refund_confirmation', 'cancellation_confirmation', 'address_updated', 'store_credit_issued']) }),
};
const weights = [['lookup_order', 30], ['create_refund', 25], ['check_refund_status', 8], ['cancel_order', 8], ['update_shipping_address', 6], ['issue_store_credit', 6], ['escalate_to_human', 5], ['search_help_center', 7], ['send_customer_email', 5]];
const total = weights.reduce((s, [, w]) => s + w, 0);
const tool = () => {
  let r = rand() * total;
  for (const [name, w] of weights) if ((r -= w) < 0) return name;
  return weights[0][0];
};

const lines = [];
for (let i = 1; i <= 400; i++) {
  const name = tool();
  lines.push(JSON.stringify({ id: `call_${pad(i, 4)}`, name, arguments: makers[name]() }));
}
writeFileSync(new URL('./recorded_calls.jsonl', import.meta.url), `${lines.join('\n')}\n`);

const sql = [
  '-- Demo conversation store: assistant messages as persisted by the support backend.',
  '-- Anthropic-shaped content arrays and OpenAI-shaped tool_calls side by side, as after a provider switch.',
  'CREATE TABLE messages (id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL, role TEXT NOT NULL, created_at TEXT NOT NULL, message TEXT NOT NULL);',
];
const quote = (s) => `'${s.replaceAll("'", "''")}'`;
for (let i = 1; i <= 60; i++) {
  const name = tool();
  const args = makers[name]();
  const message = i % 4 === 0
    ? { role: 'assistant', content: null, tool_calls: [{ id: `call_db${pad(i, 3)}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] }
    : { role: 'assistant', content: [{ type: 'text', text: 'Let me take care of that.' }, { type: 'tool_use', id: `toolu_${pad(i, 3)}`, name, input: args }] };
  sql.push(`INSERT INTO messages VALUES (${quote(`msg_${pad(i, 3)}`)}, ${quote(`conv_${pad(Math.ceil(i / 3), 3)}`)}, 'assistant', ${quote(`2026-11-${pad(1 + (i % 28), 2)}T10:00:00Z`)}, ${quote(JSON.stringify(message))});`);
}
writeFileSync(new URL('./conversations.sql', import.meta.url), `${sql.join('\n')}\n`);
