// Before the config is imported, its own modules are looked up as the importer finds them, and
// one that is not a regular file is refused at the line that imports it (src/config/local-imports.ts).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { checkLocalImports } from '../../src/config/local-imports.js';
import { InputError } from '../../src/util/errors.js';
import { namedPipes, testWhere } from '../helpers/platform.js';

const maybe = testWhere(namedPipes);

function project(files: Record<string, string>, pipes: string[] = []): { dir: string; config: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'pc-imports-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  for (const pipe of pipes) {
    mkdirSync(dirname(join(dir, pipe)), { recursive: true });
    execFileSync('mkfifo', [join(dir, pipe)]);
  }
  return { dir, config: join(dir, 'prompt-contract.config.ts'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const thrown = (fn: () => void): unknown => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
};

maybe('a pipe two modules down is refused at the line that imports it, through `.js` specifiers, folders and re-exports', () => {
  const p = project(
    {
      'prompt-contract.config.ts': "import { defineConfig } from 'prompt-contract';\nimport { tools } from './tools/index.js';\nexport default defineConfig({ tools });\n",
      'tools/index.ts': "import { z } from 'zod';\n// a comment: import nothing from './nowhere'\nexport { tools } from './lib';\n",
      'tools/lib/index.ts': "export const helper = 1;\nexport * from '../common.js';\n",
    },
    ['tools/common.ts'],
  );
  try {
    const error = thrown(() => checkLocalImports(p.config, (f) => relative(p.dir, f)));
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({
      code: 'config/load-failed',
      file: join('tools', 'lib', 'index.ts'),
      line: 2,
      column: 16,
      message: expect.stringContaining('`../common.js` leads to tools/common.ts, which is a named pipe (FIFO), not a regular file'),
    });
  } finally {
    p.remove();
  }
});

test('a project of regular modules, packages and missing paths passes: a missing module is the importer\'s to report', () => {
  const p = project({
    'prompt-contract.config.ts': "import { tools } from './tools.js';\nimport data from './data.json';\nconst later = () => import('./later.mjs');\nconst gone = require('./gone');\nexport default { tools };\n",
    'tools.ts': "import { readFileSync } from 'node:fs';\nimport { a } from './a.js';\nimport { a as again } from './a.js';\nexport const tools = [];\n",
    'a.ts': "import { tools } from './tools.js';\nexport const a = 1;\n",
    'data.json': '{}',
    'later.mjs': 'export default 1;\n',
  });
  try {
    expect(() => checkLocalImports(p.config, (f) => relative(p.dir, f))).not.toThrow();
  } finally {
    p.remove();
  }
});
