import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { readRegularFileSync, replaceFile, withoutBom, writeFailure } from './util/files.js';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { configFileNames, withoutComments } from './config/index.js';
import { usesBabel } from './jest-config.js';
import { readJson, skipWhitespace } from './extract/json.js';
import { InputError } from './util/errors.js';
import { isRecord } from './util/values.js';

/** What `init` did with one file. */
export interface InitStep {
  /** Relative to the project folder, `/`-separated. */
  file: string;
  action: 'created' | 'kept' | 'updated';
  /** Why a file was kept, or what was changed in it. */
  note?: string;
}

export interface InitResult {
  steps: InitStep[];
  /** What was found in the project and shaped the files: zod, existing tool modules, the test runner. */
  detected: { zod: boolean; jest: boolean; vitest: boolean; typescript: boolean; toolModules: string[]; framework?: string; /** Why the test file has its format. */ suite: string };
  /** What the user does next, one command or sentence a line. */
  next: string[];
}

/** The `test` script npm writes into a new package.json; replacing it loses nothing. */
const npmPlaceholderTest = /^echo "Error: no test specified" && exit 1$/;

/**
 * The `test` script init writes where there is none: plain Jest. The package ships a CommonJS
 * build for Jest without Node's VM modules, so no flag is needed.
 */
export const jestTestScript = 'jest';

/** Whether a test script runs Jest with Node's VM modules on (ES module test files). */
export function runsVmModules(script: string | undefined): boolean {
  return script !== undefined && (script.includes('--experimental-vm-modules') || /NODE_OPTIONS=[^ ]*experimental-vm-modules/.test(script));
}

/** The contract test file init writes, in the module format the project's Jest will run. */
export interface SuiteFile {
  /** File name, in the test folder. */
  name: string;
  text: string;
  /** Why this format: shown in init's report. */
  why: string;
}

const suiteBody = '// One test per prompt and case (snapshot and tool-call examples), then every other contract check.\n';

/**
 * The suite in the project's own format. TypeScript only where Jest compiles it (a ts-jest or
 * @swc/jest transform named in the Jest config), else JavaScript that runs under any Jest:
 * `require` in a CommonJS package, `.cjs` in a `"type": "module"` package whose Jest has no
 * Babel to turn `import` into `require`. ES module syntax with `await` only where Jest runs
 * with VM modules on, or in Vitest.
 */
export function suiteFileFor(options: { vitest: boolean; vmModules: boolean; modulePackage: boolean; babel: boolean; typescriptTransform: string | undefined }): SuiteFile {
  if (options.vitest || options.vmModules) {
    return {
      name: 'prompts.contract.test.mjs',
      text: `import { contractSuite } from 'prompt-contract/${options.vitest ? 'vitest' : 'jest'}';\n\n${suiteBody}await contractSuite();\n`,
      why: options.vitest ? 'Vitest runs ES modules' : 'the test script runs Jest with VM modules on: an ES module',
    };
  }
  if (options.typescriptTransform !== undefined) {
    return { name: 'prompts.contract.test.ts', text: `import { contractSuite } from 'prompt-contract/jest';\n\n${suiteBody}contractSuite();\n`, why: `TypeScript, compiled by ${options.typescriptTransform} as the Jest config says` };
  }
  const requireText = `const { contractSuite } = require('prompt-contract/jest');\n\n${suiteBody}contractSuite();\n`;
  if (!options.modulePackage) return { name: 'prompts.contract.test.js', text: requireText, why: 'CommonJS, as this package is' };
  if (options.babel) return { name: 'prompts.contract.test.js', text: `import { contractSuite } from 'prompt-contract/jest';\n\n${suiteBody}contractSuite();\n`, why: 'an ES module that the project\'s Babel config compiles for Jest' };
  return { name: 'prompts.contract.test.cjs', text: requireText, why: 'CommonJS (`.cjs`): Jest without VM modules cannot run this package\'s ES module `.js` files' };
}

