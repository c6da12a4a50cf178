/**
 * dotprompt rendering: a `.prompt` source (optional YAML frontmatter, a Handlebars body) and
 * its data become a list of messages plus the prompt's metadata (model, config, tools,
 * expanded input/output schemas, `ext` namespaces, the raw frontmatter).
 *
 * The body renders with Handlebars (no HTML escaping, missing values render empty, only
 * known helpers). The helpers `role`, `history`, `section` and `media` print markers
 * (`<<<dotprompt:role:user>>>` and the like) into the text; the text is then cut at the
 * markers into messages and parts. Behaviour follows dotprompt's published specification
 * (github.com/google/dotprompt, spec/), which test/render/dotprompt-spec.test.ts runs.
 *
 * One deliberate difference: `input.default` from the frontmatter fills missing input (as
 * Genkit does when it loads a prompt), not only defaults passed in `options.metadata`.
 */
import type Handlebars from 'handlebars';
import { handlebars } from './handlebars-lib.js';
import { budgetBlocks, budgetData, budgetStop, DEFAULT_MAX_RENDERED_BYTES } from './handlebars.js';
import type { HelperOptions } from 'handlebars';
import { load } from 'js-yaml';
import { InputError } from '../util/errors.js';
import { isRecord, setOwn } from '../util/values.js';
import type { Part, Role } from './messages.js';
import { picoschema, type JsonSchema, type SchemaResolver } from './picoschema.js';
import { templateSyntaxError } from './template-errors.js';

/** A part that only opens a section: `{{section "name"}}` (dotprompt's pending part). */
export interface PendingPart {
  metadata: { pending: true; purpose: string; [key: string]: unknown };
}

export type DotpromptPart = Part | PendingPart;

export interface DotpromptMessage {
  role: Role;
  content: DotpromptPart[];
  metadata?: Record<string, unknown>;
}

/** A tool's definition, as dotprompt's `toolDefs` lists it. */
export interface ToolDefinition {
  name: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
  [key: string]: unknown;
}

/** A prompt's metadata: the frontmatter's reserved keys, after merging and schema expansion. */
export interface DotpromptMetadata {
  name?: string;
  variant?: string;
  version?: string;
  description?: string;
  model?: string;
  /** Tool names not found in `options.tools` (found ones move to `toolDefs`). */
  tools?: string[];
  toolDefs?: ToolDefinition[];
  config?: Record<string, unknown>;
  input?: { default?: Record<string, unknown>; schema?: unknown; [key: string]: unknown };
  output?: { format?: string; schema?: unknown; [key: string]: unknown };
  /** The frontmatter exactly as parsed, reserved keys or not. */
  raw?: Record<string, unknown>;
  /** `a.b: v` frontmatter keys, by namespace (everything before the last dot): `{a: {b: v}}`. */
  ext?: Record<string, Record<string, unknown>>;
  metadata?: Record<string, unknown>;
}

export interface DotpromptData {
  /** The template's variables. */
  input?: Record<string, unknown>;
  /** Data variables: `context.state` is `{{@state}}`, `context.auth` is `{{@auth}}`, and so on. */
  context?: Record<string, unknown>;
  /** Conversation history: where `{{history}}` is, or else before the last user message. */
  messages?: DotpromptMessage[];
  /** Retrieved documents, as `{{@metadata.docs}}`. */
  docs?: unknown[];
}

export interface DotpromptOptions {
  /** The source's file, as errors name it (`<prompt>` by default). */
  file?: string;
  /** Partials by name, for `{{> name}}`. */
  partials?: Record<string, string>;
  /** Asked for a partial the template (or a partial) uses that `partials` does not have. */
  resolvePartial?: (name: string) => string | null | undefined;
  /** Named schemas for Picoschema (`schema: Foo`). */
  schemas?: Record<string, JsonSchema>;
  resolveSchema?: SchemaResolver;
  /** Rendered size the render stops at, with `render/too-large` (4 MiB by default). */
  maxRenderedBytes?: number;
  /** Tool definitions by name: frontmatter `tools` found here are listed in `toolDefs`. */
  tools?: Record<string, ToolDefinition>;
  /** Picks the `modelConfigs` entry when neither the frontmatter nor `metadata` names a model. */
  defaultModel?: string;
  /** Base `config` for a model, under the prompt's own `config`. */
  modelConfigs?: Record<string, Record<string, unknown>>;
  /** Metadata laid over the frontmatter (dotprompt's `render` options): `config` merges key by key, other keys replace. */
  metadata?: DotpromptMetadata;
}

