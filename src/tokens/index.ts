/**
 * Token counts of a rendered case: the prompt as sent and the tools sent beside it, with the
 * tokenizer of the case's model family. OpenAI's encodings are exact (gpt-tokenizer ships
 * them); an open model's `tokenizer.json` is exact through `@huggingface/tokenizers`; Anthropic
 * and Gemini publish no offline tokenizer for current models, so their figure is an estimate
 * that says what it was counted with. See docs/tokens.md.
 */
import type { RenderedCase } from '../render/render.js';
import type { ToolSpec } from '../tools/types.js';
import { shapeOfModel, toWire, type Shape } from '../render/wire.js';
import { toolsAsSent } from '../snapshot/tools-wire.js';
import { encodingCounter, tokenizerJsonCounter, type Counter, type SettingPlace } from './encoders.js';

export type { SettingPlace } from './encoders.js';

/** A case's token count, as the snapshot header's `tokens:` line states it. */
export interface TokenCount {
  prompt: number;
  tools: number;
  total: number;
  /** The tokenizer's name: `o200k_base`, `cl100k_base`, `anthropic-estimate`, `gemini-estimate`, or a tokenizer.json path. */
  tokenizer: string;
  exact: boolean;
  /** For an estimate: what it was counted with, and why. */
  note?: string;
}

/** The tokenizers a `tokenizer` setting names, besides `{ tokenizerJson: 'path' }`. */
export const tokenizerNames = ['o200k_base', 'cl100k_base', 'anthropic-estimate', 'gemini-estimate'] as const;
export type TokenizerName = (typeof tokenizerNames)[number];

/** A `tokenizer` setting in the config, a prompt's frontmatter or a case. */
export type TokenizerSetting = TokenizerName | { tokenizerJson: string };

/** The default when nothing names a tokenizer or a model: the encoding of OpenAI's current models. */
export const DEFAULT_TOKENIZER: TokenizerName = 'o200k_base';

/** The tokenizer a case is counted with, and the setting that chose it. */
export interface CaseTokenizer {
  setting: TokenizerSetting;
  /** As the header line names it: the setting's name, or the tokenizer.json path as written. */
  name: string;
  /** A tokenizer.json's absolute path. */
  file?: string;
  /** What chose it: a case's, a prompt's or the config's `tokenizer`, a case's or prompt's `shape`, a prompt's `model`, the config's `providers`, or the default. */
  from: 'case' | 'prompt' | 'model' | 'shape' | 'config' | 'providers' | 'default';
  /** Where the setting is written, for errors about it. */
  at?: SettingPlace;
}

const estimateNotes: Record<'anthropic-estimate' | 'gemini-estimate', string> = {
  'anthropic-estimate': 'o200k_base count; Anthropic publishes no tokenizer for current models',
  'gemini-estimate': 'o200k_base count; Google publishes no offline tokenizer for current Gemini models',
};

/** True when `value` is a `tokenizer` setting. */
export function isTokenizerSetting(value: unknown): value is TokenizerSetting {
  if (typeof value === 'string') return (tokenizerNames as readonly string[]).includes(value);
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && typeof (value as { tokenizerJson?: unknown }).tokenizerJson === 'string' && (value as { tokenizerJson: string }).tokenizerJson !== '';
}

/** What a `tokenizer` setting may be, for messages. */
export const TOKENIZER_EXPECTED = `one of ${tokenizerNames.map((n) => `\`${n}\``).join(', ')}, or \`{ tokenizerJson: 'path/to/tokenizer.json' }\``;

/**
 * The tokenizer a dotprompt `model` name implies: OpenAI's GPT-4 and GPT-3.5 models count with
 * cl100k_base, its later ones (GPT-4o, 4.1, 4.5, 5, the o-series) with o200k_base; Anthropic
 * and Gemini models get an estimate. Undefined for a model of another family.
 */
export function tokenizerOfModel(model: unknown): TokenizerName | undefined {
  if (typeof model !== 'string') return undefined;
  const provider = shapeOfModel(model);
  if (provider === 'anthropic') return 'anthropic-estimate';
  if (provider === 'gemini') return 'gemini-estimate';
  const name = model.slice(model.indexOf('/') + 1).toLowerCase();
  if (/^(?:gpt-3\.5|gpt-4(?:-|$)|text-embedding-(?:3|ada-002))/.test(name)) return 'cl100k_base';
  if (provider === 'openai' || /^(?:o\d|chatgpt-|gpt-)/.test(name)) return 'o200k_base';
  return undefined;
}

function counterOf(tokenizer: CaseTokenizer): Counter {
  const { setting } = tokenizer;
  if (typeof setting === 'object') return tokenizerJsonCounter(tokenizer.file ?? setting.tokenizerJson, tokenizer.name, tokenizer.at ?? {});
  return encodingCounter(setting === 'cl100k_base' ? 'cl100k_base' : 'o200k_base');
}

/** The provider shape tools are serialised in for a tokenizer: an open model's server takes OpenAI's. */
function toolShape(setting: TokenizerSetting): Shape {
  if (setting === 'anthropic-estimate') return 'anthropic';
  if (setting === 'gemini-estimate') return 'gemini';
  return 'openai';
}

/** Tool counts by tokenizer and serialised tools: every case of a prompt sends the same tools. */
const toolCounts = new Map<string, number>();
const MAX_TOOL_COUNTS = 1000;

