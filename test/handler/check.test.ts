import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { z } from 'zod';
import { checkHandler, checkHandlers } from '../../src/checks/handler.js';
import { HandlerSchemaResolver } from '../../src/handlers/resolve.js';
import type { Diagnostic } from '../../src/report/diagnostic.js';
import type { HandlerRef, JsonSchemaObject } from '../../src/tools/types.js';
import { fixtures, refundSchema, tool } from './helpers.js';

const resolver = new HandlerSchemaResolver({ cacheDir: false });
const refundFile = path.join(fixtures, 'refund.ts');
const ts = (type: string): HandlerRef => ({ kind: 'typescript', file: refundFile, type });
const handler = (type: string): JsonSchemaObject => resolver.resolve(ts(type));

const ids = (diagnostics: Diagnostic[]): string[] => diagnostics.map((d) => `${d.ruleId} ${d.instancePath}`);
const errors = (diagnostics: Diagnostic[]): Diagnostic[] => diagnostics.filter((d) => d.severity === 'error');

describe('schema and handler in agreement', () => {
  test('the published refund schema matches RefundArgs', () => {
    expect(checkHandler(tool(refundSchema(), ts('RefundArgs')), handler('RefundArgs'))).toEqual([]);
  });

  test('a schema `integer` is fine for a handler `number`: every integer is a number', () => {
    const schema = refundSchema();
    expect((schema.properties as Record<string, JsonSchemaObject>).amount_cents!.type).toBe('integer');
    expect(handler('RefundArgs').properties).toMatchObject({ amount_cents: { type: 'number' } });
    expect(checkHandler(tool(schema), handler('RefundArgs'))).toEqual([]);
  });
});

describe('handler/required-not-in-schema', () => {
  test('a required field added to the handler type only is the outage, with both sets printed', () => {
    const diagnostics = checkHandler(tool(refundSchema()), handler('RefundArgsWithChannel'));
    expect(ids(diagnostics)).toEqual(['handler/required-not-in-schema /channel']);
    const [d] = diagnostics;
    expect(d).toMatchObject({ severity: 'error', tool: 'create_refund', instancePath: '/channel', schemaPath: '/properties/channel', file: 'prompts/tools.json' });
    expect(d!.message).toContain('the handler requires `channel`, which the schema never mentions, so the model is never told to send it');
    expect(d!.message).toContain('schema requires [order_id, amount_cents, reason]');
    expect(d!.message).toContain('handler requires [amount_cents, channel, order_id, reason]');
    expect(d!.message).toContain("Add `channel` to the schema's `properties` and `required`");
  });

  test('a field the schema lists but leaves optional gets the other message', () => {
    const schema = refundSchema();
    schema.required = ['order_id', 'amount_cents'];
    const [d, ...rest] = checkHandler(tool(schema), handler('RefundArgs'));
    expect(rest).toEqual([]);
    expect(d!.message).toBe(
      "`create_refund`: the handler requires `reason`, which the schema does not require (schema requires [order_id, amount_cents]; handler requires [order_id, amount_cents, reason]). Add `reason` to the schema's `required`, or make it optional in the handler",
    );
    expect(d).toMatchObject({ ruleId: 'handler/required-not-in-schema', severity: 'error', expected: ['order_id', 'amount_cents', 'reason'], actual: ['order_id', 'amount_cents'] });
  });

  test('the direction: a schema that requires MORE than the handler is not an error (subset, not equality)', () => {
    const schema = refundSchema();
    schema.required = ['order_id', 'amount_cents', 'reason', 'note'];
    const diagnostics = checkHandler(tool(schema), handler('RefundArgs'));
    expect(errors(diagnostics)).toEqual([]);
    expect(diagnostics.map((d) => [d.ruleId, d.severity])).toEqual([['handler/optional-in-handler', 'info']]);
  });

  test('a handler requiring nothing the schema omits passes even when the schema requires every field', () => {
    const schema: JsonSchemaObject = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };
    const handlerSchema: JsonSchemaObject = { type: 'object', properties: { id: { type: 'string' } } };
    expect(errors(checkHandler(tool(schema), handlerSchema))).toEqual([]);
  });
});

describe('handler/optional-in-handler', () => {
  test('schema-required, handler-optional is info only', () => {
    const schema = refundSchema();
    (schema.required as string[]).push('note');
    const diagnostics = checkHandler(tool(schema), handler('RefundArgs'));
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ ruleId: 'handler/optional-in-handler', severity: 'info', instancePath: '/note' });
    expect(diagnostics[0]!.message).toContain('the schema requires `note`, which the handler treats as optional');
  });
});

