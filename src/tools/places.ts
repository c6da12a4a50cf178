/**
 * Where a tool is defined, so that a finding about it points at a line a person can edit:
 * the tool's entry (and each schema node) in a JSON tools file, the line of its `name` in
 * the TypeScript or JavaScript module that defines it, its wording in the description
 * mapping.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Place } from '../report/diagnostic.js';
import { splitPointer } from '../schema/pointer.js';
import { readRegularFileSync } from '../util/files.js';
import { LineIndex } from '../util/lines.js';
import { isRecord } from '../util/values.js';
import { jsonPositions, type JsonNodePosition } from './json-positions.js';
import { normalizeTools } from './normalize.js';
import { jsonStringLines, parameterDescriptions, TextSearch } from './text-places.js';
import type { LineColumn, TextPlaces, ToolSpec } from './types.js';

/**
 * Gives each tool read from `text` (the JSON it was normalized from) the line of its name
 * (or of its entry) and the position of every node of its input schema. Tools without
 * `origin.pointer` (not read from this text) are left as they are.
 */
export function placeJsonTools(tools: readonly ToolSpec[], text: string): void {
  const positions = jsonPositions(text);
  const lines = new LineIndex(text);
  const at = (pointer: string): LineColumn | undefined => {
    const node = positions.get(pointer);
    if (node === undefined) return undefined;
    const { line, column } = lines.at(node.keyStart ?? node.start);
    return [line, column];
  };
  const bySchema = new Map<string, ToolSpec>();
  for (const tool of tools) {
    const { pointer, namePointer, schemaPointer } = tool.origin;
    if (pointer === undefined) continue;
    const place = (namePointer === undefined ? undefined : at(namePointer)) ?? at(pointer);
    if (place !== undefined) [tool.origin.line, tool.origin.column] = place;
    placeJsonExtras(tool, text, positions, lines);
    if (schemaPointer !== undefined && positions.has(schemaPointer)) {
      tool.origin.schemaPlaces = new Map();
      bySchema.set(schemaPointer, tool);
    }
  }
  if (bySchema.size === 0) return;
  // Positions come in document order, so a schema's nodes follow its root: most nodes are placed
  // by one prefix test against the schema last entered, not a search over their ancestors.
  let current: { prefix: string; tool: ToolSpec } | undefined;
  for (const [pointer, node] of positions) {
    const root = bySchema.get(pointer);
    if (root !== undefined) current = { prefix: pointer, tool: root };
    if (current !== undefined && pointer.startsWith(current.prefix) && (pointer.length === current.prefix.length || pointer.charCodeAt(current.prefix.length) === 47)) {
      const { line, column } = lines.at(node.keyStart ?? node.start);
      current.tool.origin.schemaPlaces!.set(pointer.slice(current.prefix.length), [line, column]);
      continue;
    }
    // The schema a node belongs to: the longest schema pointer that is a prefix of its pointer.
    for (let end = pointer.length; end >= 0; end = pointer.lastIndexOf('/', end - 1)) {
      const tool = bySchema.get(pointer.slice(0, end));
      if (tool !== undefined) {
        const { line, column } = lines.at(node.keyStart ?? node.start);
        tool.origin.schemaPlaces!.set(pointer.slice(end), [line, column]);
        break;
      }
      if (end === 0) break;
    }
  }
}

/**
 * Where a tool read from JSON writes its example inputs (each node of each, for a finding
 * about one argument) and each line of its description and of its parameters' descriptions.
 */
