import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { z } from 'zod';
import { HandlerSchemaResolver, resolveHandlerSchema } from '../../src/handlers/resolve.js';
import { libFileParses } from '../../src/handlers/typescript.js';
import { InputError } from '../../src/util/errors.js';
import { fixtures } from './helpers.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'prompt-contract-handlers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function project(name: string): string {
  const at = path.join(scratch, name);
  mkdirSync(path.join(at, 'src'), { recursive: true });
  for (const file of ['refund.ts', 'importer.ts', 'reason.ts']) copyFileSync(path.join(fixtures, file), path.join(at, 'src', file));
  return at;
}

let dir = '';
let run = 0;
beforeEach(() => {
  // A fresh project per test: the cache tests edit files.
  dir = project(`project-${++run}`);
});

const refund = { kind: 'typescript', file: 'src/refund.ts', type: 'RefundArgs' } as const;

describe('TypeScript handler types', () => {
  // These tests only read: one project and one resolver for all of them, which keeps the
  // TypeScript program of a file it has read (a new program takes most of a second).
  let dir = '';
  let shared: HandlerSchemaResolver;
  beforeAll(() => {
    dir = project('read-only');
    shared = new HandlerSchemaResolver({ cwd: dir, cacheDir: false });
  });

  test('optional and `| undefined` fields are not required; JSDoc annotations are read; nested types are inlined', () => {
    const resolver = shared;
    expect(resolver.resolve(refund)).toEqual({
      type: 'object',
      properties: {
        order_id: { type: 'string' },
        amount_cents: { type: 'number', minimum: 1, description: 'Smallest refund is one cent.' },
        reason: { type: 'string', enum: ['duplicate_charge', 'goodwill', 'damaged'] },
        note: { type: 'string' },
      },
      required: ['order_id', 'amount_cents', 'reason'],
      additionalProperties: false,
    });
    const ship = resolver.resolve({ kind: 'typescript', file: 'src/refund.ts', type: 'ShipArgs' });
    expect(ship.properties).toMatchObject({
      address: { type: 'object', required: ['street', 'postal_code'], properties: { postal_code: { pattern: '^[0-9]{5}$' }, country: { type: 'string' } } },
      lines: { type: 'array', items: { type: 'object', required: ['sku', 'qty'] } },
    });
  });

  test('a type the file does not export is found too, and imported types are followed', () => {
    expect(shared.resolve({ kind: 'typescript', file: 'src/refund.ts', type: 'InternalArgs' })).toMatchObject({ required: ['id'] });
    // A resolver of its own: the shared one keeps the program of src/refund.ts for the tests after this.
    const resolver = new HandlerSchemaResolver({ cwd: dir, cacheDir: false });
    expect(resolver.resolve({ kind: 'typescript', file: 'src/importer.ts', type: 'CancelArgs' }).properties).toMatchObject({ reason: { enum: ['duplicate_charge', 'goodwill'] } });
  });

  test('a missing type is an InputError naming file and type, with a did-you-mean', () => {
    const resolver = shared;
    let error: unknown;
    try {
      resolver.resolve({ kind: 'typescript', file: 'src/refund.ts', type: 'RefundArg' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    const e = error as InputError;
    expect(e.code).toBe('handler/type-not-found');
    expect(e.file).toBe(path.join(dir, 'src/refund.ts'));
    expect(e.message).toContain('Handler type `RefundArg` not found in `src/refund.ts`; did you mean `RefundArgs`?');
    expect(e.message).toContain('`ShipArgs`');
  });

  test.each([
    ['refund_args', 'RefundArgs'], // another spelling of the same name
    ['refundArgs', 'RefundArgs'], // another case
    ['ShipArg', 'ShipArgs'], // a typo
    ['Ship', 'ShipArgs'], // the start of a name: the shortest name that contains it
    ['Refund', 'RefundArgs'],
    ['Zebra', undefined], // nothing close: no suggestion, only the listing
  ])('a missing type `%s` suggests %p, and lists every declared type', (type, suggested) => {
    const resolver = shared;
    let error: unknown;
    try {
      resolver.resolve({ kind: 'typescript', file: 'src/refund.ts', type });
    } catch (e) {
      error = e;
    }
    const hint = suggested === undefined ? '' : `; did you mean \`${suggested}\`?`;
    expect((error as InputError).message).toBe(
      `Handler type \`${type}\` not found in \`src/refund.ts\`${hint} Types declared there: \`RefundReason\`, \`RefundArgs\`, \`RefundArgsWithChannel\`, \`Address\`, \`ShipArgs\`, \`InternalArgs\`, \`TreeNode\`.`,
    );
  });

  test("TypeScript's lib files are parsed once per process: a second handler file, in a new program, reuses them", () => {
    // Another file than the shared resolver's: a program of its own, made after the lib files were first read.
    shared.resolve(refund);
    const before = libFileParses();
    expect(before).toBeGreaterThan(0);
    const resolver = new HandlerSchemaResolver({ cwd: project('second-program'), cacheDir: false });
    expect(resolver.resolve({ kind: 'typescript', file: 'src/reason.ts', type: 'RefundReason' })).toEqual({ type: 'string', enum: ['duplicate_charge', 'goodwill'] });
    expect(resolver.resolve({ kind: 'typescript', file: 'src/importer.ts', type: 'CancelArgs' }).properties).toMatchObject({ reason: { enum: ['duplicate_charge', 'goodwill'] } });
    expect(resolver.stats.generated).toBe(2);
    expect(libFileParses()).toBe(before);
  });

  test('a missing file is an InputError naming file and type', () => {
    const resolver = shared;
    expect(() => resolver.resolve({ kind: 'typescript', file: 'src/nope.ts', type: 'RefundArgs' })).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'handler/type-not-found', message: expect.stringContaining('`src/nope.ts` (looking for type `RefundArgs`)') }),
    );
  });
});

