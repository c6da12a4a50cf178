import type { Diagnostic } from '../report/diagnostic.js';
import { defineRules, report } from '../report/rule.js';
import { InputError } from '../util/errors.js';
import { didYouMean } from '../util/suggest.js';
import { isRecord, own } from '../util/values.js';
import { locate, type YamlDocument, type YamlNodePosition } from '../util/yaml.js';
import { TextSearch } from './text-places.js';
import type { DescriptionPlaces, JsonSchemaObject, LineColumn, TextPlaces, ToolSpec } from './types.js';

export const descriptionRules = defineRules('config', {
  'unknown-description-target': {
    severity: 'error',
    description: 'The description mapping describes a tool or parameter that does not exist: the wording is stale or the name is misspelled.',
    fix: 'Rename the entry to the tool or property that exists (nested properties use dots: `address.postal_code`), or delete it',
  },
});

/** Follows `address.postal_code` through nested `properties` (and array `items`): the node, and its JSON Pointer in the schema. */
function propertyAt(schema: JsonSchemaObject, dotted: string): { node: JsonSchemaObject; pointer: string } | undefined {
  let node: unknown = schema;
  let pointer = '';
  for (const part of dotted.split('.')) {
    if (isRecord(own(node, 'items')) && !isRecord(own(node, 'properties'))) {
      node = own(node, 'items');
      pointer += '/items';
    }
    // Own properties only: `props['__proto__']` is Object.prototype, and writing its `description` changed every object.
    const child = own(own(node, 'properties'), part);
    if (!isRecord(child)) return undefined;
    node = child;
    pointer += `/properties/${part.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  }
  return { node: node as JsonSchemaObject, pointer };
}

/** The YAML node of the value at `path` (where its text starts), when the document has it. */
function valueNode(doc: YamlDocument, path: readonly string[]): YamlNodePosition | undefined {
  let node = doc.root;
  for (const key of path) node = node?.children?.get(key);
  return node;
}

/** Where each line of a description written in the YAML mapping is, for findings inside it. */
function yamlText(doc: YamlDocument, search: () => TextSearch, path: readonly string[], text: string, at: LineColumn): TextPlaces {
  const node = valueNode(doc, path);
  // Only wording that can hold a call is looked for line by line; wording of several lines, every line of it (a tool-poisoning finding names its line).
  const multiline = text.includes('\n');
  return { file: doc.file, at, lines: node === undefined || !(multiline || /[{[<(]/.test(text)) ? new Map() : search().textLines(text, node.start, multiline) };
}

/**
 * Merges a YAML description mapping into tool definitions:
 *
 *     create_refund:
 *       description: Refund an order to the original payment method.
 *       parameters:
 *         amount_cents: Amount to refund, in cents.
 *         address.postal_code: Nested parameters use dots.
 *
 * Returns new tools (inputs are not mutated) and a finding for every entry that names a
 * tool or parameter that does not exist.
 */
export function applyDescriptions(tools: readonly ToolSpec[], doc: YamlDocument): { tools: ToolSpec[]; diagnostics: Diagnostic[] } {
  const mapping = doc.value ?? {};
  if (!isRecord(mapping)) throw new InputError('config/invalid', 'Expected the description mapping to map tool names to `description` and `parameters`', { file: doc.file, line: 1 });
  const diagnostics: Diagnostic[] = [];
  const byName = new Map(tools.map((t) => [t.name, t]));
  const out = new Map<string, ToolSpec>();
  const pair = (p: { line: number; column: number } | undefined): LineColumn | undefined => (p === undefined ? undefined : [p.line, p.column]);
  let prepared: TextSearch | undefined;
  const search = (): TextSearch => (prepared ??= new TextSearch(doc.text, doc.lines));
  for (const [name, entry] of Object.entries(mapping)) {
    const at = locate(doc, [name]);
    // Where the tool's wording is written, for findings about a description to point at.
    const places: DescriptionPlaces = { file: doc.file, entry: pair(at) ?? [1, 1] };
    const tool = byName.get(name);
    if (!tool) {
      diagnostics.push(report(descriptionRules['unknown-description-target'], {
        message: `Unexpected tool \`${name}\` in the description mapping, expected one of ${[...byName.keys()].map((n) => `\`${n}\``).join(', ')}${didYouMean(name, byName.keys())}`,
        file: doc.file, ...(at ?? {}), tool: name,
      }));
      continue;
    }
    // Wording from the mapping replaces the definition's: so do the places of its lines.
    const texts = new Map(tool.origin.texts ?? []);
    if (typeof entry === 'string') {
      places.description = places.entry;
      texts.set('', yamlText(doc, search, [name], entry, places.entry));
      out.set(name, { ...tool, description: entry, origin: { ...tool.origin, descriptions: places, texts } });
      continue;
    }
    if (!isRecord(entry)) throw new InputError('config/invalid', `Expected \`${name}\` to be a description string or a mapping with \`description\` and \`parameters\``, { file: doc.file, ...(at ?? {}) });
    const schema = structuredClone(tool.inputSchema);
    const next: ToolSpec = { ...tool, inputSchema: schema, origin: { ...tool.origin, descriptions: places, texts } };
    const description = own(entry, 'description');
    if (description !== undefined && typeof description !== 'string') {
      throw new InputError('config/invalid', `Unexpected ${JSON.stringify(description)?.slice(0, 60)} as the description of \`${name}\`, expected a string`, { file: doc.file, ...(locate(doc, [name, 'description']) ?? at ?? {}) });
    }
    if (typeof description === 'string') {
      next.description = description.trimEnd();
      const key = locate(doc, [name, 'description']);
      if (key !== undefined) places.description = [key.line, key.column];
      texts.set('', yamlText(doc, search, [name, 'description'], next.description, places.description ?? places.entry));
    }
    const parameters = own(entry, 'parameters');
    if (parameters !== undefined && parameters !== null && !isRecord(parameters)) {
      throw new InputError('config/invalid', `Unexpected ${JSON.stringify(parameters)?.slice(0, 60)} as the parameters of \`${name}\`, expected a mapping of parameter names to descriptions`, { file: doc.file, ...(locate(doc, [name, 'parameters']) ?? at ?? {}) });
    }
    if (isRecord(parameters)) {
      for (const [param, text] of Object.entries(parameters)) {
        const target = propertyAt(schema, param);
        const pat = locate(doc, [name, 'parameters', param]);
        if (!target) {
          diagnostics.push(report(descriptionRules['unknown-description-target'], {
            message: `Unexpected parameter \`${param}\` of \`${name}\` in the description mapping: the schema has no such property${didYouMean(param, Object.keys(isRecord(schema.properties) ? schema.properties : {}))}`,
            file: doc.file, ...(pat ?? {}), tool: name, instancePath: `/${param.replaceAll('.', '/')}`,
          }));
          continue;
        }
        if (typeof text !== 'string') throw new InputError('config/invalid', `Expected the description of \`${name}.${param}\` to be a string`, { file: doc.file, ...(pat ?? {}) });
        target.node.description = text.trimEnd();
        if (pat !== undefined) (places.parameters ??= new Map()).set(param, [pat.line, pat.column]);
        texts.set(target.pointer, yamlText(doc, search, [name, 'parameters', param], text.trimEnd(), pat === undefined ? places.entry : [pat.line, pat.column]));
      }
    }
    out.set(name, next);
  }
  return { tools: tools.map((t) => out.get(t.name) ?? t), diagnostics };
}