export interface RenderedDotpromptMetadata extends DotpromptMetadata {
  config: Record<string, unknown>;
  ext: Record<string, Record<string, unknown>>;
  metadata: Record<string, unknown>;
}

export interface RenderedDotprompt extends RenderedDotpromptMetadata {
  messages: DotpromptMessage[];
}

export interface ParsedDotprompt extends RenderedDotpromptMetadata {
  /** The body: after frontmatter, trimmed; the whole source when there is no frontmatter. */
  template: string;
  /** The 1-based line of the source the body starts on. */
  templateLine?: number;
}

/** Frontmatter keys that are metadata; any other key is only in `raw` (or `ext` when dotted). */
const RESERVED = new Set(['config', 'description', 'ext', 'input', 'model', 'name', 'output', 'raw', 'toolDefs', 'tools', 'variant', 'version']);

// Leading blank or `#` comment lines, a `---` line, the YAML, a `---` line, the body.
const FRONTMATTER = /^(?:(?:#[^\r\n]*|[ \t]*)(?:\r\n|\r|\n))*---[ \t]*(?:\r\n|\r|\n)([\s\S]*?)(?:\r\n|\r|\n)---[ \t]*(?:\r\n|\r|\n|$)([\s\S]*)$/;

/** Splits frontmatter from body and sorts the frontmatter's keys into metadata, `ext` and `raw`. */
export function parseDotprompt(source: string, file = '<prompt>'): ParsedDotprompt {
  const base = (): ParsedDotprompt => ({ config: {}, ext: {}, metadata: {}, template: source });
  const match = FRONTMATTER.exec(source);
  if (!match) return base();
  const [, yaml = '', body = ''] = match;
  const yamlLine = source.slice(0, match[0].length - body.length - yaml.length).split(/\r\n|\r|\n/).length - 1;
  let value: unknown;
  try {
    value = load(yaml);
  } catch (error) {
    const mark = (error as { mark?: { line?: number; column?: number } }).mark;
    const at = typeof mark?.line === 'number' ? { line: mark.line + yamlLine + 1, ...(typeof mark.column === 'number' ? { column: mark.column + 1 } : {}) } : {};
    throw new InputError('config/yaml-syntax', `YAML syntax error in the frontmatter: ${(error as Error).message}`, { file, ...at }, { cause: error });
  }
  if (value === null || value === undefined) value = {};
  if (!isRecord(value)) throw new InputError('config/invalid', `Expected the frontmatter to be a mapping of keys, got ${JSON.stringify(value)}`, { file });
  const parsed = metadataFromFrontmatter(value, body.trim());
  const skipped = body.slice(0, body.length - body.trimStart().length);
  parsed.templateLine = source.slice(0, source.length - body.length).split(/\r\n|\r|\n/).length + (skipped.match(/\r\n|\r|\n/g)?.length ?? 0);
  return parsed;
}

/** A parsed frontmatter's keys sorted into metadata (the reserved keys), `ext` (dotted keys) and `raw` (all of them). */
export function metadataFromFrontmatter(value: Record<string, unknown>, template = ''): ParsedDotprompt {
  const out: ParsedDotprompt = { config: {}, ext: {}, metadata: {}, template };
  const ext: Record<string, Record<string, unknown>> = {};
  for (const [key, v] of Object.entries(value)) {
    if (RESERVED.has(key)) {
      (out as unknown as Record<string, unknown>)[key] = v;
    } else if (key.includes('.')) {
      const dot = key.lastIndexOf('.');
      const ns = key.slice(0, dot);
      if (!Object.hasOwn(ext, ns)) setOwn(ext, ns, {});
      setOwn(ext[ns]!, key.slice(dot + 1), v);
    }
  }
  out.raw = { ...value };
  out.ext = ext;
  return out;
}

function dropUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(dropUndefined) as T;
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) setOwn(out, k, dropUndefined(v));
  return out as T;
}

