// Texts render without source markers; the marked render that places a finding runs only when
// a finding needs a place (src/render/source-map.ts `SourceMap.deferred`). Where the marked
// render cannot give the same text, the finding still stands, pointed at the rendered text in
// the snapshot, and the run exits 1 (not 2).
import { expect, test } from '@jest/globals';
import { cliInProcess as cli, report, withDemo } from '../cli/helpers.js';

const findings = async (dir: string) => {
  const result = await cli(['check', '--no-cache', '--format', 'json'], { cwd: dir });
  return { code: result.code, stderr: result.stderr, diagnostics: report(result).diagnostics };
};

test('a partial called on an indented line: its stale example is reported, at the YAML line', () =>
  withDemo(async (demo) => {
    // Handlebars indents an indented partial's lines; a marker on its last line would be indented too.
    demo.edit('prompts/refund_agent.prompt', '{{> tool_call_json this}}', '  {{> tool_call_json this}}');
    demo.edit('prompts/examples/refund_agent.yaml', 'amount_cents: 4200', 'amount_cents: 420000');
    const { code, stderr, diagnostics } = await findings(demo.dir);
    expect({ code, stderr }).toEqual({ code: 1, stderr: '' });
    const hit = diagnostics.find((d) => d.ruleId === 'example/invalid-arguments' && d.instancePath === '/amount_cents');
    expect(hit?.file).toMatch(/^(prompts\/examples\/refund_agent\.yaml|snapshots\/refund_agent\/\w+\.txt)$/);
    expect(hit?.line).toEqual(expect.any(Number));
  }));

test('a chained {{else if}}: the finding is reported, not a render failure', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/refund_agent.prompt', '{{else}}', '{{else if message}}');
    demo.edit('prompts/refund_agent.prompt', '## How to call tools', '## How to call tools\n\n```tool_call\n{"name": "create_refund", "arguments": {"order_id": "A-1042"} }\n```');
    const { code, stderr, diagnostics } = await findings(demo.dir);
    expect({ code, stderr }).toEqual({ code: 1, stderr: '' });
    const hit = diagnostics.find((d) => d.ruleId === 'example/invalid-arguments' && d.tool === 'create_refund');
    expect(hit).toBeDefined();
    expect(hit?.file).toMatch(/^(prompts\/refund_agent\.prompt|snapshots\/refund_agent\/\w+\.txt)$/);
  }));
