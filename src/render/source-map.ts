import type { YamlDocument, YamlNodePosition } from '../util/yaml.js';

/** The YAML node a range of rendered text came from: an example item, a retrieval-stub entry, or a case's input (printed by a prompt module). */
export interface DataOrigin {
  kind: 'example' | 'stub' | 'input';
  doc: YamlDocument;
  /** Path of the item inside its YAML document, e.g. `['examples', 3]` or `['stubs', 'damaged_item', 0]`. */
  path: Array<string | number>;
  node: YamlNodePosition;
}

/** Where a piece of rendered text was written: the place a person edits. */
export interface SourceLocation {
  /** `input`: a case's input, at its value in the cases file. */
  kind: 'template' | 'example' | 'stub' | 'input';
  file: string;
  line: number;
  column: number;
  origin?: DataOrigin;
}

/** The lines of a file a place may be on: a place past them is brought back to the nearest real one. */
export interface FileExtent {
  /** The file's last line (a final line break starts no line). */
  lastLine: number;
  /** The length of a 1-based line, line break excluded. */
  lengthOf(line: number): number;
}

/** The extent of a text that starts at line `firstLine` of its file. */
export function extentOf(text: string, firstLine = 1): FileExtent {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return {
    lastLine: firstLine + lines.length - 1,
    lengthOf: (line) => (lines[line - firstLine] ?? '').replace(/\r$/, '').length,
  };
}

/** `at` brought inside `extent`: a line past the last is the last, a column past a line's end is just after it. */
export function clampPlace(at: { line: number; column: number }, extent: FileExtent | undefined): { line: number; column: number } {
  if (extent === undefined) return at;
  const line = Math.min(Math.max(at.line, 1), extent.lastLine);
  const past = line !== at.line && at.line > extent.lastLine;
  const end = extent.lengthOf(line) + 1;
  return { line, column: past ? end : Math.min(Math.max(at.column, 1), end) };
}

/** A place in a template, fixed when it is compiled. */
interface MarkerPoint {
  file: string;
  line: number;
  column: number;
  /** `content`: literal template text starts here; `expression`: a `{{...}}` prints here. */
  kind: 'content' | 'expression';
  /** The lines the template's file has. */
  extent?: FileExtent;
}

/** A case's inputs as its cases file wrote them: text an expression printed from them maps there. */
export interface InputSource {
  doc: YamlDocument;
  node: YamlNodePosition;
  value: unknown;
}

/** Where in the rendered text a template place begins. */
interface TemplatePoint {
  offset: number;
  at: MarkerPoint;
}

interface Region {
  start: number;
  end: number;
  origin: DataOrigin;
}

/**
 * Maps offsets of a rendered prompt back to the template, YAML example or stub entry that
 * produced them. Regions (data) win over template points; among regions the innermost wins.
 */
export class SourceMap {
  #points: TemplatePoint[];
  #regions: Region[];
  readonly #text: string;
  #compute: (() => SourceMap) | undefined;
  #inputs: readonly InputSource[] = [];

  constructor(text: string, points: TemplatePoint[], regions: Region[]) {
    this.#text = text;
    this.#points = points;
    this.#regions = regions;
  }

  /**
   * A map made only when first asked: most renders have no finding to place, and rendering
   * with markers and decoding them costs more than the render itself. `compute` renders `text`
   * again with markers; where that fails or gives another text, the map knows no places.
   */
  static deferred(text: string, compute: () => SourceMap): SourceMap {
    const map = new SourceMap(text, [], []);
    map.#compute = compute;
    return map;
  }

  #ready(): void {
    const compute = this.#compute;
    if (!compute) return;
    this.#compute = undefined;
    let made: SourceMap;
    try {
      made = compute();
    } catch {
      // The marked render cannot run this template (a chained `{{else if}}`): no places, and the finding still stands.
      return;
    }
    // Markers can change the text: Handlebars indents a partial called on an indented line,
    // and a marker on its last line is indented with it. Places in another text would be
    // wrong ones; without them a finding points at the rendered text in the snapshot.
    if (made.#text !== this.#text) return;
    this.#points = made.#points;
    this.#regions = made.#regions;
  }