/**
 * The prompt's metadata, without rendering the body: frontmatter, then `options.metadata`
 * over it (model config from `options.modelConfigs` under both), tools resolved against
 * `options.tools`, input and output schemas expanded from Picoschema.
 */
export function renderDotpromptMetadata(source: string | ParsedDotprompt, options: DotpromptOptions = {}): RenderedDotpromptMetadata {
  const parsed = typeof source === 'string' ? parseDotprompt(source) : source;
  const { template: _template, templateLine: _line, ...fromFile } = parsed;
  const overrides = options.metadata;
  const model = overrides?.model ?? fromFile.model ?? options.defaultModel;
  const modelConfig = model !== undefined && options.modelConfigs && Object.hasOwn(options.modelConfigs, model) ? options.modelConfigs[model] : undefined;

  let out: Record<string, unknown> = modelConfig ? { config: { ...modelConfig } } : {};
  for (const layer of [fromFile, overrides]) {
    if (!layer) continue;
    const config = { ...(isRecord(out.config) ? out.config : {}), ...(isRecord(layer.config) ? layer.config : {}) };
    out = { ...out, ...layer, config };
  }
  const meta = dropUndefined(out) as unknown as RenderedDotpromptMetadata;
  meta.config ??= {};
  meta.ext ??= {};
  meta.metadata ??= {};

  if (meta.tools !== undefined) {
    if (!Array.isArray(meta.tools) || meta.tools.some((t) => typeof t !== 'string')) {
      throw new InputError('config/invalid', `Expected \`tools\` to be a list of tool names, got ${JSON.stringify(meta.tools)}`);
    }
    const defs = [...(meta.toolDefs ?? [])];
    const unknown: string[] = [];
    for (const name of meta.tools) {
      const def = options.tools && Object.hasOwn(options.tools, name) ? options.tools[name] : undefined;
      if (def) defs.push(def);
      else unknown.push(name);
    }
    meta.toolDefs = defs;
    meta.tools = unknown;
  }

  const schemaOptions = { ...(options.schemas ? { schemas: options.schemas } : {}), ...(options.resolveSchema ? { resolveSchema: options.resolveSchema } : {}) };
  for (const key of ['input', 'output'] as const) {
    const section = meta[key];
    if (!isRecord(section) || !section.schema) continue;
    const schema = picoschema(section.schema, schemaOptions);
    meta[key] = { ...section, ...(schema ? { schema } : {}) };
  }
  return meta;
}

const MARKER_PREFIX = '<<<dotprompt:';
const ROLE_OR_HISTORY = /(<<<dotprompt:(?:role:[a-z]+|history))>>>/g;
const MEDIA_OR_SECTION = /(<<<dotprompt:(?:media:url|section).*?)>>>/g;

/** The helpers dotprompt defines; markers come out as plain text (the body is never HTML-escaped). */
function dotpromptHelpers(): Record<string, Handlebars.HelperDelegate> {
  return {
    json(value: unknown, options: HelperOptions) {
      const indent = options.hash?.indent as number | string | undefined;
      return JSON.stringify(value, null, indent || 0) ?? '';
    },
    role(role: unknown) {
      return `${MARKER_PREFIX}role:${String(role)}>>>`;
    },
    history() {
      return `${MARKER_PREFIX}history>>>`;
    },
    section(name: unknown) {
      return `${MARKER_PREFIX}section ${String(name)}>>>`;
    },
    media(options: HelperOptions) {
      const { url, contentType } = options.hash as { url?: unknown; contentType?: unknown };
      return `${MARKER_PREFIX}media:url ${String(url)}${contentType ? ` ${String(contentType)}` : ''}>>>`;
    },
    ifEquals(this: unknown, a: unknown, b: unknown, options: HelperOptions) {
      return a === b ? options.fn(this) : options.inverse(this);
    },
    unlessEquals(this: unknown, a: unknown, b: unknown, options: HelperOptions) {
      return a !== b ? options.fn(this) : options.inverse(this);
    },
  };
}

