// Deterministic inputs for the benchmarks: JSONL files of recorded tool calls and a long
// prompt. Same arguments, same bytes, on every machine; files are cached in bench/.data/.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const dataDir = join(dirname(fileURLToPath(import.meta.url)), '..', '.data');

/** A small seeded generator (mulberry32): uniform floats in [0, 1). */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n, width) => String(n).padStart(width, '0');

/**
 * One generator of recorded-call lines. Each invalid row breaks exactly one keyword, so the
 * number of failing rows equals the sum of the findings' counts on both sides.
 */
function rows(seed) {
  const rnd = random(seed);
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const order = () => `${rnd() < 0.03 ? 'B' : 'A'}-${pad(int(0, 9999), 4)}`;
  const customer = () => `C-${pad(int(0, 99999), 5)}`;
  const words = ['refund', 'gift card', 'delivery times', 'returns policy', 'change address', 'damaged parcel', 'store credit', 'cancel subscription'];
  const cities = ['Leeds', 'Bristol', 'Lyon', 'Hamburg', 'Austin', 'Cork'];

  const valid = [
    () => ['lookup_order', rnd() < 0.5 ? { order_id: order() } : { order_id: order(), include_items: rnd() < 0.5 }],
    () => {
      const args = { order_id: order(), amount_cents: int(1, 100000), reason: pick(['damaged_item', 'not_delivered', 'wrong_item', 'duplicate_charge', 'goodwill']) };
      if (rnd() < 0.3) args.note = 'Customer reported the parcel arrived damaged; photos attached to the ticket.';
      return ['create_refund', args];
    },
    () => ['check_refund_status', { refund_id: `RF-${pad(int(0, 999999), 6)}` }],
    () => ['cancel_order', { order_id: order(), reason: pick(['customer_request', 'payment_failed', 'out_of_stock', 'fraud_suspected']) }],
    () => [
      'update_shipping_address',
      { order_id: order(), address: { line1: `${int(1, 250)} High Street`, city: pick(cities), postal_code: `LS${int(1, 29)} ${int(1, 9)}AB`, country: pick(['GB', 'FR', 'DE', 'US', 'IE']) } },
    ],
    () => ['issue_store_credit', rnd() < 0.5 ? { customer_id: customer(), amount_cents: int(1, 50000) } : { customer_id: customer(), amount_cents: int(1, 50000), expires_in_days: int(1, 365) }],
    () => ['escalate_to_human', { reason: pick(['refund_over_limit', 'fraud_suspected', 'angry_customer', 'policy_exception', 'other']), priority: pick(['low', 'normal', 'urgent']), summary: 'Customer asks for a refund above the automatic limit.' }],
    () => ['search_help_center', rnd() < 0.5 ? { query: pick(words) } : { query: pick(words), locale: pick(['en-GB', 'en-US', 'de-DE', 'fr-FR']), limit: int(1, 10) }],
    () => ['send_customer_email', rnd() < 0.7 ? { customer_id: customer(), template: pick(['refund_confirmation', 'cancellation_confirmation', 'address_updated', 'store_credit_issued']) } : { customer_id: customer(), template: 'refund_confirmation', variables: { first_name: 'Sam', amount: '42.00' } }],
  ];
  // One failing keyword each: maximum, pattern, enum, required, additionalProperties, type, minLength.
  const invalid = [
    () => ['create_refund', { order_id: order(), amount_cents: int(100001, 500000), reason: 'goodwill' }],
    () => ['lookup_order', { order_id: `C-${pad(int(0, 9999), 4)}` }],
    () => ['cancel_order', { order_id: order(), reason: 'changed_mind' }],
    () => ['create_refund', { order_id: order(), amount_cents: int(1, 100000) }],
    () => ['lookup_order', { order_id: order(), verbose: true }],
    () => ['issue_store_credit', { customer_id: customer(), amount_cents: String(int(1, 50000)) }],
    () => ['search_help_center', { query: 'ab' }],
  ];

  return (i) => {
    const id = `call_${pad(i, 8)}`;
    const r = rnd();
    if (r < 0.0005) return { kind: 'corrupt', line: `{"id":"${id}","name":"lookup_order","arguments":{"order_id":"A-12` };
    let kind = 'valid';
    let name;
    let args;
    if (r < 0.001) {
      kind = 'unknown';
      [name, args] = [pick(['create_refnd', 'lookup_orders', 'issue_voucher']), { order_id: order() }];
    } else if (r < 0.021) {
      kind = 'invalid';
      [name, args] = pick(invalid)();
    } else [name, args] = pick(valid)();
    const line = rnd() < 0.1 ? JSON.stringify({ type: 'tool_use', id, name, input: args }) : JSON.stringify({ id, name, arguments: args });
    return { kind, line };
  };
}

