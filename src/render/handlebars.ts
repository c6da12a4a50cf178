import type Handlebars from 'handlebars';
import { handlebars } from './handlebars-lib.js';
import type { HelperOptions } from 'handlebars';
import { InputError } from '../util/errors.js';
import { suggestName } from '../util/suggest.js';
import { checkTemplate, templateSyntaxError } from './template-errors.js';
import { decode, emptySourceMap, extentOf, hasMarkers, MarkerTable, RegionRecorder, SourceMap, type DataOrigin } from './source-map.js';

/** How one render is bounded. */
export interface RenderOptions {
  /** Rendered size the render stops at, with an error at the block that passed it (DEFAULT_MAX_RENDERED_BYTES). */
  maxRenderedBytes?: number;
}

/** The error of a render that passed its size limit, at the block that did (or at the template). */
function tooLarge(limit: number, at: { file?: string | undefined; line?: number | undefined; column?: number | undefined }, cause?: unknown): InputError {
  return new InputError(
    'render/too-large',
    `Unexpected rendered text over ${limit} bytes: ${at.column === undefined ? 'the template' : 'this block'} makes more text than any prompt a model takes (loops nested over long lists?), so the render stopped; expected a smaller render, or a higher \`maxRenderedBytes\` in the config`,
    at,
    cause === undefined ? undefined : { cause },
  );
}

/** A template file: its path as shown to people, its text, and the line its body starts on. */
export interface TemplateSource {
  file: string;
  body: string;
  /** 1-based line of the body's first character in `file` (after frontmatter). */
  bodyLine: number;
}

type AstNode = { type: string; loc?: { start: { line: number; column: number } }; [key: string]: unknown };
type Program = { type: 'Program'; body: AstNode[] };

/**
 * Parses a template body. A syntax error is an InputError in plain words at the file line and
 * column of the tag that causes it (see `templateSyntaxError`); a call of an unknown helper, or
 * of a helper with the wrong number of arguments, is one too, found here rather than only when
 * a case happens to run that branch (see `checkTemplate`).
 */
export function parseTemplate(source: TemplateSource): Program {
  let program: Program;
  try {
    program = handlebars().parse(source.body) as unknown as Program;
  } catch (error) {
    throw templateSyntaxError(source, error);
  }
  checkTemplate(program, source);
  rewriteRawBlocks(program);
  return program;
}

/** A `../` path that climbs above the outermost context, at its place. */
function climbError(path: { original: string; head: string; depth: number; line: number; column: number }, source: TemplateSource, cause?: unknown): InputError {
  return new InputError(
    'render/failed',
    `Unexpected path \`${path.original}\`: its ${path.depth} \`../\` climb above the outermost context (the case's inputs), where there is nothing to read \`${path.head}\` from; expected one \`../\` for each \`{{#each}}\` or \`{{#with}}\` around it that changes the context, or \`@root.${path.head}\` for an input`,
    { file: source.file, line: path.line + source.bodyLine - 1, column: path.column },
    cause === undefined ? undefined : { cause },
  );
}

/** The helper a raw block calls in place of its name (see rewriteRawBlocks). */
const RAW_BLOCK = '__promptContractRawBlock';

/**
 * A raw block (`{{{{name}}}}...{{{{/name}}}}`) renders as dotprompt renders it: dotprompt has
 * no `raw` helper, so the name is read from the context as a section's is, and the block's
 * text is printed as written when the value is there and true (once per item of a list), and
 * not at all when it is missing. Each raw block becomes a call of a helper that reads the
 * name leniently: a missing name is no missing variable here.
 */
