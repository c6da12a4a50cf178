#!/usr/bin/env node
// Generated prompt-contract projects for the scale benchmarks, shaped like the demo in this
// repository: Handlebars `.prompt` files with YAML frontmatter, shared partials in three
// notations (`tool_call` JSON fences, Hermes `<tool_call>` tags, Anthropic `<function_calls>`
// XML), about 20 curated examples and a set of retrieval stubs per prompt, a cases file per
// prompt, tools written with zod plus one hand-written JSON Schema tool whose TypeScript handler
// type the config names. About 40% of the prompts are written "tight": lists and quotes run
// straight into a heading or a fence with no blank line between them.
//
// Same arguments, same bytes: the only randomness is a seeded generator (bench/lib/data.js).
//
//   node bench/lib/project-gen.js DIR --prompts 200 --cases 25 [--examples 20] [--seed 1] [--snapshots]
//
// DIR must lie inside this repository (and hold no package.json of its own): the generated
// config imports 'prompt-contract' by name, which resolves through the package's reference to
// itself. `--snapshots` also runs the project's own Jest suites with `-u`, which writes the
// snapshots that `check` compares against. The benchmarks call `benchProject`, which keeps
// each project in bench/.data/projects/, keyed by its arguments and by this file's content.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataDir, random } from './data.js';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..', '..');
/** The plain Jest suite (the peer of jest-vs-plain), copied into every project as plain.test.ts. */
const plainSuiteFile = join(here, 'plain-suite.ts');

const pad = (n, width) => String(n).padStart(width, '0');

// ---------------------------------------------------------------------------------------------
// Content

const TOOL_NAMES = ['lookup_order', 'create_refund', 'check_refund_status', 'cancel_order', 'update_shipping_address', 'issue_store_credit', 'escalate_to_human', 'search_help_center', 'send_customer_email'];
/** Tools whose arguments nest objects: Anthropic XML parameters are flat text, so XML prompts leave them out. */
const NESTED = new Set(['update_shipping_address', 'send_customer_email']);
const NOTATIONS = ['json', 'hermes', 'xml'];

const FIRST = ['Priya', 'Tom', 'Ana', 'Lena', 'Kofi', 'Mei', 'Jonas', 'Sofia', 'Omar', 'Ines', 'Raj', 'Chloe'];
const LAST = ['Shah', 'Becker', 'Ruiz', 'Novak', 'Mensah', 'Tanaka', 'Berg', 'Costa', 'Haddad', 'Moreau'];
const ITEMS = ['teapot', 'lamp', 'rug', 'kettle', 'set of mugs', 'side table', 'mirror', 'duvet', 'vase', 'toaster'];
const CITIES = ['Leeds', 'Bristol', 'Lyon', 'Hamburg', 'Austin', 'Cork', 'Porto', 'Ghent'];
const TOPICS = ['refunds', 'orders', 'delivery', 'returns', 'billing', 'accounts', 'warranty', 'stock'];
const AGENTS = ['Ada', 'Ben', 'Cleo', 'Dev', 'Eli', 'Fay', 'Gus', 'Hana'];

const RULES = [
  'Look the order up before you act on it, and say what you found.',
  'Never guess an order number; ask for it when the customer did not give one.',
  'Refunds over the automatic limit go to a human: say so plainly.',
  'Orders whose ids start with `B-` come from the old shop; treat them like any other.',
  'Keep each reply under four sentences.',
  'Offer store credit when the original card has expired.',
  'Quote the help-center article instead of paraphrasing it.',
  'Confirm every change by email once the tool has succeeded.',
  'Be kind, exact and brief; never promise what a tool has not confirmed.',
  'Addresses can change until the parcel ships, and not after.',
];
const QUOTES = [
  'Customers remember how a problem was handled more than the problem itself.',
  'When in doubt, escalate: a human can always undo a hand-off.',
  'A refund promised is a refund owed.',
];