describe('a type the generator cannot read', () => {
  test('`z.infer<typeof Schema>` stops the run at the type, pointing at the zod reference that reads it', () => {
    const resolver = new HandlerSchemaResolver({ cacheDir: false });
    const file = path.join(fixtures, 'zod-infer.ts');
    expect(() => resolver.resolve({ kind: 'typescript', file, type: 'ReadFileArgs' })).toThrow(
      expect.objectContaining({ code: 'handler/unsupported-type', line: 6, column: 1, message: expect.stringContaining("a type zod computes (`z.infer`) is read from the zod schema itself: register the handler as `{ kind: 'zod', schema }`") }),
    );
  });
});

describe('other handler references', () => {
  test('zod: the input type, so a defaulted field is optional', () => {
    const resolver = new HandlerSchemaResolver({ cwd: dir, cacheDir: false });
    const schema = resolver.resolve({ kind: 'zod', schema: z.object({ id: z.string(), limit: z.number().default(10) }) });
    expect(schema.required).toEqual(['id']);
    expect(schema.$schema).toBeUndefined();
  });

  test('zod: a value that is not a zod schema is an InputError', () => {
    expect(() => new HandlerSchemaResolver({ cacheDir: false }).resolve({ kind: 'zod', schema: { type: 'object' } })).toThrow(InputError);
  });

  test('json-schema: returned as it is', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(new HandlerSchemaResolver({ cacheDir: false }).resolve({ kind: 'json-schema', schema })).toBe(schema);
  });
});

