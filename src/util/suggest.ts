function distance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

const squash = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The name an unknown one most likely means: the same name in another case or spelling
 * (`Multiply`, `get-weather`, `getWeather`), the name after a namespace (`functions.x`), or
 * the nearest by edit distance. `close` is true for the first three: the same thing, renamed.
 */
export function suggestName(name: string, candidates: Iterable<string>): { name: string; close: boolean } | undefined {
  const names = [...candidates];
  const one = (list: string[]): string | undefined => (list.length === 1 ? list[0] : undefined);
  const sameCase = one(names.filter((n) => n.toLowerCase() === name.toLowerCase()));
  if (sameCase !== undefined) return { name: sameCase, close: true };
  const sameLetters = one(names.filter((n) => squash(n) === squash(name)));
  if (sameLetters !== undefined) return { name: sameLetters, close: true };
  const tail = name.slice(name.lastIndexOf('.') + 1);
  if (tail !== name) {
    const byTail = one(names.filter((n) => n === tail));
    if (byTail !== undefined) return { name: byTail, close: true };
  }
  let best: { name: string; d: number } | undefined;
  for (const n of names) {
    const d = distance(name.toLowerCase(), n.toLowerCase());
    if (!best || d < best.d) best = { name: n, d };
  }
  if (best && best.d <= Math.max(2, Math.floor(name.length / 3))) return { name: best.name, close: false };
  return undefined;
}

/** `; did you mean \`x\`?` when `name` is a likely slip for one of `candidates` (see suggestName), else `''`. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const guess = suggestName(name, candidates);
  return guess === undefined ? '' : `; did you mean \`${guess.name}\`?`;
}