/** The major version of the Jest the project resolves, when it has one. */
function jestMajor(dir: string): number | undefined {
  try {
    const file = createRequire(join(dir, 'package.json')).resolve('jest/package.json');
    const version = (JSON.parse(readRegularFileSync(file)) as { version?: unknown }).version;
    return typeof version === 'string' ? Number.parseInt(version, 10) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The TypeScript transform the project's Jest config names and the project depends on
 * (ts-jest, @swc/jest), if any: only then does a `.ts` test file run. Read as text; the config
 * is never run.
 */
function typescriptTransform(dir: string, pkg: PackageJson | undefined, jestConfig: string | undefined): string | undefined {
  let text = pkg?.jest === undefined ? '' : JSON.stringify(pkg.jest);
  if (jestConfig !== undefined) {
    try {
      text += readRegularFileSync(join(dir, jestConfig));
    } catch {
      // An unreadable config names no transform.
    }
  }
  return ['ts-jest', '@swc/jest'].find((name) => text.includes(name) && depends(pkg, name));
}

/**
 * Whether ts-jest would compile this package's `.ts` test files to ES modules, which Jest without
 * VM modules cannot run ("Must use import to load ES Module"): in a `"type": "module"` package,
 * TypeScript's `module: Node16`/`NodeNext` (and their later names) emits ES modules, and ts-jest
 * keeps that setting where it overrides the others to CommonJS. Read from tsconfig.json's text
 * (comments allowed); a setting inherited through `extends` is not seen.
 */
function tsJestEmitsEsm(dir: string, modulePackage: boolean): boolean {
  if (!modulePackage) return false;
  let text: string;
  try {
    text = readRegularFileSync(join(dir, 'tsconfig.json'));
  } catch {
    return false;
  }
  const module = /"module"\s*:\s*"([^"]*)"/i.exec(withoutComments(text))?.[1];
  return module !== undefined && /^node\d*$|^nodenext$/i.test(module) && !/^node$/i.test(module);
}

