/** Offset <-> 1-based line and column over one text, by binary search over line starts. */
export class LineIndex {
  readonly #starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.#starts.push(i + 1);
  }

  /** 1-based line and column of a 0-based offset. */
  at(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.#starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.#starts[lo]! + 1 };
  }

  /** 0-based offset of a 1-based line's start. */
  lineStart(line: number): number {
    return this.#starts[Math.min(Math.max(line - 1, 0), this.#starts.length - 1)]!;
  }
}