describe('handler/field-ignored', () => {
  test('a schema field the handler type does not have is a warning', () => {
    const schema = refundSchema();
    (schema.properties as Record<string, unknown>).priority = { type: 'string', enum: ['low', 'high'] };
    const diagnostics = checkHandler(tool(schema), handler('RefundArgs'));
    expect(diagnostics).toEqual([expect.objectContaining({ ruleId: 'handler/field-ignored', severity: 'warning', instancePath: '/priority' })]);
    expect(diagnostics[0]!.message).toContain('the schema offers `priority`, which the handler type does not have');
  });

  test('a field flowing into an index signature is not ignored, and its type is still checked', () => {
    const schema: JsonSchemaObject = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } };
    const handlerSchema: JsonSchemaObject = { type: 'object', additionalProperties: { type: 'string' } };
    expect(ids(checkHandler(tool(schema), handlerSchema))).toEqual(['handler/type-mismatch /b']);
  });

  test('a handler schema that lists no properties and stays open says nothing about what it reads', () => {
    expect(checkHandler(tool(refundSchema()), { type: 'object' })).toEqual([]);
  });
});

describe('handler/type-mismatch', () => {
  test('string in the schema, number in the handler', () => {
    const schema = refundSchema();
    (schema.properties as Record<string, JsonSchemaObject>).amount_cents = { type: 'string' };
    const diagnostics = checkHandler(tool(schema), handler('RefundArgs'));
    expect(diagnostics).toEqual([
      expect.objectContaining({ ruleId: 'handler/type-mismatch', severity: 'error', instancePath: '/amount_cents', schemaPath: '/properties/amount_cents', expected: ['number'], actual: ['string'] }),
    ]);
    expect(diagnostics[0]!.message).toContain('`amount_cents` is `string` in the schema but `number` in the handler type, so the model may send `"text"`');
  });

  test('number in the schema, integer in the handler: the model may send 1.5', () => {
    const schema = refundSchema();
    (schema.properties as Record<string, JsonSchemaObject>).amount_cents = { type: 'number', minimum: 1 };
    const zodHandler = z.object({ order_id: z.string(), amount_cents: z.number().int().min(1), reason: z.enum(['duplicate_charge', 'goodwill', 'damaged']), note: z.string().optional() });
    const diagnostics = checkHandler(tool(schema), resolver.resolve({ kind: 'zod', schema: zodHandler }));
    expect(ids(diagnostics)).toEqual(['handler/type-mismatch /amount_cents']);
    expect(diagnostics[0]!.message).toContain('may send `1.5`');
  });

  test('a schema enum value the handler does not accept', () => {
    const schema = refundSchema();
    (schema.properties as Record<string, JsonSchemaObject>).reason = { type: 'string', enum: ['duplicate_charge', 'goodwill', 'damaged', 'store_credit'] };
    const diagnostics = checkHandler(tool(schema), handler('RefundArgs'));
    expect(ids(diagnostics)).toEqual(['handler/type-mismatch /reason']);
    expect(diagnostics[0]!.message).toContain('allows ["store_credit"] in the schema, which the handler type does not accept');
    expect(diagnostics[0]!.actual).toEqual(['store_credit']);
  });

  test('a schema enum narrower than the handler literal union is fine', () => {
    const schema = refundSchema();
    (schema.properties as Record<string, JsonSchemaObject>).reason = { type: 'string', enum: ['goodwill'] };
    expect(checkHandler(tool(schema), handler('RefundArgs'))).toEqual([]);
  });

  test('any string in the schema, a literal union in the handler', () => {
    const schema = refundSchema();
    (schema.properties as Record<string, JsonSchemaObject>).reason = { type: 'string' };
    const [d] = checkHandler(tool(schema), handler('RefundArgs'));
    expect(d).toMatchObject({ ruleId: 'handler/type-mismatch', instancePath: '/reason', fix: 'enum: ["duplicate_charge","goodwill","damaged"]' });
  });

  test('null allowed by the schema and not by the handler', () => {
    const schema = refundSchema();
    (schema.properties as Record<string, JsonSchemaObject>).order_id = { type: ['string', 'null'] };
    expect(ids(checkHandler(tool(schema), handler('RefundArgs')))).toEqual(['handler/type-mismatch /order_id']);
  });

  test('an anyOf in the schema is checked branch by branch', () => {
    const schema = refundSchema();
    (schema.properties as Record<string, JsonSchemaObject>).order_id = { anyOf: [{ type: 'string' }, { type: 'integer' }] };
    const [d] = checkHandler(tool(schema), handler('RefundArgs'));
    expect(d).toMatchObject({ ruleId: 'handler/type-mismatch', actual: ['string', 'integer'], expected: ['string'] });
  });
});

