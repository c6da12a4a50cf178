/**
 * Tool calls and tool results in a rendered conversation (few-shot turns and history):
 * every result follows the turn that makes its call, names that call's id and tool, and
 * every call is answered before the conversation moves on. Providers reject a request that
 * breaks this, so a stale few-shot example fails the request, not just the model's output.
 */
import { exampleRules } from '../extract/rules.js';
import { isToolRequest, isToolResponse, type Message, type Part, type PartOrigin, type Role, type ToolRequestPart, type ToolResponsePart } from '../render/messages.js';
import type { Diagnostic, Place, Severity } from '../report/diagnostic.js';
import { report, type Finding } from '../report/rule.js';
import { isRecord } from '../util/values.js';

export type ConversationProvider = 'anthropic' | 'openai' | 'gemini';

export interface CheckConversationOptions {
  /** The provider the conversation is sent to; without one, every rule has its default severity. */
  provider?: ConversationProvider;
  /** Where each part was written (`fewShotTurns` fills such a map); without it, findings name the message index. */
  origins?: WeakMap<object, PartOrigin> | ((part: Part) => PartOrigin | undefined);
}

type RuleKey = 'orphan-result' | 'unknown-call-id' | 'result-name-mismatch' | 'missing-result' | 'duplicate-call-id';

/** Why a rule holds for one provider: the page or issue that shows it, and a weaker severity with its reason when the evidence is weaker. */
interface Evidence {
  source: string;
  severity?: Severity;
  /** Completes "..., for <provider>, which ..." in a finding's message when the severity is lowered. */
  note?: string;
}

const issue = (ref: string): string => {
  const [repo, number] = ref.split('#');
  return `https://github.com/${repo}/issues/${number}`;
};
const geminiTypes = 'https://github.com/googleapis/js-genai/blob/main/src/types.ts';
const geminiById = 'pairs a response with its call by name and takes the id as optional (the id is not sent); the API accepts it, but the example contradicts itself';

/** The evidence per rule and provider; docs/rules/example.md quotes each rejection. */
const evidence: Record<RuleKey | 'missing-result-unanswered' | 'duplicate-result', Record<ConversationProvider, Evidence>> = {
  'orphan-result': {
    anthropic: { source: issue('decocms/studio#1803') },
    openai: { source: issue('smarter-sh/smarter#264') },
    gemini: { source: issue('GoogleCloudPlatform/generative-ai#368') },
  },
  'unknown-call-id': {
    anthropic: { source: issue('anthropics/claude-code#13460') },
    openai: { source: issue('dapr/dapr-agents#145') },
    gemini: { source: geminiTypes, severity: 'warning', note: geminiById },
  },
  'result-name-mismatch': {
    anthropic: { source: issue('decocms/studio#1803'), severity: 'warning', note: "does not send a result's name, only its `tool_use_id`; the API accepts it, but one side of the example is stale" },
    openai: { source: issue('dapr/dapr-agents#145'), severity: 'warning', note: "does not send a result's name, only its `tool_call_id`; the API accepts it, but one side of the example is stale" },
    gemini: { source: geminiTypes },
  },
  // Gemini: a response turn with fewer responses than calls is rejected (the count error).
  'missing-result': {
    anthropic: { source: issue('anthropics/claude-code#1237') },
    openai: { source: issue('aliasrobotics/cai#111') },
    gemini: { source: issue('google-gemini/gemini-cli#4217') },
  },
  // Gemini: a call followed by no response turn at all; no public rejection shows that exact shape.
  'missing-result-unanswered': {
    anthropic: { source: issue('anthropics/claude-code#1237') },
    openai: { source: issue('aliasrobotics/cai#111') },
    gemini: { source: issue('microsoft/vscode#299295'), severity: 'warning', note: 'is not documented to reject a call followed by no response turn at all; the rejections on record quote a response turn with too few responses, so this is a warning' },
  },
  'duplicate-call-id': {
    anthropic: { source: issue('anthropics/claude-code#28515') },
    openai: { source: issue('agno-agi/agno#5116') },
    gemini: { source: geminiTypes, severity: 'warning', note: geminiById },
  },
  // One call answered twice: Gemini counts responses against calls.
  'duplicate-result': {
    anthropic: { source: issue('sipeed/picoclaw#1793') },
    openai: { source: issue('agno-agi/agno#5116') },
    gemini: { source: issue('google-gemini/gemini-cli#4217') },
  },
};

const providerNames: Record<ConversationProvider, string> = { anthropic: 'Anthropic', openai: 'OpenAI', gemini: 'Gemini' };

