import { afterAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HandlerSchemaResolver } from '../../src/handlers/resolve.js';
import { InputError } from '../../src/util/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'pc-handler-syntax-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a handler file that does not parse', () => {
  test('is an InputError at the file, line and column of the first syntax error, with the TypeScript message', () => {
    writeFileSync(join(dir, 'broken.ts'), ['export interface RefundArgs {', '  order_id: string;', '  amount_cents: number', '  reason: = ;', '}}}', 'export const x = (;', ''].join('\n'));
    let error: unknown;
    try {
      new HandlerSchemaResolver({ cwd: dir, cacheDir: false }).resolve({ kind: 'typescript', file: 'broken.ts', type: 'RefundArgs' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ code: 'handler/syntax-error', file: join(dir, 'broken.ts'), line: 4, column: 11 });
    expect((error as Error).message).toMatch(/^Syntax error in handler file `broken\.ts`: TS1110: Type expected\. \(and \d+ more syntax errors\); expected TypeScript that parses/);
  });

  test('a type error alone is still the handler build\'s business: the schema is read', () => {
    writeFileSync(join(dir, 'typed.ts'), 'export interface Args { id: string }\nconst n: number = "not a number";\n');
    expect(new HandlerSchemaResolver({ cwd: dir, cacheDir: false }).resolve({ kind: 'typescript', file: 'typed.ts', type: 'Args' })).toMatchObject({ type: 'object', properties: { id: { type: 'string' } } });
  });
});
