/**
 * The tool-poisoning lint: every description a model is sent with a tool (the tool's own and
 * each parameter's) is read for signs that it speaks to the model behind the user's back
 * (docs/rules/tools.md). Each sign is a rule of its own; a finding quotes the sentence and
 * points at the line of the description where it is written.
 *
 * The signs are narrow on purpose: real descriptions say "use `x` first", name files and
 * URLs, and mention the user all the time. Each sign needs an instruction and its object in
 * one sentence (a read verb and a secret, a send verb and a written destination), and the
 * plain pointer to another tool is left alone. test/tools/poison-corpus.test.ts counts the
 * false alarms over every real tool description in the test fixtures.
 */
import type { Diagnostic, Place } from '../report/diagnostic.js';
import { report } from '../report/rule.js';
import { toolPlace } from '../tools/places.js';
import { parameterDescriptions } from '../tools/text-places.js';
import type { LineColumn, ToolSpec } from '../tools/types.js';
import { LineIndex } from '../util/lines.js';
import { toolsRules } from './tool-poisoning.rules.js';

type RuleKey = keyof typeof toolsRules;

interface Sign {
  rule: RuleKey;
  /** Offset of the sign in the description. */
  offset: number;
  /** What was found, in words, for the message. */
  what: string;
  /** The sentence that shows it. */
  quote?: string;
  /** What invisible tag characters spell. */
  spells?: string;
}

/** One description: the tool's (`key` ''), or a parameter's (`key` its schema pointer). */
interface Text {
  key: string;
  subject: string;
  text: string;
}

/** Every finding of the lint over `tools`. */
export function checkToolPoisoning(tools: readonly ToolSpec[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const tool of tools) {
    const others = tools.filter((t) => t.name !== tool.name).map((t) => t.name);
    for (const { key, subject, text } of textsOf(tool)) {
      const signs = poisonSigns(text, { self: tool.name, others });
      if (signs.length === 0) continue;
      const lines = new LineIndex(text);
      for (const sign of signs) {
        const at = lines.at(sign.offset);
        const where = `${subject}${text.includes('\n') ? ` (line ${at.line} of it)` : ''}`;
        const quote = sign.spells !== undefined ? `, which spell "${sign.spells}"` : sign.quote === undefined ? '' : `: "${sign.quote}"`;
        out.push(report(toolsRules[sign.rule], { message: `Unexpected ${sign.what} in ${where}${quote}; expected a description of what the tool does and takes`, tool: tool.name, ...(key === '' ? {} : { instancePath: key }), ...textPlace(tool, key, at) }));
      }
    }
  }
  return out;
}

function textsOf(tool: ToolSpec): Text[] {
  const out: Text[] = [];
  if (typeof tool.description === 'string') out.push({ key: '', subject: `the description of \`${tool.name}\``, text: tool.description });
  for (const p of parameterDescriptions(tool.inputSchema)) out.push({ key: p.pointer, subject: `the description of parameter \`${p.name}\` of \`${tool.name}\``, text: p.text });
  return out;
}

/** The place of a line and column of a description: its own line when known, else where the description (or the tool) is written. */
function textPlace(tool: ToolSpec, key: string, at: { line: number; column: number }): Place | Record<string, never> {
  const places = tool.origin.texts?.get(key);
  if (places === undefined) return toolPlace(tool);
  const line: LineColumn | undefined = places.lines?.get(at.line - 1);
  if (line === undefined) return { file: places.file, line: places.at[0], column: places.at[1] };
  return { file: places.file, line: line[0], column: Math.max(1, line[1] + at.column - 1) };
}

// ---------------------------------------------------------------------------------------
// Invisible characters.

/** A subdivision flag (🏴 + tag letters + cancel tag), the one ordinary use of tag characters. */
const FLAG = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{2,6}\u{E007F}/gu;
const TAGS = /[\u{E0000}-\u{E007F}]+/gu;
const BIDI = /[\u202A-\u202E\u2066-\u2069]/gu;
/** Zero-width characters with no ordinary use inside a description (a joiner is judged by its neighbours). */
const ZERO_WIDTH = /[\u200B\u2060-\u2064\uFEFF\u180E]|(?<![\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}\uFE0F])\u200D|\u200D(?![\p{Extended_Pictographic}])|(?<!\p{L})\u200C|\u200C(?!\p{L})/gu;

const hex = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

