import { describe, expect, test } from '@jest/globals';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.js';
import { readToolsFile } from '../../src/project.js';
import { loadPromptModule } from '../../src/render/module.js';
import { lineDiff } from '../../src/snapshot/state.js';
import { parseYaml } from '../../src/util/yaml.js';
import { cli, withDemo } from '../cli/helpers.js';

/** Every `.prompt` and YAML file under `dir`, as a checkout with `core.autocrlf=true` writes them. */
function toCrlf(dir: string): number {
  let converted = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) converted += toCrlf(path);
    else if (/\.(prompt|ya?ml)$/.test(entry.name)) {
      writeFileSync(path, readFileSync(path, 'utf8').replace(/\r?\n/g, '\r\n'));
      converted++;
    }
  }
  return converted;
}

describe('a prompt module checked out with CRLF line ends', () => {
  test('`check` passes on the demo: templates and YAML render as committed (LF)', () => {
    withDemo((demo) => {
      expect(toCrlf(join(demo.dir, 'prompts'))).toBeGreaterThan(5);
      expect(demo.read('prompts/refund_agent.prompt')).toContain('\r\n');
      const result = cli(['check'], { cwd: demo.dir });
      expect(result.stdout + result.stderr).not.toContain('snapshot/outdated');
      expect(result.code).toBe(0);
    });
  });

  test('loads the same module as with LF: no `\\r` in a template, the same examples', () => {
    withDemo((demo) => {
      const lf = loadPromptModule(join(demo.dir, 'prompts'), demo.dir);
      toCrlf(join(demo.dir, 'prompts'));
      const crlf = loadPromptModule(join(demo.dir, 'prompts'), demo.dir);
      for (const [name, prompt] of crlf.prompts) {
        expect(prompt.source.body).not.toContain('\r');
        expect(prompt.source).toEqual(lf.prompts.get(name)!.source);
        expect(prompt.examples?.items.map((i) => i.value)).toEqual(lf.prompts.get(name)!.examples?.items.map((i) => i.value));
      }
      for (const [name, partial] of crlf.partials) expect(partial.body).toBe(lf.partials.get(name)!.body);
    });
  });

  test('files saved with a byte order mark (Windows editors) load as without it: frontmatter kept, no U+FEFF in a template', () => {
    withDemo((demo) => {
      const plain = loadPromptModule(join(demo.dir, 'prompts'), demo.dir);
      const files = ['prompts/order_triage.prompt', 'prompts/partials/_tool_call_json.prompt', 'prompts/examples/refund_agent.yaml', 'prompts/cases/order_triage.yaml'].filter((f) => existsSync(join(demo.dir, f)));
      expect(files.length).toBeGreaterThanOrEqual(3);
      for (const f of files) writeFileSync(join(demo.dir, f), `\uFEFF${demo.read(f)}`);
      const bom = loadPromptModule(join(demo.dir, 'prompts'), demo.dir);
      for (const [name, prompt] of bom.prompts) {
        expect(prompt.source.body.includes('\uFEFF')).toBe(false);
        expect({ name, body: prompt.source.body, tools: prompt.tools, cases: [...prompt.cases.keys()] }).toEqual({ name, body: plain.prompts.get(name)!.source.body, tools: plain.prompts.get(name)!.tools, cases: [...plain.prompts.get(name)!.cases.keys()] });
      }
      for (const [name, partial] of bom.partials) expect(partial.body).toBe(plain.partials.get(name)!.body);
      const result = cli(['check', '--no-cache'], { cwd: demo.dir });
      expect({ code: result.code, out: result.stdout + result.stderr }).toEqual({ code: 0, out: expect.not.stringContaining('snapshot/outdated') });
    });
  });

  test('a JSON tools file or JSON config with a byte order mark reads as without it, at the same places', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prompt-contract-bom-json-'));
    try {
      const tools = '[\n  {"name": "f", "input_schema": {"type": "object"}}\n]\n';
      writeFileSync(join(dir, 'plain.json'), tools);
      writeFileSync(join(dir, 'marked.json'), `\uFEFF${tools}`);
      const plain = readToolsFile(join(dir, 'plain.json'), 'tools.json');
      expect(readToolsFile(join(dir, 'marked.json'), 'tools.json')).toEqual(plain);
      // Through the CLI too: it used to be "Unexpected token '\uFEFF'" (config/json-syntax), exit 2.
      const lint = cli(['lint', 'marked.json', '--provider', 'anthropic'], { cwd: dir });
      expect(lint.code).toBe(0);
      expect(lint.stdout).toContain('marked.json\n  2:4 ');
      writeFileSync(join(dir, 'prompt-contract.config.json'), `\uFEFF${JSON.stringify({ prompts: 'prompts', tools: 'plain.json' })}`);
      const config = await loadConfig({ cwd: dir });
      expect(config.prompts).toBe(join(dir, 'prompts'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('YAML: a block scalar keeps LF line ends and the lines of nodes are the same', () => {
    const text = 'a:\n  b: |\n    one\n    two\nc: 3\n';
    const lf = parseYaml(text, 'x.yaml');
    const crlf = parseYaml(text.replace(/\n/g, '\r\n'), 'x.yaml');
    expect(crlf.value).toEqual({ a: { b: 'one\ntwo\n' }, c: 3 });
    expect(crlf.value).toEqual(lf.value);
    expect(crlf.root?.children?.get('c')?.keyStart).toBe(lf.root?.children?.get('c')?.keyStart);
  });

  test('a diff whose only difference is line ends shows each carriage return', () => {
    const diff = lineDiff('one\r\ntwo\r\nthree\r\n', 'one\ntwo\nthree\n', 'x.txt');
    expect(diff).toContain('(only line ends differ');
    expect(diff).toMatch(/^-one\\r$/m);
    expect(diff).toMatch(/^\+one$/m);
    // A real change keeps the plain diff, without the note.
    const plain = lineDiff('one\ntwo\n', 'one\n2\n', 'x.txt');
    expect(plain).not.toContain('line ends');
    expect(plain).toMatch(/^-two$/m);
  });
});
