// Issue #25, item 2: the handler-type cache knows all its inputs. A handler type that imports a
// file written after the first run, or a type from a package in node_modules that was upgraded,
// kept its old schema until the cache folder was removed; an import that resolved to nothing
// was read as `any`.
import { afterAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HandlerSchemaResolver } from '../../src/handlers/resolve.js';
import { InputError } from '../../src/util/errors.js';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'pc-handler-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;

function project(files: Record<string, string>): string {
  const dir = path.join(scratch, `p${++n}`);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** A resolver as a new process has it: nothing in memory, the disk cache of `dir`. */
const fresh = (dir: string): HandlerSchemaResolver => new HandlerSchemaResolver({ cwd: dir, cacheDir: path.join(dir, 'cache') });
const ref = { kind: 'typescript', file: 'src/handler.ts', type: 'Args' } as const;

describe('the handler cache', () => {
  test('an upgraded package in node_modules changes the schema on the next run', () => {
    const dir = project({
      'node_modules/reasons/package.json': JSON.stringify({ name: 'reasons', version: '1.0.0', types: 'index.d.ts' }),
      'node_modules/reasons/index.d.ts': "export type Reason = 'damaged' | 'late';\n",
      'src/handler.ts': "import type { Reason } from 'reasons';\nexport interface Args { reason: Reason }\n",
    });
    expect(fresh(dir).resolve(ref).properties).toEqual({ reason: { type: 'string', enum: ['damaged', 'late'] } });
    // `npm update`: the same file, a new union.
    writeFileSync(path.join(dir, 'node_modules/reasons/index.d.ts'), "export type Reason = 'damaged' | 'late' | 'lost';\n");
    const next = fresh(dir);
    expect(next.resolve(ref).properties).toEqual({ reason: { type: 'string', enum: ['damaged', 'late', 'lost'] } });
    expect(next.stats.generated).toBe(1);
  });

  test('a file written where an import found a lesser match is read on the next run', () => {
    // `./reason.js` resolves to reason.d.ts while there is no reason.ts; a reason.ts written later wins.
    const dir = project({
      'src/reason.d.ts': "export type Reason = 'damaged';\n",
      'src/handler.ts': "import type { Reason } from './reason.js';\nexport interface Args { reason: Reason }\n",
    });
    expect(fresh(dir).resolve(ref).properties).toEqual({ reason: { type: 'string', const: 'damaged' } });
    writeFileSync(path.join(dir, 'src/reason.ts'), "export type Reason = 'damaged' | 'lost';\n");
    expect(fresh(dir).resolve(ref).properties).toEqual({ reason: { type: 'string', enum: ['damaged', 'lost'] } });
  });

  test('an import that resolves to nothing is refused at its line, and the file written later is read', () => {
    const dir = project({
      'src/handler.ts': "// The reasons live beside it.\nimport type { Reason } from './reason.js';\nexport interface Args { reason: Reason; note?: string }\n",
    });
    let error: unknown;
    try {
      fresh(dir).resolve(ref);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    const e = error as InputError;
    expect(e.code).toBe('handler/unresolved-import');
    expect(e.message).toContain('Cannot resolve `./reason.js`');
    expect([path.relative(dir, e.file!), e.line, e.column]).toEqual([path.join('src', 'handler.ts'), 2, 29]);
    writeFileSync(path.join(dir, 'src/reason.ts'), "export type Reason = 'damaged' | 'lost';\n");
    expect(fresh(dir).resolve(ref).properties).toMatchObject({ reason: { type: 'string', enum: ['damaged', 'lost'] } });
  });

  test('an import only code uses (not a type) may resolve to nothing', () => {
    const dir = project({
      'src/handler.ts': "import { db } from './db.js';\nexport interface Args { id: string }\nexport const load = (a: Args) => db.get(a.id);\n",
    });
    expect(fresh(dir).resolve(ref).required).toEqual(['id']);
  });

  test('a run without cache reads and writes no handler cache', () => {
    const dir = project({ 'src/handler.ts': 'export interface Args { id: string }\n' });
    new HandlerSchemaResolver({ cwd: dir, cacheDir: false }).resolve(ref);
    expect(readdirSync(dir)).toEqual(['src']);
  });
});