function invisibleSigns(text: string): Sign[] {
  const out: Sign[] = [];
  const blanked = text.replace(FLAG, (flag) => ' '.repeat(flag.length));
  const tags = [...blanked.matchAll(TAGS)];
  if (tags.length > 0) {
    const chars = tags.flatMap((m) => [...m[0]]);
    // Tag characters U+E0020-E007E mirror printable ASCII: show what they spell.
    const spelled = chars.map((c) => c.codePointAt(0)! - 0xe0000).filter((n) => n >= 0x20 && n <= 0x7e).map((n) => String.fromCharCode(n)).join('');
    out.push({ rule: 'invisible-unicode', offset: tags[0]!.index, what: `${chars.length} invisible Unicode tag character${chars.length === 1 ? '' : 's'} (U+E0000-E007F)`, ...(spelled === '' ? {} : { spells: clip(spelled) }) });
  }
  for (const [pattern, kind] of [[BIDI, 'bidirectional control'], [ZERO_WIDTH, 'zero-width character']] as const) {
    const hits = [...blanked.matchAll(pattern)];
    if (hits.length === 0) continue;
    const codes = [...new Set(hits.map((m) => hex(m[0])))];
    out.push({ rule: 'invisible-unicode', offset: hits[0]!.index, what: `${hits.length} invisible ${kind}${hits.length === 1 ? '' : 's'} (${codes.join(', ')})` });
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Instructions, read sentence by sentence.

interface Sentence {
  text: string;
  offset: number;
}

/** The sentences of a description: split at line breaks and at `.`, `!`, `?` or `;` before a space (URLs and file names keep their dots). */
function sentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const end = /[.!?;:](?=\s)|\n/g;
  let start = 0;
  for (let m = end.exec(text); ; m = end.exec(text)) {
    const stop = m === null ? text.length : m.index + m[0].length;
    const part = text.slice(start, stop);
    if (part.trim() !== '') out.push({ text: part, offset: start });
    if (m === null) break;
    start = stop;
  }
  return out;
}

const clip = (text: string): string => {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 140 ? `${one.slice(0, 137)}...` : one;
};

const USER = String.raw`(?:the\s+|your\s+|any\s+)?(?:user|human|customer|operator)s?\b`;
const CONCEAL: RegExp[] = [
  // "Do not mention this to the user", "never tell the user", "don't reveal ... to the user".
  new RegExp(String.raw`\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|shouldn'?t|without)\s+(?:ever\s+)?(?:tell(?:ing)?|mention(?:ing)?|inform(?:ing)?|notify(?:ing)?|alert(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|show(?:ing)?|explain(?:ing)?|let(?:ting)?)\b[^.!?\n]{0,60}?\b${USER}`, 'i'),
  // "hide this from the user", "keep it from the user".
  new RegExp(String.raw`\b(?:hide|hiding|conceal(?:ing)?|keep(?:ing)?|withhold(?:ing)?)\b[^.!?\n]{0,60}?\bfrom\s+${USER}`, 'i'),
  // "the user must not know / see".
  new RegExp(String.raw`\b${USER}\s+(?:must|should|need|needs|is|are)\s*(?:not|never|n't)\s+(?:to\s+)?(?:know|see|notice|learn|find\s+out|be\s+(?:told|informed|aware))\b`, 'i'),
  // "keep these instructions secret", "this is confidential between us".
  /\b(?:keep|treat)\s+(?:this|these|it|the\s+following)(?:\s+(?:instructions?|step|steps|note|part))?\s+(?:secret|hidden|confidential|private)\b/i,
];

/** Files and stores of secrets, by name or path. */
const SECRET_FILE = /(?:~|\$HOME|%USERPROFILE%)[\\/]\.ssh\b|(?:^|[\s'"`(/\\])\.ssh[\\/]|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|(?:^|[\s'"`(/\\])\.env(?:\.\w+)?(?![\w-])|\.aws[\\/]credentials|(?:^|[\s'"`(/\\])\.(?:npmrc|netrc|pgpass|git-credentials|pypirc)\b|\/etc\/(?:passwd|shadow)\b|\.kube[\\/]config|\.docker[\\/]config\.json|\.gnupg\b|\bmcp\.json\b|\bwallet\.dat\b|\bclaude_desktop_config\.json\b/i;
const READ_VERB = /\b(?:read|reads|reading|cat|open|load|access|include|append|attach|copy|pass|send|provide|extract|print|dump|upload|get|fetch|grab|collect|contents?)\b/i;
/** Secrets by kind, as the object of a verb that takes or hands them on. */
const SECRET_TAKEN = /\b(?:read|extract|collect|gather|dump|print|include|append|attach|copy|pass|send|leak|steal|harvest|exfiltrate|forward|upload|list)\b[^.!?\n]{0,50}?\b(?:(?:the\s+)?user'?s\s+|all\s+|any\s+|every\s+)(?:api[\s_-]?keys?|secret\s+keys?|private\s+keys?|access\s+tokens?|auth(?:entication)?\s+tokens?|passwords?|credentials|secrets|environment\s+variables|env\s+vars|session\s+(?:cookies|tokens)|ssh\s+keys?)\b/i;

/** A written destination: a URL or an email address, not one of the reserved example names. */
const DESTINATION = /\bhttps?:\/\/[^\s"'`<>)\]]+|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b|\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/gi;
const RESERVED_HOST = /(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost)$|^(?:127\.|0\.0\.0\.0|10\.|192\.168\.)/i;
const SEND_VERB = /\b(?:send|sends|sent|sending|post|posts|posted|posting|upload|uploads|uploaded|forward|forwards|forwarded|transmit|transmits|transmitted|submit|submits|copy|copies|cc|bcc|redirect|redirected|route|routes|routed|report|leak|exfiltrate|deliver|delivered)\b/i;
const EXFILTRATE = /\bexfiltrat\w*/i;

