/**
 * Calls of the prompt's tools written as code: `lookup_order(order_id="A-1")`,
 * `await tools.lookup_order({ orderId: 'A-1' })`, `default_api.lookup_order(...)`,
 * `result = lookup_order(...)`, `print(lookup_order(...))`; in Python (keyword arguments,
 * Python literals) or JS (object literals with bare keys, single quotes, trailing commas).
 *
 * Only a tool the prompt has counts: a parser's own `foo(x)` is code, not a call. A value that
 * is not a literal (a variable, an expression) does not make the call code: the call is read,
 * the key is left out of its arguments and listed in `unread`, and is not required when the call
 * is checked (`*` when unknown keys may be missing, after `**kwargs` or a spread).
 *
 * Two readings of where a call may stand:
 * - in code (`codeCallNotation`, run on code fences: `python`, `ts`, `tool_code`...), anywhere a
 *   call can be, except where the name is defined (`def x(`, `function x(`, `x(a: str) ->`) or
 *   commented out, or is a member of something other than `tools`, `default_api`, `functions`;
 * - in prose (`proseCodeCallNotation`), only as a statement: alone on its line, after
 *   `await`, `return`, an assignment or `print(`, ending its line (or with `;`), and only with
 *   literal arguments: a code agent's step in a transcript (`final_answer(image)`) passes
 *   values it computed, which is no example; the coverage scan reports it as not checked.
 */
import { defineNotation, prefiltered, type ParsedCall, type ParseResult } from '../notation.js';
import { type PythonCall, readCodeCall } from '../python.js';
import { pythonArguments, pythonKeywords } from './pythonic.js';
import { literalArguments } from './sdk-repr.js';
import type { ToolSpec } from '../../tools/types.js';

interface CodeCallMatch {
  start: number;
  end: number;
  where: string;
  name: string;
  call: PythonCall;
}

const qualifiers = new Set(['tools', 'default_api', 'functions']);
const trigger = /(?<![\w$.])(?:([A-Za-z_$][\w$]*)[ \t]*\.[ \t]*)?([A-Za-z_$][\w$]*)[ \t]*\(/g;
// In prose the name touches its bracket: `- search (to look things up)` is a sentence.
const proseTrigger = /(?<![\w$.])(?:([A-Za-z_$][\w$]*)[ \t]*\.[ \t]*)?([A-Za-z_$][\w$]*)\(/g;
// What before a name makes it a definition, not a call.
const definition = /(?:^|[^\w$])(?:def|function|class|fn|func|async function|interface|type)[ \t]+$/;
// In prose: what may come before a call that stands as a statement.
const statementHead = /^[ \t>*-]*(?:`{1,3})?[ \t]*(?:(?:const|let|var)[ \t]+)?(?:[A-Za-z_$][\w$]*(?:[ \t]*,[ \t]*[A-Za-z_$][\w$]*)*[ \t]*=[ \t]*)?(?:await[ \t]+|return[ \t]+|yield[ \t]+)?(?:print\([ \t]*)?$/;

/**
 * The arguments of a code call, as a pythonic call's are read (one object alone is the
 * arguments, else keywords by name and positional values in the schema's order), with what
 * is not a literal set apart as unread.
 */
function codeArguments(call: PythonCall, tool: ToolSpec | undefined): { value: Record<string, unknown>; unread: string[] } {
  const r = literalArguments(pythonArguments(call, tool));
  return { value: r.value as Record<string, unknown>, unread: r.unread };
}

function makeCodeCall(inCode: boolean) {
  return defineNotation<CodeCallMatch>({
    name: 'code-call',
    description: inCode ? 'a call of a known tool in code: `x = tool(a=1)`, `await tools.tool({ a: 1 })`' : 'a call of a known tool written as a statement in prose',
    // Every place is a call of a known tool: no tools or no bracket, no call (one quick pass instead of the trigger's scan).
    find: prefiltered((text, context) => context.tools.size > 0 && text.includes('('), function* (text, context) {
      const re = inCode ? trigger : proseTrigger;
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        // A tool may be named with a dot (`uber.ride`); otherwise the qualifier must say the name is a tool's.
        const dotted = m[1] !== undefined && context.tools.has(`${m[1]}.${m[2]}`);
        const qualifier = dotted ? undefined : m[1];
        const name = dotted ? `${m[1]}.${m[2]}` : m[2]!;
        // `client.lookup_order(` is something else's method.
        if (!context.tools.has(name) || (qualifier !== undefined && !qualifiers.has(qualifier))) continue;
        const lineStart = text.lastIndexOf('\n', m.index - 1) + 1;
        const before = text.slice(lineStart, m.index);
        if (definition.test(before) || /(?:^|[^:])\/\/|#/.test(before.replace(/(["'])(?:\\.|(?!\1).)*\1/g, ''))) continue;
        if (!inCode && !statementHead.test(before)) continue;
        // `if = tool(...)`: no statement assigns to a keyword.
        const target = /([A-Za-z_]\w*)[ \t]*=[ \t]*(?:await[ \t]+)?$/.exec(before);
        if (target && pythonKeywords.has(target[1]!)) continue;
        const at = dotted ? m.index : m.index + m[0].indexOf(name, qualifier === undefined ? 0 : qualifier.length);
        const r = readCodeCall(text, at);
        if (!r.ok) continue;
        const after = text.slice(r.end, r.end + 3);
        // `tool(a: str) -> str:`, `tool(x) {`: a signature.
        if (/^[ \t]*(?:->|:(?!=)|\{)/.test(after)) continue;
        if (!inCode) {
          const lineEnd = text.indexOf('\n', r.end);
          const rest = text.slice(r.end, lineEnd === -1 ? text.length : lineEnd);
          const printed = before.includes('print(');
          if (!new RegExp(`^${printed ? '[ \\t]*\\)' : ''}[ \\t]*;?[ \\t]*(?:\`{1,3})?[ \\t]*(?:(?:#|//).*)?\\r?$`).test(rest)) continue;
        }
        const start = qualifier === undefined ? at : m.index;
        yield { start, end: r.end, where: `\`${name}(...)\` call`, name, call: r.calls[0]! };
        re.lastIndex = r.end;
      }
    }),
    parse(match, context): ParseResult {
      const { value, unread } = codeArguments(match.call, context.tools.get(match.name));
      const partial = unread.length > 0 || match.call.spread === true;
      // In prose a call with a variable for an argument is a code agent's step, not an example to
      // copy (`final_answer(image)`): not taken, so the coverage scan says it is not checked.
      if (partial && !inCode) return undefined;
      const call: ParsedCall = { name: match.name, arguments: value };
      if (partial) call.unread = match.call.spread ? [...unread, '*'] : unread;
      return [call];
    },
  });
}

/** Known tools' calls in code fences. */
export const codeCallNotation = makeCodeCall(true);
/** Known tools' calls standing as statements in prose. */
export const proseCodeCallNotation = makeCodeCall(false);