/** Calls the generated examples make: valid against the tools of prompts/tools/index.ts, always. */
function callMaker(rnd) {
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const order = () => `${rnd() < 0.1 ? 'B' : 'A'}-${pad(int(0, 9999), 4)}`;
  const customer = () => `C-${pad(int(0, 99999), 5)}`;
  const make = {
    lookup_order: () => (rnd() < 0.5 ? { order_id: order() } : { order_id: order(), include_items: rnd() < 0.5 }),
    create_refund: () => {
      const args = { order_id: order(), amount_cents: int(100, 99999), reason: pick(['damaged_item', 'not_delivered', 'wrong_item', 'duplicate_charge', 'goodwill']) };
      if (rnd() < 0.3) args.note = `Customer reported the ${pick(ITEMS)} arrived damaged; photos are on the ticket.`;
      return args;
    },
    check_refund_status: () => ({ refund_id: `RF-${pad(int(0, 999999), 6)}` }),
    cancel_order: () => ({ order_id: order(), reason: pick(['customer_request', 'payment_failed', 'out_of_stock', 'fraud_suspected']) }),
    update_shipping_address: () => {
      const address = { line1: `${int(1, 250)} ${pick(['High Street', 'Albion Street', 'Rue des Lilas', 'Mill Lane'])}`, city: pick(CITIES), postal_code: `LS${int(1, 29)} ${int(1, 9)}AB`, country: pick(['GB', 'FR', 'DE', 'IE']) };
      if (rnd() < 0.3) address.line2 = `Flat ${int(1, 40)}`;
      return { order_id: order(), address };
    },
    issue_store_credit: () => ({ customer_id: customer(), amount_cents: int(100, 50000), expires_in_days: int(30, 365) }),
    escalate_to_human: () => ({
      reason: pick(['refund_over_limit', 'fraud_suspected', 'angry_customer', 'policy_exception', 'other']),
      priority: pick(['low', 'normal', 'urgent']),
      summary: `Customer asks about order ${order()}, which the policy does not cover; needs a decision today.`,
    }),
    search_help_center: () => (rnd() < 0.5 ? { query: pick(['returns policy', 'delivery times', 'gift card refund', 'damaged parcel']), limit: int(1, 5) } : { query: pick(['change address', 'store credit']), locale: pick(['en-GB', 'en-US', 'de-DE', 'fr-FR']), limit: int(1, 10) }),
    send_customer_email: () =>
      rnd() < 0.7
        ? { customer_id: customer(), template: pick(['refund_confirmation', 'cancellation_confirmation', 'address_updated', 'store_credit_issued']) }
        : { customer_id: customer(), template: 'refund_confirmation', variables: { first_name: pick(FIRST), amount: `${int(1, 99)}.00` } },
  };
  return (tool) => ({ name: tool, arguments: make[tool]() });
}

/**
 * A small YAML writer: block mappings and sequences; strings plain when that is safe to read
 * back, else double-quoted (JSON's escapes are YAML's). Checked by reading it back below.
 */
function yamlOf(value, indent = '') {
  const scalar = (v) => {
    if (typeof v !== 'string') return JSON.stringify(v);
    const plain = /^[A-Za-z£][\w ,.'()£?!-]*$/.test(v) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(v) && !/\s$/.test(v);
    return plain ? v : JSON.stringify(v);
  };
  const isEmpty = (v) => (Array.isArray(v) ? v.length === 0 : typeof v === 'object' && v !== null && Object.keys(v).length === 0);
  const lines = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item === 'object' && item !== null && !isEmpty(item)) {
        const inner = yamlOf(item, `${indent}  `).split('\n');
        lines.push(`${indent}- ${inner[0].slice(indent.length + 2)}`, ...inner.slice(1));
      } else lines.push(`${indent}- ${isEmpty(item) ? JSON.stringify(item) : scalar(item)}`);
    }
  } else {
    for (const [key, v] of Object.entries(value)) {
      if (typeof v === 'object' && v !== null && !isEmpty(v)) lines.push(`${indent}${key}:`, yamlOf(v, `${indent}  `));
      else lines.push(`${indent}${key}: ${isEmpty(v) ? JSON.stringify(v) : scalar(v)}`);
    }
  }
  return lines.join('\n');
}

