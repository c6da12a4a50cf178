import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatInit, initProject, jestTestScript } from '../src/init.js';
import { cli, repo } from './cli/helpers.js';
import { fileSizeLimit, symbolicLinks, testWhere } from './helpers/platform.js';

// Scratch projects live inside the repository and link this package into their own
// node_modules, so `import 'prompt-contract'` in the scaffold resolves as it would once installed.
const scratch = join(repo, '.cache', 'init-tests');

function project(files: Record<string, string> = {}): { dir: string; read(f: string): string; remove(): void } {
  mkdirSync(scratch, { recursive: true });
  const dir = mkdtempSync(join(scratch, 'p-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(repo, join(dir, 'node_modules', 'prompt-contract'), 'dir');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return { dir, read: (f) => readFileSync(join(dir, f), 'utf8'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const npmInitPackage = JSON.stringify({ name: 'agent', version: '1.0.0', scripts: { test: 'echo "Error: no test specified" && exit 1' } }, null, 2);

describe('prompt-contract init', () => {
  test('scaffolds a config, a prompt module, a test file and a Jest config, and sets the test script', () => {
    const p = project({ 'package.json': npmInitPackage });
    try {
      const result = initProject(p.dir);
      const created = result.steps.filter((s) => s.action === 'created').map((s) => s.file).sort();
      expect(created).toEqual([
        'prompt-contract.config.mjs',
        'prompts/assistant.prompt',
        'prompts/cases/assistant.yaml',
        'prompts/descriptions.yaml',
        'prompts/examples/assistant.yaml',
        'prompts/partials/_tool_call.prompt',
        'prompts/tools.json',
        'test/prompts.contract.test.js',
      ]);
      // Plain Jest: no flag, and no Jest config (Jest's defaults run a CommonJS test file).
      expect(JSON.parse(p.read('package.json')).scripts.test).toBe('jest');
      expect(jestTestScript).toBe('jest');
      expect(result.next).toContain('npm install --save-dev jest');
      expect(p.read('test/prompts.contract.test.js')).toContain("const { contractSuite } = require('prompt-contract/jest');");
    } finally {
      p.remove();
    }
  });

  test('says to commit everything it wrote, the test file included', () => {
    const p = project({ 'package.json': npmInitPackage });
    try {
      const { next } = initProject(p.dir);
      expect(next).toContain('git add prompt-contract.config.mjs prompts test/prompts.contract.test.js package.json snapshots && git commit   # review the snapshots first');
    } finally {
      p.remove();
    }
  });

  // Issue #28 §1 and §6: the suite is written in the module format the project's Jest runs.
  test.each([
    ['a CommonJS package', { name: 'agent' }, {}, 'prompts.contract.test.js', "require('prompt-contract/jest')"],
    ['a "type": "module" package without Babel', { name: 'agent', type: 'module' }, {}, 'prompts.contract.test.cjs', "require('prompt-contract/jest')"],
    ['a "type": "module" package whose Jest compiles with Babel', { name: 'agent', type: 'module' }, { 'babel.config.json': '{"presets":["@babel/preset-env"]}' }, 'prompts.contract.test.js', "import { contractSuite } from 'prompt-contract/jest';\n\n// One test per prompt and case (snapshot and tool-call examples), then every other contract check.\ncontractSuite();"],
    ['a test script with VM modules on', { name: 'agent', scripts: { test: 'NODE_OPTIONS=--experimental-vm-modules jest' } }, {}, 'prompts.contract.test.mjs', 'await contractSuite();'],
    ['ts-jest named in the Jest config', { name: 'agent', devDependencies: { 'ts-jest': '^29', typescript: '^5' } }, { 'jest.config.js': "module.exports = { preset: 'ts-jest' };\n", 'tsconfig.json': '{}' }, 'prompts.contract.test.ts', "import { contractSuite } from 'prompt-contract/jest';"],
    ['@swc/jest in package.json#jest', { name: 'agent', devDependencies: { '@swc/jest': '*', typescript: '^5' }, jest: { transform: { '^.+\\.ts$': '@swc/jest' } } }, {}, 'prompts.contract.test.ts', 'contractSuite();'],
    ['TypeScript with no transform for Jest', { name: 'agent', devDependencies: { typescript: '^5', 'ts-jest': '^29' } }, { 'tsconfig.json': '{}' }, 'prompts.contract.test.js', "require('prompt-contract/jest')"],
    // ts-jest keeps `module: NodeNext`, which in a "type": "module" package emits ES modules: a `.ts` suite would fail to load.
    ['ts-jest emitting ES modules (NodeNext)', { name: 'agent', type: 'module', devDependencies: { 'ts-jest': '^29', typescript: '^5' } }, { 'jest.config.js': "export default { transform: { '^.+\\.ts$': 'ts-jest' } };\n", 'tsconfig.json': '{\n  // as `tsc --init` writes it\n  "compilerOptions": { "module": "nodenext", "moduleResolution": "nodenext" }\n}\n' }, 'prompts.contract.test.cjs', "require('prompt-contract/jest')"],
    ['ts-jest in a "type": "module" package with module ESNext', { name: 'agent', type: 'module', devDependencies: { 'ts-jest': '^29', typescript: '^5' } }, { 'jest.config.js': "export default { transform: { '^.+\\.ts$': 'ts-jest' } };\n", 'tsconfig.json': '{ "compilerOptions": { "module": "ESNext", "moduleResolution": "Bundler" } }\n' }, 'prompts.contract.test.ts', "import { contractSuite } from 'prompt-contract/jest';"],
  ])('in %s, the suite is %s', (_what, pkg, extra, file, text) => {
    const p = project({ 'package.json': JSON.stringify(pkg), ...extra });
    try {
      const result = initProject(p.dir);
      expect(result.steps).toContainEqual({ file: `test/${file}`, action: 'created' });
      expect(p.read(`test/${file}`)).toContain(text);
      // A Jest config only for ES module test files under VM modules, where none exists.
      expect(existsSync(join(p.dir, 'jest.config.mjs'))).toBe(file.endsWith('.mjs'));
      // TypeScript without a transform for Jest is told what works, once.
      expect(result.next.filter((n) => n.includes('docs/typescript.md')).length).toBe(['TypeScript with no transform for Jest', 'ts-jest emitting ES modules (NodeNext)'].includes(_what) ? 1 : 0);
    } finally {
      p.remove();
    }
  });

  test('the scaffold checks clean apart from the snapshots a first local run writes', () => {
    const p = project({ 'package.json': npmInitPackage });
    try {
      initProject(p.dir);
      const r = cli(['check', '--format', 'json'], { cwd: p.dir });
      const rules = (JSON.parse(r.stdout) as { diagnostics: Array<{ ruleId: string }> }).diagnostics.map((d) => d.ruleId);
      expect(rules.sort()).toEqual(['snapshot/missing', 'snapshot/missing']);
      expect(r.code).toBe(1);
      // The example it ships is checked: break it and the check names it.
      writeFileSync(join(p.dir, 'prompts/examples/assistant.yaml'), p.read('prompts/examples/assistant.yaml').replace('unit: fahrenheit', 'unit: kelvin'));
      const broken = JSON.parse(cli(['check', '--format', 'json'], { cwd: p.dir }).stdout) as { diagnostics: Array<{ ruleId: string; file: string; line: number }> };
      const invalid = broken.diagnostics.filter((d) => d.ruleId === 'example/invalid-arguments');
      expect(invalid.length).toBeGreaterThan(0);
      expect(invalid[0]!.file).toBe('prompts/examples/assistant.yaml');
    } finally {
      p.remove();
    }
  });

  // Issue #27: a project that builds its agent with a framework is offered the module form.
  test.each([
    ['ai', 'aiSdkAgent'],
    ['@openai/agents', 'openAiAgent'],
    ['@langchain/core', 'langChainPrompt'],
    ['@mastra/core', 'mastraAgent'],
  ])('a project that depends on %s gets the prompt as a module showing %s, which checks clean and reports a broken example at its YAML line', (pkg, adapter) => {
    const p = project({ 'package.json': JSON.stringify({ name: 'agent', private: true, dependencies: { [pkg]: '*' } }) });
    try {
      const result = initProject(p.dir);
      expect(result.detected.framework).toBe(pkg);
      expect(existsSync(join(p.dir, 'prompts', 'assistant.prompt'))).toBe(false);
      expect(existsSync(join(p.dir, 'prompts', 'partials'))).toBe(false);
      expect(p.read('prompts/assistant.prompt.mjs')).toContain(`import { ${adapter} } from 'prompt-contract';`);
      const r = cli(['check', '--format', 'json'], { cwd: p.dir });
      expect((JSON.parse(r.stdout) as { diagnostics: Array<{ ruleId: string }> }).diagnostics.map((d) => d.ruleId).sort()).toEqual(['snapshot/missing', 'snapshot/missing']);
      writeFileSync(join(p.dir, 'prompts/examples/assistant.yaml'), p.read('prompts/examples/assistant.yaml').replace('unit: fahrenheit', 'unit: kelvin'));
      const broken = (JSON.parse(cli(['check', '--format', 'json'], { cwd: p.dir }).stdout) as { diagnostics: Array<{ ruleId: string; file: string; line: number }> }).diagnostics.filter((d) => d.ruleId === 'example/invalid-arguments');
      // At the example that holds it (the call sits under `call:`, not under an arguments key of the item).
      expect(broken.map((d) => [d.file, d.line])).toEqual([['prompts/examples/assistant.yaml', p.read('prompts/examples/assistant.yaml').split('\n').findIndex((l) => l.includes('question: How warm is it in Boston')) + 1]]);
    } finally {
      p.remove();
    }
  });

  test('never overwrites: a second run keeps every file, and existing files are left as they are', () => {
    const p = project({ 'package.json': JSON.stringify({ scripts: { test: 'vitest' } }), 'prompts/tools.json': '[]\n', 'jest.config.js': 'export default {};\n' });
    try {
      const first = initProject(p.dir);
      // prompts/ already held a file: nothing is added to it, and the existing one is untouched.
      expect(first.steps.filter((s) => s.file.startsWith('prompts/')).every((s) => s.action === 'kept')).toBe(true);
      expect(p.read('prompts/tools.json')).toBe('[]\n');
      expect(p.read('jest.config.js')).toBe('export default {};\n');
      expect(JSON.parse(p.read('package.json')).scripts.test).toBe('vitest');
      // No flag to add: plain Jest runs the suite.
      expect(first.next.some((n) => n.includes('--experimental-vm-modules'))).toBe(false);

      const config = p.read('prompt-contract.config.mjs');
      const second = initProject(p.dir);
      expect(second.steps.some((s) => s.action === 'created' || s.action === 'updated')).toBe(false);
      expect(p.read('prompt-contract.config.mjs')).toBe(config);
    } finally {
      p.remove();
    }
  });

  test('uses defineTool when the project has zod, and names tool modules it finds', () => {
    const p = project({ 'package.json': JSON.stringify({ dependencies: { zod: '^4.0.0' }, devDependencies: { jest: '^30.0.0' } }), 'src/tools.ts': 'export const tools = [];\n' });
    try {
      const result = initProject(p.dir);
      expect(result.detected).toMatchObject({ zod: true, jest: true, toolModules: ['src/tools.ts'] });
      expect(existsSync(join(p.dir, 'prompts/tools.json'))).toBe(false);
      expect(p.read('prompts/tools.mjs')).toContain('defineTool(');
      expect(p.read('prompt-contract.config.mjs')).toContain('src/tools.ts');
      expect(result.next).not.toContain('npm install --save-dev jest');
      // The zod module is a working tool definition: the CLI reads it.
      const r = cli(['render', 'assistant', '--tools'], { cwd: p.dir });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('"get_weather"');
    } finally {
      p.remove();
    }
  });

  test('a package.json that is not JSON is named, and nothing is written', () => {
    const p = project({ 'package.json': '{ "name": ' });
    try {
      expect(() => initProject(p.dir)).toThrow(/package\.json.*expected a JSON object/s);
      expect(existsSync(join(p.dir, 'prompt-contract.config.mjs'))).toBe(false);
    } finally {
      p.remove();
    }
  });

  test.each([
    ['`scripts` a string', { scripts: 'oops' }, /Unexpected `scripts`: "oops", expected an object of names to commands; init changed nothing/],
    ['`scripts.test` a list', { scripts: { test: ['jest'] } }, /Unexpected `scripts\.test`: \["jest"\], expected a command string/],
    ['`devDependencies` null', { devDependencies: null }, /Unexpected `devDependencies`: null, expected an object of names to versions/],
  ])('a package.json with %s is refused as it is, and nothing is written', (_what, pkg, message) => {
    const text = `${JSON.stringify(pkg)}\n`;
    const p = project({ 'package.json': text });
    try {
      expect(() => initProject(p.dir)).toThrow(expect.objectContaining({ code: 'config/invalid', file: 'package.json', message: expect.stringMatching(message) }));
      // It used to spread the string into `scripts` ({"0": "o", "1": "o", ...}) and write that.
      expect(p.read('package.json')).toBe(text);
      expect(existsSync(join(p.dir, 'prompt-contract.config.mjs'))).toBe(false);
    } finally {
      p.remove();
    }
  });

  // The placeholder test script npm writes, exactly as it stands in a package.json.
  const placeholderLiteral = String.raw`"echo \"Error: no test specified\" && exit 1"`;

  test('replaces only the placeholder script: every other byte of package.json stays as it was', () => {
    // What a re-serialised file loses: digits past a double's precision, a duplicate key,
    // a number's spelling, an escape, a one-line object's layout, and the key order.
    const text = String.raw`{
  "name": "agent",
  "version": "1.0.0",
  "snowflake": 12345678901234567890,
  "price": 1.50,
  "exponent": 1E+2,
  "author": "Ren\u00e9 \ud83d\ude00 \/ \"quoted\"",
  "keywords": ["llm",   "prompts"],
  "dup": "first",
  "repository": {"type": "git", "url": "https://example.com/agent.git"},
  "scripts": { "build": "tsc",  "test": ${placeholderLiteral} , "lint": "eslint ." },
  "dup": "second",
  "empty": {},
  "nested": { "scripts": { "test": "not this one" } }
}
`;
    const p = project({ 'package.json': text });
    try {
      const result = initProject(p.dir);
      const at = text.indexOf(placeholderLiteral);
      expect(p.read('package.json')).toBe(`${text.slice(0, at)}${JSON.stringify(jestTestScript)}${text.slice(at + placeholderLiteral.length)}`);
      expect(result.steps).toContainEqual({ file: 'package.json', action: 'updated', note: `scripts.test: \`${jestTestScript}\`` });
    } finally {
      p.remove();
    }
  });

  test.each([
    [
      'no `scripts`: one is added after the last member, indented and ended as the file is',
      '\uFEFF{\r\n\t"name": "agent",\r\n\t"big": 12345678901234567890\r\n}\r\n',
      `\uFEFF{\r\n\t"name": "agent",\r\n\t"big": 12345678901234567890,\r\n\t"scripts": {\r\n\t\t"test": ${JSON.stringify(jestTestScript)}\r\n\t}\r\n}\r\n`,
    ],
    [
      'no `test` in a multi-line `scripts`: it is added as the last script, at the scripts\' indentation',
      '{\n    "name": "agent",\n    "scripts": {\n        "build": "tsc",\n        "lint": "eslint ."\n    },\n    "price": 1.50\n}\n',
      `{\n    "name": "agent",\n    "scripts": {\n        "build": "tsc",\n        "lint": "eslint .",\n        "test": ${JSON.stringify(jestTestScript)}\n    },\n    "price": 1.50\n}\n`,
    ],
    [
      'no `test` in a one-line `scripts`: it stays on its line',
      '{\n  "scripts": { "build": "tsc" },\n  "price": 1.50\n}\n',
      `{\n  "scripts": { "build": "tsc", "test": ${JSON.stringify(jestTestScript)} },\n  "price": 1.50\n}\n`,
    ],
    [
      'an empty `scripts`: it is opened onto lines indented as the file is',
      '{\n  "name": "agent",\n  "scripts": {},\n  "price": 1.50\n}\n',
      `{\n  "name": "agent",\n  "scripts": {\n    "test": ${JSON.stringify(jestTestScript)}\n  },\n  "price": 1.50\n}\n`,
    ],
    [
      'a package.json on one line: it stays on one line',
      '{"name":"agent","price":1.50}',
      `{"name":"agent","price":1.50,"scripts":{"test":${JSON.stringify(jestTestScript)}}}`,
    ],
    ['an empty package.json object', '{}\n', `{"scripts":{"test":${JSON.stringify(jestTestScript)}}}\n`],
    ['an empty package.json object on two lines', '{\n}\n', `{\n  "scripts": {\n    "test": ${JSON.stringify(jestTestScript)}\n  }\n}\n`],
    [
      'one member and no `scripts`: the member\'s indentation is kept',
      '{\n   "name": "agent"\n}',
      `{\n   "name": "agent",\n   "scripts": {\n      "test": ${JSON.stringify(jestTestScript)}\n   }\n}`,
    ],
  ])('%s; nothing else changes', (_what, text, expected) => {
    const p = project({ 'package.json': text });
    try {
      initProject(p.dir);
      expect(p.read('package.json')).toBe(expected);
    } finally {
      p.remove();
    }
  });

  test.each([
    ['two `scripts` objects', `{\n  "scripts": { "build": "tsc" },\n  "scripts": { "test": ${placeholderLiteral} }\n}\n`, 'duplicate `scripts` keys'],
    ['two `test` scripts', `{\n  "scripts": { "test": "jest", "test": ${placeholderLiteral} }\n}\n`, 'duplicate `scripts.test` keys'],
    // npm reads the escaped key as `scripts`: the two are the same key.
    ['`scripts` twice, once spelled with an escape', String.raw`{"scripts": {"build": "tsc"}, "scr\u0069pts": {}}`, 'duplicate `scripts` keys'],
  ])('a package.json with %s is left as it is, and the line to add is printed', (_what, text, unexpected) => {
    const p = project({ 'package.json': text });
    try {
      const result = initProject(p.dir);
      expect(p.read('package.json')).toBe(text);
      expect(result.steps).toContainEqual({ file: 'package.json', action: 'kept', note: `Unexpected ${unexpected}, expected one; not changed` });
      expect(result.next).toContain(`Add to \`scripts\` in package.json by hand:  "test": ${JSON.stringify(jestTestScript)}`);
      expect(formatInit(result)).toContain(`"test": ${JSON.stringify(jestTestScript)}`);
    } finally {
      p.remove();
    }
  });

  // A file size limit (`ulimit -f`) stands in for a full disk: the write fails part-way, as it would there.
  testWhere(fileSizeLimit)('a write that fails part-way leaves the user\'s package.json whole and no half-written file', () => {
    const text = `${JSON.stringify({ name: 'agent', description: 'd'.repeat(6000), scripts: { test: 'echo "Error: no test specified" && exit 1' } }, null, 2)}\n`;
    const p = project({ 'package.json': text });
    try {
      const r = spawnSync('bash', ['-c', `ulimit -f 4; exec "${process.execPath}" "${join(repo, 'dist', 'cli.js')}" init`], { cwd: p.dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/package\.json: Cannot update package\.json \(file too large for the file size limit\); it is unchanged/);
      expect(r.stderr).not.toMatch(/internal error/);
      expect(p.read('package.json')).toBe(text);
      expect(readdirSync(p.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      p.remove();
    }
  });

  test("a package.json with a byte order mark and CRLF line ends is read, and keeps both: the diff shows only the script", () => {
    const text = `\uFEFF${npmInitPackage.replace(/\n/g, '\r\n')}\r\n`;
    const p = project({ 'package.json': text });
    try {
      initProject(p.dir);
      const after = p.read('package.json');
      expect(after.startsWith('\uFEFF{')).toBe(true);
      expect(after.replace(/\r\n/g, '')).not.toContain('\n');
      expect(JSON.parse(after.slice(1)).scripts.test).toBe(jestTestScript);
      expect(after.split('\r\n').length).toBe(text.split('\r\n').length);
    } finally {
      p.remove();
    }
  });

  testWhere(symbolicLinks)('a package.json that is a symbolic link is updated through it, keeping its permissions', () => {
    const p = project({ 'shared/package.json': npmInitPackage });
    try {
      chmodSync(join(p.dir, 'shared', 'package.json'), 0o600);
      symlinkSync(join('shared', 'package.json'), join(p.dir, 'package.json'));
      initProject(p.dir);
      expect(lstatSync(join(p.dir, 'package.json')).isSymbolicLink()).toBe(true);
      expect(JSON.parse(p.read('shared/package.json')).scripts.test).toBe(jestTestScript);
      expect(statSync(join(p.dir, 'shared', 'package.json')).mode & 0o777).toBe(0o600);
    } finally {
      p.remove();
    }
  });

  test('--dir naming a file is refused by name, not as an internal error', () => {
    const p = project({ 'notes.json': '{}' });
    try {
      const result = cli(['init', '--dir', 'notes.json'], { cwd: p.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/notes\.json: Cannot set up a project here: it is a file, expected a folder \(--dir\) \(usage\)/);
      expect(result.stderr).not.toMatch(/internal error/);
    } finally {
      p.remove();
    }
  });

  test('a Vitest project gets the Vitest suite, no Jest config and `vitest run`', () => {
    const p = project({ 'package.json': JSON.stringify({ devDependencies: { vitest: '^4.0.0' } }) });
    try {
      const result = initProject(p.dir);
      expect(result.detected.vitest).toBe(true);
      expect(p.read('test/prompts.contract.test.mjs')).toContain("from 'prompt-contract/vitest'");
      expect(existsSync(join(p.dir, 'jest.config.mjs'))).toBe(false);
      expect(JSON.parse(p.read('package.json')).scripts.test).toBe('vitest run');
      expect(result.next).not.toContain('npm install --save-dev jest');
    } finally {
      p.remove();
    }
  });
});