describe('handler/constraint-not-in-schema', () => {
  test('a JSDoc @minimum in the handler type the schema does not state', () => {
    const schema = refundSchema();
    (schema.properties as Record<string, JsonSchemaObject>).amount_cents = { type: 'integer' };
    const diagnostics = checkHandler(tool(schema), handler('RefundArgs'));
    expect(diagnostics).toEqual([
      expect.objectContaining({ ruleId: 'handler/constraint-not-in-schema', severity: 'warning', instancePath: '/amount_cents', schemaPath: '/properties/amount_cents/minimum', expected: 1 }),
    ]);
  });

  test('a schema bound at least as tight as the handler is fine, and zod .int() adds no bound of its own', () => {
    const schema: JsonSchemaObject = { type: 'object', properties: { n: { type: 'integer', minimum: 5 } }, required: ['n'] };
    const zodHandler = z.object({ n: z.number().int().min(1) });
    expect(checkHandler(tool(schema), resolver.resolve({ kind: 'zod', schema: zodHandler }))).toEqual([]);
  });
});

function shipSchema(): JsonSchemaObject {
  return {
    type: 'object',
    properties: {
      order_id: { type: 'string' },
      address: {
        type: 'object',
        properties: { street: { type: 'string' }, postal_code: { type: 'string', pattern: '^[0-9]{5}$' }, country: { type: 'string' } },
        required: ['street', 'postal_code'],
      },
      lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' } }, required: ['sku', 'qty'] } },
    },
    required: ['order_id', 'address', 'lines'],
  };
}

