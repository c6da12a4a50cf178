import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RecordedItem } from '../../src/sources/types.js';
import type { JsonSchemaObject } from '../../src/tools/types.js';
import { normalizeTools } from '../../src/tools/normalize.js';

// Shared by the SQLite and PostgreSQL source tests: one seed, one set of tools, one reading of the results.
export const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
export const tools = normalizeTools(JSON.parse(readFileSync(fixture('tools.json'), 'utf8')));
export const handlerSchemas = new Map<string, JsonSchemaObject>([['create_refund', JSON.parse(readFileSync(fixture('create_refund.handler.json'), 'utf8')) as JsonSchemaObject]]);

export async function collect(items: AsyncIterable<RecordedItem>): Promise<RecordedItem[]> {
  const out: RecordedItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** `row:id:tool` per call, `corrupt@row` per unreadable row. */
export function summary(items: RecordedItem[]): string[] {
  return items.map((item) => ('corrupt' in item ? `corrupt@${item.where.row}` : `${item.where.row}:${item.id}:${item.name}`));
}

/** What reading fixtures/conversations.sql gives, whichever database holds it. */
export const seedReading = [
  '1:toolu_01:create_refund',
  '2:toolu_02:create_refund',
  '3#0:call_a:lookup_order',
  '3#1:call_b:create_refund',
  'corrupt@5',
  '6:toolu_06:create_refund',
  '7:toolu_07:escalate_to_humans',
  'corrupt@8',
];