/**
 * A JSONL file of recorded calls with `count` rows (or, with `bytes`, rows until the file
 * reaches that size), and what it holds: { file, rows, valid, invalid, unknown, corrupt, bytes }.
 */
export function recordedFile({ rows: count = Infinity, bytes = Infinity, name }) {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, `${name}.jsonl`);
  const manifestFile = join(dataDir, `${name}.json`);
  if (existsSync(file) && existsSync(manifestFile)) return { file, ...JSON.parse(readFileSync(manifestFile, 'utf8')) };
  const next = rows(20240601);
  const counts = { rows: 0, valid: 0, invalid: 0, unknown: 0, corrupt: 0, bytes: 0 };
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w');
  let batch = [];
  let batchBytes = 0;
  try {
    while (counts.rows < count && counts.bytes < bytes) {
      const { kind, line } = next(counts.rows + 1);
      counts.rows++;
      counts[kind]++;
      batch.push(line);
      batchBytes += line.length + 1;
      counts.bytes += line.length + 1;
      if (batchBytes > 4 << 20) {
        writeSync(fd, `${batch.join('\n')}\n`);
        batch = [];
        batchBytes = 0;
      }
    }
    if (batch.length > 0) writeSync(fd, `${batch.join('\n')}\n`);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  writeFileSync(manifestFile, JSON.stringify(counts));
  return { file, ...counts };
}

/**
 * A long system prompt (about `size` bytes): prose, lists, block quotes, code that is not
 * an example, and tool-call examples in `tool_call` and `json` fences and Hermes tags.
 * Returns the text and the examples it holds, in order.
 */
export function longPrompt(size = 50_000) {
  const rnd = random(7);
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const prose = [
    'You are the support agent for an online shop. Be brief, exact and kind; never promise what a tool has not confirmed.',
    'When a customer reports a damaged item, look the order up first, then offer a refund or a replacement.',
    'Refunds above the automatic limit go to a human. Say so plainly and give the customer a time frame.',
    'Legacy orders start with `B-`; treat them like any other order. Do **not** guess order numbers.',
    'If the help centre has an article that answers the question, link it instead of paraphrasing it.',
    'Addresses can change until the parcel ships; after that, offer to redirect it with the carrier.',
  ];
  const calls = [
    () => ({ name: 'lookup_order', arguments: { order_id: `A-${String(int(0, 9999)).padStart(4, '0')}` } }),
    () => ({ name: 'create_refund', arguments: { order_id: `A-${String(int(0, 9999)).padStart(4, '0')}`, amount_cents: int(100, 9000), reason: 'damaged_item' } }),
    () => ({ name: 'search_help_center', arguments: { query: pick(['returns policy', 'delivery times', 'gift card refund']), limit: int(1, 5) } }),
    () => ({ name: 'cancel_order', arguments: { order_id: `B-${String(int(0, 9999)).padStart(4, '0')}`, reason: 'customer_request' } }),
  ];
  const examples = [];
  const parts = ['# Support agent\n'];
  let length = parts[0].length;
  let section = 0;
  while (length < size) {
    const block = [];
    section++;
    block.push(`## Situation ${section}\n`);
    block.push(`${pick(prose)} ${pick(prose)}\n`);
    block.push(`- ${pick(prose)}\n- Check the order status with \`lookup_order\` before acting.\n- Keep replies under *three* sentences.\n`);
    block.push(`> ${pick(prose)}\n> Quote the policy when the customer disputes it.\n`);
    const call = pick(calls)();
    examples.push(call);
    switch (section % 4) {
      case 0:
        block.push(`Example:\n\n\`\`\`tool_call\n${JSON.stringify(call, null, 2)}\n\`\`\`\n`);
        break;
      case 1:
        block.push(`The agent answers:\n\n<tool_call>\n${JSON.stringify(call)}\n</tool_call>\n`);
        break;
      case 2:
        block.push(`\`\`\`json\n${JSON.stringify(call)}\n\`\`\`\n`);
        break;
      default:
        block.push(`A typical turn:\n\n<tool_call>${JSON.stringify(call)}</tool_call>\n\nThen wait for the result.\n`);
    }
    if (section % 5 === 0) block.push('```ts\nconst pattern = /<tool_call>(.*?)<\\/tool_call>/s; // parsing code, not an example\n```\n');
    const text = block.join('\n');
    parts.push(text);
    length += text.length + 1;
  }
  return { text: `${parts.join('\n')}\n`, examples };
}