describe('nested objects and arrays', () => {
  const ship = (schema: JsonSchemaObject): Diagnostic[] => checkHandler(tool(schema, undefined, 'ship_order'), handler('ShipArgs'));
  const at = (schema: JsonSchemaObject, ...keys: string[]): JsonSchemaObject =>
    keys.reduce<JsonSchemaObject>((s, k) => (k === '*' ? (s.items as JsonSchemaObject) : (s.properties as Record<string, JsonSchemaObject>)[k]!), schema);

  test('the nested schema agrees with ShipArgs (with `country: string | undefined` optional)', () => {
    expect(ship(shipSchema())).toEqual([]);
  });

  test('a nested required field the schema leaves optional', () => {
    const schema = shipSchema();
    at(schema, 'address').required = ['street'];
    const diagnostics = ship(schema);
    expect(diagnostics).toEqual([
      expect.objectContaining({ ruleId: 'handler/required-not-in-schema', instancePath: '/address/postal_code', schemaPath: '/properties/address/properties/postal_code' }),
    ]);
    expect(diagnostics[0]!.message).toContain('the handler requires `address.postal_code`, which the schema does not require (in `address`, schema requires [street]; handler requires [street, postal_code])');
  });

  test('type mismatch and ignored field inside array items', () => {
    const schema = shipSchema();
    at(schema, 'lines', '*', 'qty').type = 'string';
    (at(schema, 'lines', '*').properties as Record<string, unknown>).gift_wrap = { type: 'boolean' };
    expect(ids(ship(schema))).toEqual(['handler/type-mismatch /lines/*/qty', 'handler/field-ignored /lines/*/gift_wrap']);
    expect(ship(schema)[0]!.schemaPath).toBe('/properties/lines/items/properties/qty');
  });

  test('a nested pattern the schema dropped', () => {
    const schema = shipSchema();
    delete at(schema, 'address', 'postal_code').pattern;
    expect(ids(ship(schema))).toEqual(['handler/constraint-not-in-schema /address/postal_code']);
  });

  test('local $refs on the schema side are followed', () => {
    const schema = shipSchema();
    const address = at(schema, 'address');
    address.required = ['street'];
    schema.$defs = { Address: address };
    (schema.properties as Record<string, unknown>).address = { $ref: '#/$defs/Address' };
    expect(ids(ship(schema))).toEqual(['handler/required-not-in-schema /address/postal_code']);
  });

  test('a recursive handler type ($ref to definitions) terminates and finds drift at depth', () => {
    const node: JsonSchemaObject = { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required: ['label'] };
    const schema: JsonSchemaObject = { ...node, $defs: { Node: { type: 'object', properties: { label: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required: ['label'] } } };
    const h = handler('TreeNode');
    expect(JSON.stringify(h)).toContain('#/definitions/');
    expect(ids(checkHandler(tool(schema, undefined, 'tree'), h))).toEqual(['handler/type-mismatch /children/*/label']);
  });
});

describe('zod handlers', () => {
  test('the input type is compared: a field with a default is optional for the model', () => {
    const zodHandler = z.object({ order_id: z.string(), amount_cents: z.number().int().min(1), reason: z.enum(['duplicate_charge', 'goodwill', 'damaged']), note: z.string().default('') });
    expect(checkHandler(tool(refundSchema()), resolver.resolve({ kind: 'zod', schema: zodHandler }))).toEqual([]);
  });

  test('a required field only in the zod schema', () => {
    const zodHandler = z.object({ order_id: z.string(), amount_cents: z.number(), reason: z.string(), channel: z.enum(['web', 'phone']) });
    const schema = refundSchema();
    delete (schema.properties as Record<string, unknown>).note;
    expect(ids(checkHandler(tool(schema), resolver.resolve({ kind: 'zod', schema: zodHandler })))).toEqual(['handler/required-not-in-schema /channel']);
  });

  test('z.object strips unknown keys, so a field it does not declare is ignored', () => {
    const zodHandler = z.object({ order_id: z.string(), amount_cents: z.number(), reason: z.string() });
    expect(ids(checkHandler(tool(refundSchema()), resolver.resolve({ kind: 'zod', schema: zodHandler })))).toEqual(['handler/field-ignored /note']);
  });
});

describe('checkHandlers', () => {
  test('skips generated tools and tools without a handler, and checks the rest', () => {
    const drifted = tool(refundSchema(), ts('RefundArgsWithChannel'));
    const generated = { ...tool({ type: 'object', properties: { x: { type: 'string' } } }, { kind: 'json-schema', schema: { type: 'object', properties: { y: { type: 'number' } }, required: ['y'] } }, 'generated'), generated: true };
    const bare = tool(refundSchema(), undefined, 'no_handler');
    const seen: string[] = [];
    const diagnostics = checkHandlers([drifted, generated, bare], (ref, t) => {
      seen.push(t.name);
      return resolver.resolve(ref);
    });
    expect(seen).toEqual(['create_refund']);
    expect(ids(diagnostics)).toEqual(['handler/required-not-in-schema /channel']);
    // The line that declares the type: where the person fixing it goes.
    expect(diagnostics[0]!.related).toEqual([{ file: refundFile, line: 17, message: 'handler type `RefundArgsWithChannel`' }]);
  });

  test('a json-schema handler is used as it is', () => {
    const diagnostics = checkHandlers([tool(refundSchema(), { kind: 'json-schema', schema: { type: 'object', properties: { order_id: { type: 'integer' } } } })]);
    expect(ids(diagnostics)).toEqual([
      'handler/optional-in-handler /order_id',
      'handler/type-mismatch /order_id',
      'handler/field-ignored /amount_cents',
      'handler/field-ignored /reason',
      'handler/field-ignored /note',
    ]);
  });
});

describe('unions and maps', () => {
  const unions = path.join(fixtures, 'unions.ts');
  const typed = (type: string): JsonSchemaObject => resolver.resolve({ kind: 'typescript', file: unions, type });
  const object = (properties: Record<string, unknown>, required: string[] = []): JsonSchemaObject => ({ type: 'object', properties, required });

  test('a schema `anyOf` of objects is checked branch by branch: a field every branch requires is required', () => {
    const comment = (extra: Record<string, unknown>, required: string[]) => object({ path: { type: 'string' }, body: { type: 'string' }, ...extra }, required);
    const schema = object({ comments: { type: 'array', items: { anyOf: [comment({ position: { type: 'number' } }, ['path', 'body', 'position']), comment({ line: { type: 'number' } }, ['path', 'body', 'line'])] } } }, ['comments']);
    expect(checkHandler(tool(schema), typed('Review'))).toEqual([]);
    // A branch that leaves out `body` lets the model send a comment the handler cannot take.
    const loose = object({ comments: { type: 'array', items: { anyOf: [comment({ position: { type: 'number' } }, ['path', 'body', 'position']), comment({ line: { type: 'number' } }, ['path', 'line'])] } } }, ['comments']);
    const found = checkHandler(tool(loose), typed('Review'));
    expect(ids(found)).toEqual(['handler/required-not-in-schema /comments/*/body']);
    expect(found[0]!.message).toContain('schema requires [path] in every one of its 2 variants');
    expect(found[0]!.schemaPath).toBe('/properties/comments/items/anyOf/0/properties/body');
  });

  test('`properties` beside an `anyOf` of `required` lists: each branch joins the shared fields', () => {
    const schema: JsonSchemaObject = { type: 'object', properties: { q: { type: 'string' }, page: { type: 'number' }, cursor: { type: 'string' } }, anyOf: [{ required: ['q', 'page'] }, { required: ['q', 'cursor'] }] };
    expect(errors(checkHandler(tool(schema), typed('Paged')))).toEqual([]);
    // A type drift in a shared field is found there, once.
    const drifted: JsonSchemaObject = { ...schema, properties: { q: { type: 'integer' }, page: { type: 'number' }, cursor: { type: 'string' } } };
    expect(ids(errors(checkHandler(tool(drifted), typed('Paged'))))).toEqual(['handler/type-mismatch /q']);
  });

  test('a union handler type: some member must take every call the schema allows', () => {
    const flat = object({ q: { type: 'string' }, page: { type: 'number' }, cursor: { type: 'string' } }, ['q']);
    const found = checkHandler(tool(flat), typed('Paged'));
    expect(ids(found)).toEqual(['handler/required-not-in-schema ']);
    expect(found[0]!.message).toContain('the handler type is a union of 2 object types, and none of them takes a call that sends only what the schema requires ([q]): the first also requires [page], the second also requires [cursor]');
    expect(found[0]).toMatchObject({ severity: 'error', expected: ['page'], actual: ['q'] });
    // Requiring what one member requires is enough.
    expect(checkHandler(tool({ ...flat, required: ['q', 'page'] }), typed('Paged'))).toEqual([]);
    // A discriminated union against a flat schema whose fields are all optional but the tag.
    const modes = object({ mode: { type: 'string', enum: ['a', 'b'] }, x: { type: 'string' }, y: { type: 'number' } }, ['mode']);
    expect(ids(checkHandler(tool(modes), typed('Mode')))).toEqual(['handler/required-not-in-schema ']);
  });

  test('a member that takes the required fields is compared field by field: a type every such member rejects is found', () => {
    const schema = object({ q: { type: 'integer' }, page: { type: 'number' } }, ['q', 'page']);
    expect(ids(errors(checkHandler(tool(schema), typed('Paged'))))).toEqual(['handler/type-mismatch /q']);
  });

  test('the values of a map (`additionalProperties`) must be values the handler\'s index signature takes', () => {
    const map = (values: JsonSchemaObject) => object({ env: { type: 'object', additionalProperties: values } }, ['env']);
    expect(checkHandler(tool(map({ type: 'string' })), typed('Env'))).toEqual([]);
    const found = checkHandler(tool(map({ type: 'number' })), typed('Env'));
    expect(ids(found)).toEqual(['handler/type-mismatch /env/<key>']);
    expect(found[0]!.message).toContain('`env.<key>` is `number` in the schema but `string` in the handler type');
    expect(found[0]!.schemaPath).toBe('/properties/env/additionalProperties');
  });

  test('a map that may be null (`Record<string, number> | null`) still types its values', () => {
    const map = (values: JsonSchemaObject) => object({ env: { type: ['object', 'null'], additionalProperties: values } }, ['env']);
    expect(checkHandler(tool(map({ type: 'number' })), typed('MaybeEnv'))).toEqual([]);
    expect(ids(checkHandler(tool(map({ type: 'string' })), typed('MaybeEnv')))).toEqual(['handler/type-mismatch /env/<key>']);
    // A named field that flows into it is typed by it, not called ignored.
    expect(ids(checkHandler(tool(object({ env: { type: 'object', properties: { PORT: { type: 'string' } } } }, ['env'])), typed('MaybeEnv')))).toEqual(['handler/type-mismatch /env/PORT']);
  });

  test('an index signature that may be `undefined` still types the named fields that flow into it', () => {
    expect(ids(checkHandler(tool(object({ name: { type: 'string' }, extra: { type: 'number' } })), typed('Loose')))).toEqual(['handler/type-mismatch /extra']);
    expect(checkHandler(tool(object({ name: { type: 'string' }, extra: { type: 'string' } })), typed('Loose'))).toEqual([]);
  });
});


describe('unions nested in unions on both sides', () => {
  const nest = (depth: number): JsonSchemaObject =>
    depth === 0 ? { type: 'string' } : { anyOf: [0, 1].map((i) => ({ type: 'object', properties: { a: nest(depth - 1), [`p${i}`]: { type: 'string' } }, required: ['a'] })) };

  test('a few levels compare as usual; too many stop the run with a could-not-run error naming the tool, not minutes of work', () => {
    expect(checkHandler(tool(nest(4)), nest(4))).toEqual([]);
    let error: unknown;
    try {
      checkHandler(tool(nest(14)), nest(14));
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'config/tool-shape', message: expect.stringContaining('Cannot compare tool `create_refund` with its handler type: their unions (`anyOf`/`oneOf`) nest too deeply to compare') });
  });
});
