// The runner decodes workflow command data and properties: `%0D`, `%0A` (and in properties `%3A`,
// `%2C`) first, `%25` last. An escape left out lets text from a checked file end the command,
// start another, or turn into characters it did not hold.
import { describe, expect, test } from '@jest/globals';
import { escapeData, escapeProperty, formatGithub } from '../../src/report/format.js';
import type { Diagnostic } from '../../src/report/diagnostic.js';

/** The runner's decoding of command data (actions/runner, ActionCommand's unescape). */
function decodeData(text: string): string {
  return text.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%25', '%');
}

function decodeProperty(text: string): string {
  return text.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%3A', ':').replaceAll('%2C', ',').replaceAll('%25', '%');
}

const tricky = ['50%', '%0A::error::x', '%250A', '%3A%2C', 'a\rb\nc', 'a:b,c', '%', '%%0D%0A', 'plain'];

describe('workflow command escapes', () => {
  test.each(tricky)('data %j decodes back to itself and holds no line break', (text) => {
    const escaped = escapeData(text);
    expect(escaped).not.toMatch(/[\r\n]/);
    expect(decodeData(escaped)).toBe(text);
  });

  test.each(tricky)('a property %j decodes back to itself and holds no line break, `:` or `,`', (text) => {
    const escaped = escapeProperty(text);
    expect(escaped).not.toMatch(/[\r\n:,]/);
    expect(decodeProperty(escaped)).toBe(text);
  });

  test('an annotation shows a percent sign, a tool name and a file name as written', () => {
    const d: Diagnostic = { ruleId: 'recorded/invalid', severity: 'error', message: 'Unexpected 50% at `/a`, expected %0A as text', file: 'dir,x/a:b%2C.jsonl', line: 2, tool: 't%3A,:' };
    const out = formatGithub([d], undefined);
    expect(out).toBe('::error file=dir%2Cx/a%3Ab%252C.jsonl,line=2,title=recorded/invalid (t%253A%2C%3A)::Unexpected 50%25 at `/a`, expected %250A as text\n');
    const [, props, data] = /^::error (.*?)::(.*)\n$/.exec(out)!;
    expect(decodeData(data!)).toBe(d.message);
    expect(props!.split(',').map((p) => decodeProperty(p.slice(p.indexOf('=') + 1)))).toEqual([d.file, '2', `${d.ruleId} (${d.tool})`]);
  });

  test('a line break in a checked name is shown as `\\n`, and the annotation stays one command', () => {
    const d: Diagnostic = { ruleId: 'recorded/unknown-tool', severity: 'error', message: 'Unexpected tool `a\n::error::b\r::warning::c`', tool: 'a\nb' };
    const out = formatGithub([d], undefined);
    expect(out.split('\n').filter((l) => l !== '')).toHaveLength(1);
    expect(decodeData(/::([^:]*::.*)\n$/.exec(out)![1]!.split('::').slice(1).join('::'))).toBe('Unexpected tool `a\\n::error::b\\u000d::warning::c`');
  });
});