interface Call {
  part: ToolRequestPart;
  name: string;
  ref: string | undefined;
  message: number;
  answered: boolean;
  /** A result with a mistyped id meant this call: its finding says so, and the call is not also reported as unanswered. */
  claimed: boolean;
  /** The message that ended the turn's chance to be answered. */
  closedBy?: number;
}

interface Batch {
  message: number;
  calls: Call[];
  /** Whether a response turn answered any call: Gemini's count error needs one. */
  answeredSome: boolean;
}

const code = (text: string): string => `\`${text}\``;
const list = (items: readonly string[]): string => items.map(code).join(', ');

/** Pairs every tool result with a call of the turn before it and every call with a result. Never throws on bad content. */
export function checkConversation(messages: readonly Message[], options: CheckConversationOptions = {}): Diagnostic[] {
  const { provider, origins } = options;
  const out: Diagnostic[] = [];
  const originOf = (part: Part): PartOrigin | undefined => (origins === undefined ? undefined : typeof origins === 'function' ? origins(part) : origins.get(part));
  const at = (part: Part): Partial<Place> => {
    const o = originOf(part);
    if (o === undefined) return {};
    return o.column === undefined ? { file: o.file, line: o.line } : { file: o.file, line: o.line, column: o.column };
  };
  const calledHere = (call: Call): Pick<Finding, 'related'> => {
    const o = originOf(call.part);
    return o === undefined ? {} : { related: [{ file: o.file, line: o.line, ...(o.column === undefined ? {} : { column: o.column }), message: `\`${call.name}\` is called here (message ${call.message})` }] };
  };
  const push = (key: RuleKey, finding: Finding, evidenceKey: keyof typeof evidence = key) => {
    if (provider === undefined) {
      out.push(report(exampleRules[key], finding));
      return;
    }
    const e = evidence[evidenceKey][provider];
    const lowered = e.severity === undefined ? {} : { severity: e.severity };
    const message = e.note === undefined ? finding.message : `${finding.message} (for ${providerNames[provider]}, which ${e.note})`;
    out.push(report(exampleRules[key], { ...finding, ...lowered, message, provider, url: e.source }));
  };
  const roleAt = (i: number): Role | undefined => messages[i]?.role;

  let batch: Batch | undefined;
  /** Calls of turns already closed, latest last: an orphan result names the call it was meant for. */
  const closed: Call[] = [];

  const close = (next: number | undefined) => {
    if (batch === undefined) return;
    for (const call of batch.calls) {
      if (call.answered || call.claimed) continue;
      const id = call.ref === undefined ? '' : ` (call id ${code(call.ref)})`;
      const before = next === undefined ? 'before the end of the conversation' : `before message ${next} (${code(roleAt(next) ?? 'user')})`;
      push('missing-result', {
        ...at(call.part),
        tool: call.name,
        message: `Unexpected call of ${code(call.name)}${id} in message ${call.message} without a result, expected a \`tool\` turn answering it ${before}`,
        fix: `Add the result of ${code(call.name)}${id} to the \`tool\` turn right after message ${call.message}, or drop the call from the example`,
      }, batch.answeredSome ? 'missing-result' : 'missing-result-unanswered');
    }
    for (const call of batch.calls) if (next !== undefined) call.closedBy = next;
    closed.push(...batch.calls);
    batch = undefined;
  };

  const orphan = (response: ToolResponsePart, i: number, why: string) => {
    const { name } = response.toolResponse;
    push('orphan-result', {
      ...at(response),
      tool: name,
      message: `Unexpected result of ${code(name)} in message ${i}, expected it in a \`tool\` turn right after the \`model\` turn that calls ${code(name)}; ${why}`,
    });
  };

  const answer = (response: ToolResponsePart, i: number) => {
    const { name, ref } = response.toolResponse;
    if (batch === undefined) {
      const earlier = closed.findLast((c) => (ref !== undefined && c.ref === ref) || c.name === name);
      const why = earlier === undefined
        ? closed.length === 0 ? 'no turn before it calls a tool' : `no turn before it calls ${code(name)}`
        : earlier.answered ? `its call in message ${earlier.message} has its result already`
        : `its call in message ${earlier.message} is followed by message ${earlier.closedBy} (${code(roleAt(earlier.closedBy ?? -1) ?? 'user')}) first`;
      orphan(response, i, why);
      return;
    }
    const { calls } = batch;
    const pair = (call: Call) => {
      call.answered = true;
      batch!.answeredSome = true;
      if (call.name === name) return;
      push('result-name-mismatch', {
        ...at(response),
        ...calledHere(call),
        tool: call.name,
        expected: call.name,
        actual: name,
        message: `Unexpected tool ${code(name)} on the result in message ${i} that answers the call of ${code(call.name)}${call.ref === undefined ? '' : ` (call id ${code(call.ref)})`} in message ${call.message}, expected ${code(call.name)}`,
        fix: `Rename the result to ${code(call.name)}, or the call to ${code(name)}, whichever is stale`,
      });
    };
    if (ref !== undefined) {
      const same = calls.filter((c) => c.ref === ref);
      const open = same.find((c) => !c.answered);
      if (open !== undefined) {
        pair(open);
        return;
      }
      if (same.length > 0) {
        push('duplicate-call-id', {
          ...at(response),
          ...calledHere(same[0]!),
          tool: name,
          actual: ref,
          message: `Unexpected second result for call id ${code(ref)} (${code(same[0]!.name)}) in message ${i}, expected one result per call`,
          fix: `Drop the extra result, or give it the id of the call it answers`,
        }, 'duplicate-result');
        return;
      }
      const known = calls.flatMap((c) => (c.ref === undefined ? [] : [c.ref]));
      // The call this result was most likely meant for: the same tool, still unanswered.
      const meant = calls.find((c) => !c.answered && !c.claimed && c.name === name);
      if (meant !== undefined) meant.claimed = true;
      const elsewhere = closed.findLast((c) => c.ref === ref);
      const expected = meant?.ref ?? (known.length === 1 ? known[0] : known);
      push('unknown-call-id', {
        ...at(response),
        ...(meant === undefined ? {} : calledHere(meant)),
        tool: name,
        actual: ref,
        ...(expected === undefined ? {} : { expected }),
        message: `Unexpected call id ${code(ref)} on the result of ${code(name)} in message ${i}, expected ${known.length === 0 ? `the id of a call in message ${batch.message}, whose calls have none` : `the id of a call in message ${batch.message} (${list(known)})`}${
          meant?.ref === undefined ? '' : `; did you mean ${code(meant.ref)}?`}${elsewhere === undefined ? '' : `; ${code(ref)} is a call of message ${elsewhere.message}, and a result must follow its call's turn directly`}`,
        ...(meant?.ref === undefined ? {} : { fix: `Set the result's call id to ${code(meant.ref)}` }),
      });
      return;
    }
    // Without an id, the result answers the first open call of its tool, or else the first open call.
    const open = calls.find((c) => !c.answered && c.name === name) ?? calls.find((c) => !c.answered);
    if (open === undefined) {
      orphan(response, i, `every call of message ${batch.message} (${list(calls.map((c) => c.name))}) has its result already`);
      return;
    }
    pair(open);
    // Gemini pairs by name and takes the id as optional; Anthropic and OpenAI pair only by id.
    if (open.ref !== undefined && provider !== 'gemini') {
      push('unknown-call-id', {
        ...at(response),
        ...calledHere(open),
        tool: name,
        expected: open.ref,
        message: `Unexpected result of ${code(name)} without a call id in message ${i}, expected the id of the call it answers, ${code(open.ref)}`,
        fix: `Set the result's call id to ${code(open.ref)}`,
      });
    }
  };

  for (const [i, message] of messages.entries()) {
    if (!isRecord(message)) continue;
    const content = Array.isArray(message.content) ? message.content.filter(isRecord) : [];
    const responses = content.filter((p) => isToolResponse(p) && isRecord(p.toolResponse)) as ToolResponsePart[];
    const requests = content.filter((p) => isToolRequest(p) && isRecord(p.toolRequest)) as ToolRequestPart[];
    // Results answer the turn of calls before them; any other turn ends that turn's chance to be answered.
    if (message.role !== 'tool' && responses.length === 0) close(i);
    for (const response of responses) answer(response, i);
    if (requests.length === 0) continue;
    close(i);
    batch = { message: i, calls: [], answeredSome: false };
    const seen = new Map<string, Call>();
    for (const part of requests) {
      const { name, ref } = part.toolRequest;
      const call: Call = { part, name, ref, message: i, answered: false, claimed: false };
      const first = ref === undefined ? undefined : seen.get(ref);
      if (first !== undefined) {
        push('duplicate-call-id', {
          ...at(part),
          ...calledHere(first),
          tool: name,
          actual: ref,
          message: `Unexpected call id ${code(ref!)} on the call of ${code(name)} in message ${i}, already the id of the call of ${code(first.name)} in the same turn; expected each call of a turn to have its own id`,
          fix: `Give the call of ${code(name)} an id of its own`,
        });
      } else if (ref !== undefined) seen.set(ref, call);
      batch.calls.push(call);
    }
  }
  // A conversation that ends on its calls leaves them to the application; a partly answered turn is rejected as it stands.
  if (batch?.answeredSome === true) close(undefined);
  return out;
}
