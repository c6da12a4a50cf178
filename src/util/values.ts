/** A plain object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A value as JSON for a message, cut to `max` characters with `...`; values JSON cannot
 * write (`undefined`) as `String(value)`. Pass `Infinity` to never cut.
 */
export function show(value: unknown, max = 40): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
