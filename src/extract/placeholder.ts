/**
 * Placeholders: the parts of a format description ("call it like
 * `<tool_call>{"name": <function-name>, ...}</tool_call>`") and template variables left
 * unrendered. Neither is a call to check against a schema, and both are worth a finding.
 */

export interface Placeholder {
  token: string;
  /** `{{var}}` or `{{` left by a template engine: the prompt was not rendered, a bug rather than a format description. */
  unrendered: boolean;
}

/** A Handlebars/Jinja/Mustache expression: `{{city}}`, `{{ user.name }}`, `{{#each x}}`, `{{> partial}}`. */
const templateVariable = /\{\{[#/^>!&~-]?\s*[A-Za-z_@][\w.@-]*(?:\s[^{}\n]*)?\}\}|\{%[^%\n]*%\}/;

const placeholderNames: RegExp[] = [
  /^\$\w+$/, // $FUNCTION_NAME
  /^\$\(\w+\)$/, // $(last_action_name) (Semantic Kernel's prompt templates)
  /^\[[^\]]*\]$/, // [tool_name]
  /^<[^<>]*>$/, // <tool_name>
  /^\{[^{}]*\}$/, // {name} (str.format)
  /^(?:func|function|tool|fn|method|api)[_ -]?name\d*$/i,
  /^(?:func|function|tool)\d+$/i,
  /^(?:example|sample|your|my|some)[_-](?:func|function|tool|api|method)\w*$/i,
  /^(?:\.\.\.|…)$/,
];

const placeholderNameSeen = new Map<string, boolean>();

export function isPlaceholderName(name: string): boolean {
  // Every call of a text asks about its tool's name: the answer is kept (for a bounded number of names).
  let answer = placeholderNameSeen.get(name);
  if (answer === undefined) {
    const t = name.trim();
    // `FUNCTION.NAME`, `_Namespace_.FUNCTION.NAME`: a dotted name (plugin.function) whose last two parts are a placeholder's words.
    const dotted = t.includes('.') ? t.split('.').slice(-2).join('_') : undefined;
    answer = placeholderNames.some((re) => re.test(t) || (dotted !== undefined && re.test(dotted))) || templateVariable.test(name);
    if (placeholderNameSeen.size >= 4096) placeholderNameSeen.clear();
    placeholderNameSeen.set(name, answer);
  }
  return answer;
}

const genericWords = /^<(?:value|values|val|param|params|parameter|arg|args|argument|arguments|string|str|number|int|integer|float|bool|boolean|object|dict|array|list|json|name|input|code|query|text)\d*>$/i;

function placeholderValue(value: string): Placeholder | undefined {
  // Each test below needs its first character: most values (ids, amounts, sentences) are out after a look or two.
  if (value.includes('{')) {
    const m = templateVariable.exec(value);
    if (m) return { token: m[0], unrendered: true };
  }
  const t = value.trim();
  const first = t[0];
  if (first === '$' && /^\$[A-Z][A-Z0-9_]*$/.test(t)) return { token: t, unrendered: false };
  if (first === '<' && (/^<[A-Za-z][\w.]*[-_ ][\w .-]*>$/.test(t) || genericWords.test(t))) return { token: t, unrendered: false };
  if (t === '...' || t === '…') return { token: t, unrendered: false };
  if (proseValue(t)) return { token: t, unrendered: false };
  return undefined;
}

/**
 * `/path/to/file`: the path of a usage block's format (`<path>path/to/file</path>` under
 * `Usage:`). Only there is it taken for a placeholder: in an example the model is shown
 * (`read_file for absolute_path '/path/to/tests/test_auth.py'`) it is a value like any path,
 * and the call is checked.
 */
function pathValue(t: string): boolean {
  return (t[0] === '/' || t[0] === 'p' || t[0] === 'P') && /^\/?path\/to\/[\w./-]*$/i.test(t);
}

/**
 * A value written as an instruction to the reader rather than a value: `File path here`,
 * `Your command here (optional)`, `true or false`. Usage blocks of tag-style prompts
 * (Cline, Roo Code) fill every parameter this way.
 */
function proseValue(t: string): boolean {
  if (t.length > 120 || t.includes('\n')) return false;
  const first = t.charCodeAt(0) | 32;
  if (first === 116 && /^true or false\b/i.test(t)) return true;
  // The rest ends in `here` or in `(optional)`/`(required)`: the words are counted only then.
  if (!/(?:\bhere\b\.?|\))$/i.test(t)) return false;
  if (t.split(/\s+/).length > 12) return false;
  if (/\bhere\b\.?(?:\s*\((?:optional|required)[^)]*\))?$/i.test(t) && /^(?:your|insert|the|a|an|[A-Za-z][\w-]*(?:\s[\w/-]+){0,4}\s+here)\b/i.test(t)) return true;
  return /\s\((?:optional|required)[^)]*\)$/i.test(t);
}