  /** Tells the map where the inputs the template printed were written (a case's, its prompt's defaults). */
  withInputs(inputs: readonly InputSource[]): this {
    this.#inputs = inputs;
    return this;
  }

  /** Where the text at `offset` was written. */
  lookup(offset: number): SourceLocation | undefined {
    return this.locate(offset, offset);
  }

  /**
   * Where the text in `[start, end)` was written. Data printed inside the range wins (a call
   * whose JSON came from a YAML example maps to that example, though its fence is template
   * text); otherwise literal template text maps to its template line, even inside a partial
   * rendered for a data item, and what an expression printed maps to the item it printed.
   */
  locate(start: number, end: number): SourceLocation | undefined {
    this.#ready();
    let inside: Region | undefined;
    let around: Region | undefined;
    for (const r of this.#regions) {
      if (end > start && r.start >= start && r.end <= end) {
        if (!inside || r.start < inside.start || (r.start === inside.start && r.end - r.start > inside.end - inside.start)) inside = r;
      } else if (r.start <= start && start < r.end && (!around || r.end - r.start <= around.end - around.start)) around = r;
    }
    if (inside) return this.#dataLocation(inside);
    let point: TemplatePoint | undefined;
    let next: TemplatePoint | undefined;
    for (const p of this.#points) {
      if (p.offset > start) {
        next = p;
        break;
      }
      point = p;
    }
    if (around && (!point || point.offset < around.start || point.at.kind === 'expression')) return this.#dataLocation(around, start);
    if (!point) return undefined;
    if (point.at.kind === 'expression') {
      // What an expression printed is no text of the template: the input it printed, where the
      // cases file writes it, else the expression itself (lines counted on would run past the file).
      const end = next?.offset ?? this.#text.length;
      for (const input of this.#inputs) {
        const at = this.#withinLeaves(input.doc, input.value, input.node, point.offset, end, start);
        if (at) return { kind: 'input', file: input.doc.file, ...at };
      }
      return { kind: 'template', file: point.at.file, ...clampPlace({ line: point.at.line, column: point.at.column }, point.at.extent) };
    }
    // Count lines between the template point and the offset: the text in between is that template's own.
    let line = point.at.line;
    let lineStart = -1;
    for (let i = point.offset; i < start; i++) {
      if (this.#text.charCodeAt(i) === 10) {
        line++;
        lineStart = i;
      }
    }
    const column = lineStart === -1 ? point.at.column + (start - point.offset) : start - lineStart;
    // A partial called on an indented line is printed indented: never a column past the line it is on.
    return { kind: 'template', file: point.at.file, ...clampPlace({ line, column }, point.at.extent) };
  }

  #dataLocation(region: Region, offset?: number): SourceLocation {
    const { doc, node } = region.origin;
    const at = (offset === undefined ? undefined : this.#withinValue(region, offset)) ?? clampPlace(doc.lines.at(node.keyStart ?? node.start), extentOf(doc.text));
    return { kind: region.origin.kind, file: doc.file, line: at.line, column: at.column, origin: region.origin };
  }