describe('the cache', () => {
  test('a second resolution in the same process does not run the generator', () => {
    const resolver = new HandlerSchemaResolver({ cwd: dir, cacheDir: path.join(dir, 'cache') });
    const first = resolver.resolve(refund);
    expect(resolver.stats).toEqual({ generated: 1, memoryHits: 0, diskHits: 0 });
    const second = resolver.resolve(refund);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(resolver.stats).toEqual({ generated: 1, memoryHits: 1, diskHits: 0 });
  });

  test('a new process reads the schema from disk without running the generator', () => {
    const cacheDir = path.join(dir, 'cache');
    const first = new HandlerSchemaResolver({ cwd: dir, cacheDir }).resolve(refund);
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.json'))).toHaveLength(1);
    const later = new HandlerSchemaResolver({ cwd: dir, cacheDir });
    expect(later.resolve(refund)).toEqual(first);
    expect(later.stats).toEqual({ generated: 0, memoryHits: 0, diskHits: 1 });
  });

  test('editing the handler file invalidates both caches', () => {
    const cacheDir = path.join(dir, 'cache');
    const resolver = new HandlerSchemaResolver({ cwd: dir, cacheDir });
    resolver.resolve(refund);
    const file = path.join(dir, 'src/refund.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace('  note?: string;\n', '  note?: string;\n  channel: string;\n'));
    expect(resolver.resolve(refund).required).toEqual(['order_id', 'amount_cents', 'reason', 'channel']);
    expect(resolver.stats.generated).toBe(2);
    const later = new HandlerSchemaResolver({ cwd: dir, cacheDir });
    expect(later.resolve(refund).required).toContain('channel');
    expect(later.stats).toEqual({ generated: 0, memoryHits: 0, diskHits: 1 });
  });

  test('editing a file the handler file imports invalidates the entry', () => {
    const cacheDir = path.join(dir, 'cache');
    const cancel = { kind: 'typescript', file: 'src/importer.ts', type: 'CancelArgs' } as const;
    const resolver = new HandlerSchemaResolver({ cwd: dir, cacheDir });
    resolver.resolve(cancel);
    writeFileSync(path.join(dir, 'src/reason.ts'), "export type RefundReason = 'duplicate_charge' | 'goodwill' | 'damaged';\n");
    expect(resolver.resolve(cancel).properties).toMatchObject({ reason: { enum: ['duplicate_charge', 'goodwill', 'damaged'] } });
    expect(resolver.stats.generated).toBe(2);
    const later = new HandlerSchemaResolver({ cwd: dir, cacheDir });
    later.resolve(cancel);
    expect(later.stats).toEqual({ generated: 0, memoryHits: 0, diskHits: 1 });
  });

  test('a different type name in the same file is its own entry; a torn cache file is regenerated', () => {
    const cacheDir = path.join(dir, 'cache');
    const resolver = new HandlerSchemaResolver({ cwd: dir, cacheDir });
    resolver.resolve(refund);
    resolver.resolve({ kind: 'typescript', file: 'src/refund.ts', type: 'ShipArgs' });
    expect(resolver.stats.generated).toBe(2);
    for (const f of readdirSync(cacheDir)) writeFileSync(path.join(cacheDir, f), '{"key":');
    const later = new HandlerSchemaResolver({ cwd: dir, cacheDir });
    expect(later.resolve(refund).required).toEqual(['order_id', 'amount_cents', 'reason']);
    expect(later.stats.generated).toBe(1);
  });

  test('cacheDir false writes nothing; the default lives under node_modules/.cache', () => {
    new HandlerSchemaResolver({ cwd: dir, cacheDir: false }).resolve(refund);
    expect(existsSync(path.join(dir, 'node_modules'))).toBe(false);
    resolveHandlerSchema(refund, { cwd: dir });
    expect(readdirSync(path.join(dir, 'node_modules/.cache/prompt-contract/handlers'))).toHaveLength(1);
  });

  // What the caches save is counted, not timed: the time is a benchmark's to measure (bench/), not a test's.
  test('cold, then warm from disk, then warm in memory: generated once, each later resolve a cache hit', () => {
    const cacheDir = path.join(dir, 'cache');
    const cold = new HandlerSchemaResolver({ cwd: dir, cacheDir });
    const schema = cold.resolve(refund);
    expect(cold.stats).toEqual({ generated: 1, memoryHits: 0, diskHits: 0 });
    const warm = new HandlerSchemaResolver({ cwd: dir, cacheDir });
    expect(warm.resolve(refund)).toEqual(schema);
    expect(warm.resolve(refund)).toEqual(schema);
    expect(warm.stats).toEqual({ generated: 0, memoryHits: 1, diskHits: 1 });
  });
});