function placeJsonExtras(tool: ToolSpec, text: string, positions: Map<string, JsonNodePosition>, lines: LineIndex): void {
  const file = tool.origin.file;
  const lc = (offset: number): LineColumn => {
    const { line, column } = lines.at(offset);
    return [line, column];
  };
  for (const example of tool.inputExamples ?? []) {
    const node = example.pointer === undefined ? undefined : positions.get(example.pointer);
    if (node === undefined) continue;
    [example.line, example.column] = lc(node.start);
    example.places = new Map();
    const prefix = example.pointer!;
    for (const [p, n] of positions) {
      if (p.startsWith(prefix) && (p.length === prefix.length || p.charCodeAt(prefix.length) === 47)) example.places.set(p.slice(prefix.length), lc(n.keyStart ?? n.start));
    }
  }
  if (file === undefined) return;
  const texts = new Map<string, TextPlaces>();
  const stringAt = (pointer: string | undefined): TextPlaces | undefined => {
    const node = pointer === undefined ? undefined : positions.get(pointer);
    if (node === undefined || text[node.start] !== '"') return undefined;
    return { file, at: lc(node.keyStart ?? node.start), lines: jsonStringLines(text, node.start, lines) };
  };
  const own = stringAt(tool.origin.descriptionPointer);
  if (own !== undefined) texts.set('', own);
  const { schemaPointer } = tool.origin;
  if (schemaPointer !== undefined) {
    for (const { pointer } of parameterDescriptions(tool.inputSchema)) {
      const found = stringAt(`${schemaPointer}${pointer}/description`);
      if (found !== undefined) texts.set(pointer, found);
    }
  }
  if (texts.size > 0) tool.origin.texts = texts;
}

/**
 * Where a tool defined in a module writes its example inputs (the line of each, found in the
 * `inputExamples` or `input_examples` list after its name) and the lines of its descriptions.
 */
