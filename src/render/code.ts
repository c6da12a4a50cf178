// A prompt that is a module: `prompts/<name>.prompt.ts` calls the production builder itself, so
// what is checked is what production sends, not a copy of it in a template. This module gives
// `definePrompt`, turns what a builder returns (a string, or a message list in any common
// shape) into the one kind of rendered case every check reads, and finds which text came from
// the case's inputs, examples and stubs so a finding points at the YAML a person edits.
import { dirname, resolve } from 'node:path';
import { InputError, errorMessage } from '../util/errors.js';
import { isRecord } from '../util/values.js';
import type { Message, Part, Role } from './messages.js';

/** A tool as a prompt module is given it: what is sent to the model. */
export interface SentTool {
  name: string;
  description?: string;
  /** The JSON Schema of the tool's input, as sent. */
  inputSchema: Record<string, unknown>;
}

/** What a prompt module's `render` is given beside the case's input. */
export interface PromptContext {
  /** The prompt's name (its file name less `.prompt.ts`) and the case's. */
  prompt: string;
  case: string;
  /** The items of the prompt's examples file, for production's own formatter to render. */
  examples: Array<Record<string, unknown>>;
  /** The retrieval-stub entries the case names (`retrieval:`), empty when it names none. */
  retrieved: Array<Record<string, unknown>>;
  /** The tools sent beside the prompt for this case. */
  tools: SentTool[];
}

/** What `render` returns: the prompt text, or the messages sent (a provider's shape, dotprompt's, the AI SDK's or LangChain's). */
export type PromptOutput = string | readonly unknown[];

/** Tools: names of the config's tools, or tool definitions in any shape the config accepts (Anthropic, OpenAI, MCP, AI SDK, zod). */
export type PromptTools = ReadonlyArray<string | object> | Record<string, object>;

export interface PromptModuleOptions<Input> {
  /** The tools sent with this prompt; a function is called once per case (an agent's own list). Default: every tool of the config. */
  tools?: PromptTools | ((context: { prompt: string; case: string; input: Input }) => PromptTools | Promise<PromptTools>);
  /** An examples file (`examples:` list), relative to this module: given as `context.examples`. */
  examples?: string;
  /** A retrieval-stubs file (`stubs:` mapping of key -> entries), relative to this module: the case's `retrieval` key picks `context.retrieved`. */
  retrieval?: string;
  /** Builds what production sends for `input`. */
  render(input: Input, context: PromptContext): PromptOutput | Promise<PromptOutput>;
}

const BRAND = Symbol.for('prompt-contract.prompt-module');

/** A prompt module's definition, as `definePrompt` returns it. */
export type CodePrompt<Input = Record<string, unknown>> = PromptModuleOptions<Input> & { readonly [BRAND]: true };

/**
 * Declares a prompt built by code: the default export of `prompts/<name>.prompt.ts` (`.mts`,
 * `.mjs`, `.js`). Its cases, examples and stubs are YAML, as for a `.prompt` file; `render`
 * calls the production builder with them.
 */
export function definePrompt<Input = Record<string, unknown>>(options: PromptModuleOptions<Input>): CodePrompt<Input> {
  if (!isRecord(options) || typeof options.render !== 'function') throw new TypeError('definePrompt expects an object with a `render(input, context)` function');
  return Object.assign(Object.create(null) as object, options, { [BRAND]: true as const }) as CodePrompt<Input>;
}

/** The names a prompt module's file may have, and the prompt name each gives. */
export const CODE_PROMPT_FILE = /\.prompt\.(?:ts|mts|cts|js|mjs|cjs)$/;

export function codePromptName(base: string): string {
  return base.replace(CODE_PROMPT_FILE, '');
}

