import type { Diagnostic } from '../report/diagnostic.js';
import type { RenderedCase, RenderedItem } from '../render/render.js';
import { locateInstance } from '../render/source-map.js';
import type { SchemaCompiler } from '../schema/validator.js';
import type { NotationDefinition } from '../extract/notation.js';
import { extractToolCalls } from '../extract/index.js';
import { checkExamples } from './examples.js';
import { SNAPSHOT_TEXT_LINE } from '../snapshot/format.js';
import { snapshotFile } from '../snapshot/state.js';
import { LineIndex } from '../util/lines.js';

/**
 * Points each finding made in a rendered text at the file a person edits: the YAML example
 * or stub entry (down to the argument's line when the finding has an instance path) or the
 * template line. The rendered place stays in `related`.
 */
export function mapToSource(diagnostics: readonly Diagnostic[], rendered: Pick<RenderedCase, 'sourceMap' | 'text'>, renderedAt?: { file: string; message: string }, blockEnds: ReadonlyMap<number, number> = new Map()): Diagnostic[] {
  const lines = new LineIndex(rendered.text);
  return diagnostics.map((d) => {
    if (d.offset === undefined) return d;
    const { offset: _offset, endOffset, ...rest } = d;
    const loc = rendered.sourceMap.locate(d.offset, endOffset ?? blockEnds.get(d.offset) ?? d.offset);
    if (!loc) return d;
    const at = loc.origin && d.instancePath !== undefined ? locateInstance(loc.origin, d.instancePath) : loc;
    // The same place in the snapshot, where a reviewer sees the text as sent.
    const related = renderedAt ? [...(d.related ?? []), { message: renderedAt.message, file: renderedAt.file, line: lines.at(d.offset).line + SNAPSHOT_TEXT_LINE - 1 }] : d.related;
    return { ...rest, file: loc.file, line: at.line, column: at.column, ...(related ? { related } : {}) };
  });
}

/** Extracts the examples of one rendered text, validates them, and maps findings to their source. */
export function checkRenderedExamples(rendered: RenderedCase | RenderedItem, options: { strict?: boolean; compiler?: SchemaCompiler; snapshots?: string; notations?: readonly NotationDefinition<any>[] } = {}): Diagnostic[] {
  const { examples, diagnostics } = extractToolCalls(rendered.text, { tools: rendered.tools, ...(options.notations ? { notations: options.notations } : {}) });
  const found = [...diagnostics, ...checkExamples(examples, rendered.tools, { ...(options.strict === undefined ? {} : { strict: options.strict }), ...(options.compiler ? { compiler: options.compiler } : {}) })];
  const renderedAt = 'case' in rendered && options.snapshots !== undefined
    ? { file: snapshotFile(options.snapshots, rendered.prompt, rendered.case), message: `as rendered for \`${rendered.prompt}\` case \`${rendered.case}\`` }
    : undefined;
  return mapToSource(found, rendered, renderedAt, new Map(examples.map((e) => [e.range.start, e.range.end])));
}

/** The same finding reached through a case and through its item render is reported once. */
export function dedupe(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = [d.ruleId, d.file, d.line, d.column, d.tool, d.instancePath, d.message].join('\u0000');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

