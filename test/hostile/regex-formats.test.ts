import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { SchemaCompiler } from '../../src/schema/validator.js';

// `format` checks run ajv-formats' own regexes and functions on untrusted values. Each must
// stay linear on long values built to make a backtracking engine work: the original `url`
// regex took over a second on 64 KB of `a:` after `http://`.
const names = Object.entries(fullFormats)
  .filter(([, f]) => !(typeof f === 'object' && f !== null && 'type' in f && (f as { type?: string }).type !== 'string'))
  .map(([name]) => name);
const prefixes = ['', 'a', 'http://', 'http://a', 'a:', '1:', '[', '/', '2020-01-01T', '00:00:', 'a@'];
const pumps = ['a', '0', '.', ':', '/', 'a:', '1:', 'a.', 'a-', '%20', 'a@', 'ff:'];
const endings = ['', '!', ' ', '..'];

describe.each(names)('format `%s`', (name) => {
  const compiler = new SchemaCompiler();
  const validate = compiler.compile({ type: 'string', format: name });

  test('stays fast on long hostile values', () => {
    let slowest = { ms: 0, value: '' };
    for (const prefix of prefixes) {
      for (const pump of pumps) {
        for (const end of endings) {
          const value = `${prefix}${pump.repeat(Math.ceil(40_000 / pump.length))}${end}`;
          const start = process.hrtime.bigint();
          validate(value);
          const ms = Number(process.hrtime.bigint() - start) / 1e6;
          if (ms > slowest.ms) slowest = { ms, value: `${prefix}+${pump}*n+${end}` };
        }
      }
    }
    // Linear work on 40 KB is well under a millisecond here; the quadratic `url` took about 300 ms.
    expect({ name, slow: slowest.ms > 100 ? slowest : false }).toEqual({ name, slow: false });
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
    { numRuns: 300 },
  );
  // 128 KB: the quadratic pattern took about 4 s here (1.1 s at 64 KB); the linear one takes
  // milliseconds, so a generous bound still tells them apart on a loaded machine.
  const slow = `http://${'a:'.repeat(64_000)}!`;
  const start = Date.now();
  expect(validate(slow)).toBe(false);
  expect(Date.now() - start).toBeLessThan(1000);
});
