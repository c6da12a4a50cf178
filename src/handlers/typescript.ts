import { createHash } from 'node:crypto';
import { readRegularFileSync } from '../util/files.js';
import path from 'node:path';
import type * as TS from 'typescript';
import type * as TSJ from 'ts-json-schema-generator';
import type { JsonSchemaObject } from '../tools/types.js';
import { InputError } from '../util/errors.js';
import { requireBeside, requireOptional } from '../util/optional.js';
import { suggestName } from '../util/suggest.js';

// Both are optional peer dependencies: only a config with a TypeScript handler type needs them.
// TypeScript is the copy the generator resolves (its own dependency): a project on TypeScript 7,
// whose compiler API the generator is not written against, still gets one that works.
const needs = 'The config';
const versionOf = (name: 'ts-json-schema-generator' | 'typescript'): string =>
  (name === 'typescript' ? requireBeside<{ version: string }>('typescript/package.json', 'ts-json-schema-generator', needs) : requireOptional<{ version: string }>(`${name}/package.json`, needs)).version;

let version: string | undefined;

/** Part of every cache key: a new generator or compiler may emit a different schema for the same source. */
export function generatorVersion(): string {
  version ??= `ts-json-schema-generator@${versionOf('ts-json-schema-generator')} typescript@${versionOf('typescript')}`;
  return version;
}

let compiler: { ts: typeof TS; tsj: typeof TSJ } | undefined;

// Loading the compiler and the generator takes most of a second; a run answered from the cache never pays it.
function load(): { ts: typeof TS; tsj: typeof TSJ } {
  if (compiler) return compiler;
  const ts = requireBeside<typeof TS>('typescript', 'ts-json-schema-generator', needs);
  // A compiler without the API the generator calls (a future major) is named, not a TypeError deep inside it.
  if (typeof ts.createProgram !== 'function' || ts.ScriptTarget === undefined) {
    throw new InputError('config/missing-dependency', `The config reads TypeScript handler types, and the \`typescript\` that ts-json-schema-generator resolves (${versionOf('typescript')}) has no compiler API it can use; expected TypeScript 5 or 6: \`npm i -D ts-json-schema-generator typescript@5\``);
  }
  compiler = { ts, tsj: requireOptional<typeof TSJ>('ts-json-schema-generator', needs) };
  return compiler;
}

const generatorConfig = {
  // Inline every named type: the checker then sees nested objects directly, and `$ref`
  // only remains where a type refers to itself.
  expose: 'none',
  topRef: false,
  // The handler's own build type-checks it; a type error elsewhere in the file must not stop us.
  skipTypeCheck: true,
  jsDoc: 'extended',
  // A TS type names the fields the handler reads. Extra fields are not rejected at run
  // time (structural typing), so `false` here means "not read", which is what
  // `handler/field-ignored` reports, never "rejected".
  additionalProperties: false,
} as const satisfies TSJ.Config;

// Strict null checks make `x: T | undefined` an optional field; the generator's default program has them off.
const compilerOptions = (ts: typeof TS): TS.CompilerOptions => ({
  noEmit: true,
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  skipLibCheck: true,
  // Ambient @types packages cost load time and never declare a handler's argument type.
  types: [],
});

/**
 * A compiler host that parses TypeScript's own lib files (`lib.es2022.d.ts` and what it
 * references) once per process. Parsing and binding them is most of the cost of a program,
 * and they never change; every other file is read afresh for each program. A parsed and bound
 * source file can be shared between programs of the same options: the checker keeps its own
 * state apart from the tree, as the language service's document registry relies on.
 */
let host: TS.CompilerHost | undefined;
const libFiles = new Map<string, TS.SourceFile>();
let libParses = 0;

/** How many times this process parsed one of TypeScript's lib files (read by the tests). */
export function libFileParses(): number {
  return libParses;
}

function compilerHost(ts: typeof TS, options: TS.CompilerOptions): TS.CompilerHost {
  if (host) return host;
  const base = ts.createCompilerHost(options);
  const libDir = path.resolve(base.getDefaultLibLocation?.() ?? path.dirname(base.getDefaultLibFileName(options)));
  const read = base.getSourceFile.bind(base);
  host = {
    ...base,
    getSourceFile(fileName, languageVersion, onError, shouldCreate) {
      if (path.dirname(path.resolve(fileName)) !== libDir) return read(fileName, languageVersion, onError, shouldCreate);
      const settings = typeof languageVersion === 'object' ? languageVersion : { languageVersion };
      const key = JSON.stringify([fileName, settings.languageVersion, settings.impliedNodeFormat, settings.jsDocParsingMode]);
      let file = libFiles.get(key);
      if (file === undefined) {
        file = read(fileName, languageVersion, onError, shouldCreate);
        libParses++;
        if (file !== undefined) libFiles.set(key, file);
      }
      return file;
    },
  };
  return host;
}

type Declaration = TS.InterfaceDeclaration | TS.TypeAliasDeclaration | TS.EnumDeclaration | TS.ClassDeclaration;

/** The named types declared at the top level of a file, exported or not. */
function declarations(ts: typeof TS, source: TS.SourceFile): Array<{ name: string; node: Declaration }> {
  const out: Array<{ name: string; node: Declaration }> = [];
  for (const statement of source.statements) {
    if (
      (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement) || ts.isClassDeclaration(statement)) &&
      statement.name !== undefined
    ) {
      out.push({ name: statement.name.text, node: statement });
    }
  }
  return out;
}

