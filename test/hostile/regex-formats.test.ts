import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { SchemaCompiler } from '../../src/schema/validator.js';
import { backtrackSteps, stepsOf } from './regex-steps.js';
import { runs } from '../helpers/runs.js';

// `format` checks run ajv-formats' own regexes and functions on untrusted values. Each must
// stay linear on long values built to make a backtracking engine work: the original `url`
// regex took over a second on 64 KB of `a:` after `http://`.
//
// Work is counted, not timed, so the verdict is the same on an idle laptop and a loaded CI
// machine (the time itself is bench/lib/regex-formats.js's to measure). Every RegExp search a
// format makes while validating a value is recorded and replayed on a backtracking machine
// that counts its steps (./regex-steps.ts; it must find what V8 found, or the test fails). A
// value 4 times longer must take at most 6 times the steps: linear work gives 4, quadratic 16.
// Two alternatives were weighed and set aside:
// - Timing values too long for a quadratic regex to finish within the test's timeout: at the
//   length that needs (megabytes), the linear runs over this grid take minutes, not seconds,
//   and a synchronous regex cannot be interrupted, so the timeout would not even fire.
// - Proving each regex linear by construction with compilePattern (src/util/regex.ts):
//   ajv-formats' regexes are not of the kind it proves ('native'); most use lookahead or
//   overlapping repetitions, and several formats are functions whose regexes are private.
// What is not a RegExp search (`new RegExp(value)` of the `regex` format, date arithmetic) is
// not counted: parsing a pattern and arithmetic on matched digits do not backtrack.
const names = Object.entries(fullFormats)
  .filter(([, f]) => !(typeof f === 'object' && f !== null && 'type' in f && (f as { type?: string }).type !== 'string'))
  .map(([name]) => name);
const prefixes = ['', 'a', 'http://', 'http://a', 'a:', '1:', '[', '/', '2020-01-01T', '00:00:', 'a@'];
const pumps = ['a', '0', '.', ':', '/', 'a:', '1:', 'a.', 'a-', '%20', 'a@', 'ff:'];
const endings = ['', '!', ' ', '..'];
// Past every bounded repetition in these formats (hostname's `.{1,253}` is the longest).
const N = 300;

describe.each(names)('format `%s`', (name) => {
  const compiler = new SchemaCompiler();
  const validate = compiler.compile({ type: 'string', format: name });

  test('does linear work on long hostile values: 4 times the length, at most 6 times the steps', () => {
    const offenders: Array<{ value: string; steps: number; stepsAt4x: number }> = [];
    let searches = 0;
    for (const prefix of prefixes) {
      for (const pump of pumps) {
        for (const end of endings) {
          const value = (length: number) => `${prefix}${pump.repeat(Math.ceil(length / pump.length))}${end}`;
          const short = stepsOf(() => validate(value(N)));
          const long = stepsOf(() => validate(value(4 * N)));
          searches += short.runs.length;
          if (long.steps > 6 * Math.max(short.steps, 1)) offenders.push({ value: `${prefix}+${pump}*n+${end}`, steps: short.steps, stepsAt4x: long.steps });
        }
      }
    }
    expect({ name, offenders }).toEqual({ name, offenders: [] });
    // Not vacuous: every format that checks anything was seen searching the values.
    if (fullFormats[name as keyof typeof fullFormats] !== true) expect(searches).toBeGreaterThan(0);
  });
});

test('the linear `url` accepts exactly what ajv-formats\' `url` accepts', () => {
  const validate = new SchemaCompiler().compile({ type: 'string', format: 'url' });
  const original = fullFormats.url as RegExp;
  const pieces = fc.constantFrom('http://', 'https://', 'ftp://', 'user', ':', 'pw', '@', 'example', '.', 'com', '-', '192.168.0.1', '10.0.0.1', '8.8.8.8', ':8080', '/path', '?q=1', ' ', 'é', 'a');
  fc.assert(
    fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.array(pieces, { maxLength: 10 }), (url, noise) => {
      for (const value of [url, `http://${noise.join('')}`, `${url}${noise.join('')}`, `https://${noise.join('')}.com`]) expect([value, validate(value)]).toEqual([value, original.test(value)]);
    }),
    { numRuns: runs(300) },
  );
});

test('on `http://` and `a:` repeated, ajv-formats\' `url` does quadratic work and ours linear', () => {
  const validate = new SchemaCompiler().compile({ type: 'string', format: 'url' });
  const value = (pairs: number) => `http://${'a:'.repeat(pairs)}!`;
  const growth = (steps: (value: string) => number) => steps(value(4 * N)) / steps(value(N));
  // The counter sees the quadratic original (4 times the length, about 16 times the steps)...
  // (About 6M steps at 4N; the limit only keeps a change here from running away: past it is Infinity.)
  expect(growth((v) => backtrackSteps(fullFormats.url as RegExp, v, { limit: 100_000_000 }).steps)).toBeGreaterThan(12);
  // ...and the rewritten one does linear work.
  expect(growth((v) => stepsOf(() => validate(v)).steps)).toBeLessThanOrEqual(6);
  // 128 KB is still refused (the quadratic pattern took about 4 s here).
  expect(validate(value(64_000))).toBe(false);
});
