// `module-vs-template`: the same prompt as a prompt module (`agent.prompt.mjs`, a template
// literal) and as a `.prompt` template, 1,000 cases each (quick: 200), checked in this process
// by the exported API (`loadProject` + `runCheck` without a cache: render, extraction,
// validation, snapshot comparison). Both render the same text for every case (checked) and give
// the same findings. The figure: CPU of the module project ÷ CPU of the template project.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compare, same, spread } from './common.js';
import { dataDir } from './data.js';

const caseYaml = (prompt, n) =>
  `prompt: ${prompt}\ncases:\n${Array.from({ length: n }, (_, i) => `  c${i}:\n    input:\n      user: User ${i}\n      items: [apples ${i}, pears, "order A-${String(1000 + (i % 9000)).padStart(4, '0')}"]\n`).join('')}`;

function project(name, files, n) {
  const dir = join(dataDir, 'projects', `module-vs-template-${name}-${n}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'prompts', 'cases'), { recursive: true });
  mkdirSync(join(dir, 'snapshots'), { recursive: true });
  writeFileSync(join(dir, 'prompt-contract.config.json'), JSON.stringify({ prompts: 'prompts', snapshots: 'snapshots', tools: [{ name: 'lookup_order', description: 'Look an order up.', input_schema: { type: 'object', properties: { order_id: { type: 'string', pattern: '^A-\\d{4}$' } }, required: ['order_id'] } }] }));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, 'prompts', file), text);
  writeFileSync(join(dir, 'prompts', 'cases', 'agent.yaml'), caseYaml('agent', n));
  return dir;
}

export async function moduleVsTemplate({ quick, root, result, log }) {
  const n = quick ? 200 : 1000;
  const call = '<tool_call>{"name": "lookup_order", "arguments": {"order_id": "A-1042"}}</tool_call>';
  const template = project('template', { 'agent.prompt': `---\ntools: [lookup_order]\n---\nYou help {{user}} with orders.\n\nTheir items:\n{{#each items}}\n- {{this}}\n{{/each}}\n\nExample:\n${call}\n` }, n);
  const module = project('module', {
    'agent.prompt.mjs': `export default {\n  tools: ['lookup_order'],\n  render: (input) => \`You help \${input.user} with orders.\\n\\nTheir items:\\n\${input.items.map((i) => \`- \${i}\\n\`).join('')}\\nExample:\\n${call.replaceAll('"', '\\"')}\`,\n};\n`,
  }, n);
  const { loadProject, runCheck, renderAnyCase } = await import(join(root, 'dist', 'index.js'));
  // Same text for every case: the two sides render the same prompt.
  const [pt, pm] = [await loadProject({ cwd: template }), await loadProject({ cwd: module })];
  for (const i of [0, Math.floor(n / 2), n - 1]) same(`case c${i} as rendered by both`, (await renderAnyCase(pm.module, 'agent', `c${i}`, pm.registry)).text, (await renderAnyCase(pt.module, 'agent', `c${i}`, pt.registry)).text);
  const run = (dir) => async () => {
    const p = await loadProject({ cwd: dir });
    return (await runCheck(p, { cache: false, workers: 1 })).filter((d) => d.ruleId !== 'example/coverage').map((d) => d.ruleId).sort().join(',');
  };
  const runs = quick ? 3 : 5;
  const c = await compare(run(template), run(module), runs);
  same('findings of the two projects', c.a.value.replaceAll('template', 'x'), c.b.value.replaceAll('module', 'x'));
  const ratio = c.b.cpu / c.a.cpu;
  log(`  module ${c.b.cpu.toFixed(0)} ms CPU, template ${c.a.cpu.toFixed(0)} ms CPU`);
  result(
    'module-vs-template',
    ratio,
    '<= 1.0 (a module prompt is not slower than the same prompt as a .prompt file)',
    ratio <= 1.0,
    `CPU of \`runCheck\` (no cache, one thread) on ${n} cases of a prompt module that renders with a template literal ÷ the same on the same prompt as a \`.prompt\` template, in this process through the exported API, medians of ${runs} alternating pairs after a warm-up (${spread(c.pairs.all)}); both render the same text for every case checked and give the same findings.`,
  );
}