function hostOf(destination: string): string {
  const at = destination.lastIndexOf('@');
  if (!destination.includes('://') && at > 0) return destination.slice(at + 1);
  try {
    return new URL(destination).hostname;
  } catch {
    return destination.replace(/:\d+$/, '');
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The signs in one description. `self` is the tool's own name, `others` those of the tools sent beside it. */
export function poisonSigns(text: string, tools: { self: string; others: readonly string[] }): Sign[] {
  const out = invisibleSigns(text);
  // What a reader sees: the instructions are read without the invisible characters between their letters.
  const visible = text.replace(/[\u{E0000}-\u{E007F}\u200B-\u200D\u2060-\u2064\uFEFF\u202A-\u202E\u2066-\u2069]/gu, (c) => ' '.repeat(c.length));
  const found = new Set<RuleKey>();
  const add = (sign: Sign): void => {
    // One finding of a kind per description: the first sentence shows it.
    if (found.has(sign.rule)) return;
    found.add(sign.rule);
    out.push(sign);
  };
  const mention = mentionOf(tools.others);
  for (const s of sentences(visible)) {
    const quote = clip(s.text);
    if (CONCEAL.some((p) => p.test(s.text))) add({ rule: 'conceal-from-user', offset: s.offset, what: 'instruction to keep something from the user', quote });
    if ((SECRET_FILE.test(s.text) && READ_VERB.test(s.text)) || SECRET_TAKEN.test(s.text)) add({ rule: 'reads-secrets', offset: s.offset, what: 'instruction to read or pass on secrets', quote });
    const destinations = [...s.text.matchAll(DESTINATION)].map((m) => m[0]).filter((d) => !RESERVED_HOST.test(hostOf(d)));
    if (EXFILTRATE.test(s.text) || (destinations.length > 0 && SEND_VERB.test(s.text))) add({ rule: 'sends-data', offset: s.offset, what: `instruction to send data${destinations.length > 0 ? ` to ${destinations.map((d) => `\`${d}\``).join(', ')}` : ' out'}`, quote });
    const steer = steering(s.text, mention);
    if (steer !== undefined) add({ rule: 'steers-other-tool', offset: s.offset, what: steer, quote });
  }
  return out;
}

/** The pattern of a mention of any of `others`, made once per tool set (every description of a tool asks for the same). */
const mentions = new Map<string, RegExp | undefined>();
function mentionOf(others: readonly string[]): RegExp | undefined {
  const names = others.filter((n) => n.length >= 3);
  const key = names.join('\u0000');
  if (mentions.has(key)) return mentions.get(key);
  const made = names.length === 0 ? undefined : new RegExp(`(?<![\\w-])\`?(?:${names.map(escape).join('|')})\`?(?![\\w-])`, 'i');
  if (mentions.size > 256) mentions.clear();
  mentions.set(key, made);
  return made;
}

/**
 * A sentence that commands how another tool is used. Only commands count: "use `x` first to
 * find the id" is how real tools point at each other, and is left alone.
 */
function steering(sentence: string, mention: RegExp | undefined): string | undefined {
  // Tool shadowing: "When this tool is available, the `send_email` tool must ...".
  if (/\b(?:when(?:ever)?|while|if|once)\s+this\s+tool\s+is\s+(?:available|present|loaded|installed|enabled|connected)\b/i.test(sentence)) return 'instruction that changes other tools "when this tool is available"';
  const other = mention?.exec(sentence);
  if (!other) return undefined;
  const name = other[0].replace(/`/g, '');
  const verb = String.raw`(?:call|use|invoke|run|execute|trigger)`;
  const commands: Array<[RegExp, string]> = [
    [new RegExp(String.raw`\b(?:instead\s+of|rather\s+than|in\s+place\s+of)\b`, 'i'), `instruction to use this tool in place of \`${name}\``],
    [new RegExp(String.raw`\b(?:never|do\s+not|don'?t|must\s+not|should\s+not|stop)\s+(?:\w+\s+)?${verb}`, 'i'), `instruction never to use \`${name}\``],
    [new RegExp(String.raw`\b(?:must|always|first\s+always|always\s+first)\s+(?:\w+\s+)?${verb}\b|\b${verb}\b[^.!?\n]{0,60}\b(?:every\s+time|each\s+time|whenever|before\s+(?:any|every|responding|answering))\b`, 'i'), `instruction to always call \`${name}\``],
  ];
  for (const [pattern, what] of commands) if (pattern.test(sentence)) return what;
  return undefined;
}
