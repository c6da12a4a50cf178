import { formatGithub } from '../../src/report/format.js';
import type { Diagnostic } from '../../src/report/diagnostic.js';

const finding = (tool: string | undefined, line: number): Diagnostic => ({
  ruleId: 'provider/missing-description',
  severity: 'info',
  message: 'Missing description',
  file: 'tools.json',
  line,
  column: 5,
  ...(tool === undefined ? {} : { tool }),
});

describe('formatGithub', () => {
  test('names the tool in the title, so findings about different tools read as different annotations', () => {
    const out = formatGithub([finding('create_refund', 3), finding('cancel_order', 9)]).trim().split('\n');
    expect(out).toEqual([
      '::notice file=tools.json,line=3,col=5,title=provider/missing-description (create_refund)::Missing description',
      '::notice file=tools.json,line=9,col=5,title=provider/missing-description (cancel_order)::Missing description',
    ]);
  });

  test('a finding about no tool keeps the rule id alone; a tool name is escaped like any property', () => {
    expect(formatGithub([finding(undefined, 1)])).toContain(',title=provider/missing-description::');
    expect(formatGithub([finding('a,b:c', 1)])).toContain('title=provider/missing-description (a%2Cb%3Ac)::');
  });
});