/** What the caller knows of where a call stands. */
export interface PlaceholderContext {
  /** The prompt's tools: a call of one of them names a real tool, whatever its name looks like (a tool named `tool_name`). */
  tools?: { has(name: string): boolean };
  /** The call is a usage block's format (under `Usage:`): `path/to/file` is a placeholder there. */
  usage?: boolean;
}

/** Whether `name` stands for a tool in a format description, rather than naming one of the prompt's tools. */
export function isPlaceholderTool(name: string, tools?: { has(name: string): boolean }): boolean {
  return !(tools?.has(name) ?? false) && isPlaceholderName(name);
}

/** A placeholder in a parsed call: its name, an argument key or a string value anywhere inside. */
export function placeholderInCall(name: string, args: unknown, context: PlaceholderContext = {}): Placeholder | undefined {
  if (name.includes('{')) {
    const inName = templateVariable.exec(name);
    if (inName) return { token: inName[0], unrendered: true };
  }
  if (isPlaceholderTool(name, context.tools)) return { token: name, unrendered: false };
  return placeholderInValue(args, 0, context.usage === true);
}

/**
 * The placeholder a depth-first walk meets first in a value: an object's keys in order, then
 * its values and an array's items from the last (the order the walk has always reported in,
 * which decides the token a finding names). Nothing past 64 levels is looked at.
 */
function placeholderInValue(value: unknown, depth: number, usage: boolean): Placeholder | undefined {
  if (depth > 64) return undefined;
  if (typeof value === 'string') return placeholderValue(value) ?? (usage && pathValue(value.trim()) ? { token: value.trim(), unrendered: false } : undefined);
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = value.length - 1; i >= 0; i--) {
      const p = placeholderInValue(value[i], depth + 1, usage);
      if (p) return p;
    }
    return undefined;
  }
  const keys = Object.keys(value);
  for (const k of keys) {
    const p = placeholderValue(k);
    if (p) return p;
  }
  for (let i = keys.length - 1; i >= 0; i--) {
    const p = placeholderInValue((value as Record<string, unknown>)[keys[i]!], depth + 1, usage);
    if (p) return p;
  }
  return undefined;
}

/**
 * A placeholder in text that did not parse. `errorAt` is where the parser stopped: a
 * parser stopping at `<`, `$`, `...` or a second `{` is a strong sign of a format description.
 */
export function placeholderInText(text: string, errorAt?: number, tools?: { has(name: string): boolean }): Placeholder | undefined {
  const tv = templateVariable.exec(text);
  if (tv) return { token: tv[0], unrendered: true };
  const dollar = /\$[A-Z][A-Z0-9_]*\b/.exec(text);
  if (dollar) return { token: dollar[0], unrendered: false };
  // GLM's own `<arg_key>` and `<arg_value>` tags look like `<tool_name>` but are its syntax.
  const angle = /<(?!arg_(?:key|value)>)[A-Za-z][\w.]*(?:[-_ ][\w.]+)+>|<(?:value|param|arg|args|argument|arguments|string|number|integer|object|dict|array|json|name)\d*>/i.exec(text);
  if (angle) return { token: angle[0], unrendered: false };
  if (errorAt !== undefined && (text.startsWith('...', errorAt) || text[errorAt] === '…' || text.startsWith('..', errorAt - 1))) {
    return { token: '...', unrendered: false };
  }
  for (const m of text.matchAll(/["'](?:name|function|tool)["']\s*:\s*["']([^"'\n]*)["']/g)) {
    if (isPlaceholderTool(m[1]!, tools)) return { token: m[1]!, unrendered: false };
  }
  if (errorAt !== undefined && text[errorAt] === '{' && text[errorAt - 1] === '{') return { token: '{{', unrendered: true };
  if (errorAt !== undefined && text[errorAt] === '<') {
    const m = /<[^<>\n]{0,40}>/y;
    m.lastIndex = errorAt;
    const hit = m.exec(text);
    if (hit) return { token: hit[0], unrendered: false };
  }
  return undefined;
}