const partials = {
  // The JSON-fence notation, as the demo's refund agent renders its examples.
  tool_call_json: `### {{title}}

Customer: {{user}}

{{#each calls}}
\`\`\`tool_call
{{json this indent=2}}
\`\`\`
{{/each}}
`,
  // Hermes: one <tool_call> tag a call, JSON on one line.
  hermes_call: `Example: {{user}}
{{#each calls}}
<tool_call>
{{json this}}
</tool_call>
{{/each}}
`,
  // Anthropic XML: parameters are text, typed by the tool's schema when read.
  xml_call: `Example ({{title}}): {{user}}
<function_calls>
{{#each calls}}
<invoke name="{{name}}">
{{#each arguments}}
<parameter name="{{@key}}">{{this}}</parameter>
{{/each}}
</invoke>
{{/each}}
</function_calls>
`,
  help_article: `<article id="{{id}}" title="{{title}}">
{{body}}
Usual resolution:
\`\`\`tool_call
{{json resolution indent=2}}
\`\`\`
</article>
`,
  past_ticket: `- Ticket {{ticket}}: {{summary}}
  Resolved with:
  <tool_call>
  {{json call}}
  </tool_call>
`,
  house_rules: `## House rules

- Refund at most what was paid for the order, in cents.
- Refunds over £1,000 (100000 cents) go to a human with reason \`refund_over_limit\`.
- Offer store credit when the original payment method has expired.
`,
};

const toolsModule = `import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { defineTool } from 'prompt-contract';

// Generated for prompt-contract's benchmarks: the demo's tool set, in zod.
const orderId = z.string().regex(/^[AB]-\\d{4}$/);
const customerId = z.string().regex(/^C-\\d{5}$/);

/** The one legacy tool: a hand-written schema, held to its handler's TypeScript type. */
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
  defineTool({ name: 'check_refund_status', input: z.object({ refund_id: z.string().regex(/^RF-\\d{6}$/) }) }),
  defineTool({
    name: 'cancel_order',
    input: z.object({ order_id: orderId, reason: z.enum(['customer_request', 'payment_failed', 'out_of_stock', 'fraud_suspected']) }),
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
  }),
  defineTool({
    name: 'issue_store_credit',
    input: z.object({ customer_id: customerId, amount_cents: z.number().int().min(1).max(50_000), expires_in_days: z.number().int().min(1).max(365).default(180) }),
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
    input: z.object({ query: z.string().min(3), locale: z.enum(['en-GB', 'en-US', 'de-DE', 'fr-FR']).optional(), limit: z.number().int().min(1).max(10).default(3) }),
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
`;

const lookupOrderSchema = `${JSON.stringify(
  {
    name: 'lookup_order',
    input_schema: {
      type: 'object',
      properties: { order_id: { type: 'string', pattern: '^[AB]-\\d{4}$' }, include_items: { type: 'boolean' } },
      required: ['order_id'],
      additionalProperties: false,
    },
  },
  null,
  2,
)}\n`;

const handlerModule = `/** Argument type of the legacy order lookup; its JSON Schema is written by hand beside the tools. */
export interface LookupOrderArgs {
  /**
   * \`A-1234\`, or \`B-1234\` for an order from the old shop.
   * @pattern ^[AB]-\\d{4}$
   */
  order_id: string;
  /** Also return the order's lines. */
  include_items?: boolean;
}
`;

const descriptions = `# Tool descriptions, sent with the tools and reviewed like the prompts.
lookup_order:
  description: Find an order by its id. Call it before any refund, cancellation or address change.
  parameters:
    order_id: The order id as the customer wrote it, \`A-1234\` or \`B-1234\`.
    include_items: Also return the order's lines.
create_refund:
  description: Refund an order to the card it was paid with, in cents, at most what was paid.
  parameters:
    amount_cents: Amount in cents, 4200 for £42.00.
check_refund_status:
  description: Say where a refund is (pending, sent, failed), by its refund id.
cancel_order:
  description: Cancel an order that has not shipped; a shipped order is returned instead.
update_shipping_address:
  description: Change where an order that has not shipped yet is delivered.
issue_store_credit:
  description: Give store credit instead of a refund, for example when the card has expired.
escalate_to_human:
  description: Hand the conversation to a person, with a summary they can act on.
search_help_center:
  description: Search the help-center articles before answering a policy question.
send_customer_email:
  description: Send the customer a confirmation email once an action has succeeded.
`;

const configModule = `import { defineConfig } from 'prompt-contract';
import { tools } from './prompts/tools/index.js';

// Generated for prompt-contract's benchmarks (bench/lib/project-gen.js).
export default defineConfig({
  prompts: 'prompts',
  tools,
  descriptions: 'prompts/tools/descriptions.yaml',
  handlers: {
    lookup_order: 'prompts/handlers/lookup-order.ts#LookupOrderArgs',
  },
  snapshots: 'snapshots',
  providers: ['anthropic', 'openai'],
});
`;

const contractTest = `// The project's contract suite, as \`prompt-contract init\` and the README write it.
import { contractSuite } from 'prompt-contract/jest';

await contractSuite();
`;

