import { cliInProcess as cli, lineOf, report, withDemo } from '../cli/helpers.js';

// Issue #11: the CLI names the file, line and column of a template error, counted from the
// start of the .prompt file (frontmatter included), and says what was expected.
// The CLI runs in this process (see cliInProcess).

/** 1-based column of `needle` on its line of `text`. */
function columnOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  if (at === -1) throw new Error(`${needle} not found`);
  return at - text.lastIndexOf('\n', at - 1);
}

describe('could-not-run template errors on the command line', () => {
  test('`}}}` after a `{{`: file:line:column from the start of the file, in plain words', () =>
    withDemo(async (demo) => {
      demo.edit('prompts/refund_agent.prompt', '{{customer.name}} (customer', '{{customer.name}}} (customer');
      const text = demo.read('prompts/refund_agent.prompt');
      const line = lineOf(text, '{{customer.name}}}');
      const column = columnOf(text, '}}} (customer');
      expect(line).toBeGreaterThan(10);
      const result = await cli(['check'], { cwd: demo.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `prompt-contract: prompts/refund_agent.prompt:${line}:${column}: Unexpected \`}}}\` closing \`{{customer.name}}\`: a third \`}\` ends a triple-stash \`{{{...}}}\`; expected \`}}\` (for a literal \`}\` after the value, put a space before the brace: \`{{customer.name~}} }\`, where \`~\` removes that space) (render/syntax)\n`,
      );
    }));

  test('a case name that cannot name a snapshot file is refused at its line in the cases file, before anything is written', () =>
    withDemo(async (demo) => {
      demo.edit('prompts/cases/refund_agent.yaml', '  legacy_order:', '  "../../evil":');
      const line = lineOf(demo.read('prompts/cases/refund_agent.yaml'), '"../../evil":');
      const result = await cli(['check'], { cwd: demo.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`prompt-contract: prompts/cases/refund_agent.yaml:${line}:3: Unexpected case name "../../evil" of prompt \`refund_agent\`: it holds a path separator, and it names a snapshot file that every checkout must be able to hold; expected a name of at most 200 bytes without control characters, \`/\`, \`\\\` or \`<>:"|?*\` (config/invalid)\n`);
    }));

  test('an unclosed {{#each}} is reported where it opens, also in the JSON report', () =>
    withDemo(async (demo) => {
      // The first `{{/each}}` goes: `{{#each examples}}` is left open to the end of the file.
      demo.edit('prompts/refund_agent.prompt', '{{> tool_call_json this}}\n{{/each}}\n', '{{> tool_call_json this}}\n');
      const text = demo.read('prompts/refund_agent.prompt');
      const line = lineOf(text, '{{#each examples}}');
      expect(lineOf(text, '---', 'description')).toBeLessThan(line);
      const result = await cli(['render', 'refund_agent', '--case', 'standard_refund'], { cwd: demo.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`prompt-contract: prompts/refund_agent.prompt:${line}:1: Unclosed \`{{#each examples}}\` opened here; expected \`{{/each}}\` before the end of the file (render/syntax)\n`);
      const json = report(await cli(['check', '--format', 'json'], { cwd: demo.dir }));
      expect(json.diagnostics).toEqual([expect.objectContaining({ ruleId: 'render/syntax', file: 'prompts/refund_agent.prompt', line, column: 1 })]);
    }));

  test('a syntax error in a partial is at its line in the partial file', () =>
    withDemo(async (demo) => {
      demo.edit('prompts/partials/_tool_call_json.prompt', '{{/each}}', '{{/if}}');
      const text = demo.read('prompts/partials/_tool_call_json.prompt');
      const result = await cli(['check'], { cwd: demo.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `prompt-contract: prompts/partials/_tool_call_json.prompt:${lineOf(text, '{{/if}}')}:1: \`{{/if}}\` closes \`{{#each calls}}\`, opened at line ${lineOf(text, '{{#each calls}}')}; expected \`{{/each}}\` before it (render/syntax)\n`,
      );
    }));

  test('an unknown helper is found when the template is read, at its name', () =>
    withDemo(async (demo) => {
      demo.edit('prompts/refund_agent.prompt', '{{customer.name}} (customer', '{{jsno customer.name}} (customer');
      const text = demo.read('prompts/refund_agent.prompt');
      const result = await cli(['check'], { cwd: demo.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^prompt-contract: prompts/refund_agent\\.prompt:${lineOf(text, 'jsno')}:${columnOf(text, 'jsno')}: Unknown helper \`jsno\` in \`\\{\\{jsno customer\\.name\\}\\}\`.*; did you mean \`json\`\\? \\(render/unknown-helper\\)\\n$`));
    }));

  test('a case file naming an unknown prompt points at the name', () =>
    withDemo(async (demo) => {
      demo.edit('prompts/cases/order_triage.yaml', /^prompt: order_triage$/m, 'prompt: order_triag');
      const text = demo.read('prompts/cases/order_triage.yaml');
      const result = await cli(['check'], { cwd: demo.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`prompt-contract: prompts/cases/order_triage.yaml:${lineOf(text, 'prompt: order_triag')}:9: Unknown prompt \`order_triag\`, expected one of \`order_triage\`, \`refund_agent\`, \`status_chat\` (the \`.prompt\` files in \`prompts\`); did you mean \`order_triage\`? (render/unknown-prompt)\n`);
    }));
});

describe('a message that quotes a value read from a file is cut, never the whole file', () => {
  test('clipMessage keeps the start and the end (what was expected), and says how much it left out', async () => {
    const { clipMessage, MAX_MESSAGE_CHARS } = await import('../../src/util/errors.js');
    expect(clipMessage('short')).toBe('short');
    const long = `Unexpected "${'x'.repeat(20_000)}" as the examples file, expected a mapping`;
    const cut = clipMessage(long);
    expect(cut.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(cut.startsWith('Unexpected "xxx')).toBe(true);
    expect(cut.endsWith('as the examples file, expected a mapping')).toBe(true);
    expect(cut).toContain(`(${(long.length - 1900).toLocaleString('en-US')} characters left out)`);
    // No half of a surrogate pair at either cut.
    const emoji = clipMessage('\u{1F600}'.repeat(5000));
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(emoji)).toBe(false);
  });

  test('an examples file that is one 2 MB value: exit 2 at the file, a line of at most 2,000 characters of message', () =>
    withDemo(async (demo) => {
      demo.write('prompts/examples/refund_agent.yaml', `${'x'.repeat(2_000_000)}\n`);
      const result = await cli(['check', '--no-cache'], { cwd: demo.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('prompts/examples/refund_agent.yaml:1:1: Unexpected "xxx');
      expect(result.stderr).toContain('characters left out) …');
      expect(result.stderr).toContain('expected a mapping with the list under `examples:`');
      expect(result.stderr.length).toBeLessThan(2_300);
    }));
});

describe("a prompt's data files stay inside the project", () => {
  test('`examples.file` that leads outside (by `..` or by a link) is refused at its frontmatter line, its content never read or printed', () =>
    withDemo(async (demo) => {
      const { mkdtempSync, rmSync, symlinkSync, writeFileSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const { join } = await import('node:path');
      const outside = mkdtempSync(join(tmpdir(), 'pc-outside-'));
      try {
        writeFileSync(join(outside, 'secret.yaml'), 'SECRET-TOKEN-123\n');
        const depth = demo.dir.split('/').length;
        const up = `${'../'.repeat(depth)}${outside.slice(1)}/secret.yaml`;
        demo.edit('prompts/refund_agent.prompt', '  file: examples/refund_agent.yaml', `  file: ${up}`);
        const text = demo.read('prompts/refund_agent.prompt');
        const byPath = await cli(['check', '--no-cache'], { cwd: demo.dir });
        expect(byPath.code).toBe(2);
        expect(byPath.stderr).toContain(`prompts/refund_agent.prompt:${lineOf(text, '  file: ../')}:`);
        expect(byPath.stderr).toContain('outside the project');
        expect(byPath.stderr).not.toContain('SECRET-TOKEN');
        // The same through a link inside the prompts folder.
        symlinkSync(join(outside, 'secret.yaml'), join(demo.dir, 'prompts', 'examples', 'linked.yaml'));
        demo.edit('prompts/refund_agent.prompt', `  file: ${up}`, '  file: examples/linked.yaml');
        const byLink = await cli(['check', '--no-cache'], { cwd: demo.dir });
        expect(byLink.code).toBe(2);
        expect(byLink.stderr).toContain('outside the project');
        expect(byLink.stderr).not.toContain('SECRET-TOKEN');
      } finally {
        rmSync(outside, { recursive: true, force: true });
      }
    }));
});

test('a missing examples file is named at the frontmatter line that asks for it', () =>
  withDemo(async (demo) => {
    demo.edit('prompts/refund_agent.prompt', '  file: examples/refund_agent.yaml', '  file: examples/refund_agnet.yaml');
    const text = demo.read('prompts/refund_agent.prompt');
    const result = await cli(['check', '--no-cache'], { cwd: demo.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`prompts/refund_agent.prompt:${lineOf(text, 'refund_agnet.yaml')}:`);
    expect(result.stderr).toContain('Cannot find `examples.file` "examples/refund_agnet.yaml"');
  }));
