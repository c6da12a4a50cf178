/**
 * A notation: one way of writing a tool call in a prompt. The extractor knows the common
 * ones (each in `notations/`), and a team with a house format teaches it theirs through the
 * same interface, in the config's `notations` list.
 *
 * A notation is two functions:
 * - `find(text, context)` yields the places that are written in the notation: a start and an
 *   end offset, plus whatever else `parse` needs. It is cheap: a regex or a scan, no judgement.
 * - `parse(match, context)` reads one place: the calls it holds, `undefined` when it is not
 *   a call after all (a tag named in prose, a definition), or `{ error }` when it was meant as
 *   a call and does not read as one. A thrown error counts as `{ error: message }`.
 *
 * The extractor runs every notation over the prose of a prompt (and over fences written in a
 * prose language, such as `text` or `xml`), takes the places in text order, and skips a place
 * that starts inside one already read. Every call found is checked for placeholders
 * (`<function-name>`, `$TOOL`, `{{var}}`) before it counts as an example.
 *
 * What a custom notation returns is checked before it is used (`guard.ts`): both functions
 * run synchronously (a Promise is never awaited), places lie inside the text `find` was given,
 * a call's `name` is a non-empty string and its `arguments` JSON data. Anything else is an
 * `example/notation-failed` finding naming the notation and the place, and nothing is taken
 * from that place.
 *
 * `find` and `parse` must return, and quickly: they run inside the extraction, synchronously.
 * A custom notation's call that runs past the time bound (`notationTimeout`, 5 s by default)
 * is stopped by `node:vm`'s watchdog, even in a loop that never yields, reported, and the
 * notation is not run again on that text; until it is fixed, every prompt pays the bound. A
 * `find` that keeps yielding (a global regex whose `lastIndex` does not advance on an empty
 * match) is stopped sooner, after `placeLimit(text.length)` places.
 */
import type { ToolSpec } from '../tools/types.js';

/** One place `find` reported. `start` and `end` are offsets into the text given to `find`. */
export interface NotationMatch {
  start: number;
  end: number;
}

/** A call as a notation reads it. */
export interface ParsedCall {
  name: string;
  arguments: unknown;
  /** Overrides the notation's name for this call (a JSON reader that meets a provider's own shape). */
  notation?: string;
  /** Where this call starts in the text, when it is not where the place starts (a call inside a message inside a request). */
  at?: number;
  /**
   * A call written in code whose arguments are partly expressions (`tool({ query: q, limit: 5 })`):
   * the keys left out of `arguments` because their values are not literals, `*` when unknown
   * keys may be missing too (`**kwargs`). Those keys are not required when the call is checked.
   */
  unread?: string[];
  /** Read as a Python literal where JSON was expected: where JSON reading stopped (an offset in the text) and why. */
  notJson?: { offset: number; message: string };
}

/** A place meant as a call that does not read as one. `offset` (in the text) says where reading stopped. */
export interface ParseFailure {
  error: string;
  offset?: number;
  /** The tool the broken call names, when known. */
  tool?: string;
  /** The failure is a format description, not a broken call: reported as `example/placeholder`. */
  placeholder?: string;
}

export interface NotationContext {
  /** The tools the prompt is sent with, by name; empty when unknown. */
  readonly tools: ReadonlyMap<string, ToolSpec>;
  /** Where the paragraph holding `offset` ends (the next blank line, or the end of the text). */
  paragraphEnd(offset: number): number;
}

export type ParseResult = readonly ParsedCall[] | ParseFailure | undefined;

export interface NotationDefinition<M extends NotationMatch = NotationMatch> {
  /** Shown in reports as each call's `notation` (`tool_call_xml`, `house-format`). */
  name: string;
  /** What it looks like, for `--help` and docs. */
  description?: string;
  find(text: string, context: NotationContext): Iterable<M>;
  parse(match: M, context: NotationContext & { text: string }): ParseResult;
}

const nameShape = /^[A-Za-z][\w.-]{0,63}$/;

/**
 * A notation for `extractToolCalls` and the config's `notations` list. Checks the definition
 * now, so a mistake in it is reported where it is written rather than on the first prompt.
 */
export function defineNotation<M extends NotationMatch>(definition: NotationDefinition<M>): NotationDefinition<M> {
  if (typeof definition !== 'object' || definition === null) throw new TypeError('Expected defineNotation({ name, find, parse })');
  if (typeof definition.name !== 'string' || !nameShape.test(definition.name)) {
    throw new TypeError(`Unexpected notation name ${JSON.stringify(definition.name)}, expected a letter then letters, digits, \`_\`, \`.\` or \`-\``);
  }
  if (typeof definition.find !== 'function') throw new TypeError(`Expected \`find(text, context)\` in notation \`${definition.name}\``);
  if (typeof definition.parse !== 'function') throw new TypeError(`Expected \`parse(match, context)\` in notation \`${definition.name}\``);
  return Object.freeze({ ...definition });
}

/** No places: what a built-in `find` gives for a text without its notation's marker. */
const noPlaces: readonly never[] = Object.freeze([]);

/**
 * A built-in notation's `find`: `places` runs only on a text where `may` sees its marker (a tag,
 * a token, a call's bracket). Most pieces of prose hold no marker of most notations, and a
 * generator started on each of them for nothing is an allocation a piece and a notation.
 */
export function prefiltered<M extends NotationMatch>(
  may: (text: string, context: NotationContext) => boolean,
  places: (text: string, context: NotationContext) => Iterable<M>,
): (text: string, context: NotationContext) => Iterable<M> {
  return (text, context) => (may(text, context) ? places(text, context) : noPlaces);
}

export function isParseFailure(result: ParseResult): result is ParseFailure {
  return typeof result === 'object' && result !== null && !Array.isArray(result) && typeof (result as ParseFailure).error === 'string';
}