const jestConfig = `// Jest config of a generated benchmark project: the package's own helper, as a user's project uses it.
import { promptContractJestConfig } from 'prompt-contract/jest-config';

export default promptContractJestConfig({ testMatch: ['<rootDir>/*.test.ts'] });
`;

const tsconfig = `${JSON.stringify(
  {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      isolatedModules: true,
      esModuleInterop: true,
      skipLibCheck: true,
      types: ['node', 'jest'],
    },
    include: ['*.ts', 'prompts'],
  },
  null,
  2,
)}\n`;

/** One prompt: its template, examples, stubs and cases. */
function promptFiles(index, options, rnd) {
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const shuffle = (list) => {
    const out = [...list];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  const makeCall = callMaker(rnd);
  const notation = NOTATIONS[index % 3];
  // Exactly two prompts in five (the first one among them) are tight.
  const tight = (index * 2) % 5 < 2;
  const name = `p${pad(index + 1, 4)}_${TOPICS[index % TOPICS.length]}`;
  const usable = TOOL_NAMES.filter((t) => t !== 'lookup_order' && !(notation === 'xml' && NESTED.has(t)));
  const picked = new Set(['lookup_order', ...shuffle(usable).slice(0, int(3, Math.min(6, usable.length)))]);
  const tools = TOOL_NAMES.filter((t) => picked.has(t));
  const others = tools.filter((t) => t !== 'lookup_order');

  const examples = [];
  for (let e = 0; e < options.examples; e++) {
    const calls = [makeCall('lookup_order')];
    if (rnd() < 0.8) calls.push(makeCall(pick(others)));
    if (rnd() < 0.15) calls.push(makeCall(pick(others)));
    examples.push({
      title: `${pick(['A damaged', 'A missing', 'A late', 'A duplicated', 'An unwanted'])} ${pick(ITEMS)}, case ${e + 1}`,
      user: `Order ${calls[0].arguments.order_id} ${pick(['arrived broken', 'never came', 'was charged twice', 'is the wrong colour', 'is late'])}. ${pick(['Can you help?', 'What now?', 'Please sort it out.', 'I would like my money back.'])}`,
      calls,
    });
  }

  const retrievalPartial = notation === 'hermes' ? 'past_ticket' : 'help_article';
  const stubKeys = ['damaged', 'missing', 'late', 'billing', 'address'];
  const stubs = {};
  for (const key of stubKeys) {
    const entries = [];
    for (let s = int(0, 3); s > 0; s--) {
      const call = makeCall(pick(tools));
      if (retrievalPartial === 'past_ticket') entries.push({ ticket: `T-${pad(int(0, 99999), 5)}`, summary: `${pick(['Resolved', 'Closed', 'Handled'])} after a ${key} report about a ${pick(ITEMS)}.`, call });
      else entries.push({ id: `HC-${int(100, 999)}`, title: `${key[0].toUpperCase()}${key.slice(1)} orders`, body: `${pick(RULES)}\n${pick(RULES)}\n`, resolution: call });
    }
    stubs[key] = entries;
  }
  stubs.none = [];

  const cases = {};
  for (let c = 0; c < options.cases; c++) {
    const first = pick(FIRST);
    const input = {
      customer: { name: `${first} ${pick(LAST)}`, id: `C-${pad(int(0, 99999), 5)}`, tier: pick(['gold', 'standard']) },
      order_id: `A-${pad(int(0, 9999), 4)}`,
      message: `Hi, my ${pick(ITEMS)} ${pick(['arrived broken', 'never came', 'is late', 'was charged twice'])}. ${pick(['Can you help?', 'What can you do?', 'Please refund me.'])}`,
    };
    if (rnd() < 0.2) input.locale = pick(['de-DE', 'fr-FR', 'en-US']);
    cases[`case_${pad(c + 1, 3)}`] = { description: `Standard input ${c + 1} for ${name}.`, input, retrieval: c % 6 === 5 ? 'none' : pick(stubKeys) };
  }

  const rules = shuffle(RULES).slice(0, int(3, 6));
  const agent = pick(AGENTS);
  const model = notation === 'hermes' ? 'nous/hermes-3' : 'anthropic/claude-sonnet';
  const partial = { json: 'tool_call_json', hermes: 'hermes_call', xml: 'xml_call' }[notation];
  const front = [
    '---',
    `description: ${TOPICS[index % TOPICS.length]} assistant number ${index + 1}, examples as ${notation === 'json' ? '`tool_call` fences' : notation === 'hermes' ? 'Hermes tags' : 'Anthropic XML'}${tight ? ', written tight' : ''}.`,
    `model: ${model}`,
    `tools: [${tools.join(', ')}]`,
    'examples:',
    `  file: examples/${name}.yaml`,
    `  partial: ${partial}`,
    'retrieval:',
    `  file: stubs/${name}.yaml`,
    `  partial: ${retrievalPartial}`,
    'input:',
    '  default:',
    '    locale: en-GB',
    '---',
  ];
  // A call written straight into the template, as authors paste one: its notation matches the prompt's.
  const inline = makeCall('lookup_order');
  const inlineCall =
    notation === 'json'
      ? ['```tool_call', JSON.stringify(inline), '```']
      : notation === 'hermes'
        ? ['<tool_call>', JSON.stringify(inline), '</tool_call>']
        : ['<function_calls>', `<invoke name="lookup_order">`, `<parameter name="order_id">${inline.arguments.order_id}</parameter>`, '</invoke>', '</function_calls>'];
  const body = [`You are ${agent}, the ${TOPICS[index % TOPICS.length]} assistant of Northwind Homeware. You talk to {{customer.name}} (customer {{customer.id}}, {{customer.tier}} tier) in {{locale}}.`, ''];
  // The partial ends in a list: a tight prompt lets it run into the next heading, the others leave a blank line.
  if (index % 2 === 0) body.push('{{> house_rules}}', ...(tight ? [] : ['']));
  if (tight) {
    // Lists and quotes that run straight into a heading, a fence or a tag, no blank line between.
    body.push('## Rules', ...rules.map((r) => `- ${r}`), '## Looking orders up', `> ${pick(QUOTES)}`, ...(notation === 'json' ? inlineCall : [`> Always start like this:`, ...inlineCall]), `1. ${pick(RULES)}`, `2. ${pick(RULES)}`, '## Examples');
  } else {
    body.push('## Rules', '', ...rules.map((r) => `- ${r}`), '', '## Looking orders up', '', `> ${pick(QUOTES)}`, '', 'Always start like this:', '', ...inlineCall, '', '## Examples', '');
  }
  body.push(`{{#each examples}}`, `{{> ${partial} this}}`, '{{/each}}');
  body.push(retrievalPartial === 'past_ticket' ? '## Similar tickets' : '## Help-center articles', ...(tight ? [] : ['']));
  body.push('{{#if retrieved.length}}', '{{#each retrieved}}', `{{> ${retrievalPartial} this}}`, '{{/each}}', '{{else}}', 'Nothing matched this conversation; answer from the rules above.', '{{/if}}');
  body.push('', `## The customer's message about order {{order_id}}`, '', '{{message}}', '');

  return {
    name,
    notation,
    tight,
    files: {
      [`prompts/${name}.prompt`]: `${front.join('\n')}\n${body.join('\n')}`,
      [`prompts/examples/${name}.yaml`]: `# Curated examples for ${name}, rendered through partials/_${partial}.prompt.\n${yamlOf({ examples })}\n`,
      [`prompts/stubs/${name}.yaml`]: `# What retrieval returns for each standard conversation of ${name}.\n${yamlOf({ stubs })}\n`,
      [`prompts/cases/${name}.yaml`]: `# Named standard inputs for ${name}.\nprompt: ${name}\n${yamlOf({ cases })}\n`,
    },
  };
}

/** Writes a project into `dir` (which must not exist or be empty) and returns its manifest. */
export function generateProject(dir, { prompts, cases, examples = 20, seed = 1 }) {
  if (!(prompts >= 1 && cases >= 1 && examples >= 1)) throw new Error('expected --prompts, --cases and --examples of at least 1');
  const rnd = random(seed * 7919 + prompts * 31 + cases);
  const files = {
    'prompt-contract.config.ts': configModule,
    'contract.test.ts': contractTest,
    'plain.test.ts': readFileSync(plainSuiteFile, 'utf8'),
    'jest.config.mjs': jestConfig,
    'tsconfig.json': tsconfig,
    'prompts/tools/index.ts': toolsModule,
    'prompts/tools/lookup_order.schema.json': lookupOrderSchema,
    'prompts/tools/descriptions.yaml': descriptions,
    'prompts/handlers/lookup-order.ts': handlerModule,
  };
  for (const [name, text] of Object.entries(partials)) files[`prompts/partials/_${name}.prompt`] = text;
  const made = [];
  for (let i = 0; i < prompts; i++) {
    const p = promptFiles(i, { cases, examples }, rnd);
    Object.assign(files, p.files);
    made.push(p);
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  // An empty node_modules: the project's caches (node_modules/.cache/prompt-contract) land
  // here, not in the repository's; packages still resolve from the repository's node_modules.
  mkdirSync(join(dir, 'node_modules'), { recursive: true });

  // The edit check-incremental makes: one value of the first prompt's first example, still valid.
  const first = made[0];
  const examplesFile = `prompts/examples/${first.name}.yaml`;
  const lines = files[examplesFile].split('\n');
  const at = lines.findIndex((l) => /^\s+user: [A-Za-z]/.test(l));
  if (at < 0) throw new Error('generator: no plain `user:` line to edit in the first examples file');
  const manifest = {
    prompts,
    casesPerPrompt: cases,
    cases: prompts * cases,
    examplesPerPrompt: examples,
    seed,
    notations: Object.fromEntries(NOTATIONS.map((n) => [n, made.filter((p) => p.notation === n).length])),
    tight: made.filter((p) => p.tight).length,
    firstPrompt: first.name,
    edit: { file: examplesFile, line: at, from: lines[at], to: `${lines[at]} Thanks.` },
  };
  writeFileSync(join(dir, 'bench-project.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, ...manifest };
}

// ---------------------------------------------------------------------------------------------
// Running the project's own Jest suites

/** argv (after `node`) of a Jest run of one test file of a generated project, as this repo's `npm test` runs Jest. */
export function jestArgv(testFile, extra = []) {
  return ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', join(repoRoot, 'node_modules', 'jest', 'bin', 'jest.js'), '--config', 'jest.config.mjs', '--runTestsByPath', testFile, ...extra];
}

/** A clean environment for runs in a project: no inherited cache dir, no shard, no CI mode. */
export function projectEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  for (const k of ['PROMPT_CONTRACT_CACHE_DIR', 'PROMPT_CONTRACT_SHARD', 'PROMPT_CONTRACT_AGAINST', 'PROMPT_CONTRACT_CACHE_STATS', 'PROMPT_CONTRACT_WORKERS', 'CI', 'NODE_OPTIONS']) if (!(k in extra)) delete env[k];
  return env;
}

function runJest(dir, testFile, extra) {
  const r = spawnSync(process.execPath, jestArgv(testFile, extra), { cwd: dir, env: projectEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`jest ${testFile} ${extra.join(' ')} in ${dir} exited ${r.status}:\n${(r.stderr || '').slice(-3000)}`);
  return r;
}

/** Writes the project's snapshots: the contract suite's and the plain suite's, each with `-u`. */
export function writeSnapshots(dir) {
  runJest(dir, 'contract.test.ts', ['-u']);
  runJest(dir, 'plain.test.ts', ['-u']);
}

/** Snapshot files the contract suite keeps (one `.txt` a case) and entries of the plain suite's `.snap` file. */
export function countSnapshots(dir) {
  let contract = 0;
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.txt')) contract++;
    }
  };
  walk(join(dir, 'snapshots'));
  const snap = join(dir, '__snapshots__', 'plain.test.ts.snap');
  const plain = existsSync(snap) ? (readFileSync(snap, 'utf8').match(/^exports\[`/gm) ?? []).length : 0;
  return { contract, plain };
}

// ---------------------------------------------------------------------------------------------
// Cached projects for the benchmarks

/** Hash of this generator and of the plain suite it copies: a change to either makes new projects. */
function generatorKey() {
  const h = createHash('sha256');
  h.update(readFileSync(fileURLToPath(import.meta.url)));
  h.update(readFileSync(plainSuiteFile));
  return h.digest('hex');
}

/** Hash of the built package (dist/): snapshots written by one build are re-checked against the next. */
function distKey() {
  const h = createHash('sha256');
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.js') || e.name.endsWith('.cjs')) h.update(p).update(readFileSync(p));
    }
  };
  walk(join(repoRoot, 'dist'));
  return h.digest('hex');
}

export const projectsDir = join(dataDir, 'projects');

/**
 * A generated project in bench/.data/projects/, made once per arguments and generator version,
 * with its snapshots written and `check` exiting 0 on it. When dist/ changed since the snapshots
 * were written, `check` runs once more; if it no longer passes (the snapshot format changed),
 * the snapshots are written again with the project's own Jest suites.
 */
export function benchProject({ prompts, cases, examples = 20, seed = 1 }, { log = () => {} } = {}) {
  const key = createHash('sha256').update(JSON.stringify({ prompts, cases, examples, seed })).update(generatorKey()).digest('hex').slice(0, 12);
  const prefix = `p${prompts}x${cases}${examples === 20 ? '' : `x${examples}`}${seed === 1 ? '' : `s${seed}`}-`;
  const dir = join(projectsDir, `${prefix}${key}`);
  mkdirSync(projectsDir, { recursive: true });
  // Older versions of the same project go.
  for (const name of readdirSync(projectsDir)) if (name.startsWith(prefix) && name !== basename(dir)) rmSync(join(projectsDir, name), { recursive: true, force: true });
  if (!existsSync(join(dir, '.complete'))) {
    log(`generating a ${prompts} x ${cases} project in ${relative(repoRoot, dir)}`);
    const tmp = `${dir}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    generateProject(tmp, { prompts, cases, examples, seed });
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
    writeFileSync(join(dir, '.complete'), '');
  }
  const manifest = { dir, ...JSON.parse(readFileSync(join(dir, 'bench-project.json'), 'utf8')) };
  const stampFile = join(dir, '.snapshots-for');
  const stamp = distKey();
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return manifest;
  const counts = countSnapshots(dir);
  if (counts.contract === manifest.cases && counts.plain === manifest.cases && checkPasses(dir)) {
    writeFileSync(stampFile, stamp);
    return manifest;
  }
  log(`writing the snapshots of ${relative(repoRoot, dir)} (its contract suite and plain suite with -u)`);
  rmSync(join(dir, 'snapshots'), { recursive: true, force: true });
  rmSync(join(dir, '__snapshots__'), { recursive: true, force: true });
  writeSnapshots(dir);
  const after = countSnapshots(dir);
  if (after.contract !== manifest.cases || after.plain !== manifest.cases) throw new Error(`the generated project ${dir} has ${after.contract} contract and ${after.plain} plain snapshots, expected ${manifest.cases} each`);
  if (!checkPasses(dir, true)) throw new Error(`\`prompt-contract check\` does not pass on the generated project ${dir} even after its snapshots were written`);
  writeFileSync(stampFile, stamp);
  return manifest;
}

/** Whether `node dist/cli.js check` exits 0 in the project; with `loud`, its output goes to stderr when not. */
export function checkPasses(dir, loud = false) {
  const r = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'check'], { cwd: dir, env: projectEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0 && loud) process.stderr.write(`${r.stdout.slice(0, 3000)}\n${r.stderr.slice(0, 3000)}\n`);
  return r.status === 0;
}

// ---------------------------------------------------------------------------------------------
// Command line

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const opt = (name, fallback) => {
    const i = argv.indexOf(`--${name}`);
    return i === -1 ? fallback : Number(argv[i + 1]);
  };
  const valued = new Set(['--prompts', '--cases', '--examples', '--seed']);
  const dir = argv.find((a, i) => !a.startsWith('--') && !valued.has(argv[i - 1]));
  if (!dir) {
    process.stderr.write('usage: node bench/lib/project-gen.js DIR --prompts N --cases N [--examples 20] [--seed 1] [--snapshots]\n');
    process.exit(2);
  }
  const target = resolve(dir);
  if (relative(repoRoot, target).startsWith('..')) process.stderr.write(`project-gen: warning: ${target} is outside this repository; its config imports 'prompt-contract' by name, which then needs the package installed there\n`);
  if (existsSync(target) && readdirSync(target).length > 0) {
    process.stderr.write(`project-gen: ${target} exists and is not empty\n`);
    process.exit(2);
  }
  const t0 = performance.now();
  const manifest = generateProject(target, { prompts: opt('prompts', 10), cases: opt('cases', 10), examples: opt('examples', 20), seed: opt('seed', 1) });
  if (argv.includes('--snapshots')) writeSnapshots(target);
  let bytes = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else bytes += statSync(join(d, e.name)).size;
    }
  };
  walk(target);
  process.stdout.write(`${JSON.stringify({ ...manifest, bytes, seconds: Math.round(performance.now() - t0) / 1000 })}\n`);
}
