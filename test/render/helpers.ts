import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { InputError } from '../../src/util/errors.js';

/** Writes a tree of files (path -> text) into a fresh temporary folder and returns it. */
export function scratch(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'prompt-contract-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

export const lookupOrder = {
  name: 'lookup_order',
  description: 'Look up an order.',
  input_schema: {
    type: 'object',
    properties: { order_id: { type: 'string', pattern: '^[AB]-\\d{4}$' } },
    required: ['order_id'],
  },
};

/** The InputError `fn` throws; anything else thrown, or nothing, fails the test. */
export function thrown(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}
