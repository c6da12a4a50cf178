/**
 * Templates of our own for the differential test against the `dotprompt` package: each is a
 * whole `.prompt` source with its data, and `differs` when the message lists are meant to
 * differ by one of the deliberate differences (see DELIBERATE_DIFFERENCES in
 * dotprompt-differential.test.ts).
 */
export interface DifferentialCase {
  name: string;
  source: string;
  input?: Record<string, unknown>;
  /** dotprompt's `data.context`: `@state`, `@auth`, any other `@name`. */
  context?: Record<string, unknown>;
  /** dotprompt's `data.messages`: the case's `history`. */
  messages?: unknown[];
  partials?: Record<string, string>;
  schemas?: Record<string, unknown>;
  /** The deliberate difference expected here: `missing-variable:name`, `input-default` or `crlf`. */
  differs?: `missing-variable:${string}` | 'input-default' | 'crlf';
}

const fm = (yaml: string, body: string): string => `---\n${yaml}\n---\n${body}`;

const history = [
  { role: 'user', content: [{ text: 'Where is my order?' }] },
  { role: 'model', content: [{ text: 'Which order number?' }] },
];

export const templates: DifferentialCase[] = [
  // Trimming the body after a frontmatter, and not without one.
  { name: 'trailing newline after frontmatter', source: fm('model: m', 'Hello {{name}}\n'), input: { name: 'Ana' } },
  { name: 'leading blank lines after frontmatter', source: fm('model: m', '\n\n  Hello {{name}}\n\n'), input: { name: 'Ana' } },
  { name: 'no frontmatter keeps its whitespace', source: '\n  Hello {{name}}\n\n', input: { name: 'Ana' } },
  { name: 'empty body after frontmatter', source: fm('model: m', '\n') },
  { name: 'comment-only frontmatter value', source: fm('# only a comment\nmodel: m', 'Hi\n') },
  { name: 'trailing spaces from a value are kept', source: fm('model: m', '{{name}}\n'), input: { name: 'padded  ' } },
  // Roles.
  { name: 'system then user', source: fm('model: m', '{{role "system"}}\nYou help.\n{{role "user"}}\n{{question}}\n'), input: { question: 'Hi?' } },
  { name: 'all four roles', source: '{{role "system"}}S\n{{role "user"}}U\n{{role "model"}}M\n{{role "tool"}}T\n' },
  { name: 'role at the very start changes the first message', source: '{{role "model"}}only model' },
  { name: 'repeated role markers', source: '{{role "user"}}{{role "system"}}sys\n{{role "user"}}a\n{{role "user"}}b' },
  { name: 'text before the first role is a user message', source: 'intro\n{{role "system"}}then system' },
  { name: 'whitespace-only message is dropped', source: '{{role "system"}}   \n{{role "user"}}q' },
  { name: 'role from a variable', source: '{{role who}}hello', input: { who: 'model' } },
  { name: 'tool role after model', source: fm('model: m', '{{role "model"}}calling\n{{role "tool"}}{"ok":true}\n{{role "user"}}thanks') },
  // History.
  { name: 'history marker', source: '{{role "system"}}S\n{{history}}\n{{role "user"}}now', messages: history },
  { name: 'history without a marker goes before the last user message', source: '{{role "system"}}S\n{{role "user"}}last', messages: history },
  { name: 'history without a marker after a model message', source: '{{role "system"}}S\n{{role "model"}}m', messages: history },
  { name: 'history with no other text', source: '{{history}}', messages: history },
  { name: 'text after history is a model turn', source: '{{history}}after', messages: history },
  { name: 'history marker and no history', source: '{{role "system"}}S\n{{history}}\n{{role "user"}}q' },
  { name: 'plain text with history', source: 'just text', messages: history },
  { name: 'history and the metadata messages', source: '{{#each @metadata.messages}}{{this.role}}:{{#each content}}{{text}}{{/each}};{{/each}}', messages: history },
  // Media.
  { name: 'media with a content type', source: 'See {{media url=img contentType="image/png"}} here', input: { img: 'https://x/y.png' } },
  { name: 'media without a content type', source: '{{media url="https://x/a.jpg"}}' },
  { name: 'media with an empty url', source: 'a{{media url=""}}b' },
  { name: 'two media parts', source: '{{media url="u1"}}{{media url="u2" contentType="video/mp4"}}' },
  { name: 'media in each', source: '{{#each images}}{{media url=this}}{{/each}}', input: { images: ['a', 'b'] } },
  { name: 'media in a system message', source: '{{role "system"}}{{media url="s"}}\n{{role "user"}}u' },
  // Sections.
  { name: 'sections', source: '{{section "intro"}}Hi\n{{section "body"}}Text' },
  { name: 'section in a role', source: '{{role "system"}}{{section "rules"}}Be kind.\n{{role "user"}}q' },
  { name: 'section name from a variable', source: '{{section kind}}x', input: { kind: 'notes' } },
  // Partials.
  { name: 'partial', source: 'A {{> greet}} B', partials: { greet: 'hello' } },
  { name: 'partial with a context', source: '{{> card person}}', input: { person: { name: 'Ana', age: 3 } }, partials: { card: '{{name}} ({{age}})' } },
  { name: 'partial with a hash', source: '{{> line label="x" value=v}}', input: { v: 2 }, partials: { line: '{{label}}={{value}}' } },
  { name: 'nested partials', source: '{{> outer}}', input: { n: 1 }, partials: { outer: '[{{> inner}}]', inner: 'n={{n}}' } },
  { name: 'partial in each', source: '{{#each items}}{{> item}}\n{{/each}}', input: { items: [{ t: 'a' }, { t: 'b' }] }, partials: { item: '- {{t}}' } },
  { name: 'partial with roles', source: '{{> sys}}\n{{role "user"}}q', partials: { sys: '{{role "system"}}system from partial' } },
  { name: 'partial block', source: '{{#> wrap}}inner{{/wrap}}', partials: { wrap: '<{{> @partial-block}}>' } },
  // json.
  { name: 'json', source: '{{json data}}', input: { data: { a: 1, b: [true, null] } } },
  { name: 'json indent', source: '{{json data indent=2}}', input: { data: { a: { b: 'c' } } } },
  { name: 'json of a string', source: '{{json s}}', input: { s: 'quote " and <b>' } },
  { name: 'json of this', source: '{{json this}}', input: { x: 1, y: 'z' } },
  { name: 'json of this with frontmatter', source: fm('model: m\ninput:\n  schema:\n    x: integer', '{{json this}}'), input: { x: 1 } },
  { name: 'json in each', source: '{{#each calls}}{{json this}}\n{{/each}}', input: { calls: [{ name: 'a', arguments: {} }, { name: 'b', arguments: { k: 1 } }] } },
  // ifEquals and unlessEquals.
  { name: 'ifEquals true', source: '{{#ifEquals a b}}same{{else}}different{{/ifEquals}}', input: { a: 1, b: 1 } },
  { name: 'ifEquals false', source: '{{#ifEquals a b}}same{{else}}different{{/ifEquals}}', input: { a: 1, b: '1' } },
  { name: 'ifEquals with a literal', source: '{{#ifEquals tier "gold"}}VIP{{/ifEquals}}', input: { tier: 'gold' } },
  { name: 'unlessEquals', source: '{{#unlessEquals a "x"}}not x{{/unlessEquals}}', input: { a: 'y' } },
  // each, if, with, nested.
  { name: 'nested each', source: '{{#each groups}}{{name}}:{{#each items}} {{this}}{{/each}}\n{{/each}}', input: { groups: [{ name: 'a', items: [1, 2] }, { name: 'b', items: [3] }] } },
  { name: 'each with index and first', source: '{{#each xs}}{{@index}}{{#if @first}}*{{/if}}{{this}} {{/each}}', input: { xs: ['p', 'q', 'r'] } },
  { name: 'each over a mapping', source: '{{#each m}}{{@key}}={{this}};{{/each}}', input: { m: { a: 1, b: 2 } } },
  { name: 'each with else', source: '{{#each xs}}{{this}}{{else}}none{{/each}}', input: { xs: [] } },
  { name: 'each reading a parent', source: '{{#each xs}}{{../prefix}}{{this}} {{/each}}', input: { xs: [1, 2], prefix: '#' } },
  { name: 'each with block params', source: '{{#each xs as |x i|}}{{i}}:{{x}} {{/each}}', input: { xs: ['a', 'b'] } },
  { name: 'with', source: '{{#with user}}{{name}} <{{email}}>{{/with}}', input: { user: { name: 'Ana', email: 'a@x' } } },
  { name: 'if else', source: '{{#if vip}}VIP{{else if regular}}R{{else}}new{{/if}}', input: { vip: false, regular: true } },
  { name: 'unless', source: '{{#unless done}}todo{{/unless}}', input: { done: false } },
  { name: 'lookup', source: '{{lookup m k}}', input: { m: { a: 'A' }, k: 'a' } },
  // Whitespace control.
  { name: 'tilde on both sides', source: 'a  {{~name~}}  b', input: { name: 'N' } },
  { name: 'standalone block lines', source: 'list:\n{{#each xs}}\n- {{this}}\n{{/each}}\nend', input: { xs: [1, 2] } },
  { name: 'tilde in a block', source: '{{#if ok~}}\n   yes\n{{~/if}}', input: { ok: true } },
  { name: 'comments', source: 'a{{! short }}b{{!-- long }} --}}c' },
  { name: 'standalone comment line', source: 'a\n{{! gone }}\nb' },
  // Escaping: none, as dotprompt.
  { name: 'no HTML escaping', source: '{{x}} & {{{x}}}', input: { x: '<b>&"' } },
  { name: 'escaped mustache', source: 'literal \\{{name}} here' },
  { name: 'raw block renders as dotprompt renders it', source: 'a{{{{raw}}}} {{x}} {{{{/raw}}}}b' },
  // Unicode.
  { name: 'unicode', source: fm('model: m', '¿Qué tal, {{name}}? 👋 — ok'), input: { name: 'Zoë' } },
  // Data variables.
  { name: 'state', source: 'count={{@state.count}}', context: { state: { count: 3 } } },
  { name: 'auth', source: 'user={{@auth.uid}}', context: { auth: { uid: 'u1' } } },
  { name: 'other context variable', source: 'tenant={{@tenant.id}}', context: { tenant: { id: 't' } } },
  { name: 'metadata of the prompt', source: fm('model: vertexai/gemini\nconfig:\n  temperature: 0.2', 'model={{@metadata.prompt.model}} t={{@metadata.prompt.config.temperature}}') },
  { name: 'metadata ext', source: fm('model: m\nacme.team: search', 'team={{@metadata.prompt.ext.acme.team}}') },
  // Picoschema, compared as schemas as well as messages.
  { name: 'picoschema optional fields', source: fm('input:\n  schema:\n    name: string\n    age?: integer, years\noutput:\n  schema:\n    reply: string\n    mood?: string', 'Hi {{name}}'), input: { name: 'Ana' } },
  { name: 'picoschema enums', source: fm('output:\n  schema:\n    color(enum, the colour): [RED, GREEN]\n    size?(enum): [S, M]', 'pick') },
  { name: 'picoschema arrays', source: fm('output:\n  schema:\n    tags(array, labels): string\n    items?(array):\n      id: integer\n      note?: string', 'list') },
  { name: 'picoschema objects and wildcard', source: fm('output:\n  schema:\n    address(object):\n      street: string\n      zip?: string\n    (*): number', 'x') },
  { name: 'picoschema any and description', source: fm('output:\n  schema:\n    data: any, anything\n    n: number, a count', 'x') },
  { name: 'JSON Schema passes as it is', source: fm('output:\n  schema:\n    type: object\n    properties:\n      a: { type: string }', 'x') },
  { name: 'named schema', source: fm('output:\n  schema: Person', 'x'), schemas: { Person: { type: 'object', properties: { name: { type: 'string' } } } } },
  { name: 'named schema in a field', source: fm('output:\n  schema:\n    who: Person\n    others?(array): Person', 'x'), schemas: { Person: { type: 'object', properties: { name: { type: 'string' } } } } },
  // Defaults: given, overridden, and applied (the deliberate difference).
  { name: 'default given by the case anyway', source: fm('input:\n  default:\n    name: Guest\n  schema:\n    name?: string', 'Hi {{name}}'), input: { name: 'Ana' } },
  { name: 'default applied', source: fm('input:\n  default:\n    name: Guest\n  schema:\n    name?: string', 'Hi {{name}}'), differs: 'input-default' },
  { name: 'default applied to one of two', source: fm('input:\n  default:\n    tone: calm', '{{tone}} reply to {{who}}'), input: { who: 'Bo' }, differs: 'input-default' },
  // Missing variables: an error here, empty in dotprompt (the deliberate difference).
  { name: 'missing variable', source: 'Hi {{name}}!', differs: 'missing-variable:name' },
  { name: 'missing nested field', source: fm('model: m', 'Hi {{user.name}}'), input: { user: {} }, differs: 'missing-variable:name' },
  { name: 'missing state field', source: 'n={{@state.n}}', context: { state: {} }, differs: 'missing-variable:n' },
  // Line ends: CRLF is read as LF (the deliberate difference).
  { name: 'CRLF body', source: 'line one\r\nline {{n}}\r\n', input: { n: 2 }, differs: 'crlf' },
  { name: 'CRLF frontmatter and body', source: '---\r\nmodel: m\r\n---\r\n{{role "system"}}a\r\nb\r\n{{role "user"}}c\r\n', differs: 'crlf' },
];