/** The file line (and column) of a Handlebars error that has a place in the body starting at `bodyLine`; the body's first line if it has none. */
function placeOf(error: unknown, bodyLine: number): { line: number; column?: number } {
  const e = error as { lineNumber?: unknown; column?: unknown; message?: unknown };
  if (typeof e.lineNumber === 'number') return { line: e.lineNumber + bodyLine - 1, ...(typeof e.column === 'number' ? { column: e.column + 1 } : {}) };
  const at = typeof e.message === 'string' ? / - (\d+):(\d+)$/.exec(e.message) : null;
  if (at) return { line: Number(at[1]) + bodyLine - 1, column: Number(at[2]) + 1 };
  return { line: bodyLine };
}

/** Names of the partials a template calls by a fixed name (`{{> name}}`, `{{#> name}}`). */
function partialNames(template: string): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (!isRecord(node)) return;
    if ((node.type === 'PartialStatement' || node.type === 'PartialBlockStatement') && isRecord(node.name) && node.name.type === 'PathExpression' && typeof node.name.original === 'string') {
      names.add(node.name.original);
    }
    for (const [key, child] of Object.entries(node)) if (key !== 'loc' && typeof child === 'object') visit(child);
  };
  visit(handlebars().parse(template));
  return names;
}

/** Cuts `text` at `regex`'s markers, dropping pieces that are only whitespace. */
function pieces(text: string, regex: RegExp): string[] {
  return text.split(regex).filter((piece) => piece.trim() !== '');
}

function toPart(piece: string): DotpromptPart {
  if (piece.startsWith(`${MARKER_PREFIX}media:url`)) {
    const [, url = '', contentType] = piece.split(' ');
    return { media: contentType ? { url, contentType } : { url } };
  }
  if (piece.startsWith(`${MARKER_PREFIX}section`)) {
    const [, purpose = ''] = piece.split(' ');
    return { metadata: { purpose, pending: true } };
  }
  return { text: piece };
}

type Pending = { role: Role; source: string } | { role: Role; content: DotpromptPart[]; metadata?: Record<string, unknown> };

/**
 * The rendered text as messages: role markers start a new message (or, before any text,
 * change the role of the current one); a history marker puts the history there, marked
 * `purpose: history`, and what follows is a model turn until a role marker says otherwise.
 * Without a history marker, the history goes before the last message when that is a user
 * message, else at the end. Text before any marker is a user message.
 */
export function toMessages(rendered: string, history?: DotpromptMessage[]): DotpromptMessage[] {
  let current: { role: Role; source: string } = { role: 'user', source: '' };
  const pending: Pending[] = [current];
  for (const piece of pieces(rendered, ROLE_OR_HISTORY)) {
    if (piece.startsWith(`${MARKER_PREFIX}role:`)) {
      const role = piece.slice(`${MARKER_PREFIX}role:`.length) as Role;
      if (current.source.trim()) pending.push((current = { role, source: '' }));
      else current.role = role;
    } else if (piece === `${MARKER_PREFIX}history`) {
      for (const m of history ?? []) pending.push({ ...m, metadata: { ...m.metadata, purpose: 'history' } });
      pending.push((current = { role: 'model', source: '' }));
    } else {
      current.source += piece;
    }
  }
  const messages: DotpromptMessage[] = [];
  for (const p of pending) {
    if ('source' in p) {
      if (p.source) messages.push({ role: p.role, content: pieces(p.source, MEDIA_OR_SECTION).map(toPart) });
    } else messages.push(p);
  }
  if (!history || messages.some((m) => m.metadata?.purpose === 'history')) return messages;
  if (messages.length === 0) return [...history];
  const last = messages[messages.length - 1]!;
  return last.role === 'user' ? [...messages.slice(0, -1), ...history, last] : [...messages, ...history];
}

/**
 * Renders a dotprompt source with its data: the messages and the metadata
 * (`renderDotpromptMetadata`). Template variables are `data.input` over `input.default`;
 * `data.context` keys are data variables (`{{@state.x}}`); `{{@metadata.prompt}}`,
 * `{{@metadata.docs}}` and `{{@metadata.messages}}` are the metadata (without `input`),
 * the documents and the history.
 */
