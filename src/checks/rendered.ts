import type { Diagnostic } from '../report/diagnostic.js';
import type { RenderedCase, RenderedItem } from '../render/render.js';
import { locateInstance } from '../render/source-map.js';
import type { SchemaCompiler } from '../schema/validator.js';
import type { NotationDefinition } from '../extract/notation.js';
import { exampleRules, extractToolCalls, type ToolCallExample } from '../extract/index.js';
import { report } from '../report/rule.js';
import { isToolRequest, type Part } from '../render/messages.js';
import { checkConversation } from './conversation.js';
import { locate } from '../util/yaml.js';
import { checkExamples } from './examples.js';
import { SNAPSHOT_TEXT_LINE } from '../snapshot/format.js';
import { snapshotFile } from '../snapshot/state.js';
import { LineIndex } from '../util/lines.js';

/**
 * Points each finding made in a rendered text at the file a person edits: the YAML example
 * or stub entry (down to the argument's line when the finding has an instance path) or the
 * template line. The rendered place stays in `related`.
 */
export function mapToSource(diagnostics: readonly Diagnostic[], rendered: Pick<RenderedCase, 'sourceMap' | 'text'>, renderedAt?: { file: string; message: string; builtBy?: string; noLine?: boolean }, blockEnds: ReadonlyMap<number, number> = new Map()): Diagnostic[] {
  // Most renders have nothing to place: neither the line index nor the source map is made for them.
  if (!diagnostics.some((d) => d.offset !== undefined)) return [...diagnostics];
  const lines = new LineIndex(rendered.text);
  return diagnostics.map((d) => {
    if (d.offset === undefined) return d;
    const { offset: _offset, endOffset, ...rest } = d;
    const loc = rendered.sourceMap.locate(d.offset, endOffset ?? blockEnds.get(d.offset) ?? d.offset);
    if (!loc) {
      // No place in a source file: the rendered text's own line, in the snapshot where a reviewer reads it.
      if (!renderedAt) return d;
      // Text a prompt module's builder wrote, not a YAML value: said, with the module, so the reader knows where to edit.
      const built = renderedAt.builtBy === undefined ? {} : { related: [...(d.related ?? []), { message: `the text was built by code, in ${renderedAt.builtBy}`, file: renderedAt.builtBy }] };
      if (renderedAt.noLine) return { ...rest, file: renderedAt.file, ...built };
      return { ...rest, file: renderedAt.file, line: lines.at(d.offset).line + SNAPSHOT_TEXT_LINE - 1, column: lines.at(d.offset).column, ...built };
    }
    const at = loc.origin && d.instancePath !== undefined ? locateInstance(loc.origin, d.instancePath, loc) : loc;
    // The same place in the snapshot, where a reviewer sees the text as sent.
    const related = renderedAt ? [...(d.related ?? []), { message: renderedAt.message, file: renderedAt.file, line: lines.at(d.offset).line + SNAPSHOT_TEXT_LINE - 1 }] : d.related;
    return { ...rest, file: loc.file, line: at.line, column: at.column, ...(related ? { related } : {}) };
  });
}

