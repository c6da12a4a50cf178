/**
 * How messages name a string format and a long pattern. zod writes a `pattern` of several
 * hundred characters beside `format` (`z.string().datetime()`), which buried the finding
 * when printed verbatim: a format is named in words, and a long pattern is cut (the full
 * pattern stays in the finding's `expected`).
 */

const words: Record<string, string> = {
  'date-time': 'a date-time',
  date: 'a date',
  time: 'a time',
  duration: 'an ISO 8601 duration',
  email: 'an email address',
  'idn-email': 'an email address',
  hostname: 'a hostname',
  'idn-hostname': 'a hostname',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  cidrv4: 'an IPv4 range (CIDR)',
  cidrv6: 'an IPv6 range (CIDR)',
  uri: 'a URI',
  'uri-reference': 'a URI reference',
  iri: 'an IRI',
  'iri-reference': 'an IRI reference',
  url: 'a URL',
  uuid: 'a UUID',
  guid: 'a GUID',
  regex: 'a regular expression',
  'json-pointer': 'a JSON Pointer',
  'relative-json-pointer': 'a relative JSON Pointer',
  'uri-template': 'a URI template',
  byte: 'base64 text',
  base64: 'base64 text',
  base64url: 'base64url text',
  int32: 'a 32-bit integer',
  int64: 'a 64-bit integer',
  float: 'a float',
  double: 'a double',
  password: 'a password',
  binary: 'binary data',
  emoji: 'an emoji',
  nanoid: 'a nanoid',
  cuid: 'a cuid',
  cuid2: 'a cuid2',
  ulid: 'a ULID',
  xid: 'an XID',
  ksuid: 'a KSUID',
  e164: 'an E.164 phone number',
  jwt: 'a JWT',
  mac: 'a MAC address',
};

/** "must be a date-time (format `date-time`)": a format in words, with its name to search for. */
export function formatCondition(format: string): string {
  const noun = words[format] ?? `a valid ${format}`;
  return `must be ${noun} (format \`${format}\`)`;
}

/** Patterns longer than this are cut in messages. */
export const MAX_PATTERN_SHOWN = 60;

/** A pattern as a message shows it: in backticks, cut to `max` characters with `…` when longer. */
export function showPattern(pattern: string, max = MAX_PATTERN_SHOWN): string {
  const shown = pattern.length > max ? `${pattern.slice(0, max - 1)}…` : pattern;
  return `\`${shown}\``;
}