/** The definition a prompt module exports, checked: an InputError at the file says what was expected. */
export function codePromptOf(exported: unknown, file: string): CodePrompt {
  let value = exported;
  // ESM default, CommonJS interop default, and jiti's double wrapping.
  for (let i = 0; i < 3 && isRecord(value) && 'default' in value && !(BRAND in value) && typeof (value as { render?: unknown }).render !== 'function'; i++) value = (value as { default: unknown }).default;
  if (isRecord(value) && typeof (value as { render?: unknown }).render === 'function') {
    const def = value as unknown as CodePrompt;
    for (const key of ['examples', 'retrieval'] as const) {
      if (def[key] !== undefined && typeof def[key] !== 'string') throw new InputError('config/invalid', `Unexpected \`${key}\` in the prompt module: expected the path of a YAML file, relative to the module`, { file, line: 1, column: 1 });
    }
    return def;
  }
  throw new InputError(
    'config/invalid',
    `Unexpected default export of the prompt module (${value === undefined ? 'none' : Array.isArray(value) ? 'a list' : typeof value}); expected \`export default definePrompt({ render(input, context) { ... } })\`, with definePrompt from prompt-contract`,
    { file, line: 1, column: 1 },
  );
}

/** A data file a prompt module names, as an absolute path. */
export function dataFileOf(moduleFile: string, relativePath: string): string {
  return resolve(dirname(moduleFile), relativePath);
}

const roleNames: Record<string, Role> = { system: 'system', developer: 'system', user: 'user', human: 'user', assistant: 'model', model: 'model', ai: 'model', tool: 'tool', function: 'tool' };

function roleOf(message: Record<string, unknown>): string | undefined {
  if (typeof message.role === 'string') return message.role;
  // LangChain's messages carry their type in a method (`getType`, formerly `_getType`).
  for (const method of ['getType', '_getType']) {
    const f = (message as Record<string, unknown>)[method];
    if (typeof f === 'function') {
      const got = (f as () => unknown).call(message);
      if (typeof got === 'string') return got;
    }
  }
  return typeof message.type === 'string' ? message.type : undefined;
}

