import { formatCondition, showPattern } from '../../schema/formats.js';
import { show } from '../../util/values.js';

/** "a date-time", from "must be a date-time (format `date-time`)". */
const formatNoun = (format: string): string => formatCondition(format).replace(/^must be /, '').replace(/ \(format .*$/, '');
import type { CompatRuleName } from './rules.js';
import type { Change } from './walk.js';

/** What a message needs besides the change itself. */
export interface MessageContext {
  tool: string;
  /** For `tool-renamed`: the name the tool has now. */
  renamedTo?: string;
  /** The policy file the run reads, as the advice names it (default: `prompt-contract.policy.yaml` beside the config). */
  policyFile?: string;
}

const policyIn = (x: MessageContext): string => x.policyFile ?? '`prompt-contract.policy.yaml` beside the config';

type Words = (c: Change, x: MessageContext) => string;

function kw(c: Change): string {
  return `\`${String(c.params.keyword)}\``;
}

function list(values: unknown[]): string {
  return values.map((v) => show(v)).join(', ');
}

function types(value: unknown): string {
  if (value === 'any') return 'any type';
  if (Array.isArray(value)) return value.length === 1 ? String(value[0]) : `[${value.join(', ')}]`;
  return typeof value === 'string' ? value : show(value);
}

interface BoundParam {
  value: number;
  exclusive: boolean;
}

function bound(c: Change, side: 'old' | 'new'): string {
  const b = c.params[side] as BoundParam | undefined;
  if (!b) return 'none';
  const other = c.params[side === 'old' ? 'new' : 'old'] as BoundParam | undefined;
  // Operators only where exclusivity differs: "from 100 to 50" reads better than "from <= 100 to <= 50".
  if (!other || other.exclusive === b.exclusive) return String(b.value);
  const max = c.params.dir === 'max';
  return `${max ? '<' : '>'}${b.exclusive ? '' : '='} ${b.value}`;
}

function rejectedNumbers(c: Change): string {
  const b = c.params.new as BoundParam;
  const max = c.params.dir === 'max';
  return `calls ${max ? 'above' : 'below'}${b.exclusive ? ' or equal to' : ''} ${b.value} that were valid are now rejected`;
}

const tightened = (verb: string): Words => (c) => `${kw(c)} ${verb} from ${bound(c, 'old')} to ${bound(c, 'new')}; ${rejectedNumbers(c)}`;
const added: Words = (c) => `${kw(c)} ${String(c.actual)} added where there was no bound; ${rejectedNumbers(c)}`;

const nouns = { length: ['strings', 'characters'], items: ['arrays', 'items'], properties: ['objects', 'properties'] } as const;

function unitOf(c: Change): readonly [string, string] {
  return nouns[c.params.unit as keyof typeof nouns];
}

const minRaised: Words = (c) => { const [what, of] = unitOf(c); return `${kw(c)} increased from ${String(c.expected)} to ${String(c.actual)}; ${what} with fewer than ${String(c.actual)} ${of} that were valid are now rejected`; };
const minAdded: Words = (c) => { const [what, of] = unitOf(c); return `${kw(c)} ${String(c.actual)} added; ${what} with fewer than ${String(c.actual)} ${of} that were valid are now rejected`; };
const maxLowered: Words = (c) => { const [what, of] = unitOf(c); return `${kw(c)} decreased from ${String(c.expected)} to ${String(c.actual)}; ${what} with more than ${String(c.actual)} ${of} that were valid are now rejected`; };
const maxAdded: Words = (c) => { const [what, of] = unitOf(c); return `${kw(c)} ${String(c.actual)} added; ${what} with more than ${String(c.actual)} ${of} that were valid are now rejected`; };

/** One sentence per rule, after "`tool` `/path`: ". Data stays in the Change; wording lives only here. */
const words: Record<Exclude<CompatRuleName, 'tool-removed' | 'tool-renamed' | 'unused-ignore'>, Words> = {
  'type-narrowed': (c) => c.actual === false
    ? `the schema is now \`false\`; every value of ${types(c.expected)} that was valid is now rejected`
    : `\`type\` narrowed from ${types(c.expected)} to ${types(c.actual)}; values of ${types(c.params.lost)} that were valid are now rejected`,
  'enum-narrowed': (c) => `\`enum\` narrowed: ${list(c.params.removed as unknown[])} removed; calls sending ${(c.params.removed as unknown[]).length === 1 ? 'it' : 'them'} are now rejected`,
  'enum-added': (c) => `\`enum\` ${show(c.actual, 60)} added where ${types(c.expected)} was accepted; other values that were valid are now rejected`,
  'const-added': (c) => `\`const\` ${show(c.actual)} added where ${types(c.expected)} was accepted; every other value is now rejected`,
  'const-changed': (c) => `\`const\` ${show(c.actual)} no longer accepts ${list(c.params.removed as unknown[])}; calls sending the old value are now rejected`,
  'maximum-decreased': tightened('decreased'),
  'maximum-added': added,
  'exclusive-maximum-decreased': tightened('decreased'),
  'exclusive-maximum-added': added,
  'minimum-increased': tightened('increased'),
  'minimum-added': added,
  'exclusive-minimum-increased': tightened('increased'),
  'exclusive-minimum-added': added,
  'multiple-of-added': (c) => `\`multipleOf\` ${String(c.actual)} added; numbers that are not multiples of ${String(c.actual)} that were valid are now rejected`,
  'multiple-of-changed': (c) => `\`multipleOf\` changed from ${String(c.expected)} to ${String(c.actual)}, which does not divide it; multiples of ${String(c.expected)} that are not multiples of ${String(c.actual)} are now rejected`,
  'min-length-increased': minRaised,
  'min-length-added': minAdded,
  'max-length-decreased': maxLowered,
  'max-length-added': maxAdded,
  'min-items-increased': minRaised,
  'min-items-added': minAdded,
  'max-items-decreased': maxLowered,
  'max-items-added': maxAdded,
  'min-properties-increased': minRaised,
  'min-properties-added': minAdded,
  'max-properties-decreased': maxLowered,
  'max-properties-added': maxAdded,
  'pattern-added': (c) => typeof c.params.format === 'string'
    ? `\`pattern\` of format \`${c.params.format}\` added; strings that were valid and are not ${formatNoun(c.params.format)} are now rejected`
    : `\`pattern\` ${showPattern(String(c.actual))} added; strings that do not match it and were valid are now rejected`,
  'pattern-changed': (c) => `\`pattern\` changed from ${showPattern(String(c.expected))} to ${typeof c.params.format === 'string' ? `the pattern of format \`${c.params.format}\`` : showPattern(String(c.actual))}; strings that match only the old pattern are now rejected`,
  'format-added': (c) => `\`format\` ${show(c.actual)} added; validators that assert formats now reject strings that are not a valid ${String(c.actual)}`,
  'format-changed': (c) => `\`format\` changed from ${show(c.expected)} to ${show(c.actual)}; validators that assert formats now reject strings that are not a valid ${String(c.actual)}`,
  'unique-items-added': () => '`uniqueItems` switched on; arrays with repeated items that were valid are now rejected',
  'items-closed': () => 'array positions that were accepted are now forbidden; longer arrays that were valid are now rejected',
  'required-added': (c) =>
    /\/(?:anyOf|oneOf)\/\d+\//.test(c.schemaPath)
      ? // In a union, the closest branch: a call without it may still find another branch, but no branch takes every old call.
        `\`${String(c.params.name)}\` is now required in the union branch closest to the old schema, and no branch accepts every call the old schema did; calls that leave it out are rejected unless another branch takes them`
      : `\`${String(c.params.name)}\` is now required; every call that leaves it out, including every call written before this change, is now rejected`,
  'property-removed': () => 'property removed from an object that rejects unknown properties; calls that send it are now rejected',
  'property-ignored': () => 'property removed from the schema; calls that send it still validate, but the handler no longer reads the value the model sends',
  'additional-properties-closed': (c) => {
    const declared = c.params.declared as string[];
    return `\`additionalProperties\` set to false; calls sending properties other than ${declared.length > 0 ? declared.map((d) => `\`${d}\``).join(', ') : 'none'} that were valid are now rejected`;
  },
  'variant-removed': (c) => `no branch of the new ${kw(c)} accepts values of ${types(c.expected)} that an old branch accepted; calls sending them are now rejected`,
  'constraint-added': (c) => `${kw(c)} added; values it rejects that were valid are now rejected`,
  'constraint-changed': (c) => `${kw(c)} changed from ${show(c.expected, 50)} to ${show(c.actual, 50)}; values the new one rejects may have been valid, review them`,
};

/** "`create_refund` `/amount_cents`" or "`create_refund` arguments". */
export function place(tool: string, instancePath: string): string {
  return `\`${tool}\` ${instancePath === '' ? 'arguments' : `\`${instancePath}\``}`;
}

export function describe(c: Change, x: MessageContext): string {
  if (c.rule === 'tool-removed') return `\`${x.tool}\`: tool removed; calls naming it, from prompt examples, replayed conversations or the model's habit, now fail`;
  if (c.rule === 'tool-renamed') return `\`${x.tool}\`: tool renamed to \`${String(x.renamedTo)}\` with the same schema; calls still naming \`${x.tool}\` now fail`;
  if (c.rule === 'unused-ignore') return String(c.params.message);
  return `${place(x.tool, c.instancePath)}: ${words[c.rule](c, x)}`;
}