function placeModuleExtras(tool: ToolSpec, search: TextSearch, nameAt: number, end: number, file: string): void {
  const { raw: text, lines } = search;
  if (tool.inputExamples && tool.inputExamples.length > 0) {
    const list = /\binput_?[eE]xamples\b['"]?\s*:\s*\[/g;
    list.lastIndex = nameAt;
    const hit = list.exec(text);
    if (hit && hit.index < end) {
      const starts = elementStarts(text, hit.index + hit[0].length);
      for (const example of tool.inputExamples) {
        let at = starts[example.index];
        if (at === undefined) continue;
        // An AI SDK entry (`{ input: {...} }`): the line of its `input`.
        if (example.key === 'inputExamples') {
          const inner = text.slice(at, starts[example.index + 1] ?? end).search(/\binput['"]?\s*:/);
          if (inner >= 0) at += inner;
        }
        const { line, column } = lines.at(at);
        example.line = line;
        example.column = column;
      }
    }
  }
  const texts = new Map<string, TextPlaces>();
  const fallback: LineColumn = [tool.origin.line ?? 1, tool.origin.column ?? 1];
  if (tool.description !== undefined && MAY_HOLD.test(tool.description)) texts.set('', { file, at: fallback, lines: search.textLines(tool.description) });
  for (const { pointer, text: wording } of parameterDescriptions(tool.inputSchema)) {
    if (MAY_HOLD.test(wording)) texts.set(pointer, { file, at: fallback, lines: search.textLines(wording) });
  }
  if (texts.size > 0) tool.origin.texts = texts;
}

/** Only wording that can hold a call is looked for line by line. */
const MAY_HOLD = /[{[<(]/;

/** Offsets of the elements of the array literal whose items start at `from` (after its `[`), skipping strings and nested brackets. */
function elementStarts(text: string, from: number): number[] {
  const out: number[] = [];
  let depth = 0;
  let expecting = true;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === '`') {
      if (depth === 0 && expecting) {
        out.push(i);
        expecting = false;
      }
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
      continue;
    }
    if (/\s/.test(c)) continue;
    if (depth === 0 && c === ']') break;
    if (depth === 0 && c === ',') {
      expecting = true;
      continue;
    }
    if (depth === 0 && expecting) {
      out.push(i);
      expecting = false;
    }
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') depth--;
  }
  return out;
}

/** A schema path as the checks write it (`#/properties/x`, `/properties/x`, `""`) as a plain JSON Pointer. */
function asPointer(schemaPath: string): string {
  const path = schemaPath.startsWith('#') ? schemaPath.slice(1) : schemaPath;
  // Ajv writes its schema paths as URI fragments: `%2F` in a property name is a `/`, escaped in the pointer as `~1`.
  if (!path.includes('%')) return path;
  try {
    return path.split('/').map((s) => decodeURIComponent(s)).join('/');
  } catch {
    return path;
  }
}

/**
 * The place that defines `tool`, or the node of its input schema at `schemaPath` (or its
 * nearest ancestor that has a place) when the tool was read from JSON. Empty when the tool's
 * file is not known.
 */
export function toolPlace(tool: ToolSpec, schemaPath?: string): Place | Record<string, never> {
  const { file, line, column, schemaPlaces } = tool.origin;
  if (file === undefined) return {};
  if (schemaPath !== undefined && schemaPlaces !== undefined) {
    let pointer = asPointer(schemaPath);
    while (true) {
      const hit = schemaPlaces.get(pointer);
      if (hit !== undefined) return { file, line: hit[0], column: hit[1] };
      if (pointer === '') break;
      pointer = pointer.slice(0, pointer.lastIndexOf('/'));
    }
  }
  return line === undefined ? { file } : { file, line, ...(column === undefined ? {} : { column }) };
}

/**
 * Where the wording of `tool` (or of one parameter, by instance path) is written: its
 * entry in the description mapping when it has one, else where the tool is defined.
 */
export function descriptionPlace(tool: ToolSpec, instancePath?: string): Place | Record<string, never> {
  const d = tool.origin.descriptions;
  if (d === undefined) return toolPlace(tool);
  if (instancePath !== undefined && instancePath !== '') {
    const hit = d.parameters?.get(splitPointer(instancePath).filter((s) => s !== '*').join('.'));
    if (hit !== undefined) return { file: d.file, line: hit[0], column: hit[1] };
  }
  const at = (instancePath === undefined || instancePath === '' ? d.description : undefined) ?? d.entry;
  return { file: d.file, line: at[0], column: at[1] };
}

// ---------------------------------------------------------------------------------------
// Tools defined in code: found by their name in the modules the config imports.

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"\n]+)\1/g;
const JSON_PATH = /(['"`])((?:\.{1,2}\/)?[^'"`\s$]+\.json)\1/g;
const CODE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;
/** How deep relative imports are followed from the config file. */
const MAX_IMPORT_DEPTH = 2;
/** Files read while searching, at most: a config that imports half a repository is not searched through. */
const MAX_FILES = 64;
/** Larger files are not searched: a tools module is small. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A relative import specifier as a file: as written, `.js` written for a `.ts` source, or without an extension. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base];
  const js = /\.([cm]?)js$/.exec(base);
  if (js) candidates.push(`${base.slice(0, -js[0].length)}.${js[1]}ts`, `${base.slice(0, -js[0].length)}.tsx`);
  if (!/\.[a-z]+$/i.test(base)) candidates.push(...['.ts', '.mts', '.js', '.mjs', '.tsx', '/index.ts', '/index.js'].map((ext) => base + ext));
  return candidates.find(isFile);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `name: 'create_refund'`, `"name": "create_refund"` or `name: \`create_refund\``: the offset of `name`. */
function nameOffset(text: string, name: string): number | undefined {
  const member = new RegExp(`(?:\\bname|(['"])name\\1)\\s*:\\s*(['"\`])${escapeRegExp(name)}\\2`);
  const hit = member.exec(text);
  if (hit) return hit.index;
  // A record of tools keyed by name (`{ create_refund: tool({...}) }`).
  const key = new RegExp(`(?:^|[\\s{,])((['"]?)${escapeRegExp(name)}\\2\\s*:\\s*(?:tool|defineTool|createTool)\\s*\\()`, 'm').exec(text);
  return key ? key.index + key[0].indexOf(key[1]!) : undefined;
}

interface Searched {
  file: string;
  text: string;
  json: boolean;
}

/** The config file, the modules it imports (relative imports, `MAX_IMPORT_DEPTH` levels) and the JSON files they name, in that order. */
function searchFiles(configFile: string, root: string): Searched[] {
  const out: Searched[] = [];
  const seen = new Set<string>();
  let level = [configFile];
  for (let depth = 0; depth <= MAX_IMPORT_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const file of level) {
      if (seen.has(file) || out.length >= MAX_FILES) continue;
      seen.add(file);
      let text: string;
      try {
        if (statSync(file).size > MAX_FILE_BYTES) continue;
        text = readRegularFileSync(file);
      } catch {
        continue;
      }
      const json = file.endsWith('.json');
      out.push({ file, text, json });
      if (json || !CODE.test(file)) continue;
      for (const m of text.matchAll(IMPORT)) {
        const target = resolveImport(file, m[2]!);
        if (target !== undefined && depth < MAX_IMPORT_DEPTH) next.push(target);
      }
      // JSON read at run time (`readFileSync(new URL('./x.json', import.meta.url))`): relative to the module, else to the project.
      for (const m of text.matchAll(JSON_PATH)) {
        const target = [resolve(dirname(file), m[2]!), resolve(root, m[2]!)].find((p) => existsSync(p) && isFile(p));
        if (target !== undefined) next.push(target);
      }
    }
    level = next;
  }
  return out;
}

/**
 * Gives tools defined in code (the config's `tools: [...]`) the place where each is
 * defined: the line of its `name` in the config file or a module it imports (relative
 * imports, two levels deep), or its entry in a JSON file such a module reads (with a place
 * for every schema node then). A tool found nowhere keeps the config file. `display` turns
 * an absolute path into the one shown.
 */
export function placeModuleTools(tools: readonly ToolSpec[], configFile: string, root: string, display: (path: string) => string): void {
  let pending = tools.filter((t) => t.origin.line === undefined);
  if (pending.length === 0) return;
  for (const { file, text, json } of searchFiles(configFile, root)) {
    if (json) {
      if (!pending.some((t) => text.includes(JSON.stringify(t.name)))) continue;
      let found: ToolSpec[];
      try {
        found = normalizeTools(JSON.parse(text) as unknown, display(file));
      } catch {
        continue;
      }
      placeJsonTools(found, text);
      for (const tool of pending) {
        const twin = found.find((f) => f.name === tool.name);
        if (twin === undefined || !sameSchemaKeys(twin.inputSchema, tool.inputSchema)) continue;
        const { shape, index } = tool.origin;
        tool.origin = { ...twin.origin, shape, ...(index === undefined ? {} : { index }) };
        // The module sends what it read: its examples are written where the twin's are.
        if (tool.inputExamples && twin.inputExamples) {
          tool.inputExamples = tool.inputExamples.map((e) => {
            const { line, column, places, pointer } = twin.inputExamples!.find((t) => t.key === e.key && t.index === e.index) ?? {};
            return { ...e, ...(pointer === undefined ? {} : { pointer }), ...(line === undefined ? {} : { line }), ...(column === undefined ? {} : { column }), ...(places === undefined ? {} : { places }) };
          });
        }
      }
    } else {
      const lines = new LineIndex(text);
      const here = pending.flatMap((tool) => {
        const offset = text.includes(tool.name) ? nameOffset(text, tool.name) : undefined;
        return offset === undefined ? [] : [{ tool, offset }];
      });
      // A tool's definition runs to the next tool's name in the same file: its examples are looked for there.
      const ends = here.map(({ offset }) => here.reduce((end, other) => (other.offset > offset && other.offset < end ? other.offset : end), text.length));
      // Prepared once for the file, only when a tool is defined in it.
      const search = here.length > 0 ? new TextSearch(text, lines) : undefined;
      here.forEach(({ tool, offset }, i) => {
        const { line, column } = lines.at(offset);
        tool.origin = { ...tool.origin, file: display(file), line, column };
        placeModuleExtras(tool, search!, offset, ends[i]!, display(file));
      });
    }
    pending = pending.filter((t) => t.origin.line === undefined);
    if (pending.length === 0) return;
  }
}

/** The same property names at the top: enough to tell the JSON a module read from another tool of the same name. */
function sameSchemaKeys(a: unknown, b: unknown): boolean {
  const keys = (s: unknown): string => (isRecord(s) && isRecord(s.properties) ? Object.keys(s.properties).sort().join('\0') : '');
  return keys(a) === keys(b);
}