/** Extracts the examples of one rendered text, validates them, and maps findings to their source. */
export function checkRenderedExamples(rendered: RenderedCase | RenderedItem, options: { strict?: boolean; compiler?: SchemaCompiler; snapshots?: string; notations?: readonly NotationDefinition<any>[] } = {}): Diagnostic[] {
  const { examples, diagnostics } = extractToolCalls(rendered.text, { tools: rendered.tools, ...(options.notations ? { notations: options.notations } : {}) });
  const found = [...diagnostics, ...checkExamples(examples, rendered.tools, { ...(options.strict === undefined ? {} : { strict: options.strict }), ...(options.compiler ? { compiler: options.compiler } : {}) })];
  // A message list is shown message by message: a rendered-text line is no snapshot line there.
  const builtBy = 'case' in rendered ? rendered.builtBy : undefined;
  const renderedAt = 'case' in rendered && options.snapshots !== undefined && (!rendered.messages || builtBy !== undefined)
    ? { file: snapshotFile(options.snapshots, rendered.prompt, rendered.case), message: `as rendered for \`${rendered.prompt}\` case \`${rendered.case}\``, ...(builtBy === undefined ? {} : { builtBy }), ...(rendered.messages ? { noLine: true } : {}) }
    : undefined;
  const mapped = mapToSource(found, rendered, renderedAt, new Map(examples.map((e) => [e.range.start, e.range.end])));
  if (!('case' in rendered)) return mapped;
  const turns = rendered.messages && rendered.conversation ? structuredCalls(rendered) : [];
  if (turns.length > 0) {
    const structured = checkStructuredTurns(rendered, options);
    // A turn a builder wrote (a prompt module's message list) has no YAML: its finding is the case's snapshot's, naming the module.
    const built = renderedAt?.builtBy;
    mapped.push(
      ...(built === undefined
        ? structured
        : structured.map((d) => {
            if (d.file !== undefined) return d;
            const { line: _line, column: _column, ...rest } = d;
            return { ...rest, file: renderedAt!.file, related: [...(d.related ?? []), { message: `the message was built by code, in ${built}`, file: built }] };
          })),
    );
  }
  mapped.push(coverageOf(rendered, [...examples, ...turns]));
  return mapped;
}

/**
 * What was read in a case, as an info (`example/coverage`): `check` and the suites add these
 * up into one line, so a reader sees what was checked as well as what was not.
 */
function coverageOf(rendered: RenderedCase, examples: readonly ToolCallExample[]): Diagnostic {
  const notations = [...new Set(examples.map((e) => e.notation))].sort();
  const calls = `${examples.length} ${examples.length === 1 ? 'call' : 'calls'}`;
  return report(exampleRules.coverage, {
    message: `Read ${calls} in \`${rendered.prompt}\` case \`${rendered.case}\`${notations.length === 0 ? '' : ` (${notations.join(', ')})`}`,
    actual: { calls: examples.length, notations },
  });
}

/** The tool calls in assistant turns, as examples. */
function structuredCalls(rendered: RenderedCase): ToolCallExample[] {
  const { messages, conversation } = rendered;
  if (!messages || !conversation) return [];
  const parts = messages.flatMap((m) => m.content.filter(isToolRequest));
  return parts.map((p, k) => ({ name: p.toolRequest.name, arguments: p.toolRequest.input, notation: `${conversation.shape}-turn`, range: { start: k, end: k + 1 }, line: 1, column: 1 }));
}

/**
 * The tool calls in assistant turns (few-shot turns from an examples file, a case's history):
 * each is validated like a text example, with the finding at the YAML line that wrote it.
 */
function checkStructuredTurns(rendered: RenderedCase, options: { strict?: boolean; compiler?: SchemaCompiler }): Diagnostic[] {
  const { messages, conversation } = rendered;
  if (!messages || !conversation) return [];
  const parts = messages.flatMap((m) => m.content.filter(isToolRequest));
  const examples = structuredCalls(rendered);
  const found = checkExamples(examples, rendered.tools, { ...(options.strict === undefined ? {} : { strict: options.strict }), ...(options.compiler ? { compiler: options.compiler } : {}) });
  const originOf = (part: Part) => {
    const origin = conversation.origins.get(part);
    if (!origin) return undefined;
    // A call is pointed at by its item (`- name: ...`), not by its arguments.
    const last = origin.path.at(-1);
    const path = last === 'arguments' || last === 'input' ? origin.path.slice(0, -1) : origin.path;
    const at = locate(origin.doc, path) ?? { line: 1, column: 1 };
    return { file: origin.doc.file, line: at.line, column: at.column };
  };
  const sequence = checkConversation(messages, { provider: conversation.shape, origins: originOf });
  return [...sequence, ...found.map((d) => {
    const part = d.offset === undefined ? undefined : parts[d.offset];
    const origin = part ? conversation.origins.get(part) : undefined;
    const { offset: _offset, endOffset: _end, ...rest } = d;
    if (!origin) return rest;
    const at = d.instancePath !== undefined ? locateInstance(origin, d.instancePath) : (locate(origin.doc, origin.path) ?? { line: 1, column: 1 });
    return { ...rest, file: origin.doc.file, line: at.line, column: at.column };
  })];
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

