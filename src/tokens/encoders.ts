/**
 * The tokenizers, each loaded the first time a count needs it: an encoding's tables take a
 * sixth of a second to load, and a run whose cases all use one encoding never loads the other.
 * Loaded with `require` so that a count stays synchronous inside the case checks.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { InputError } from '../util/errors.js';
import { readRegularFileSync } from '../util/files.js';

const require = createRequire(import.meta.url);

/** A function from text to its number of tokens. */
export type Counter = (text: string) => number;

export type EncodingName = 'o200k_base' | 'cl100k_base';

interface GptEncodingModule {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

const encodings = new Map<EncodingName, Counter>();

/**
 * Whether a text may be cut at `at`, just after a run of line breaks, the counts of the two
 * parts adding up to the whole text's. In both encodings' pre-tokenizer patterns (as
 * gpt-tokenizer writes them) a run of line breaks, with any white space before it on its line,
 * ends a piece: a piece of its own (o200k `\s*[\r\n]+`; cl100k `\s*[\r\n]`, or `\s+$` where the
 * text ends, which takes the same run) or the tail of a punctuation piece (`[\r\n]*`, in o200k
 * `[\r\n/]*`). No other piece starts with a line break, and byte-pair merges never cross
 * pieces. So the cut may come before a printable ASCII character other than `/` (o200k's
 * punctuation tail takes a slash after line breaks), or before an indent of plain spaces that a
 * printable ASCII character ends: a line-break piece takes the spaces after it only when more
 * white space and a line break follow them, and a space stops the punctuation tail. Not before
 * other white space, nor before anything outside ASCII, left uncut rather than told from
 * Unicode's spaces. Named texts and the real-world prompts in test/tokens hold the rule to it.
 */
function cutsAt(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (c !== 32) return c > 32 && c < 127 && c !== 47;
  let after = at + 1;
  while (text.charCodeAt(after) === 32) after++;
  const d = text.charCodeAt(after);
  return d > 32 && d < 127;
}

/**
 * Characters of text a memo keeps before it starts again (each encoding has two, paragraphs and
 * lines), and the longest piece it keeps at all: a longer one is counted each time it comes.
 */
const MAX_KEPT_CHARS = 4_000_000;
const MAX_PIECE_CHARS = 1_000_000;

/**
 * Counts `text` piece by piece, cut after each run of `breaks` where {@link cutsAt} allows, each
 * piece's count kept: only the pieces that differ between cases are counted by `count`.
 */
function byPieces(count: Counter, breaks: '\n' | '\n\n'): Counter {
  const known = new Map<string, number>();
  let kept = 0;
  const piece = (part: string): number => {
    let n = known.get(part);
    if (n === undefined) {
      n = count(part);
      if (part.length > MAX_PIECE_CHARS) return n;
      if (kept + part.length > MAX_KEPT_CHARS) {
        known.clear();
        kept = 0;
      }
      // A copy is kept, not the slice: a slice holds on to the whole text of its case, and
      // thousands of them weigh on every collection. Slicing a joined string copies it whole
      // first, every UTF-16 unit as it is (a lone surrogate included), so the key is the piece.
      known.set(` ${part}`.slice(1), n);
      kept += part.length;
    }
    return n;
  };
  return (text) => {
    let total = 0;
    let start = 0;
    // A scan with indexOf rather than a regular expression: a case has hundreds of lines, and a match object each cost more than counting them.
    for (let at = text.indexOf(breaks); at !== -1; ) {
      let next = at + breaks.length;
      while (text.charCodeAt(next) === 10) next++;
      if (next >= text.length) break;
      if (cutsAt(text, next)) {
        total += piece(text.slice(start, next));
        start = next;
      }
      at = text.indexOf(breaks, next);
    }
    return total + piece(text.slice(start));
  };
}

/**
 * Counts paragraph by paragraph, and a paragraph not seen before line by line: the cases of one
 * prompt share most of their paragraphs, and a paragraph that differs mostly differs in a line
 * or two. Paragraph cuts are line cuts too (after two or more line breaks), so both grains
 * give the whole text's count.
 */
const memoized = (count: Counter): Counter => byPieces(byPieces(count, '\n'), '\n\n');

/** Special-token text (`<|endoftext|>`) in a prompt is counted as the ordinary text an API reads it as, never refused. */
const asText = { disallowedSpecial: new Set<string>() };

/** The exact counter of one of OpenAI's encodings, as gpt-tokenizer ships it (no download). */
export function encodingCounter(name: EncodingName): Counter {
  let counter = encodings.get(name);
  if (counter === undefined) {
    const mod = require(`gpt-tokenizer/encoding/${name}`) as GptEncodingModule;
    counter = memoized((text) => (text === '' ? 0 : mod.countTokens(text, asText)));
    encodings.set(name, counter);
  }
  return counter;
}

interface HfTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): { ids: number[] };
}

/** Loaded `tokenizer.json` files by absolute path, with the file's size and time (an edited file is read again; a tokenizer file runs to megabytes, read once). */
const jsonTokenizers = new Map<string, { stamp: string; counter: Counter }>();

function stampOf(file: string): string | undefined {
  try {
    const s = statSync(file);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** Where a `tokenizerJson` setting is written, for the errors that name it. */
export interface SettingPlace {
  file?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
}

/**
 * The counter of an open model's `tokenizer.json`, through `@huggingface/tokenizers` (an
 * optional peer dependency). A missing package, an unreadable file or one that does not parse
 * is an InputError at the setting that names it: the run cannot give the count it was asked for.
 */
export function tokenizerJsonCounter(file: string, shown: string, place: SettingPlace): Counter {
  const stamp = stampOf(file);
  const known = jsonTokenizers.get(file);
  if (known && stamp !== undefined && known.stamp === stamp) return known.counter;
  let text: string;
  try {
    text = readRegularFileSync(file);
  } catch (error) {
    throw new InputError('config/tokenizer', `Cannot read the tokenizer file \`${shown}\` (${(error as Error).message}); expected the path of a model's tokenizer.json, relative to the file that names it`, place, { cause: error });
  }
  let Tokenizer: new (json: object, config: object) => HfTokenizer;
  try {
    ({ Tokenizer } = require('@huggingface/tokenizers') as { Tokenizer: typeof Tokenizer });
  } catch (error) {
    throw new InputError('config/tokenizer', `Cannot count with \`${shown}\`: the package \`@huggingface/tokenizers\` is not installed; expected it installed beside prompt-contract (npm install --save-dev @huggingface/tokenizers), or another \`tokenizer\``, place, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputError('config/tokenizer', `Cannot parse the tokenizer file \`${shown}\`: ${(error as Error).message}; expected a model's tokenizer.json`, place, { cause: error });
  }
  let tokenizer: HfTokenizer;
  try {
    if (typeof json !== 'object' || json === null || !('model' in json)) throw new Error('it has no `model`');
    tokenizer = new Tokenizer(json, {});
    tokenizer.encode('a');
  } catch (error) {
    throw new InputError('config/tokenizer', `Cannot read the tokenizer file \`${shown}\` as a tokenizer: ${(error as Error).message}; expected a model's tokenizer.json`, place, { cause: error });
  }
  // The text as the model reads it, without the begin and end markers a template adds around a whole conversation.
  const counter: Counter = (t) => (t === '' ? 0 : tokenizer.encode(t, { add_special_tokens: false }).ids.length);
  if (stamp !== undefined) jsonTokenizers.set(file, { stamp, counter });
  return counter;
}
