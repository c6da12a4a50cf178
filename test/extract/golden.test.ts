import { describe, expect, test } from '@jest/globals';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkExamples } from '../../src/checks/examples.js';
import { extractToolCalls } from '../../src/extract/index.js';
import { fixtures } from './helpers.js';

// Expected files are rewritten only on request, and never on CI.
const update = process.env.UPDATE_GOLDEN === '1' && !process.env.CI;

describe('golden fixtures', () => {
  for (const fixture of fixtures()) {
    test(fixture.name, () => {
      const options = fixture.tools ? { tools: fixture.tools } : {};
      const result = extractToolCalls(fixture.input, options);
      const actual: Record<string, unknown> = { examples: result.examples, diagnostics: result.diagnostics };
      if (fixture.tools) actual.checks = checkExamples(result.examples, fixture.tools);
      const expectedFile = join(fixture.dir, 'expected.json');
      // Rule URLs are absolute and name where the package is installed: keep the docs path only.
      const serialized = `${JSON.stringify(actual, (key, value: unknown) => (key === 'url' && typeof value === 'string' ? value.replace(/^.*\/(docs\/rules\/)/, '$1') : value), 2)}\n`;
      if (update) writeFileSync(expectedFile, serialized);
      if (!existsSync(expectedFile)) throw new Error(`Missing ${expectedFile}; run with UPDATE_GOLDEN=1 to write it`);
      expect(JSON.parse(serialized)).toEqual(JSON.parse(readFileSync(expectedFile, 'utf8')));
      // Every range points into the text, and line/column name its start.
      for (const e of result.examples) {
        expect(e.range.start).toBeGreaterThanOrEqual(0);
        expect(e.range.end).toBeLessThanOrEqual(fixture.input.length);
        const before = fixture.input.slice(0, e.range.start).split('\n');
        expect([e.line, e.column]).toEqual([before.length, before.at(-1)!.length + 1]);
      }
    });
  }
});
