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
  // Nor do the DOM's types, which the default lib of ES2022 adds: they are half of what a cold program parses.
  lib: ['lib.es2022.d.ts'],
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
  /**
   * Every path the compiler looked at to read the schema, absolute, with its state then (see
   * `fileState`): the handler file and what it imports, declaration files of packages in
   * `node_modules`, the `package.json` files module resolution read, and the paths it tried
   * and found nothing at. A file written where an import found nothing, or a package upgraded,
   * changes one of them.
   */
  sources: Map<string, string>;
}

/**
 * What is at `path`, for the handler cache: the hash of a file's content, `folder`, or `` for
 * nothing (or nothing readable). TypeScript's own lib files are keyed by its version instead.
 */
export function fileState(path: string): string {
  try {
    // Not a plain read: a named pipe would wait for a writer forever.
    return createHash('sha256').update(readRegularFileSync(path, null)).digest('hex');
  } catch (error) {
    return (error as { kind?: string }).kind === 'a directory' ? 'folder' : '';
  }
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
  /** Imports whose names a type uses and that resolve to nothing, as of the program's creation. */
  #unresolved: Unresolved[] = [];
  /** How many schemas were generated, for cache statistics. */
  generated = 0;

  read(file: string, shown: string, type: string): GeneratedSchema {
    const { ts, tsj } = load();
    if (this.#key !== file || this.#program === undefined || this.#generator === undefined || !this.#unchanged()) {
      const options = compilerOptions(ts);
      const looked = new Map<string, boolean>();
      const host = recordingHost(compilerHost(ts, options), looked);
      this.#program = ts.createProgram({ rootNames: [file], options, host });
      const config: TSJ.CompletedConfig = { ...tsj.DEFAULT_CONFIG, ...generatorConfig };
      this.#generator = new tsj.SchemaGenerator(this.#program, tsj.createParser(this.#program, config), tsj.createFormatter(config), config);
      this.#key = file;
      this.#sources = new Map();
      for (const f of readFiles(this.#program)) this.#sources.set(f, fileState(f));
      for (const [f, found] of looked) if (!this.#sources.has(f)) this.#sources.set(f, found ? fileState(f) : '');
      this.#unresolved = unresolvedTypeImports(ts, this.#program, options, host);
    }
    const program = this.#program;
    const source = program.getSourceFile(file);
    if (source === undefined) throw new InputError('handler/type-not-found', `Cannot read handler file \`${shown}\``, { file });
    // A type from an import that resolves to nothing is read as `any` by the generator: every call would pass.
    const missing = this.#unresolved[0];
    if (missing !== undefined) {
      const more = this.#unresolved.length === 1 ? '' : ` (and ${this.#unresolved.length - 1} more)`;
      throw new InputError(
        'handler/unresolved-import',
        `Cannot resolve \`${missing.specifier}\`, imported for types by \`${path.relative(path.dirname(file), missing.file) || path.basename(missing.file)}\`${more}, while reading handler type \`${type}\` from \`${shown}\`; expected the file or package to exist (its types would be read as \`any\`, and every call would pass)`,
        { file: missing.file, line: missing.line, column: missing.column },
      );
    }
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
    for (const [f, h] of this.#sources) if (fileState(f) !== h) return false;
    return true;
  }
}

/**
 * Every file of the program but TypeScript's own lib files (the compiler's version keys those):
 * the project's and the declaration files of packages in `node_modules`, whose upgrade can
 * change a type as surely as an edit.
 */
function readFiles(program: TS.Program): string[] {
  return program
    .getSourceFiles()
    .filter((f) => !program.isSourceFileDefaultLibrary(f))
    .map((f) => path.resolve(f.fileName));
}

/** A host that notes every file and folder module resolution asked about, and whether it was there. */
function recordingHost(base: TS.CompilerHost, looked: Map<string, boolean>): TS.CompilerHost {
  const note = (p: string, found: boolean): boolean => {
    looked.set(path.resolve(p), found);
    return found;
  };
  const directoryExists = base.directoryExists?.bind(base);
  return {
    ...base,
    fileExists: (p) => note(p, base.fileExists(p)),
    ...(directoryExists === undefined ? {} : { directoryExists: (p: string) => note(p, directoryExists(p)) }),
    readFile: (p) => {
      const text = base.readFile(p);
      note(p, text !== undefined);
      return text;
    },
  };
}

interface Unresolved {
  specifier: string;
  file: string;
  line: number;
  column: number;
}

/**
 * Imports in the project's files that resolve to nothing and whose names a type of that file
 * uses (`import type`, a name in a type position, a re-export). An import only code uses (a
 * database client the handler calls) does not shape an argument type, and is left alone.
 */
function unresolvedTypeImports(ts: typeof TS, program: TS.Program, options: TS.CompilerOptions, host: TS.CompilerHost): Unresolved[] {
  const out: Unresolved[] = [];
  for (const source of program.getSourceFiles()) {
    if (program.isSourceFileDefaultLibrary(source) || source.fileName.includes('/node_modules/') || source.isDeclarationFile) continue;
    let typeNames: Set<string> | undefined;
    for (const statement of source.statements) {
      if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || statement.moduleSpecifier === undefined || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const specifier = statement.moduleSpecifier.text;
      const mode = program.getModeForUsageLocation(source, statement.moduleSpecifier);
      if (ts.resolveModuleName(specifier, source.fileName, options, host, undefined, undefined, mode).resolvedModule !== undefined) continue;
      let relevant = ts.isExportDeclaration(statement);
      if (ts.isImportDeclaration(statement) && statement.importClause !== undefined) {
        const clause = statement.importClause;
        const names: string[] = [];
        if (clause.name) names.push(clause.name.text);
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name.text);
        if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) names.push(element.name.text);
        typeNames ??= namesInTypes(ts, source);
        relevant = clause.isTypeOnly || names.some((n) => typeNames!.has(n));
      }
      if (!relevant) continue;
      const at = source.getLineAndCharacterOfPosition(statement.moduleSpecifier.getStart(source));
      out.push({ specifier, file: path.resolve(source.fileName), line: at.line + 1, column: at.character + 1 });
    }
  }
  return out;
}

/** The first name of every type reference and `typeof` query in a file: `Reason` of `Reason`, `types` of `types.Reason`. */
function namesInTypes(ts: typeof TS, source: TS.SourceFile): Set<string> {
  const names = new Set<string>();
  const first = (name: TS.EntityName | TS.Expression): void => {
    let n: TS.Node = name;
    for (;;) {
      if (ts.isQualifiedName(n)) n = n.left;
      else if (ts.isPropertyAccessExpression(n)) n = n.expression;
      else break;
    }
    if (ts.isIdentifier(n)) names.add(n.text);
  };
  const visit = (node: TS.Node): void => {
    if (ts.isTypeReferenceNode(node)) first(node.typeName);
    else if (ts.isTypeQueryNode(node)) first(node.exprName);
    else if (ts.isExpressionWithTypeArguments(node)) first(node.expression);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}
