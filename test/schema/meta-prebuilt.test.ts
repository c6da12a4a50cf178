import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { AJV_OPTIONS, META_2020, metaStamp, withKeywords } from '../../src/schema/validator.js';
import { runs } from '../helpers/runs.js';

// `npm run build` generates dist/schema/meta-2020-12.cjs (scripts/build-meta.mjs), which the
// built package loads instead of compiling the 2020-12 meta-schema. It must answer every schema
// as Ajv's own compile of the meta-schema does: the same verdict and the same errors.

const root = join(import.meta.dirname, '..', '..');
const built = join(root, 'dist', 'schema', 'meta-2020-12.cjs');

function prebuilt(): ValidateFunction & { stamp?: string } {
  if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first`);
  return createRequire(import.meta.url)(built) as ValidateFunction & { stamp?: string };
}

/** Ajv's own meta-schema validation, with the options and keywords validation uses. */
const reference = withKeywords(new Ajv2020({ ...AJV_OPTIONS }));

function both(schema: unknown): { prebuilt: unknown; ajv: unknown } {
  const meta = prebuilt();
  const valid = meta(schema);
  const errors = valid ? null : meta.errors;
  const ajvValid = reference.validate(META_2020, schema);
  return { prebuilt: { valid, errors }, ajv: { valid: ajvValid, errors: ajvValid ? null : reference.errors } };
}

/** Every JSON Schema in the vendored acceptance fixtures (`parameters`, `input_schema`, `inputSchema`). */
function fixtureSchemas(): unknown[] {
  const out: unknown[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        if ((key === 'parameters' || key === 'input_schema' || key === 'inputSchema') && typeof child === 'object' && child !== null) out.push(child);
        visit(child);
      }
    }
  };
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.json') || entry.name.endsWith('.jsonl')) {
        // BFCL's files are JSON Lines under a .json name.
        const text = readFileSync(path, 'utf8');
        try {
          visit(JSON.parse(text));
        } catch {
          for (const line of text.split('\n')) if (line.trim() !== '') visit(JSON.parse(line));
        }
      }
    }
  };
  walk(join(root, 'test', 'fixtures', 'acceptance'));
  return out;
}

describe('the prebuilt 2020-12 meta-schema validator', () => {
  test('was built from this Ajv with these options, so the package uses it', () => {
    expect(prebuilt().stamp).toBe(metaStamp());
  });

  test('agrees with Ajv on every schema of the acceptance fixtures', () => {
    const schemas = fixtureSchemas();
    expect(schemas.length).toBeGreaterThan(100);
    for (const schema of schemas) {
      const { prebuilt: mine, ajv } = both(schema);
      expect(mine).toEqual(ajv);
    }
  });

  test.each([
    ['a Python type name', { type: 'object', properties: { a: { type: 'dict' } } }],
    ['properties as a list', { type: 'object', properties: [{ name: 'a' }] }],
    ['required as a string', { type: 'object', required: 'a' }],
    ['a negative maxLength', { type: 'string', maxLength: -1 }],
    ['a bad $anchor', { $anchor: '1 not an anchor' }],
    ['a $id with two fragments', { $id: 'a#b#c' }],
    ['a nested $defs with a bad enum', { $defs: { x: { enum: 'a' } }, $ref: '#/$defs/x' }],
  ])('reports %s with the same errors as Ajv', (_what, schema) => {
    const { prebuilt: mine, ajv } = both(schema);
    expect((ajv as { valid: boolean }).valid).toBe(false);
    expect(mine).toEqual(ajv);
  });

  test('agrees with Ajv on generated schema-like values', () => {
    // Objects as JSON and YAML give them: normalizeTools gives a schema built of null-prototype
    // objects the ordinary prototype (test/tools/normalize.test.ts), and Ajv itself throws on them.
    const keyword = fc.constantFrom('type', 'properties', 'required', 'items', 'enum', 'const', 'minimum', 'maxLength', 'pattern', 'additionalProperties', 'anyOf', '$ref', '$defs', 'description', 'format', 'prefixItems', 'unevaluatedProperties', 'dependentRequired', 'x-vendor');
    const leaf = fc.oneof(fc.constantFrom('object', 'string', 'integer', 'dict', '#/$defs/a', '^a+$', 'date-time'), fc.integer({ min: -3, max: 5 }), fc.boolean(), fc.constant(null));
    const schema = fc.letrec((tie) => ({
      node: fc.oneof({ maxDepth: 4 }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(keyword, tie('node'), { maxKeys: 4, noNullPrototype: true })),
    })).node;
    fc.assert(
      fc.property(schema, (value) => {
        const { prebuilt: mine, ajv } = both(value);
        expect(mine).toEqual(ajv);
      }),
      { numRuns: runs(400) },
    );
  });
});