/** The tools last counted with each tokenizer: the cases of one prompt come one after another and send the same tool objects, so most counts need no serialising. */
const lastTools = new Map<string, { parts: unknown[]; count: number }>();

/**
 * The fields of a tool its serialised form is made of, compared by identity: a tool object
 * replaced, or a field of it given a new value, is counted again. A change made inside one of
 * those values in place (a schema object edited) is not seen; tools are read as loaded, as the
 * snapshot's own tool text (src/snapshot/format.ts) reads them.
 */
const TOOL_PARTS = 7;

function partsOf(tools: readonly ToolSpec[]): unknown[] {
  const parts: unknown[] = [];
  for (const t of tools) parts.push(t, t.name, t.description, t.inputSchema, t.inputExamples, t.provided, t.strict);
  return parts;
}

/** Whether `tools` are made of the same parts as those last counted; compared in place, as every case asks it. */
function sameParts(parts: readonly unknown[], tools: readonly ToolSpec[]): boolean {
  if (parts.length !== tools.length * TOOL_PARTS) return false;
  let k = 0;
  for (const t of tools) {
    if (parts[k] !== t || parts[k + 1] !== t.name || parts[k + 2] !== t.description || parts[k + 3] !== t.inputSchema || parts[k + 4] !== t.inputExamples || parts[k + 5] !== t.provided || parts[k + 6] !== t.strict) return false;
    k += TOOL_PARTS;
  }
  return true;
}

/** The text of a rendered case as the provider receives it: the prompt verbatim, or each message's text and parts. */
function promptText(rendered: RenderedCase): string {
  if (!rendered.messages || !rendered.conversation) return rendered.text;
  return toWire(rendered.messages, rendered.conversation.shape)
    .flatMap((m) => m.blocks.map((b) => ('text' in b ? b.text : JSON.stringify(b.json))))
    .join('\n');
}

/** The tokenizer used when nothing is set: o200k_base, chosen by default. */
export const defaultTokenizer: CaseTokenizer = { setting: DEFAULT_TOKENIZER, name: DEFAULT_TOKENIZER, from: 'default' };

/**
 * Counts a rendered case: the prompt text as sent, and the tools as compact JSON of the
 * definitions in the shape the tokenizer's provider takes (no provider documents how it
 * lays them out for the model). A missing or unreadable tokenizer.json is an InputError.
 */
export function countRenderedCase(rendered: RenderedCase, tokenizer: CaseTokenizer = defaultTokenizer): TokenCount {
  const count = counterOf(tokenizer);
  const prompt = count(promptText(rendered));
  let tools = 0;
  if (rendered.tools.length > 0) {
    // The tokenizer and the shape its tools are serialised in: a hand-made setting may pair a name with another shape.
    const shape = toolShape(tokenizer.setting);
    const id = `${shape}\u0000${tokenizer.file ?? tokenizer.name}`;
    const last = lastTools.get(id);
    if (last !== undefined && sameParts(last.parts, rendered.tools)) tools = last.count;
    else {
      const json = JSON.stringify(toolsAsSent(rendered.tools, shape));
      const key = `${id}\u0000${json}`;
      const known = toolCounts.get(key);
      if (known !== undefined) tools = known;
      else {
        tools = count(json);
        if (toolCounts.size >= MAX_TOOL_COUNTS) toolCounts.clear();
        toolCounts.set(key, tools);
      }
      lastTools.set(id, { parts: partsOf(rendered.tools), count: tools });
    }
  }
  const setting = tokenizer.setting;
  const estimate = setting === 'anthropic-estimate' || setting === 'gemini-estimate';
  return { prompt, tools, total: prompt + tools, tokenizer: tokenizer.name, exact: !estimate, ...(estimate ? { note: estimateNotes[setting] } : {}) };
}

const TOKEN_LINE = 'tokens: ';

/** The snapshot header's line: `tokens: prompt <n> + tools <m> = <total> (<tokenizer>, exact)` or `(…, estimate: <from what>)`. */
export function formatTokenLine(count: TokenCount): string {
  return `${TOKEN_LINE}prompt ${count.prompt} + tools ${count.tools} = ${count.total} (${count.tokenizer}, ${count.exact ? 'exact' : `estimate: ${count.note ?? 'unknown'}`})`;
}

const exactLine = /^tokens: prompt (\d+) \+ tools (\d+) = (\d+) \((.+), exact\)\r?$/;
const estimateLine = /^tokens: prompt (\d+) \+ tools (\d+) = (\d+) \((.+?), estimate: (.*)\)\r?$/;

/**
 * The token count a snapshot's header states, or undefined when it has none (a snapshot
 * written before counts were added) or it does not read. Only the header is looked at: the
 * lines before the first blank line.
 */
export function parseSnapshotTokens(snapshotText: string): TokenCount | undefined {
  let start = 0;
  for (let n = 0; n < 16 && start < snapshotText.length; n++) {
    let end = snapshotText.indexOf('\n', start);
    if (end === -1) end = snapshotText.length;
    const line = snapshotText.slice(start, end);
    if (line === '' || line === '\r') return undefined;
    if (line.startsWith(TOKEN_LINE)) {
      const exact = exactLine.exec(line);
      const m = exact ?? estimateLine.exec(line);
      if (!m) return undefined;
      const [prompt, tools, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
      return { prompt, tools, total, tokenizer: m[4]!, exact: exact !== null, ...(exact ? {} : { note: m[5]! }) };
    }
    start = end + 1;
  }
  return undefined;
}
