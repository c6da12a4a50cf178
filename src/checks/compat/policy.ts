import type { Diagnostic, Severity } from '../../report/diagnostic.js';
import { report } from '../../report/rule.js';
import { splitPointer } from '../../schema/pointer.js';
import { InputError } from '../../util/errors.js';
import { isRecord } from '../../util/values.js';
import { locate, parseYaml, readYaml, type YamlDocument } from '../../util/yaml.js';
import { compatRules } from './rules.js';

export type SeverityOverride = Severity | 'off';

/** One accepted finding: which rule, optionally where, and why it is fine. */
export interface IgnoreEntry {
  /** A rule id (`compat/maximum-decreased`) or a whole family (`compat/*`). */
  rule: string;
  tool?: string;
  /** A JSON Pointer matched against the finding's `instancePath` or `schemaPath`, covering everything below it. */
  path?: string;
  /** Why the finding is accepted; required, so the decision is written down next to it. */
  reason: string;
  file?: string;
  line?: number;
}

/**
 * What a team decided about findings, for any rule family: severity overrides by rule id
 * (or `family/*`) and ignore entries, each with a reason.
 */
export interface Policy {
  severity: Readonly<Record<string, SeverityOverride>>;
  ignore: readonly IgnoreEntry[];
  file?: string;
}

export interface ApplyPolicyOptions {
  /**
   * Report ignore entries that matched nothing as `compat/unused-ignore` (default true).
   * Pass false when applying the policy to only part of a run's findings.
   */
  reportUnused?: boolean;
}

const severities = new Set<string>(['error', 'warning', 'info', 'off']);
const ruleIdPattern = /^[a-z][a-z0-9-]*\/(?:\*|[a-z0-9][a-z0-9-]*)$/;

function fail(doc: YamlDocument, path: Array<string | number>, message: string): never {
  const at = locate(doc, path);
  throw new InputError('config/policy-invalid', message, { file: doc.file, line: at?.line, column: at?.column });
}

/**
 * Reads a policy from YAML text:
 *
 *     severity:
 *       compat/pattern-added: warning
 *     ignore:
 *       - rule: compat/maximum-decreased
 *         tool: create_refund
 *         path: /amount_cents
 *         reason: "Refunds above the limit go to a human; approved in #412"
 *
 * Anything malformed, and an ignore entry without a reason, is an InputError at its line.
 */