function notFound(file: string, shown: string, type: string, names: string[]): InputError {
  // The same name in another case or spelling, or a typo away; else the shortest name that contains it (`Ship` for `ShipArgs`).
  const containing = (name: string): boolean => name.toLowerCase().includes(type.toLowerCase());
  const closest = suggestName(type, names)?.name ?? names.filter(containing).sort((a, b) => a.length - b.length)[0];
  const hint = closest !== undefined ? `; did you mean \`${closest}\`?` : '';
  const listing = names.length > 0 ? ` Types declared there: ${names.map((n) => `\`${n}\``).join(', ')}.` : ' It declares no named types.';
  return new InputError('handler/type-not-found', `Handler type \`${type}\` not found in \`${shown}\`${hint}${listing}`, { file });
}

export interface GeneratedSchema {
  schema: JsonSchemaObject;
  /** Project files the schema was read from (the handler file and what it imports), absolute, with their content hashes. */
  sources: Map<string, string>;
}

/**
 * Reads TypeScript types as JSON Schemas. Creating a program is the slow part (about a
 * second, mostly parsing the lib files), and one handler file often declares the argument
 * types of several tools, so the program is reused while none of its project files changed.
 */
export class TypeScriptSchemaReader {
  #key: string | undefined;
  #program: TS.Program | undefined;
  #generator: TSJ.SchemaGenerator | undefined;
  /** Project files of the program, absolute, with their content hashes when it was created. */
  #sources = new Map<string, string>();
  /** How many schemas were generated, for cache statistics. */
  generated = 0;

  read(file: string, shown: string, type: string): GeneratedSchema {
    const { ts, tsj } = load();
    if (this.#key !== file || this.#program === undefined || this.#generator === undefined || !this.#unchanged()) {
      const options = compilerOptions(ts);
      this.#program = ts.createProgram({ rootNames: [file], options, host: compilerHost(ts, options) });
      const config: TSJ.CompletedConfig = { ...tsj.DEFAULT_CONFIG, ...generatorConfig };
      this.#generator = new tsj.SchemaGenerator(this.#program, tsj.createParser(this.#program, config), tsj.createFormatter(config), config);
      this.#key = file;
      this.#sources = new Map(projectFiles(this.#program).map((f) => [f, contentHash(f)]));
    }
    const program = this.#program;
    const source = program.getSourceFile(file);
    if (source === undefined) throw new InputError('handler/type-not-found', `Cannot read handler file \`${shown}\``, { file });
    // Type errors are the handler build's business (skipTypeCheck); a file that does not parse
    // would yield a schema of whatever the parser recovered, so it cannot run.
    const [syntax, ...more] = program.getSyntacticDiagnostics(source);
    if (syntax !== undefined) {
      const at = syntax.start === undefined ? undefined : source.getLineAndCharacterOfPosition(syntax.start);
      const others = more.length === 0 ? '' : ` (and ${more.length} more syntax error${more.length === 1 ? '' : 's'})`;
      throw new InputError(
        'handler/syntax-error',
        `Syntax error in handler file \`${shown}\`: TS${syntax.code}: ${ts.flattenDiagnosticMessageText(syntax.messageText, ' ')}${others}; expected TypeScript that parses, to read type \`${type}\` from`,
        { file, ...(at === undefined ? {} : { line: at.line + 1, column: at.character + 1 }) },
      );
    }
    const declared = declarations(ts, source);
    const match = declared.find((d) => d.name === type);
    let raw: Record<string, unknown>;
    try {
      // Our own lookup finds unexported types too; the generator's finds re-exports from other files.
      raw = (match ? this.#generator.createSchemaFromNodes([match.node]) : this.#generator.createSchema(type)) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof tsj.RootlessError) throw notFound(file, shown, type, declared.map((d) => d.name));
      const detail = error instanceof tsj.BaseError ? error.format() : error instanceof Error ? error.message : String(error);
      const at = match ? source.getLineAndCharacterOfPosition(match.node.getStart(source)) : undefined;
      // `z.infer<typeof Schema>` is computed by zod's own types, which the generator cannot follow; the zod schema itself can be read.
      const zodHint = match && /\bz\.(?:infer|input|output)\s*</.test(match.node.getText(source)) ? "; a type zod computes (`z.infer`) is read from the zod schema itself: register the handler as `{ kind: 'zod', schema }`" : '';
      throw new InputError('handler/unsupported-type', `Cannot turn handler type \`${type}\` in \`${shown}\` into a JSON Schema: ${detail.trim()}${zodHint}`, { file, ...(at === undefined ? {} : { line: at.line + 1, column: at.character + 1 }) }, { cause: error });
    }
    this.generated++;
    const { $schema: _draft, definitions, ...body } = raw;
    const schema: JsonSchemaObject = body;
    if (definitions !== undefined && typeof definitions === 'object' && definitions !== null && Object.keys(definitions).length > 0) schema.definitions = definitions;
    return { schema, sources: this.#sources };
  }

  #unchanged(): boolean {
    for (const [f, h] of this.#sources) if (contentHash(f) !== h) return false;
    return true;
  }
}

function contentHash(file: string): string {
  try {
    // Not a plain read: a named pipe would wait for a writer forever.
    return createHash('sha256').update(readRegularFileSync(file, null)).digest('hex');
  } catch {
    return '';
  }
}

// Installed packages change only with an install; hashing their declarations on every lookup would cost more than it saves.
function projectFiles(program: TS.Program): string[] {
  return program
    .getSourceFiles()
    .filter((f) => !program.isSourceFileDefaultLibrary(f) && !f.fileName.includes('/node_modules/'))
    .map((f) => path.resolve(f.fileName));
}
