import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { applyPolicy, diffTools, loadPolicy, parsePolicy } from '../../src/checks/compat/index.js';
import { InputError } from '../../src/util/errors.js';
import { tool } from './helpers.js';

const schema = (max: number, pattern?: string) => ({
  type: 'object',
  properties: { amount_cents: { type: 'integer', maximum: max }, order_id: { type: 'string', ...(pattern ? { pattern } : {}) } },
});
const findings = diffTools([tool('create_refund', schema(100000))], [tool('create_refund', schema(50000, '^A-'))]);

const policyText = `# decisions about compatibility findings
severity:
  compat/pattern-added: warning
ignore:
  - rule: compat/maximum-decreased
    tool: create_refund
    path: /amount_cents
    reason: "Refunds above £500 go to a human since 2026-10; approved in #412"
`;

describe('policy', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'compat-policy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the findings the policy is applied to', () => {
    expect(findings.map((d) => [d.ruleId, d.severity])).toEqual([
      ['compat/maximum-decreased', 'error'],
      ['compat/pattern-added', 'error'],
    ]);
  });

  test('parses severity overrides and ignore entries, with their lines', () => {
    const policy = parsePolicy(policyText, 'compat-policy.yml');
    expect(policy.severity).toEqual({ 'compat/pattern-added': 'warning' });
    expect(policy.ignore).toEqual([
      {
        rule: 'compat/maximum-decreased', tool: 'create_refund', path: '/amount_cents',
        reason: 'Refunds above £500 go to a human since 2026-10; approved in #412', file: 'compat-policy.yml', line: 5,
      },
    ]);
  });

  test('an ignore with a reason drops the finding; an override changes the severity', () => {
    const out = applyPolicy(findings, parsePolicy(policyText, 'p.yml'));
    expect(out.map((d) => [d.ruleId, d.severity])).toEqual([['compat/pattern-added', 'warning']]);
  });

  test('`off` drops a rule; `family/*` overrides a whole family; an exact id wins over it', () => {
    const off = applyPolicy(findings, parsePolicy('severity:\n  compat/pattern-added: "off"\n', 'p.yml'));
    expect(off.map((d) => d.ruleId)).toEqual(['compat/maximum-decreased']);
    const family = applyPolicy(findings, parsePolicy('severity:\n  compat/*: info\n  compat/pattern-added: warning\n', 'p.yml'));
    expect(family.map((d) => d.severity)).toEqual(['info', 'warning']);
  });

  test('an ignore path matches the schema path too, and everything below it', () => {
    const bySchema = parsePolicy('ignore:\n  - rule: compat/*\n    path: /properties\n    reason: migration window\n', 'p.yml');
    expect(applyPolicy(findings, bySchema)).toEqual([]);
    const elsewhere = parsePolicy('ignore:\n  - rule: compat/maximum-decreased\n    path: /amount\n    reason: typo\n', 'p.yml');
    expect(applyPolicy(findings, elsewhere, { reportUnused: false })).toHaveLength(2);
  });

  test('an entry for another tool does not match', () => {
    const other = parsePolicy('ignore:\n  - rule: compat/maximum-decreased\n    tool: escalate\n    reason: r\n', 'p.yml');
    expect(applyPolicy(findings, other, { reportUnused: false })).toHaveLength(2);
  });

  test('an ignore entry that matches nothing is reported as info at its line', () => {
    const stale = parsePolicy(`${policyText}  - rule: compat/enum-narrowed\n    tool: create_refund\n    reason: old\n`, 'compat-policy.yml');
    const out = applyPolicy(findings, stale);
    const unused = out.filter((d) => d.ruleId === 'compat/unused-ignore');
    expect(unused).toEqual([
      expect.objectContaining({
        severity: 'info', file: 'compat-policy.yml', line: 9, tool: 'create_refund',
        message: 'Ignore entry for `compat/enum-narrowed` on `create_refund` matched no finding; the change it excused is gone or the entry has a typo',
      }),
    ]);
    expect(applyPolicy(findings, stale, { reportUnused: false }).some((d) => d.ruleId === 'compat/unused-ignore')).toBe(false);
  });

  test('an ignore entry without a reason is an InputError naming the file and line', () => {
    const file = path.join(dir, 'no-reason.yml');
    writeFileSync(file, 'severity:\n  compat/pattern-added: warning\nignore:\n  - rule: compat/maximum-decreased\n    tool: create_refund\n');
    let error: unknown;
    try {
      loadPolicy(file, 'policy/no-reason.yml');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    const e = error as InputError;
    expect(e.file).toBe('policy/no-reason.yml');
    expect(e.line).toBe(4);
    expect(e.format()).toBe('policy/no-reason.yml:4:5: Ignore entry for `compat/maximum-decreased` needs a `reason`: write down why the finding is acceptable (config/policy-invalid)');
  });

  test('an empty reason counts as none', () => {
    expect(() => parsePolicy('ignore:\n  - rule: compat/maximum-decreased\n    reason: "  "\n', 'p.yml')).toThrow(/needs a `reason`/);
  });

  test.each([
    ['an unknown top-level key', 'ignores:\n  - rule: compat/x\n', /Unexpected key `ignores`/, 1],
    ['an unknown severity', 'severity:\n  compat/pattern-added: fatal\n', /Unexpected severity "fatal"/, 2],
    ['a rule id without a family', 'severity:\n  pattern-added: warning\n', /Unexpected rule id `pattern-added`/, 2],
    ['an unknown key in an entry', 'ignore:\n  - rule: compat/x\n    reason: r\n    tools: a\n', /Unexpected key `tools`/, 4],
    ['a path that is not a pointer', 'ignore:\n  - rule: compat/x\n    reason: r\n    path: amount\n', /expected a JSON Pointer/, 4],
  ])('%s is an InputError at its line', (_name, text, message, line) => {
    let error: unknown;
    try {
      parsePolicy(text, 'p.yml');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(message);
    expect((error as InputError).line).toBe(line);
  });

  test('an empty file is an empty policy', () => {
    expect(parsePolicy('', 'p.yml')).toEqual({ severity: {}, ignore: [], file: 'p.yml' });
  });

  test('a missing file is an InputError', () => {
    expect(() => loadPolicy(path.join(dir, 'missing.yml'))).toThrow(InputError);
  });
});