export function parsePolicy(text: string, file: string): Policy {
  // A policy file that is only comments is a valid "no decisions yet".
  if (text.split('\n').every((line) => /^\s*(#.*)?$/.test(line))) return { severity: {}, ignore: [], file };
  const doc = parseYaml(text, file);
  const value = doc.value ?? {};
  if (!isRecord(value)) fail(doc, [], 'Unexpected policy file content, expected a mapping with `severity` and `ignore`');
  for (const key of Object.keys(value)) {
    if (key !== 'severity' && key !== 'ignore') fail(doc, [key], `Unexpected key \`${key}\` in the policy file, expected \`severity\` or \`ignore\``);
  }
  const severity: Record<string, SeverityOverride> = {};
  const rawSeverity = value.severity ?? {};
  if (!isRecord(rawSeverity)) fail(doc, ['severity'], 'Unexpected `severity` value, expected a mapping of rule id to error, warning, info or off');
  for (const [rule, level] of Object.entries(rawSeverity)) {
    if (!ruleIdPattern.test(rule)) fail(doc, ['severity', rule], `Unexpected rule id \`${rule}\` in \`severity\`, expected \`family/rule\` or \`family/*\``);
    if (typeof level !== 'string' || !severities.has(level)) {
      fail(doc, ['severity', rule], `Unexpected severity ${JSON.stringify(level)} for \`${rule}\`, expected error, warning, info or off`);
    }
    severity[rule] = level as SeverityOverride;
  }
  const ignore: IgnoreEntry[] = [];
  const rawIgnore = value.ignore ?? [];
  if (!Array.isArray(rawIgnore)) fail(doc, ['ignore'], 'Unexpected `ignore` value, expected a list of entries with `rule` and `reason`');
  rawIgnore.forEach((entry, i) => {
    const at = ['ignore', i];
    if (!isRecord(entry)) fail(doc, at, 'Unexpected ignore entry, expected a mapping with `rule` and `reason`');
    for (const key of Object.keys(entry)) {
      if (!['rule', 'tool', 'path', 'reason'].includes(key)) fail(doc, [...at, key], `Unexpected key \`${key}\` in ignore entry, expected \`rule\`, \`tool\`, \`path\` or \`reason\``);
    }
    const { rule, tool, path, reason } = entry;
    if (typeof rule !== 'string' || !ruleIdPattern.test(rule)) fail(doc, at, `Ignore entry needs a \`rule\` id such as \`compat/maximum-decreased\`, got ${JSON.stringify(rule)}`);
    if (typeof reason !== 'string' || reason.trim() === '') {
      fail(doc, at, `Ignore entry for \`${rule}\` needs a \`reason\`: write down why the finding is acceptable`);
    }
    if (tool !== undefined && typeof tool !== 'string') fail(doc, [...at, 'tool'], `Unexpected \`tool\` ${JSON.stringify(tool)}, expected a tool name`);
    if (path !== undefined && (typeof path !== 'string' || (path !== '' && !path.startsWith('/')))) {
      fail(doc, [...at, 'path'], `Unexpected \`path\` ${JSON.stringify(path)}, expected a JSON Pointer such as \`/amount_cents\``);
    }
    const out: IgnoreEntry = { rule, reason, file };
    if (tool !== undefined) out.tool = tool;
    if (path !== undefined) out.path = path;
    const line = locate(doc, at)?.line;
    if (line !== undefined) out.line = line;
    ignore.push(out);
  });
  return { severity, ignore, file };
}

/** Reads a policy file; unreadable or malformed files are InputErrors naming the file. */
export function loadPolicy(file: string, displayName = file): Policy {
  const doc = readYaml(file, displayName);
  return parsePolicy(doc.text, displayName);
}

function ruleMatches(pattern: string, ruleId: string): boolean {
  return pattern === ruleId || (pattern.endsWith('/*') && ruleId.startsWith(pattern.slice(0, -1)));
}

function pathCovers(prefix: string, path: string | undefined): boolean {
  if (path === undefined) return false;
  const a = splitPointer(prefix);
  const b = splitPointer(path);
  return a.length <= b.length && a.every((s, i) => s === b[i]);
}

function ignores(entry: IgnoreEntry, d: Diagnostic): boolean {
  if (!ruleMatches(entry.rule, d.ruleId)) return false;
  if (entry.tool !== undefined && entry.tool !== d.tool) return false;
  if (entry.path !== undefined && !pathCovers(entry.path, d.instancePath) && !pathCovers(entry.path, d.schemaPath)) return false;
  return true;
}

function overrideFor(policy: Policy, ruleId: string): SeverityOverride | undefined {
  const exact = policy.severity[ruleId];
  if (exact !== undefined) return exact;
  const family = ruleId.slice(0, ruleId.indexOf('/') + 1);
  return policy.severity[`${family}*`];
}

/**
 * Drops ignored findings, applies severity overrides (`off` drops the finding), and by
 * default reports ignore entries that matched nothing, so stale excuses do not pile up.
 */
export function applyPolicy(diagnostics: readonly Diagnostic[], policy: Policy, options: ApplyPolicyOptions = {}): Diagnostic[] {
  const used = new Set<IgnoreEntry>();
  const kept: Diagnostic[] = [];
  for (const d of diagnostics) {
    const entry = policy.ignore.find((e) => ignores(e, d));
    if (entry) {
      used.add(entry);
      continue;
    }
    kept.push(d);
  }
  if (options.reportUnused ?? true) {
    for (const entry of policy.ignore) {
      if (used.has(entry)) continue;
      const where = [entry.tool === undefined ? '' : ` on \`${entry.tool}\``, entry.path === undefined ? '' : ` at \`${entry.path}\``].join('');
      const d = report(compatRules['unused-ignore'], {
        message: `Ignore entry for \`${entry.rule}\`${where} matched no finding; the change it excused is gone or the entry has a typo`,
        fix: 'Remove the entry from the policy file, or correct its rule id, tool or path.',
        ...(entry.file === undefined ? {} : { file: entry.file }),
        ...(entry.line === undefined ? {} : { line: entry.line }),
        ...(entry.tool === undefined ? {} : { tool: entry.tool }),
      });
      kept.push(d);
    }
  }
  const out: Diagnostic[] = [];
  for (const d of kept) {
    const level = overrideFor(policy, d.ruleId);
    if (level === 'off') continue;
    out.push(level === undefined || level === d.severity ? d : { ...d, severity: level });
  }
  return out;
}
