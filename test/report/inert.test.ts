// What reaches a terminal, a CI log or a test runner's failure message from a checked file is
// shown, not acted on: no line of its own, no cursor movement, no reordering.
import { describe, expect, test } from '@jest/globals';
import { formatPretty } from '../../src/report/format.js';
import { inert, inertLines } from '../../src/report/inert.js';
import { InputError } from '../../src/util/errors.js';

const hostile = 'a\n::error::b\r\nc\u001b[2J\u009b\u0085\u2028\u2029\u202eevil\u2066x\u2069\u200f\u061c\u0000\u007f';

describe('inert', () => {
  test('writes line breaks, C0 and C1 controls, line separators and bidirectional controls as escapes', () => {
    expect(inert(hostile)).toBe('a\\n::error::b\\u000d\\nc\\u001b[2J\\u009b\\u0085\\u2028\\u2029\\u202eevil\\u2066x\\u2069\\u200f\\u061c\\u0000\\u007f');
    expect(inert(hostile)).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  });

  test('keeps tabs, and text that needs nothing', () => {
    expect(inert('a\tb — é 😀 `x` \\n')).toBe('a\tb — é 😀 `x` \\n');
  });

  test('inertLines keeps the line breaks that are ours and escapes what is inside each line', () => {
    expect(inertLines('-a\r\u001b\n+b\u2028')).toBe('-a\\u000d\\u001b\n+b\\u2028');
  });

  test('inertLines starts no line with `::`, leading spaces or not: the runner drops them', () => {
    expect(inertLines('::error::a\n  ::add-mask::b\n-::c\n: :d')).toBe('\\u003a:error::a\n  \\u003a:add-mask::b\n-::c\n: :d');
  });
});

describe('messages built from checked files', () => {
  test("an InputError's formatted message, which the CLI and the test suites print, is one line", () => {
    const error = new InputError('render/unknown-prompt', 'Unknown prompt `p\n::error file=a.ts::FORGED`', { file: 'cases\n::add-mask::x.yaml', line: 1, column: 9 });
    expect(error.format()).toBe('cases\\n::add-mask::x.yaml:1:9: Unknown prompt `p\\n::error file=a.ts::FORGED` (render/unknown-prompt)');
    // The message itself stays exact, for the JSON report.
    expect(error.message).toContain('\n::error');
  });

  test('the pretty report, which the test suites throw, starts no line with text from a checked file', () => {
    const out = formatPretty([
      { ruleId: 'recorded/unknown-tool', severity: 'error', message: 'Unexpected tool `x\n::error::m`', tool: 'x\n::error::t', file: 'f\n::error::f.jsonl', line: 1, fix: 'Rename\n::error::fix', related: [{ message: 'see\n::error::r', file: 'g\n::error::g.ts', line: 2 }], witnesses: [{ id: 'w\n::error::w' }], detail: ' one\n ::error::two\n+::warning::three' },
    ]);
    // The detail (a snapshot diff, whose context lines start with a space) is the one text broken into lines on purpose.
    expect(out.split('\n').filter((l) => l.trimStart().startsWith('::'))).toEqual([]);
    expect(out).toContain('[x\\n::error::t] Unexpected tool `x\\n::error::m`');
  });
});