  /**
   * The line and column in the YAML file of rendered offset `offset`, when it falls inside a
   * string of the item that is written on one line or as a `|` block (a retrieved article's
   * `text: |`, where a finding belongs on the line of the call, not of the entry). Undefined
   * for any other string, or when the string is not found printed as it is.
   */
  #withinValue(region: Region, offset: number): { line: number; column: number } | undefined {
    const { doc } = region.origin;
    return this.#withinLeaves(doc, valueAt(doc.value, region.origin.path), region.origin.node, region.start, region.end, offset);
  }

  /** The file place of `offset` inside a string of `root` printed in `[start, end)` (see #withinValue), inside the file. */
  #withinLeaves(doc: YamlDocument, root: unknown, rootNode: YamlNodePosition, start: number, end: number, offset: number): { line: number; column: number } | undefined {
    const at = this.#findInLeaves(doc, root, rootNode, start, end, offset);
    return at === undefined ? undefined : clampPlace(at, extentOf(doc.text));
  }

  #findInLeaves(doc: YamlDocument, root: unknown, rootNode: YamlNodePosition, regionStart: number, regionEnd: number, offset: number): { line: number; column: number } | undefined {
    const leaves: Array<[string, YamlNodePosition]> = [];
    const collect = (value: unknown, node: YamlNodePosition | undefined, depth: number): void => {
      if (node === undefined || depth > 64) return;
      if (typeof value === 'string') leaves.push([value, node]);
      else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) collect(v, node.children?.get(Array.isArray(value) ? Number(k) : k), depth + 1);
    };
    collect(root, rootNode, 0);
    const region = { start: regionStart, end: regionEnd };
    for (const [value, node] of leaves) {
      if (value === '') continue;
      for (let i = this.#text.indexOf(value, region.start); i !== -1 && i < region.end && i <= offset; i = this.#text.indexOf(value, i + 1)) {
        if (offset >= i + value.length) continue;
        const within = offset - i;
        // js-yaml places a block scalar at its first content line: the `|` is between the key and there.
        const literal = node.keyStart !== undefined && /^[^\n]*:[ \t]*\|[-+0-9]*[ \t]*(?:#[^\n]*)?\r?\n/.test(doc.text.slice(node.keyStart, node.start));
        if (literal) {
          // A literal block: its lines are the file's lines from there on, indented alike.
          const newlines = value.slice(0, within).split('\n').length - 1;
          const first = doc.lines.at(node.start).line;
          const lineStart = doc.lines.lineStart(first + newlines);
          const valueLineStart = value.lastIndexOf('\n', within - 1) + 1;
          // The block's indentation: the file line's leading spaces less the value line's own.
          let fileLeading = 0;
          while (doc.text[lineStart + fileLeading] === ' ') fileLeading++;
          let valueLeading = 0;
          while (value[valueLineStart + valueLeading] === ' ') valueLeading++;
          return { line: first + newlines, column: fileLeading - valueLeading + (within - valueLineStart) + 1 };
        }
        if (value.includes('\n')) return undefined;
        // One line: plain, or quoted (the quote before the first character).
        const start = doc.lines.at(node.start);
        const quoted = doc.text[node.start] === '"' || doc.text[node.start] === "'" ? 1 : 0;
        return { line: start.line, column: start.column + quoted + within };
      }
    }
    return undefined;
  }

  /** Every data region, for tests and for "which examples did this case render". */
  get regions(): ReadonlyArray<Readonly<Region>> {
    this.#ready();
    return this.#regions;
  }
}

const argumentKeys = ['arguments', 'input', 'args', 'parameters'];

function valueAt(root: unknown, path: ReadonlyArray<string | number>): unknown {
  let value = root;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<string | number, unknown>)[key] : undefined;
  return value;
}

/**
 * The YAML line of one argument of a call that came from data: `instancePath` is Ajv's
 * pointer into the arguments (`/address/postal_code`). Falls back to the call's own line.
 */
export function locateInstance(origin: DataOrigin, instancePath: string, fallback?: { line: number; column: number }): { line: number; column: number } {
  const segments = instancePath.split('/').slice(1).map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  const follow = (node: YamlNodePosition | undefined, path: string[]): YamlNodePosition | undefined => {
    let current = node;
    let last = node;
    for (const seg of path) {
      current = current?.children?.get(seg) ?? current?.children?.get(Number(seg));
      if (!current) break;
      last = current;
    }
    return last;
  };
  const candidates: Array<YamlNodePosition | undefined> = [
    ...argumentKeys.map((k) => origin.node.children?.get(k)),
    origin.node,
  ];
  let best = origin.node;
  for (const start of candidates) {
    if (!start) continue;
    const hit = follow(start, segments);
    if (hit && hit !== start) {
      best = hit;
      break;
    }
    if (start !== origin.node) best = start;
  }
  // Nothing of the item holds the arguments (a call written inside its text): where the call was found in that text.
  if (best === origin.node && fallback !== undefined) return fallback;
  return origin.doc.lines.at(best.keyStart ?? best.start);
}