const keepInHandler = (x: MessageContext): string =>
  `Keep the old constraint in the schema and reject the value in the handler with a clear error, so the call still reaches your code; tighten the schema only once recorded calls show no such values, and record the decision as an \`ignore\` entry with a reason in ${policyIn(x)}.`;

/** What to do instead, where it is known. */
export function fixFor(rule: CompatRuleName, x: MessageContext): string | undefined {
  switch (rule) {
    case 'required-added':
      return 'Ship it in two steps: add the property as optional with a default, confirm from recorded calls that the model sends it, then make it required.';
    case 'property-removed':
      return 'Keep the property in the schema (say it is deprecated in its description) until recorded calls show the model no longer sends it, or leave the object open.';
    case 'property-ignored':
      return 'Confirm the handler needs nothing from the value, and remove the property from prompt examples so the model stops sending it.';
    case 'tool-removed':
      return `Keep \`${x.tool}\` as a stub that returns a clear error or forwards to its replacement until recorded calls and persisted conversations stop naming it.`;
    case 'tool-renamed':
      return `Keep \`${x.tool}\` as an alias of \`${String(x.renamedTo)}\` until recorded calls and persisted conversations stop naming it.`;
    case 'additional-properties-closed':
      return 'Close the object only after recorded calls show the model sends no other properties, or list the ones it does send.';
    case 'variant-removed':
      return 'Keep the branch, or accept the value and reject it in the handler with a clear error.';
    case 'constraint-changed':
      return `Check the new keyword against recorded calls (\`--observed\`), then ignore the finding with a reason in ${policyIn(x)} if none is rejected.`;
    case 'unused-ignore':
      return `Remove the entry from ${policyIn(x)}.`;
    default:
      return keepInHandler(x);
  }
}