/** A path as one word of a shell command: quoted when it holds a space or a character the shell reads. */
const shellWord = (path: string): string => (/[\s"'$`\\]/.test(path) ? JSON.stringify(path) : path);

const jestConfigNames = ['jest.config.js', 'jest.config.mjs', 'jest.config.cjs', 'jest.config.ts', 'jest.config.mts', 'jest.config.cts', 'jest.config.json'];

/** Places where a project usually keeps its tool definitions; listed, never read. */
const toolModuleGuesses = ['tools.json', 'tools.ts', 'tools.js', 'tools.mjs', 'tools/index.ts', 'tools/index.js', 'tools/index.mjs'];

interface PackageJson {
  type?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  jest?: unknown;
}

/** A new file, written whole or not at all (a full disk leaves no half a file behind), refused by name when it cannot be. */
function create(dir: string, file: string, text: string): void {
  const path = join(dir, file);
  try {
    replaceFile(path, text, { exclusive: true });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') throw new InputError('config/unwritable', `Cannot create ${file}: it appeared while init ran; init never overwrites a file`, { file }, { cause: error });
    throw new InputError('config/unwritable', `Cannot create ${file} (${writeFailure(error)}); what init created before it stays, and a second init once it can be written adds the rest`, { file }, { cause: error });
  }
}

function readPackageJson(dir: string): { value: PackageJson; text: string } | undefined {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return undefined;
  let text: string;
  try {
    // Not a plain read: a named pipe would wait for a writer forever.
    text = readRegularFileSync(file);
  } catch (error) {
    throw new InputError('config/unreadable', `Cannot read package.json (${(error as Error).message}); expected a JSON object`, { file: 'package.json' }, { cause: error });
  }
  try {
    // A byte order mark (some Windows editors write one) is no part of the JSON; npm reads past it too.
    const value = JSON.parse(withoutBom(text)) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    checkPackageFields(value as Record<string, unknown>);
    return { value: value as PackageJson, text };
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError('config/invalid', `Cannot read package.json (${(error as Error).message}); expected a JSON object`, { file: 'package.json' }, { cause: error });
  }
}

/** The fields init reads or writes must have the shape npm gives them: init rewrites package.json, and must not make a mess of one it misreads. */
function checkPackageFields(pkg: Record<string, unknown>): void {
  for (const field of ['scripts', 'dependencies', 'devDependencies', 'peerDependencies']) {
    if (Object.hasOwn(pkg, field) && !isRecord(pkg[field])) {
      throw new InputError('config/invalid', `Unexpected \`${field}\`: ${JSON.stringify(pkg[field])?.slice(0, 60)}, expected an object of names to ${field === 'scripts' ? 'commands' : 'versions'}; init changed nothing`, { file: 'package.json' });
    }
  }
  const scripts = pkg.scripts as Record<string, unknown> | undefined;
  if (scripts !== undefined && Object.hasOwn(scripts, 'test') && typeof scripts.test !== 'string') {
    throw new InputError('config/invalid', `Unexpected \`scripts.test\`: ${JSON.stringify(scripts.test)?.slice(0, 60)}, expected a command string; init changed nothing`, { file: 'package.json' });
  }
}

/** One member of a JSON object where it stands in the text. */
interface Member {
  /** Decoded, as npm reads it: `"t\u0065st"` is `test`. */
  key: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
}

/**
 * The members of the object whose `{` is at `open`, every duplicate key listed, and where its
 * `}` is. The text has passed JSON.parse, so undefined means only a value nested past the
 * reader's depth limit: init then leaves the file alone.
 */
function objectMembers(text: string, open: number): { members: Member[]; close: number } | undefined {
  if (text[open] !== '{') return undefined;
  const members: Member[] = [];
  let i = skipWhitespace(text, open + 1);
  if (text[i] === '}') return { members, close: i };
  while (true) {
    const key = readJson(text, i);
    if (!key.ok || typeof key.value !== 'string') return undefined;
    const colon = skipWhitespace(text, key.end);
    if (text[colon] !== ':') return undefined;
    const valueStart = skipWhitespace(text, colon + 1);
    const value = readJson(text, valueStart);
    if (!value.ok) return undefined;
    members.push({ key: key.value, keyStart: i, keyEnd: key.end, valueStart, valueEnd: value.end });
    const next = skipWhitespace(text, value.end);
    if (text[next] === '}') return { members, close: next };
    if (text[next] !== ',') return undefined;
    i = skipWhitespace(text, next + 1);
  }
}

/** The spaces and tabs that start the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start).replace(/^\uFEFF/, ''))![0];
}

/**
 * package.json with `scripts.test` set to `script`, edited in place: the one value replaced, or
 * one member inserted in the layout around it (its indentation, line ends and spacing). Every
 * other byte stays as the user wrote it: JSON.stringify would round a 20-digit number, drop a
 * duplicate key, spell `1.50` as `1.5`, decode `\u00e9` and re-indent one-line objects.
 * `refused` says why the file cannot be edited safely, for the user to add the line by hand.
 */
function withTestScript(text: string, script: string, parsed: PackageJson): { text: string } | { refused: string } {
  const rootOpen = skipWhitespace(text, text.startsWith('\uFEFF') ? 1 : 0);
  const root = objectMembers(text, rootOpen);
  if (!root) return { refused: 'Unexpected package.json layout, expected a JSON object init can read in place' };
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const first = root.members[0];
  // The file's indentation step: its first member's, past whatever the root's line is indented by.
  const rootIndent = lineIndent(text, rootOpen);
  const firstIndent = first !== undefined && /\n[ \t]*$/.test(text.slice(rootOpen, first.keyStart)) ? lineIndent(text, first.keyStart) : '';
  const unit = firstIndent.startsWith(rootIndent) && firstIndent.length > rootIndent.length ? firstIndent.slice(rootIndent.length) : '  ';
  const rootColon = root.members.length > 0 ? text.slice(root.members[root.members.length - 1]!.keyEnd, root.members[root.members.length - 1]!.valueStart) : undefined;

  /**
   * `text` with `key` added as the last member of the object at `open`. `value` is told the new
   * member's indentation (undefined on one line), the spacing inside the object's braces and
   * the colon's spelling, to lay out an object of its own the same way.
   */
  const insert = (open: number, object: { members: Member[]; close: number }, key: string, value: (indent: string | undefined, pad: string, colon: string) => string): string => {
    const last = object.members[object.members.length - 1];
    if (last === undefined) {
      const inside = text.slice(open + 1, object.close);
      // An empty object opens onto lines where the file is laid out on lines, and stays on one where it is one line.
      const multiline = text.slice(rootOpen, root.close).includes('\n');
      if (!multiline) {
        const colon = rootColon ?? ':';
        return `${text.slice(0, open + 1)}${inside}${JSON.stringify(key)}${colon}${value(undefined, inside, colon)}${inside}${text.slice(object.close)}`;
      }
      const base = lineIndent(text, open);
      const colon = rootColon ?? ': ';
      return `${text.slice(0, open + 1)}${eol}${base}${unit}${JSON.stringify(key)}${colon}${value(base + unit, '', colon)}${eol}${base}${text.slice(object.close)}`;
    }
    // What separates members here: the two last ones' spacing, or a comma and the space before the first.
    const beforeLast = object.members[object.members.length - 2];
    const separator = beforeLast === undefined ? `,${text.slice(open + 1, last.keyStart)}` : text.slice(beforeLast.valueEnd, last.keyStart);
    const indent = separator.includes('\n') ? separator.slice(separator.lastIndexOf('\n') + 1) : undefined;
    const pad = /^[ \t]*$/.test(text.slice(open + 1, object.members[0]!.keyStart)) ? text.slice(open + 1, object.members[0]!.keyStart) : '';
    const colon = text.slice(last.keyEnd, last.valueStart);
    return `${text.slice(0, last.valueEnd)}${separator}${JSON.stringify(key)}${colon}${value(indent, pad, colon)}${text.slice(last.valueEnd)}`;
  };

  const value = JSON.stringify(script);
  let edited: string;
  const scripts = root.members.filter((m) => m.key === 'scripts');
  if (scripts.length > 1) return { refused: 'Unexpected duplicate `scripts` keys, expected one' };
  if (scripts.length === 0) {
    edited = insert(rootOpen, root, 'scripts', (indent, pad, colon) => (indent === undefined ? `{${pad}"test"${colon}${value}${pad}}` : `{${eol}${indent}${unit}"test"${colon}${value}${eol}${indent}}`));
  } else {
    const open = scripts[0]!.valueStart;
    const object = objectMembers(text, open);
    if (!object) return { refused: 'Unexpected `scripts` layout, expected an object init can read in place' };
    const tests = object.members.filter((m) => m.key === 'test');
    if (tests.length > 1) return { refused: 'Unexpected duplicate `scripts.test` keys, expected one' };
    edited = tests[0] !== undefined ? `${text.slice(0, tests[0].valueStart)}${value}${text.slice(tests[0].valueEnd)}` : insert(open, object, 'test', () => value);
  }
  // The edit must mean what was intended, whatever the layout: the same object, with the script set.
  const expected = JSON.stringify({ ...parsed, scripts: { ...parsed.scripts, test: script } });
  let actual: string | undefined;
  try {
    actual = JSON.stringify(JSON.parse(withoutBom(edited)));
  } catch {
    actual = undefined;
  }
  if (actual !== expected) return { refused: 'Unexpected package.json layout, expected one init can edit in place' };
  return { text: edited };
}

function depends(pkg: PackageJson | undefined, name: string): boolean {
  return pkg !== undefined && [pkg.dependencies, pkg.devDependencies, pkg.peerDependencies].some((deps) => deps !== undefined && Object.hasOwn(deps, name));
}

function findToolModules(dir: string): string[] {
  const found: string[] = [];
  for (const base of ['src', 'lib', 'app', '.']) {
    for (const guess of toolModuleGuesses) {
      const path = join(dir, base, guess);
      if (existsSync(path)) found.push(relative(dir, path).split('\\').join('/'));
    }
  }
  return found;
}

/** The scaffold's files, keyed by path; the content depends on whether zod is there. */
/** The agent frameworks init recognises, the adapter for each, and how its agent is handed over. */
const frameworks = [
  { pkg: 'ai', adapter: 'aiSdkAgent', call: "aiSdkAgent(agent, { messages: (input) => [{ role: 'user', content: input.question }] })", what: 'the Vercel AI SDK' },
  { pkg: '@openai/agents', adapter: 'openAiAgent', call: 'openAiAgent(agent)', what: 'the OpenAI Agents SDK' },
  { pkg: '@langchain/core', adapter: 'langChainPrompt', call: 'langChainPrompt(prompt, { tools })', what: 'LangChain' },
  { pkg: '@mastra/core', adapter: 'mastraAgent', call: 'mastraAgent(agent)', what: 'Mastra' },
] as const;

type Framework = (typeof frameworks)[number];

/** A prompt module in place of the template: the same prompt built by code, with the adapter for the project's framework shown. */
function modulePrompt(framework: Framework): string {
  const fence = '`'.repeat(3);
  return [
    "import { definePrompt } from 'prompt-contract';",
    '',
    `// This project uses ${framework.what}: check the prompt production builds, from the agent`,
    '// object itself. Import your agent from where production constructs it, then replace the',
    '// definition below with:',
    '//',
    `//   import { ${framework.adapter} } from 'prompt-contract';`,
    "//   import { agent } from '../src/agent.js';",
    `//   export default ${framework.call};`,
    '//',
    '// Until then, this module builds the prompt in code from the same examples and cases.',
    'const intro = (name) => `You are a weather assistant talking to ${name}. Answer in one short paragraph.`;',
    `const shown = (example) => 'User: ' + example.question + '\\n${fence}json\\n' + JSON.stringify(example.call, null, 2) + '\\n${fence}';`,
    '',
    'export default definePrompt({',
    "  tools: ['get_weather'],",
    "  examples: './examples/assistant.yaml',",
    "  render: (input, { examples }) => [intro(input.user.name), 'When the user asks about the weather, call a tool. For example:', ...examples.map(shown)].join('\\n'),",
    '});',
    '',
  ].join('\n');
}

function scaffold(options: { zod: boolean; vitest: boolean; testDir: string; suite: SuiteFile; toolModules: string[]; framework?: Framework | undefined }): Map<string, string> {
  const files = new Map<string, string>();
  const toolsLine = options.zod ? "import { tools } from './prompts/tools.mjs';\n" : '';
  const found = options.toolModules.length > 0 ? `  // Found in this project, maybe your own tool definitions: ${options.toolModules.join(', ')}.\n  // Point \`tools\` at them (an array in any provider shape, or a JSON tools file).\n` : '';
  files.set(
    'prompt-contract.config.mjs',
    `import { defineConfig } from 'prompt-contract';
${toolsLine}
// Every key is described in prompt-contract's docs/config.md.
export default defineConfig({
  prompts: 'prompts',
${found}  tools: ${options.zod ? 'tools' : "'prompts/tools.json'"},
  descriptions: 'prompts/descriptions.yaml',
  snapshots: 'snapshots',
  providers: ['anthropic', 'openai'],
});
`,
  );
  if (options.zod) {
    files.set(
      'prompts/tools.mjs',
      `import { z } from 'zod';
import { defineTool } from 'prompt-contract';

// The schema sent to the model is generated from the handler's own zod type, so the two cannot drift.
export const tools = [
  defineTool({
    name: 'get_weather',
    input: z.object({
      city: z.string().min(1),
      unit: z.enum(['celsius', 'fahrenheit']).default('celsius'),
    }),
  }),
];
`,
    );
  } else {
    files.set(
      'prompts/tools.json',
      `${JSON.stringify(
        [
          {
            name: 'get_weather',
            input_schema: {
              type: 'object',
              properties: { city: { type: 'string', minLength: 1 }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
              required: ['city'],
              additionalProperties: false,
            },
          },
        ],
        null,
        2,
      )}\n`,
    );
  }
  files.set(
    'prompts/descriptions.yaml',
    `# Tool and parameter wording, read by the model: every change shows in the snapshot diff.
get_weather:
  description: Current weather for a city. Call it before answering any weather question.
  parameters:
    city: City name as the user wrote it, e.g. Lisbon.
    unit: Temperature unit; celsius unless the user asks otherwise.
`,
  );
  if (options.framework) files.set('prompts/assistant.prompt.mjs', modulePrompt(options.framework));
  else files.set(
    'prompts/assistant.prompt',
    `---
tools: [get_weather]
examples: { file: examples/assistant.yaml, partial: tool_call }
---
You are a weather assistant talking to {{user.name}}. Answer in one short paragraph.
When the user asks about the weather, call a tool. For example:
{{#each examples}}
{{> tool_call this}}
{{/each}}
`,
  );
  if (!options.framework) files.set(
    'prompts/partials/_tool_call.prompt',
    `User: {{question}}
\`\`\`json
{{json call}}
\`\`\`
`,
  );
  files.set(
    'prompts/examples/assistant.yaml',
    `# Few-shot examples, each rendered through the partial \`tool_call\` and checked against the tool's schema.
examples:
  - question: Do I need an umbrella in Lisbon?
    call:
      name: get_weather
      arguments:
        city: Lisbon
  - question: How warm is it in Boston, in fahrenheit?
    call:
      name: get_weather
      arguments:
        city: Boston
        unit: fahrenheit
`,
  );
  files.set(
    'prompts/cases/assistant.yaml',
    `# Named standard inputs: each case renders the prompt once and is snapshotted under snapshots/.
prompt: assistant
cases:
  default:
    input:
      user: { name: Ana }
`,
  );
  files.set(`${options.testDir}/${options.suite.name}`, options.suite.text);
  return files;
}

/**
 * Scaffolds prompt-contract into an existing project: a config, a minimal prompt module
 * (one tool, one example, one case), a test file calling `contractSuite`, and a Jest config
 * when the project has none. It never overwrites a file: one that exists is kept and
 * reported. A `test` script is added to package.json only where there is none or npm's
 * placeholder stands.
 */
export function initProject(dir: string): InitResult {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new InputError('usage', "Cannot set up a project here: it is a file, expected a folder (--dir)", { file: dir });
  const pkg = readPackageJson(dir);
  const zod = depends(pkg?.value, 'zod');
  const jest = depends(pkg?.value, 'jest');
  // A project that runs Vitest (and not Jest) gets the Vitest suite and no Jest config.
  const vitest = depends(pkg?.value, 'vitest') && !jest;
  const typescript = depends(pkg?.value, 'typescript') || existsSync(join(dir, 'tsconfig.json'));
  const toolModules = findToolModules(dir);
  const testDir = ['test', 'tests', '__tests__'].find((d) => existsSync(join(dir, d))) ?? 'test';
  const steps: InitStep[] = [];

  const existingConfig = configFileNames.find((name) => existsSync(join(dir, name)));
  // A project that builds its agent with a framework gets the prompt as a module, with the framework's adapter shown.
  const framework = frameworks.find((f) => depends(pkg?.value, f.pkg));
  const script = pkg?.value.scripts?.test;
  const vmModules = !vitest && runsVmModules(script);
  const jestConfig = jestConfigNames.find((name) => existsSync(join(dir, name)));
  const modulePackage = pkg?.value.type === 'module';
  const transform = vitest ? undefined : typescriptTransform(dir, pkg?.value, jestConfig);
  // ts-jest that would emit ES modules cannot run a `.ts` suite without VM modules: the suite is then JavaScript.
  const esmTsJest = transform === 'ts-jest' && !vmModules && tsJestEmitsEsm(dir, modulePackage);
  const suite = suiteFileFor({ vitest, vmModules, modulePackage, babel: usesBabel(dir), typescriptTransform: esmTsJest ? undefined : transform });
  if (esmTsJest) suite.why = `${suite.why}; not TypeScript: with \`"type": "module"\` and tsconfig's \`module: NodeNext\`, ts-jest compiles \`.ts\` tests to ES modules, which Jest without VM modules cannot run`;
  const files = scaffold({ zod, vitest, testDir, suite, toolModules, framework });
  if (existingConfig !== undefined) files.delete('prompt-contract.config.mjs');
  // A module folder that already exists belongs to the user: add nothing to it.
  const promptsTaken = existsSync(join(dir, 'prompts')) && readdirSync(join(dir, 'prompts')).length > 0;
  if (existingConfig !== undefined) steps.push({ file: existingConfig, action: 'kept', note: 'a config exists' });
  for (const [file, text] of files) {
    const path = join(dir, file);
    if (existsSync(path)) {
      steps.push({ file, action: 'kept', note: 'exists' });
      continue;
    }
    if (promptsTaken && file.startsWith('prompts/')) {
      steps.push({ file, action: 'kept', note: 'prompts/ already holds files; not added' });
      continue;
    }
    create(dir, file, text);
    steps.push({ file, action: 'created' });
  }

  if (vmModules && jestConfig === undefined && pkg?.value.jest === undefined) {
    // ES module test files under Jest's VM modules: ts-jest in ESM mode where the project has it, no Babel for `.mjs`.
    const file = 'jest.config.mjs';
    create(dir, file, "import { promptContractJestConfig } from 'prompt-contract/jest-config';\n\nexport default promptContractJestConfig();\n");
    steps.push({ file, action: 'created' });
  }

  const next: string[] = [];
  // Where Jest is, when the project has it (hoisted to a workspace root, say); else where `npm i -D jest` puts it.
  const jestScript = jestTestScript;
  if (!pkg) {
    create(dir, 'package.json', `${JSON.stringify({ private: true, scripts: { test: jestScript } }, null, 2)}\n`);
    steps.push({ file: 'package.json', action: 'created', note: `with the test script \`${jestScript}\`` });
  } else {
    const current = script;
    const wanted = vitest ? 'vitest run' : jestScript;
    if (current === undefined || npmPlaceholderTest.test(current)) {
      const edit = withTestScript(pkg.text, wanted, pkg.value);
      if ('refused' in edit) {
        steps.push({ file: 'package.json', action: 'kept', note: `${edit.refused}; not changed` });
        next.push(`Add to \`scripts\` in package.json by hand:  "test": ${JSON.stringify(wanted)}`);
      } else {
        try {
          // Whole or not at all: a full disk must not leave the user's package.json cut short.
          // Through a symbolic link to the file it names, with that file's permissions.
          const target = realpathSync(join(dir, 'package.json'));
          replaceFile(target, edit.text, { mode: statSync(target).mode & 0o7777 });
        } catch (error) {
          throw new InputError('config/unwritable', `Cannot update package.json (${writeFailure(error)}); it is unchanged. Set \`scripts.test\` to \`${wanted}\` by hand, or run init again once it can be written`, { file: 'package.json' }, { cause: error });
        }
        steps.push({ file: 'package.json', action: 'updated', note: `scripts.test: \`${wanted}\`` });
      }
    } else steps.push({ file: 'package.json', action: 'kept', note: 'a test script exists' });
  }

  if (!jest && !vitest) next.push('npm install --save-dev jest');
  if (suite.name.endsWith('.cjs') && jestMajor(dir) !== undefined && jestMajor(dir)! < 30) {
    next.push(`Jest ${jestMajor(dir)} does not look for \`.cjs\` test files: add "testMatch": ["**/?(*.)+(spec|test).?([mc])[jt]s?(x)"] to its config, or upgrade to Jest 30`);
  }
  if (esmTsJest) {
    next.push('TypeScript: the suite is JavaScript (`.cjs`). In this `"type": "module"` package, tsconfig\'s `module: NodeNext` makes ts-jest compile `.ts` tests to ES modules, which Jest runs only with VM modules (`node --experimental-vm-modules node_modules/jest/bin/jest.js`); see docs/typescript.md');
  } else if (typescript && !vitest && suite.name.endsWith('.ts') === false && !vmModules) {
    next.push('TypeScript: the suite is JavaScript, which Jest runs as it is. For TypeScript tests give Jest a transform: @swc/jest (no type-check, fast) or ts-jest with typescript@5 (ts-jest does not support TypeScript 7); see docs/typescript.md');
  }
  next.push('npm test                     # writes snapshots/ on this first local run');
  next.push('npx prompt-contract check    # the same checks, from the command line');
  // Everything init wrote (the prompts folder once), and the snapshots the first run writes.
  const written = [...new Set(steps.filter((s) => s.action !== 'kept').map((s) => (s.file.startsWith('prompts/') ? 'prompts' : s.file)))];
  next.push(`git add ${[...written, 'snapshots'].map(shellWord).join(' ')} && git commit   # review the snapshots first`);
  return { steps, detected: { zod, jest, vitest, typescript, toolModules, suite: suite.why, ...(framework ? { framework: framework.pkg } : {}) }, next };
}

/** The report `prompt-contract init` prints. */
export function formatInit(result: InitResult): string {
  const lines = result.steps.map((s) => `  ${s.action.padEnd(8)} ${s.file}${s.note === undefined ? '' : `  (${s.note})`}`);
  const found = [result.detected.zod ? 'zod: the tool is defined with defineTool' : 'no zod: the tool is a JSON Schema file', result.detected.vitest ? 'Vitest: the test uses prompt-contract/vitest' : `Jest: the test uses prompt-contract/jest, ${result.detected.suite}`];
  if (result.detected.toolModules.length > 0) found.push(`possible tool modules: ${result.detected.toolModules.join(', ')}`);
  if (result.detected.framework !== undefined) found.push(`${result.detected.framework}: the prompt is a module (prompts/assistant.prompt.mjs) that shows how to read your agent`);
  return `prompt-contract init\n${lines.join('\n')}\n\nFound: ${found.join('; ')}.\n\nNext:\n${result.next.map((n) => `  ${n}`).join('\n')}\n`;
}