// Private-use code points: they never occur in prompts in practice, and a prompt that holds
// one is rendered without a source map rather than with a wrong one.
const POINT = '\uE000';
const OPEN = '\uE001';
const CLOSE = '\uE002';
const END = '\uE003';
const POINT_CODE = 0xe000;
const OPEN_CODE = 0xe001;
const END_CODE = 0xe003;
const MARKERS = /[\uE000-\uE003]/;

/** Template positions, fixed when a template is compiled; markers refer to them by index. */
export class MarkerTable {
  readonly points: MarkerPoint[] = [];

  point(file: string, line: number, column: number, kind: 'content' | 'expression', extent?: FileExtent): string {
    this.points.push({ file, line, column, kind, ...(extent ? { extent } : {}) });
    return `${POINT}${this.points.length - 1}${END}`;
  }
}

/** The data items one render printed, each wrapped in markers around its output. */
export class RegionRecorder {
  readonly origins: DataOrigin[] = [];

  wrap(origin: DataOrigin, text: string): string {
    this.origins.push(origin);
    const id = this.origins.length - 1;
    return `${OPEN}${id}${END}${text}${CLOSE}${id}${END}`;
  }
}

/** True when a text already holds marker code points, so markers could not be told apart from it. */
export function hasMarkers(text: string): boolean {
  return MARKERS.test(text);
}

/** Removes the markers and returns the clean text with its source map. */
export function decode(marked: string, table: MarkerTable, recorder: RegionRecorder): { text: string; map: SourceMap } {
  // Runs over every render: pieces are joined once, and marker ids are read digit by digit.
  const pieces: string[] = [];
  let length = 0;
  const points: TemplatePoint[] = [];
  const regions: Region[] = [];
  const open = new Map<number, number>();
  const starts = /[\uE000-\uE002]/g;
  let i = 0;
  while (i < marked.length) {
    starts.lastIndex = i;
    const found = starts.exec(marked);
    if (!found) {
      pieces.push(marked.slice(i));
      length += marked.length - i;
      break;
    }
    if (found.index > i) {
      pieces.push(marked.slice(i, found.index));
      length += found.index - i;
    }
    i = found.index;
    const kind = marked.charCodeAt(i);
    let id = 0;
    let j = i + 1;
    for (let c = marked.charCodeAt(j); c >= 48 && c <= 57 && j - i <= 10; c = marked.charCodeAt(++j)) id = id * 10 + (c - 48);
    // Not one of our markers (renders check for these code points first; this keeps decode total).
    if (j === i + 1 || marked.charCodeAt(j) !== END_CODE || (kind === POINT_CODE ? table.points[id] === undefined : recorder.origins[id] === undefined)) {
      pieces.push(marked[i]!);
      length += 1;
      i += 1;
      continue;
    }
    i = j + 1;
    if (kind === POINT_CODE) points.push({ offset: length, at: table.points[id]! });
    else if (kind === OPEN_CODE) open.set(id, length);
    else {
      const start = open.get(id);
      const origin = recorder.origins[id]!;
      const last = regions[regions.length - 1];
      // `each` and the partial it calls both mark the same item: keep one region.
      const same = last && last.start === start && last.end === length && last.origin.node === origin.node;
      if (start !== undefined && !same) regions.push({ start, end: length, origin });
    }
  }
  const text = pieces.join('');
  return { text, map: new SourceMap(text, points, regions) };
}

/** The source map of a text rendered without markers: it knows no places. */
export function emptySourceMap(text: string): SourceMap {
  return new SourceMap(text, [], []);
}
