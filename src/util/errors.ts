import { inert } from '../report/inert.js';

/**
 * Raised when prompt-contract cannot run at all: a missing or malformed config, an
 * unreadable file, a template that does not compile, an unreachable database. The CLI
 * prints it as `file:line:column: message` and exits 2. Bad *content* is never an
 * InputError: checks report it as a Diagnostic.
 */
/** The longest message an InputError keeps whole: its start and end are kept around a note of what was left out. */
export const MAX_MESSAGE_CHARS = 2000;

/**
 * A message cut to its first 1,400 and last 500 characters when longer than
 * {@link MAX_MESSAGE_CHARS}: one that quotes a value read from a file (a 20 MB scalar where a
 * mapping was expected) must not print the file, and the end says what was expected.
 */
export function clipMessage(message: string): string {
  if (message.length <= MAX_MESSAGE_CHARS) return message;
  let head = 1400;
  let tail = 500;
  // Never half a surrogate pair at a cut.
  const high = (at: number): boolean => (message.charCodeAt(at) & 0xfc00) === 0xd800;
  if (high(head - 1)) head--;
  if (high(message.length - tail - 1)) tail++;
  return `${message.slice(0, head)} … (${(message.length - head - tail).toLocaleString('en-US')} characters left out) … ${message.slice(-tail)}`;
}

export class InputError extends Error {
  override name = 'InputError';
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** A stable code, the rule-id family for the failure (`config/invalid`, `render/missing-variable`, ...). */
  readonly code: string;

  constructor(code: string, message: string, place: { file?: string | undefined; line?: number | undefined; column?: number | undefined } = {}, options?: { cause?: unknown }) {
    super(clipMessage(message), options);
    this.code = code;
    this.file = place.file;
    this.line = place.line;
    this.column = place.column;
  }

  /**
   * `file:line:column: message (code)`, the shape editors and terminals turn into links. One
   * line, whatever the message quotes: a name or value from a checked file is shown inert
   * (see src/report/inert.ts), as a terminal, a CI log and a test runner all print it.
   */
  format(): string {
    const where = this.file === undefined ? '' : `${inert(this.file)}${this.line === undefined ? '' : `:${this.line}${this.column === undefined ? '' : `:${this.column}`}`}: `;
    return `${where}${inert(this.message)} (${this.code})`;
  }
}

/**
 * The message of anything thrown. Duck-typed on purpose: errors from native modules or
 * another realm (a Jest VM context) fail `instanceof Error`, and `String(error)` would
 * prefix the class name.
 */
export function errorMessage(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
}

/** `PROMPT_CONTRACT_DEBUG=1`: print stack traces and causes, which a user otherwise never sees. */
export function debugging(): boolean {
  const value = process.env.PROMPT_CONTRACT_DEBUG;
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}
