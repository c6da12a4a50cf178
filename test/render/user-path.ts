/**
 * A dotprompt template rendered the way users render it: written into a prompts folder (the
 * template as `p.prompt`, each partial as `_name.prompt`, each named schema as
 * `schemas/Name.json`, the data as the case `c` in `cases/p.yaml`), read by
 * `loadPromptModule` and rendered by `renderCase`, as `check` and the suites do.
 */
import { dump, load } from 'js-yaml';
import { toMessages } from '../../src/render/dotprompt.js';
import type { Message } from '../../src/render/messages.js';
import { loadPromptModule, type PromptModule } from '../../src/render/module.js';
import { renderCase, type RenderedCase } from '../../src/render/render.js';
import type { ToolSpec } from '../../src/tools/types.js';
import { scratch } from './helpers.js';

export interface UserPathInput {
  /** The whole `.prompt` source, frontmatter included. */
  template: string;
  partials?: Record<string, string>;
  schemas?: Record<string, unknown>;
  input?: Record<string, unknown>;
  /** dotprompt's `data.context`: `state` and `auth` go to the case's own keys, the rest to `context`. */
  context?: Record<string, unknown>;
  /** dotprompt's `data.messages`: the case's `history`. */
  messages?: unknown[];
}

/** The frontmatter's tool names, each as a tool with an empty object schema (only the messages are compared). */
function registryFor(template: string): Map<string, ToolSpec> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(template);
  const registry = new Map<string, ToolSpec>();
  if (!match) return registry;
  let fm: unknown;
  try {
    fm = load(match[1]!);
  } catch {
    return registry;
  }
  const tools = (fm as { tools?: unknown } | null)?.tools;
  if (Array.isArray(tools)) for (const name of tools) if (typeof name === 'string') registry.set(name, { name, inputSchema: { type: 'object' }, origin: { file: 'tools' } } as unknown as ToolSpec);
  return registry;
}

/** The case `c` of prompt `p`, rendered, and the module it was read from. */
export function renderThroughCase(spec: UserPathInput): RenderedCase & { module: PromptModule } {
  const files: Record<string, string> = { 'prompts/p.prompt': spec.template };
  for (const [name, text] of Object.entries(spec.partials ?? {})) files[`prompts/_${name}.prompt`] = text;
  for (const [name, schema] of Object.entries(spec.schemas ?? {})) files[`prompts/schemas/${name}.json`] = JSON.stringify(schema);
  const testCase: Record<string, unknown> = { input: spec.input ?? {} };
  const { state, auth, ...rest } = spec.context ?? {};
  if (state !== undefined) testCase.state = state;
  if (auth !== undefined) testCase.auth = auth;
  if (Object.keys(rest).length > 0) testCase.context = rest;
  if (spec.messages !== undefined) testCase.history = spec.messages;
  files['prompts/cases/p.yaml'] = dump({ prompt: 'p', cases: { c: testCase } });
  const root = scratch(files);
  const module = loadPromptModule('prompts', root);
  return { ...renderCase(module, 'p', 'c', registryFor(spec.template)), module };
}

/**
 * The messages a rendered case sends: its `messages` when the template makes them (roles,
 * history), else its text as the one user message dotprompt makes of a text without markers.
 */
export function messagesOf(rendered: RenderedCase): Message[] {
  return rendered.messages ?? (toMessages(rendered.text) as Message[]);
}