function rewriteRawBlocks(node: unknown): void {
  if (Array.isArray(node)) {
    for (const child of node) rewriteRawBlocks(child);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const n = node as AstNode;
  const path = n.path as AstNode | undefined;
  const strip = n.openStrip as Record<string, unknown> | undefined;
  const simple = path?.type === 'PathExpression' && path.data !== true && (path.depth ?? 0) === 0 && (path.parts as string[]).length === 1;
  if (n.type === 'BlockStatement' && strip && !('open' in strip) && simple && (n.params as unknown[]).length === 0 && !n.hash) {
    n.params = [{ type: 'StringLiteral', value: path.original, original: path.original, loc: path.loc }];
    n.path = { ...path, original: RAW_BLOCK, parts: [RAW_BLOCK], head: undefined, tail: undefined };
    return;
  }
  for (const key of ['body', 'program', 'inverse'] as const) if (n[key]) rewriteRawBlocks(n[key]);
}

/**
 * A copy of the AST with a position marker before every piece of output: content keeps its
 * own position, and a mustache, block or partial marks the line it sits on, so every range of
 * output can be traced to the template line that wrote it.
 */
function instrument(program: Program, source: TemplateSource, markers: MarkerTable): Program {
  const extent = extentOf(source.body, source.bodyLine);
  const mark = (line: number, column: number): AstNode => ({
    type: 'ContentStatement',
    value: markers.point(source.file, line + source.bodyLine - 1, column + 1, 'expression', extent),
    original: '',
  });
  const walk = (node: Program): Program => {
    const body: AstNode[] = [];
    for (const statement of node.body) {
      const loc = statement.loc?.start;
      if (statement.type === 'ContentStatement') {
        const value = statement.value as string;
        const original = statement.original as string;
        if (value !== '' && loc) {
          // Whitespace control strips a prefix of `original`; advance the position over it.
          const skipped = original.slice(0, Math.max(original.indexOf(value), 0));
          const lines = skipped.split('\n');
          const line = loc.line + lines.length - 1;
          const column = lines.length > 1 ? lines[lines.length - 1]!.length : loc.column + skipped.length;
          body.push({ ...statement, value: markers.point(source.file, line + source.bodyLine - 1, column + 1, 'content', extent) + value });
        } else body.push(statement);
        continue;
      }
      if (loc) body.push(mark(loc.line, loc.column));
      const copy: AstNode = { ...statement };
      if (copy.program) copy.program = walk(copy.program as Program);
      if (copy.inverse) copy.inverse = walk(copy.inverse as Program);
      body.push(copy);
    }
    return { ...node, body };
  };
  return walk(program);
}

/**
 * Whether a template's output depends on its context alone: no `@data` variable (`@index`,
 * `@root`, `@case`...), no path out of the context (`../`), no partial (it could reach
 * anything), no decorator, and no `log` (which has an effect). The helpers a template can
 * call are the built-in ones and `registerHelpers`', which depend only on their arguments.
 */
function readsOnlyItsContext(node: unknown, inEach = false): boolean {
  if (Array.isArray(node)) return node.every((n) => readsOnlyItsContext(n, inEach));
  if (typeof node !== 'object' || node === null) return true;
  const n = node as AstNode;
  switch (n.type) {
    case 'PathExpression': {
      if (((n.depth as number | undefined) ?? 0) !== 0 || n.original === 'log') return false;
      // `@key`, `@index`, `@first` and `@last` inside the template's own `#each` come from what it iterates.
      return n.data !== true || (inEach && iterationData.has((n.parts as string[])[0]!) && (n.parts as string[]).length === 1);
    }
    case 'BlockStatement': {
      const each = (n.path as AstNode).type === 'PathExpression' && (n.path as AstNode).original === 'each';
      return readsOnlyItsContext(n.path, inEach) && readsOnlyItsContext(n.params, inEach) && readsOnlyItsContext(n.hash, inEach) && readsOnlyItsContext(n.program, inEach || each) && readsOnlyItsContext(n.inverse, inEach);
    }
    case 'PartialStatement':
    case 'PartialBlockStatement':
    case 'Decorator':
    case 'DecoratorBlock':
      return false;
    default:
      for (const key of Object.keys(n)) if (key !== 'loc' && !readsOnlyItsContext(n[key], inEach)) return false;
      return true;
  }
}

const iterationData = new Set(['key', 'index', 'first', 'last']);

/** Where the first partial statement `matches` takes sits in a program, nested blocks included: the place of an "unknown partial" error, which Handlebars reports without one. */
function findPartial(program: Program, matches: (name: { original?: unknown; type?: unknown }) => boolean): { line: number; column: number } | undefined {
  for (const statement of program.body) {
    if ((statement.type === 'PartialStatement' || statement.type === 'PartialBlockStatement') && matches((statement.name ?? {}) as { original?: unknown; type?: unknown })) {
      return statement.loc ? { line: statement.loc.start.line, column: statement.loc.start.column + 1 } : undefined;
    }
    for (const key of ['program', 'inverse'] as const) {
      if (statement[key]) {
        const hit = findPartial(statement[key] as Program, matches);
        if (hit) return hit;
      }
    }
  }
  return undefined;
}

/** Where partial `name` is included in a program. */
const findPartialUse = (program: Program, name: string) => findPartial(program, (n) => n.original === name);

/** The first partial whose name is computed (`{{> (lookup . "kind")}}`): where an unknown computed name comes from. */
const findDynamicPartial = (program: Program) => findPartial(program, (n) => n.type === 'SubExpression');

/** Every path of a program, nested blocks, parameters and sub-expressions included, in template order. */
function pathsOf(node: unknown, out: Array<{ original: string; parts: string[]; line: number; column: number }> = []): typeof out {
  if (Array.isArray(node)) {
    for (const n of node) pathsOf(n, out);
    return out;
  }
  if (typeof node !== 'object' || node === null) return out;
  const n = node as AstNode;
  if (n.type === 'PathExpression' && n.loc) {
    out.push({ original: String(n.original), parts: (n.parts as string[]).map(String), line: n.loc.start.line, column: n.loc.start.column + 1 });
    return out;
  }
  for (const key of Object.keys(n)) if (key !== 'loc') pathsOf(n[key], out);
  return out;
}

/** Every path written with `../` in a program, nested blocks, parameters and sub-expressions included, in template order. */
function climbingPaths(node: unknown, out: Array<{ original: string; head: string; depth: number; line: number; column: number }> = []): typeof out {
  if (Array.isArray(node)) {
    for (const n of node) climbingPaths(n, out);
    return out;
  }
  if (typeof node !== 'object' || node === null) return out;
  const n = node as AstNode;
  if (n.type === 'PathExpression' && typeof n.depth === 'number' && n.depth > 0 && n.loc) {
    out.push({ original: String(n.original), head: String((n.parts as string[])[0] ?? ''), depth: n.depth, line: n.loc.start.line, column: n.loc.start.column + 1 });
    return out;
  }
  for (const key of Object.keys(n)) if (key !== 'loc') climbingPaths(n[key], out);
  return out;
}

function unknownPartialMessage(name: string, known: string[]): string {
  const guess = suggestName(name, known);
  return `Unknown partial \`${name}\`, expected one of ${known.map((k) => `\`${k}\``).join(', ') || 'none'} (a partial is a file named _${name}.prompt)${guess ? `; did you mean \`${guess.name}\`?` : ''}`;
}

const located = Symbol('prompt-contract.located');
// The per-render region recorder travels in Handlebars' `@data` frames, which every helper
// and partial receives, so compiled templates can be shared between renders.
const RECORDER = '__promptContractRegions';

type Recorder = RegionRecorder | undefined;
const recorderOf = (options: { data?: Record<string, unknown> } | undefined): Recorder => options?.data?.[RECORDER] as Recorder;

/** Rendered size a render stops at unless told otherwise (`maxRenderedBytes` in the config): far above any prompt a model takes. */
export const DEFAULT_MAX_RENDERED_BYTES = 4 * 1024 * 1024;

// The per-render size budget travels in `@data` too, so every block and partial can charge it.
const BUDGET = '__promptContractBudget';

/** A render that went past its size limit, thrown from inside it at the block that did. */
class RenderTooLarge extends Error {
  constructor(
    readonly limit: number,
    readonly loc: { line: number; column: number } | undefined,
  ) {
    super(`rendered text over ${limit} bytes`);
  }
}

/**
 * Counts the text a render makes as its blocks and partials return it, and stops the render
 * once the count passes the limit: Handlebars builds the whole string before returning it,
 * so a loop nested over a long list would otherwise fill the memory before any check. Each
 * character is counted once, by the innermost block that wrote it (a block's own text is its
 * output less what the blocks inside it returned). Counted in UTF-16 code units, each of
 * which is at least one byte: the count never passes the limit before the bytes do.
 */
class RenderBudget {
  #total = 0;
  /** For each block being rendered, the length its inner blocks have returned so far. */
  readonly #inner: number[] = [];

  constructor(readonly limit: number) {}

  run(piece: () => string, loc: { line: number; column: number } | undefined): string {
    this.#inner.push(0);
    let out: string;
    let inner: number;
    try {
      out = piece();
    } finally {
      inner = this.#inner.pop()!;
    }
    if (typeof out !== 'string') return out;
    this.#total += Math.max(out.length - inner, 0);
    if (this.#inner.length > 0) this.#inner[this.#inner.length - 1]! += out.length;
    if (this.#total > this.limit) throw new RenderTooLarge(this.limit, loc);
    return out;
  }
}

/** `@data` for a render bounded to `limit` rendered bytes, for an environment whose blocks `budgetBlocks` made charge it. */
export function budgetData(data: Record<string, unknown>, limit = DEFAULT_MAX_RENDERED_BYTES): Record<string, unknown> {
  return { ...data, [BUDGET]: new RenderBudget(limit) };
}

/** The limit a render stopped at, when `error` is a budget's stop; undefined for any other error. */
export function budgetStop(error: unknown): number | undefined {
  return error instanceof RenderTooLarge ? error.limit : undefined;
}

const budgetOf = (options: { data?: Record<string, unknown> } | undefined): RenderBudget | undefined => options?.data?.[BUDGET] as RenderBudget | undefined;

type Loc = { start?: { line: number; column: number } } | undefined;
const startOf = (loc: Loc): { line: number; column: number } | undefined => (loc?.start ? { line: loc.start.line, column: loc.start.column + 1 } : undefined);

/**
 * Makes every block helper (`each`, `with`, `if`, a section over a list, dotprompt's own)
 * charge the render's budget for each time it renders its body: the render stops at the
 * block that takes it past the limit, however deep the loops nest.
 */
export function budgetBlocks(hb: typeof Handlebars): void {
  for (const [name, helper] of Object.entries(hb.helpers)) {
    hb.registerHelper(name, function (this: unknown, ...args: unknown[]) {
      const options = args[args.length - 1] as (HelperOptions & { loc?: Loc }) | undefined;
      const budget = budgetOf(options);
      if (budget === undefined || typeof options?.fn !== 'function') return (helper as (...a: unknown[]) => unknown).apply(this, args);
      const at = startOf(options.loc);
      const charge = (fn: Handlebars.TemplateDelegate | undefined): Handlebars.TemplateDelegate | undefined =>
        typeof fn !== 'function' ? fn : Object.assign((context: unknown, opts?: Handlebars.RuntimeOptions) => budget.run(() => fn(context, opts), at), fn);
      const charged = { ...options, fn: charge(options.fn), inverse: charge(options.inverse) };
      return (helper as (...a: unknown[]) => unknown).apply(this, [...args.slice(0, -1), charged]);
    });
  }
}

/** A partial that charges the render's budget for its text (a partial may include others twice, and those twice again). */
function budgeted(partial: Handlebars.TemplateDelegate): Handlebars.TemplateDelegate {
  return ((context: unknown, options?: Handlebars.RuntimeOptions) => {
    const budget = budgetOf(options as { data?: Record<string, unknown> });
    return budget === undefined ? partial(context, options) : budget.run(() => partial(context, options), undefined);
  }) as Handlebars.TemplateDelegate;
}

/** dotprompt's helpers; with a recorder in `@data`, data they print is marked for the source map. */
function registerHelpers(hb: typeof Handlebars, originOf: (value: unknown) => DataOrigin | undefined): void {
  // Every case of a prompt prints the same example and stub objects, read once from their
  // files with the module: their JSON is made once per indent. Other values (a caller's own
  // inputs, which it may change between renders) are printed afresh each time.
  const printed = new WeakMap<object, Map<unknown, string>>();
  const stringify = (value: unknown, indent: unknown): string => {
    if (typeof value !== 'object' || value === null || originOf(value) === undefined) return JSON.stringify(value, null, indent as number | undefined);
    let byIndent = printed.get(value);
    if (byIndent === undefined) printed.set(value, (byIndent = new Map()));
    let text = byIndent.get(indent);
    if (text === undefined) byIndent.set(indent, (text = JSON.stringify(value, null, indent as number | undefined)));
    return text;
  };
  hb.registerHelper('json', (value: unknown, options: HelperOptions) => {
    const text = stringify(value, options.hash?.indent);
    const origin = originOf(value);
    const recorder = recorderOf(options);
    return origin && recorder ? recorder.wrap(origin, text) : text;
  });
  hb.registerHelper('ifEquals', function (this: unknown, a: unknown, b: unknown, options: HelperOptions) {
    return a === b ? options.fn(this) : options.inverse(this);
  });
  hb.registerHelper('unlessEquals', function (this: unknown, a: unknown, b: unknown, options: HelperOptions) {
    return a !== b ? options.fn(this) : options.inverse(this);
  });
  // dotprompt's message helpers print markers; the renderer cuts the text into messages at them.
  // An error a helper throws is told at the helper's tag.
  const at = (options: unknown, message: string): Error => new hb.Exception(message, { loc: (options as { loc?: unknown } | undefined)?.loc } as unknown as ConstructorParameters<typeof hb.Exception>[1]);
  hb.registerHelper('role', (role: unknown, options: HelperOptions) => {
    if (role !== 'system' && role !== 'user' && role !== 'model' && role !== 'tool') throw at(options, `Unexpected role ${JSON.stringify(role)} in {{role}}, expected "system", "user", "model" or "tool"`);
    return `<<<dotprompt:role:${role}>>>`;
  });
  hb.registerHelper('history', () => '<<<dotprompt:history>>>');
  hb.registerHelper('media', (options: HelperOptions) => {
    const url = options.hash?.url;
    // An empty URL is a media part with an empty URL, as dotprompt makes it; no URL at all is a mistake.
    if (typeof url !== 'string') throw at(options, `Expected {{media url=...}} with a URL, got ${url === undefined ? 'no `url`' : JSON.stringify(url)}`);
    const type = options.hash?.contentType;
    return `<<<dotprompt:media:url ${url}${typeof type === 'string' && type !== '' ? ` ${type}` : ''}>>>`;
  });
  hb.registerHelper('section', (name: unknown) => `<<<dotprompt:section ${String(name)}>>>`);
  const blockHelperMissing = hb.helpers.blockHelperMissing as Handlebars.HelperDelegate;
  hb.registerHelper(RAW_BLOCK, function (this: unknown, name: string, options: HelperOptions) {
    const box = this === null || this === undefined ? undefined : (Object(this) as Record<string, unknown>);
    return blockHelperMissing.call(this, box && Object.hasOwn(box, name) ? box[name] : undefined, options);
  });
  // `lookup` of a member the value only inherits is an error that names it, not an empty string.
  const lookup = hb.helpers.lookup as Handlebars.HelperDelegate;
  hb.registerHelper('lookup', function (this: unknown, obj: unknown, field: unknown, options: HelperOptions & { loc?: unknown }) {
    if (obj !== null && obj !== undefined && (typeof field === 'string' || typeof field === 'number')) {
      const box = Object(obj) as object;
      if (!Object.hasOwn(box, field) && field in box) {
        const what = typeof obj === 'object' ? (Array.isArray(obj) ? 'a list' : 'a mapping') : `the ${typeof obj} ${JSON.stringify(obj)}`;
        throw new hb.Exception(`lookup: "${String(field)}" is only inherited by ${what}`, { loc: options.loc } as unknown as ConstructorParameters<typeof hb.Exception>[1]);
      }
    }
    return lookup.call(this, obj, field, options);
  });
  // `each` over YAML examples or stub entries marks each iteration as coming from its item.
  const each = hb.helpers.each as Handlebars.HelperDelegate;
  hb.registerHelper('each', function (this: unknown, context: unknown, options: HelperOptions) {
    const recorder = recorderOf(options);
    if (!recorder) return each.call(this, context, options);
    const fn = options.fn;
    const traced = Object.assign((item: unknown, opts?: Handlebars.RuntimeOptions) => {
      const out = fn(item, opts);
      const origin = originOf(item);
      return origin ? recorder.wrap(origin, out) : out;
    }, fn);
    return each.call(this, context, { ...options, fn: traced });
  });
}

// Names every plain object inherits. Handlebars' strict mode asks `name in obj`, which is
// true for them, then declines to read them: `{{__proto__}}` or `{{constructor}}` rendered
// as an empty string where any other unknown name is an error.
const inheritedNames = new Set(Object.getOwnPropertyNames(Object.prototype));
const hardened = Symbol('prompt-contract.strict-own');

type Container = {
  strict(obj: unknown, name: string, loc: unknown): unknown;
  lookupProperty(parent: unknown, name: string): unknown;
  helpers?: unknown;
  partials?: unknown;
  decorators?: unknown;
  [hardened]?: true;
};
type Spec = Record<string, unknown>;

/**
 * Makes strict lookups of inherited names fail like any missing variable, unless the value
 * has the name as its own property (then it renders, as any own property does). The check
 * sits in the `container.strict` that compiled templates call: every program function of a
 * compiled template gets a container whose `strict` checks first.
 */
function strictOwnProperties(hb: typeof Handlebars, onDenied: (name: string) => void, onNothing: (name: string) => void = () => {}): void {
  const derived = new WeakMap<object, Container>();
  const harden = (container: Container): Container => {
    if (container[hardened]) return container;
    let out = derived.get(container);
    if (out === undefined) {
      out = Object.create(container, {
        [hardened]: { value: true },
        strict: {
          value(obj: unknown, name: string, loc: unknown) {
            // A name read from a string or number (`{{customer.name}}` with `customer: Ana`): Handlebars'
            // own check would throw a TypeError without a place.
            if (obj !== null && obj !== undefined && typeof obj !== 'object' && typeof obj !== 'function') {
              throw new hb.Exception(`"${name}" cannot be read from the ${typeof obj} ${JSON.stringify(obj)}`, { loc } as unknown as ConstructorParameters<typeof hb.Exception>[1]);
            }
            if (typeof obj === 'object' && obj !== null && inheritedNames.has(name) && !Object.hasOwn(obj, name)) {
              onDenied(name);
              throw new hb.Exception(`"${name}" not defined in ${String(obj)}`, { loc } as unknown as ConstructorParameters<typeof hb.Exception>[1]);
            }
            return container.strict(obj, name, loc);
          },
        },
        // A member a value inherits (`constructor`, `toString`, a string's `sub`) is read as
        // nothing here, without Handlebars' "Access has been denied" lines on the standard
        // error (three a lookup, with no file or line): the render says which member it was.
        lookupProperty: {
          value(parent: unknown, name: string) {
            // Nothing has no members: the strict lookup after this one says which name was missing, and
            // where; a helper's argument is looked up leniently, so the name is kept for the render to judge.
            if (parent === null || parent === undefined) {
              onNothing(name);
              return undefined;
            }
            const box = Object(parent) as object;
            if (Object.hasOwn(box, name) || !(name in box)) return container.lookupProperty(parent, name);
            // Helper and partial names are looked up the same way; an inherited one is simply no helper.
            if (parent !== container.helpers && parent !== container.partials && parent !== container.decorators) onDenied(name);
            return undefined;
          },
        },
      }) as Container;
      derived.set(container, out);
    }
    return out;
  };
  const template = hb.template.bind(hb);
  hb.template = ((spec: Spec) => {
    for (const key of Object.keys(spec)) {
      const fn = spec[key];
      if (typeof fn !== 'function' || !(key === 'main' || /^\d+$/.test(key))) continue;
      spec[key] = function (this: unknown, container: Container, ...rest: unknown[]) {
        return (fn as (...args: unknown[]) => unknown).call(this, harden(container), ...rest);
      };
    }
    return template(spec as unknown as Parameters<typeof hb.template>[0]);
  }) as typeof hb.template;
}

/**
 * The Handlebars environment of one prompt module, compiled once and shared by every render:
 * `noEscape` (HTML escaping corrupts JSON in prompts), `strict` (a missing variable is an
 * error, not an empty string), dotprompt's helpers, and markers for the source map.
 */
export class PromptEnvironment {
  readonly #table = new MarkerTable();
  readonly #hb = handlebars().create();
  readonly #partials: Map<string, TemplateSource>;
  readonly #originOf: (value: unknown) => DataOrigin | undefined;
  readonly #programs = new Map<string, { source: TemplateSource; program: Program }>();
  readonly #templates = new Map<string, Handlebars.TemplateDelegate>();
  /** Without markers: every render's text, and the map of a text that already holds marker code points. */
  #plain: { hb: typeof Handlebars; templates: Map<string, Handlebars.TemplateDelegate> } | undefined;
  readonly #partialsHoldMarkers: boolean;
  /** The first inherited member the current render tried to read (renders are synchronous: one at a time). */
  #denied: string | undefined;
  /** The names the current render read from nothing (a `../` past the outermost context, in a helper's argument). */
  #fromNothing = new Set<string>();

  constructor(partials: Map<string, TemplateSource>, origins: WeakMap<object, DataOrigin>) {
    this.#partials = partials;
    this.#originOf = (value) => (typeof value === 'object' && value !== null ? origins.get(value) : undefined);
    this.#partialsHoldMarkers = [...partials.values()].some((p) => hasMarkers(p.body));
    strictOwnProperties(this.#hb, (name) => (this.#denied ??= name), (name) => this.#fromNothing.add(name));
    registerHelpers(this.#hb, this.#originOf);
    budgetBlocks(this.#hb);
    for (const [name, source] of partials) {
      const program = parseTemplate(source);
      this.#programs.set(name, { source, program });
      const compiled = budgeted(this.#hb.compile(instrument(program, source, this.#table) as unknown as string, { noEscape: true, strict: true }));
      this.#hb.registerPartial(name, ((context: unknown, options: Handlebars.RuntimeOptions) => {
        const out = this.#attribute(source, () => compiled(context, options));
        const origin = this.#originOf(context);
        const recorder = recorderOf(options as { data?: Record<string, unknown> });
        return origin && recorder ? recorder.wrap(origin, out) : out;
      }) as unknown as Handlebars.Template);
    }
  }

  #plainEnvironment(): { hb: typeof Handlebars; templates: Map<string, Handlebars.TemplateDelegate> } {
    if (!this.#plain) {
      const hb = handlebars().create();
      strictOwnProperties(hb, (name) => (this.#denied ??= name), (name) => this.#fromNothing.add(name));
      registerHelpers(hb, this.#originOf);
      budgetBlocks(hb);
      for (const [name, source] of this.#partials) {
        const program = this.#programs.get(name)?.program;
        const compiled = hb.compile((program ?? source.body) as unknown as string, { noEscape: true, strict: true });
        hb.registerPartial(name, budgeted((program && readsOnlyItsContext(program) ? this.#remembered(compiled) : compiled) as Handlebars.TemplateDelegate) as unknown as Handlebars.Template);
      }
      this.#plain = { hb, templates: new Map() };
    }
    return this.#plain;
  }

  /**
   * A partial that reads nothing but its context prints the same text for the same example
   * or stub object, and every case of a prompt passes it the same ones (read once with the
   * module): each object's text is made once. Any other context renders afresh.
   */
  #remembered(compiled: Handlebars.TemplateDelegate): Handlebars.Template {
    const texts = new WeakMap<object, string>();
    return ((context: unknown, options: Handlebars.RuntimeOptions) => {
      if (typeof context !== 'object' || context === null || this.#originOf(context) === undefined) return compiled(context, options);
      let text = texts.get(context);
      if (text === undefined) texts.set(context, (text = compiled(context, options)));
      return text;
    }) as unknown as Handlebars.Template;
  }

  /**
   * Renders a template body with `context`: the exact text and its source map. The text is
   * rendered without markers; the map is made only when a finding asks for a place, by a
   * second render with markers (see SourceMap.deferred). A render that fails is done again
   * with markers, whose environment names the partial an error happened in.
   */
  render(source: TemplateSource, context: object, data: Record<string, unknown> = {}, options: RenderOptions = {}): { text: string; sourceMap: SourceMap } {
    const limit = options.maxRenderedBytes ?? DEFAULT_MAX_RENDERED_BYTES;
    let text: string;
    this.#denied = undefined;
    this.#fromNothing.clear();
    try {
      const plain = this.#plainEnvironment();
      const key = `${source.file}\0${source.body}`;
      let template = plain.templates.get(key);
      if (!template) {
        // Read and checked as the marked render reads it (unknown helpers in any branch, syntax),
        // and compiled from that same tree rather than parsed again.
        const program = parseTemplate(source);
        plain.templates.set(key, (template = plain.hb.compile(program as unknown as string, { noEscape: true, strict: true })));
      }
      text = template(context, { data: { ...data, [BUDGET]: new RenderBudget(limit) } });
    } catch {
      // Again with markers, which place the error (and stop at the same limit when it was the size).
      return this.#marked(source, context, { ...data, [BUDGET]: new RenderBudget(limit) });
    }
    // A helper's argument (`{{#if name.constructor}}`) is looked up leniently: a member read as nothing there would pass unseen.
    if (this.#denied !== undefined) throw this.#deniedError(this.#denied, source);
    // So is a `../` path that climbs above the outermost context (`{{#if ../../a}}`): it reads nothing, always.
    const climbed = this.#fromNothing.size === 0 ? undefined : this.#climbing(source).find((p) => this.#fromNothing.has(p.head));
    if (climbed !== undefined) throw climbError(climbed, source);
    // Text outside every block is not charged as it is made: it is at most the template's length times its values'.
    if (text.length > limit || Buffer.byteLength(text, 'utf8') > limit) throw tooLarge(limit, { file: source.file, line: source.bodyLine });
    // The map's render repeats one that fit: no budget, or the markers it adds could pass the limit.
    return { text, sourceMap: SourceMap.deferred(text, () => this.#marked(source, context, data).sourceMap) };
  }

  /** The render with markers: the text and its source map. A text that already holds the marker code points renders without a map rather than with a wrong one. */
  #marked(source: TemplateSource, context: object, data: Record<string, unknown>): { text: string; sourceMap: SourceMap } {
    this.#denied = undefined;
    try {
      if (this.#partialsHoldMarkers || hasMarkers(source.body) || hasMarkers(JSON.stringify(context) ?? '')) {
        const plain = this.#plainEnvironment();
        const key = `${source.file}\0${source.body}`;
        let template = plain.templates.get(key);
        if (!this.#programs.has(`\0${key}`)) this.#programs.set(`\0${key}`, { source, program: parseTemplate(source) });
        if (!template) plain.templates.set(key, (template = plain.hb.compile(this.#programs.get(`\0${key}`)!.program as unknown as string, { noEscape: true, strict: true })));
        const text = this.#attribute(source, () => template(context, { data }));
        return { text, sourceMap: emptySourceMap(text) };
      }
      const key = `${source.file}\0${source.bodyLine}\0${source.body}`;
      let template = this.#templates.get(key);
      if (!template) {
        const program = parseTemplate(source);
        this.#programs.set(`\0${key}`, { source, program });
        template = this.#hb.compile(instrument(program, source, this.#table) as unknown as string, { noEscape: true, strict: true });
        this.#templates.set(key, template);
      }
      const recorder = new RegionRecorder();
      const marked = this.#attribute(source, () => template(context, { data: { ...data, [RECORDER]: recorder } }));
      const { text, map } = decode(marked, this.#table, recorder);
      return { text, sourceMap: map };
    } catch (error) {
      throw this.#toInputError(error, source);
    }
  }

  /** Renders a named partial alone with `context`, as `{{> name this}}` would. */
  renderPartial(name: string, context: object, data: Record<string, unknown> = {}, usedBy?: { file: string; line?: number }, options: RenderOptions = {}): { text: string; sourceMap: SourceMap } {
    const source = this.#partials.get(name);
    if (!source) {
      throw new InputError('render/unknown-partial', unknownPartialMessage(name, [...this.#partials.keys()]), usedBy ?? {});
    }
    // A partial rendered alone is a template whose body is `{{> name this}}`, declared where it is used.
    return this.render({ file: usedBy?.file ?? source.file, body: `{{> ${name} this}}`, bodyLine: usedBy?.line ?? 1 }, context, data, options);
  }

  /** Tags an error with the innermost template it was thrown in. */
  #attribute(source: TemplateSource, run: () => string): string {
    try {
      return run();
    } catch (error) {
      if (typeof error === 'object' && error !== null && !(located in error)) Object.assign(error, { [located]: source });
      throw error;
    }
  }

  /**
   * A render that ran out of stack: partials that include each other with nothing to stop them
   * (named, at the include that closes the loop), else a recursion the data drives too deep.
   */
  #tooDeep(error: RangeError, file: string | undefined): InputError {
    const uses = (name: string): string[] => {
      const program = this.#programs.get(name)?.program;
      return program === undefined ? [] : [...this.#partials.keys()].filter((other) => findPartialUse(program, other) !== undefined);
    };
    const done = new Set<string>();
    const path: string[] = [];
    const loop = (name: string): string[] | undefined => {
      const at = path.indexOf(name);
      if (at !== -1) return [...path.slice(at), name];
      if (done.has(name)) return undefined;
      path.push(name);
      for (const next of uses(name)) {
        const found = loop(next);
        if (found) return found;
      }
      path.pop();
      done.add(name);
      return undefined;
    };
    // An include at the top of a partial's body always runs; one inside a block runs as the data says.
    const always = (from: string, to: string): boolean =>
      (this.#programs.get(from)?.program.body ?? []).some((st) => (st.type === 'PartialStatement' || st.type === 'PartialBlockStatement') && (st.name as { original?: unknown })?.original === to);
    for (const name of this.#partials.keys()) {
      const cycle = loop(name);
      if (!cycle || !cycle.slice(1).every((to, i) => always(cycle[i]!, to))) continue;
      const [last, first] = [cycle.at(-2)!, cycle.at(-1)!];
      const from = this.#programs.get(last)!;
      const hit = findPartialUse(from.program, first);
      const chain = cycle.map((n) => `\`${n}\``).join(' includes ');
      return new InputError(
        'render/failed',
        `Template failed to render: partials include each other without end (${chain}), expected an \`{{#if}}\` or \`{{#each}}\` around the include that stops it`,
        { file: from.source.file, ...(hit ? { line: hit.line + from.source.bodyLine - 1, column: hit.column } : {}) },
        { cause: error },
      );
    }
    return new InputError('render/failed', 'Template failed to render: it nests deeper than the stack allows (a partial that includes itself for each level of the data, or data nested that deep), expected fewer levels', { file }, { cause: error });
  }

  /** The parsed program of a template this environment rendered. */
  #programOf(source: TemplateSource): Program | undefined {
    for (const { source: s, program } of this.#programs.values()) if (s === source || (s.file === source.file && s.body === source.body)) return program;
    try {
      return parseTemplate(source);
    } catch {
      return undefined;
    }
  }

  /** The `../` paths of a template. */
  #climbing(source: TemplateSource): ReturnType<typeof climbingPaths> {
    return climbingPaths(this.#programOf(source));
  }

  /** The error for an inherited member a render read, at the first path that names it (in the template, else in a partial). */
  #deniedError(name: string, source: TemplateSource): InputError {
    const candidates: Array<{ source: TemplateSource; program: Program | undefined }> = [{ source, program: this.#programOf(source) }, ...[...this.#partials.values()].map((p) => ({ source: p, program: this.#programOf(p) }))];
    for (const { source: s, program } of candidates) {
      const path = pathsOf(program).find((p) => p.parts.includes(name));
      if (path) {
        return new InputError(
          'render/missing-variable',
          `Unexpected \`${name}\` in \`${path.original}\`: it is a member the value inherits from JavaScript (as \`constructor\`, \`toString\` and \`__proto__\` are), not data of the case, and templates may not read inherited members; expected a field the case gives`,
          { file: s.file, line: path.line + s.bodyLine - 1, column: path.column },
        );
      }
    }
    return new InputError('render/missing-variable', `Unexpected \`${name}\`: the template reads a member values inherit from JavaScript, not data of the case; expected a field the case gives`, { file: source.file });
  }

  /** Every path of a template. */
  #paths(source: TemplateSource): ReturnType<typeof pathsOf> {
    return pathsOf(this.#programOf(source));
  }

  #toInputError(error: unknown, fallback: TemplateSource | undefined): unknown {
    if (error instanceof InputError || !(error instanceof Error)) return error;
    const source = ((error as unknown as Record<symbol, TemplateSource>)[located] ?? fallback) as TemplateSource | undefined;
    const file = source?.file;
    if (error instanceof RangeError) return this.#tooDeep(error, file);
    if (error instanceof RenderTooLarge) {
      return tooLarge(error.limit, { file, ...(error.loc ? { line: error.loc.line + (source?.bodyLine ?? 1) - 1, column: error.loc.column } : { line: source?.bodyLine }) }, error);
    }
    const inherited = /^lookup: "(.+)" is only inherited by (.+) - (\d+):(\d+)$/s.exec(error.message);
    if (inherited) {
      const [, name, what, line, column] = inherited;
      return new InputError(
        'render/missing-variable',
        `Unexpected \`${name}\` read by \`lookup\` from ${what}: it is a member every such value inherits from JavaScript, not data of the case, and templates may not read inherited members; expected the name of a field the case gives`,
        { file, line: Number(line) + (source?.bodyLine ?? 1) - 1, column: Number(column) + 1 },
        { cause: error },
      );
    }
    const denied = this.#denied;
    const notDefined = /^"(.+)" not defined in .* - (\d+):(\d+)$/.exec(error.message);
    if (denied !== undefined && notDefined && source) {
      const line = Number(notDefined[2]);
      const column = Number(notDefined[3]) + 1;
      const path = this.#paths(source).find((p) => p.line === line && p.column === column && p.parts.slice(0, -1).includes(denied));
      if (path) {
        return new InputError(
          'render/missing-variable',
          `Unexpected \`${denied}\` in \`${path.original}\`: it is a member the value inherits from JavaScript (as \`constructor\`, \`toString\` and \`__proto__\` are), not data of the case, and templates may not read inherited members; expected a field the case gives`,
          { file, line: line + source.bodyLine - 1, column },
          { cause: error },
        );
      }
    }
    // A `../` path that climbs above the outermost context reads a property of nothing.
    const nothing = /^Cannot read properties of (?:undefined|null) \(reading '(.+)'\)$/.exec(error.message) ?? /^"(.+)" not defined in (?:undefined|null) - (\d+):(\d+)$/.exec(error.message);
    if (nothing && source) {
      const paths = this.#climbing(source).filter((p) => p.head === nothing[1] && (nothing[2] === undefined || (p.line === Number(nothing[2]) && p.column === Number(nothing[3]) + 1)));
      const path = paths[0];
      if (path) return climbError(path, source, error);
    }
    const missing = /^"(.+)" not defined in .* - (\d+):(\d+)$/.exec(error.message);
    if (missing) {
      // An inherited member in its place (`toString`) is no variable of the case: say why it is not read.
      const why = denied === missing[1] ? ', and the member every value inherits from JavaScript under that name is not read in its place' : '';
      return new InputError('render/missing-variable', `Missing template variable \`${missing[1]}\`: the case does not provide it${why} (give it a value, or \`null\` on purpose)`, {
        file,
        line: Number(missing[2]) + (source?.bodyLine ?? 1) - 1,
        column: Number(missing[3]) + 1,
      }, { cause: error });
    }
    const primitive = /^"(.+)" cannot be read from the (\w+) (.*) - (\d+):(\d+)$/s.exec(error.message);
    if (primitive) {
      const [, name, kind, value] = primitive;
      const shown = value!.length > 40 ? `${value!.slice(0, 37)}...` : value;
      return new InputError('render/missing-variable', `Missing template variable \`${name}\`: it is read from the ${kind} ${shown}, which has no fields; expected a mapping with \`${name}\` in the case`, {
        file,
        line: Number(primitive[4]) + (source?.bodyLine ?? 1) - 1,
        column: Number(primitive[5]) + 1,
      }, { cause: error });
    }
    const partial = /^The partial (.+) could not be found$/.exec(error.message);
    if (partial) {
      const name = partial[1]!;
      let where: { file?: string | undefined; line?: number; column?: number } = { file };
      // The template that threw uses it; any other that does is the next best place.
      const programs = [...this.#programs.values()].sort((a, b) => Number(b.source === source) - Number(a.source === source) || Number(b.source.file === file) - Number(a.source.file === file));
      let computed = false;
      for (const { source: s, program } of programs) {
        const hit = findPartialUse(program, name);
        if (hit) {
          where = { file: s.file, line: hit.line + s.bodyLine - 1, column: hit.column };
          break;
        }
      }
      // No partial written with that name: a computed one gave it (`{{> (lookup . "kind")}}`).
      if (where.line === undefined) {
        for (const { source: s, program } of programs) {
          const hit = findDynamicPartial(program);
          if (hit) {
            where = { file: s.file, line: hit.line + s.bodyLine - 1, column: hit.column };
            computed = true;
            break;
          }
        }
      }
      const known = [...this.#partials.keys()];
      const message =
        computed && (name === 'undefined' || name === 'null' || name === '')
          ? `Unknown partial: a computed partial name (\`{{> (...)}}\`) came out \`${name}\`, expected the name of one of ${known.map((k) => `\`${k}\``).join(', ') || 'none'}; give the case the value it looks up`
          : `${unknownPartialMessage(name, known)}${computed ? ' (the name a computed partial `{{> (...)}}` gave)' : ''}`;
      return new InputError('render/unknown-partial', message, where, { cause: error });
    }
    // Handlebars' own errors that carry a place (`Exception` with its `loc`): at that place in the file.
    const loc = error as unknown as { lineNumber?: unknown; column?: unknown };
    if (typeof loc.lineNumber === 'number' && source) {
      const message = error.message.replace(/ - \d+:\d+$/, '');
      return new InputError('render/failed', `Template failed to render: ${message}`, {
        file,
        line: loc.lineNumber + source.bodyLine - 1,
        ...(typeof loc.column === 'number' ? { column: loc.column + 1 } : {}),
      }, { cause: error });
    }
    return new InputError('render/failed', `Template failed to render: ${error.message}`, { file }, { cause: error });
  }
}