/** `arguments` written as JSON text (OpenAI's), parsed; text that is not JSON is kept as it is, for the checks to report. */
function argumentsOf(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? {};
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** One content part in any of the common shapes, as dotprompt's part; undefined for a part that sends nothing checkable (an image). */
function partOf(raw: unknown): Part | undefined {
  if (typeof raw === 'string') return { text: raw };
  if (!isRecord(raw)) return undefined;
  if (typeof raw.text === 'string' && (raw.type === undefined || raw.type === 'text' || raw.type === 'input_text' || raw.type === 'output_text')) return { text: raw.text };
  if (isRecord(raw.toolRequest) && typeof raw.toolRequest.name === 'string') return { toolRequest: { name: raw.toolRequest.name, input: raw.toolRequest.input ?? {}, ...(typeof raw.toolRequest.ref === 'string' ? { ref: raw.toolRequest.ref } : {}) } };
  if (isRecord(raw.toolResponse) && typeof raw.toolResponse.name === 'string') return { toolResponse: { name: raw.toolResponse.name, output: raw.toolResponse.output ?? null, ...(typeof raw.toolResponse.ref === 'string' ? { ref: raw.toolResponse.ref } : {}) } };
  // Anthropic's blocks.
  if (raw.type === 'tool_use' && typeof raw.name === 'string') return { toolRequest: { name: raw.name, input: raw.input ?? {}, ...(typeof raw.id === 'string' ? { ref: raw.id } : {}) } };
  if (raw.type === 'tool_result') return { toolResponse: { name: typeof raw.name === 'string' ? raw.name : '', output: raw.content ?? null, ...(typeof raw.tool_use_id === 'string' ? { ref: raw.tool_use_id } : {}) } };
  // The AI SDK's parts.
  if (raw.type === 'tool-call' && typeof raw.toolName === 'string') return { toolRequest: { name: raw.toolName, input: argumentsOf(raw.input ?? raw.args), ...(typeof raw.toolCallId === 'string' ? { ref: raw.toolCallId } : {}) } };
  if (raw.type === 'tool-result' && typeof raw.toolName === 'string') return { toolResponse: { name: raw.toolName, output: raw.output ?? raw.result ?? null, ...(typeof raw.toolCallId === 'string' ? { ref: raw.toolCallId } : {}) } };
  // Gemini's.
  if (isRecord(raw.functionCall) && typeof raw.functionCall.name === 'string') return { toolRequest: { name: raw.functionCall.name, input: raw.functionCall.args ?? {} } };
  if (isRecord(raw.functionResponse) && typeof raw.functionResponse.name === 'string') return { toolResponse: { name: raw.functionResponse.name, output: raw.functionResponse.response ?? null } };
  if (isRecord(raw.media) && typeof raw.media.url === 'string') return { media: { url: raw.media.url } };
  return undefined;
}

/**
 * A message list in any common shape as dotprompt's messages: `{role, content}` with text or
 * parts (dotprompt, Anthropic, the AI SDK), OpenAI's `tool_calls` and `tool` messages,
 * Gemini's `parts`, LangChain's message objects (`getType()`, `tool_calls`). An InputError
 * at the module names the first message it cannot read.
 */
export function messagesOf(list: readonly unknown[], file: string): Message[] {
  return list.map((raw, i) => {
    const where = `message ${i + 1} of what \`render\` returned`;
    if (!isRecord(raw)) throw new InputError('render/invalid-output', `Unexpected ${where}: ${raw === null ? 'null' : typeof raw}; expected a message object with a role and content`, { file, line: 1, column: 1 });
    const name = roleOf(raw);
    const role = name === undefined ? undefined : roleNames[name];
    if (role === undefined) {
      throw new InputError('render/invalid-output', `Unexpected role ${JSON.stringify(name ?? null)} in ${where}; expected one of system, user, assistant (model, ai), tool`, { file, line: 1, column: 1 });
    }
    const content = raw.content ?? raw.parts;
    const parts: Part[] = [];
    if (typeof content === 'string') parts.push({ text: content });
    else if (Array.isArray(content)) {
      for (const p of content) {
        const part = partOf(p);
        if (part !== undefined) parts.push(part);
      }
    }
    // OpenAI's assistant tool calls, and LangChain's.
    const calls = raw.tool_calls;
    if (Array.isArray(calls)) {
      for (const call of calls) {
        if (!isRecord(call)) continue;
        const fn = isRecord(call.function) ? call.function : undefined;
        const callName = fn && typeof fn.name === 'string' ? fn.name : typeof call.name === 'string' ? call.name : undefined;
        if (callName === undefined) continue;
        parts.push({ toolRequest: { name: callName, input: argumentsOf(fn ? fn.arguments : call.args), ...(typeof call.id === 'string' ? { ref: call.id } : {}) } });
      }
    }
    // OpenAI's and LangChain's tool results answer a call by id.
    if (role === 'tool' && typeof raw.tool_call_id === 'string' && parts.every((p) => 'text' in p)) {
      const output = parts.map((p) => ('text' in p ? p.text : '')).join('');
      return { role, content: [{ toolResponse: { name: typeof raw.name === 'string' ? raw.name : '', output, ref: raw.tool_call_id } }] };
    }
    return { role, content: parts };
  });
}

/** The text of a message list as the checks read it: each message's text after a role line, as dotprompt writes roles. */
export function messagesText(messages: readonly Message[]): string {
  return messages.map((m) => `<<<dotprompt:role:${m.role}>>>\n${m.content.map((p) => ('text' in p ? p.text : '')).join('')}`).join('\n');
}

/** What `render` returned, checked: a string, or a list of messages. */
export function outputOf(value: unknown, file: string): { text: string; messages?: Message[] } {
  if (typeof value === 'string') return { text: value };
  if (Array.isArray(value)) {
    const messages = messagesOf(value, file);
    return { text: messagesText(messages), messages };
  }
  throw new InputError('render/invalid-output', `Unexpected ${value === null ? 'null' : typeof value} returned by \`render\`; expected the prompt text (a string) or a list of messages`, { file, line: 1, column: 1 });
}

/** What `render` threw, as the module's could-not-run error, at the module. */
export function renderFailed(error: unknown, file: string, caseName: string): InputError {
  if (error instanceof InputError) return error;
  return new InputError('render/code-failed', `The prompt module's \`render\` threw for case \`${caseName}\`: ${errorMessage(error)}; expected it to return the prompt for the case's input`, { file, line: 1, column: 1 }, { cause: error });
}
