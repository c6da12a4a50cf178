/** What the notations written in special tokens share: finding a BEGIN…END pair, and wording. */

/** A place between two tokens; `closed` is false when END never came (the body then stops at `stop`). */
export interface TokenSpan {
  start: number;
  end: number;
  bodyStart: number;
  bodyEnd: number;
  closed: boolean;
}

/**
 * Every BEGIN in `text`, with its END when one comes before the next BEGIN. An unclosed one
 * ends where `stopAt(bodyStart, nextBegin)` says. Linear: each END is searched for once.
 */
export function* tokenPairs(text: string, begin: string, end: string, stopAt: (bodyStart: number, next: number) => number): Generator<TokenSpan> {
  let close = -1;
  let at = text.indexOf(begin);
  while (at !== -1) {
    const bodyStart = at + begin.length;
    const next = text.indexOf(begin, bodyStart);
    if (close !== Infinity && close < bodyStart) {
      close = text.indexOf(end, bodyStart);
      if (close === -1) close = Infinity;
    }
    if (close !== Infinity && (next === -1 || close < next)) yield { start: at, end: close + end.length, bodyStart, bodyEnd: close, closed: true };
    else {
      const stop = stopAt(bodyStart, next === -1 ? text.length : next);
      yield { start: at, end: stop, bodyStart, bodyEnd: stop, closed: false };
    }
    at = next;
  }
}

/** "Unexpected X, expected Y" -> "Unexpected X in WHERE, expected Y". */
export function within(message: string, where: string): string {
  const i = message.indexOf(', expected');
  return i === -1 ? `${message} in ${where}` : `${message.slice(0, i)} in ${where}${message.slice(i)}`;
}