export function renderDotprompt(source: string, data: DotpromptData = {}, options: DotpromptOptions = {}): RenderedDotprompt {
  const file = options.file ?? '<prompt>';
  const parsed = parseDotprompt(source, file);
  const { templateLine: bodyLine = 1, ...unplaced } = parsed;
  const meta = renderDotpromptMetadata(unplaced, options);

  const hb = handlebars().create();
  const helpers = dotpromptHelpers();
  for (const [name, fn] of Object.entries(helpers)) hb.registerHelper(name, fn);
  budgetBlocks(hb);
  const knownHelpers = Object.fromEntries(Object.keys(helpers).map((name) => [name, true])) as Record<string, true>;
  for (const [name, text] of Object.entries(options.partials ?? {})) hb.registerPartial(name, text);

  let template: Handlebars.TemplateDelegate;
  // Handlebars compiles on the first call: a syntax error is found here, and told in words at its tag.
  try {
    handlebars().parse(parsed.template);
  } catch (syntax) {
    throw templateSyntaxError({ file, body: parsed.template, bodyLine }, syntax);
  }
  try {
    // Partials a resolver supplies, and the partials those use, registered before compiling.
    if (options.resolvePartial) {
      const queue = [parsed.template];
      const seen = new Set<string>();
      while (queue.length) {
        for (const name of partialNames(queue.pop()!)) {
          if (seen.has(name) || Object.hasOwn(hb.partials, name)) continue;
          seen.add(name);
          const text = options.resolvePartial(name);
          if (!text) continue;
          hb.registerPartial(name, text);
          queue.push(text);
        }
      }
    }
    template = hb.compile(parsed.template, { noEscape: true, knownHelpers, knownHelpersOnly: true });
  } catch (error) {
    throw new InputError('render/syntax', `Template does not compile: ${(error as Error).message}`, { file, ...placeOf(error, bodyLine) }, { cause: error });
  }

  const { input: _input, ...promptMetadata } = meta;
  const defaults = isRecord(meta.input?.default) ? meta.input.default : {};
  let rendered: string;
  try {
    const limit = options.maxRenderedBytes ?? DEFAULT_MAX_RENDERED_BYTES;
    rendered = template(
      { ...defaults, ...(data.input ?? {}) },
      {
        data: budgetData({ metadata: { prompt: promptMetadata, docs: data.docs, messages: data.messages }, ...(data.context ?? {}) }, limit),
        // Inherited members (`toString`, `constructor`) stay unread, as by default; without these two options
        // Handlebars also writes "Access has been denied" to the console of whoever renders, once a name.
        allowProtoPropertiesByDefault: false,
        allowProtoMethodsByDefault: false,
      },
    );
    if (rendered.length > limit || Buffer.byteLength(rendered, 'utf8') > limit) throw new RangeError(`rendered text over ${limit} bytes`);
  } catch (error) {
    const stopped = budgetStop(error) ?? (error instanceof RangeError && /^rendered text over/.test(error.message) ? (options.maxRenderedBytes ?? DEFAULT_MAX_RENDERED_BYTES) : undefined);
    if (stopped !== undefined) {
      throw new InputError('render/too-large', `Unexpected rendered text over ${stopped} bytes: the template makes more text than any prompt a model takes (loops nested over long lists?), so the render stopped; expected a smaller render, or a higher \`maxRenderedBytes\``, { file, line: bodyLine }, { cause: error });
    }
    const message = (error as Error).message.replace(/ - \d+:\d+$/, '');
    // An unknown helper is known only when Handlebars compiles, on the first call: it is the template's, not the data's.
    if (/knownHelpersOnly/.test(message)) throw new InputError('render/syntax', `Template does not compile: ${message}`, { file, ...placeOf(error, bodyLine) }, { cause: error });
    throw new InputError('render/failed', `Template failed to render: ${message}`, { file, ...placeOf(error, bodyLine) }, { cause: error });
  }
  return { ...meta, messages: toMessages(rendered, data.messages) };
}
