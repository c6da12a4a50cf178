import { defineRules } from '../report/rule.js';

/**
 * Signs of tool poisoning (OWASP MCP Top 10, MCP03:2025): text in a tool's or a parameter's
 * description that speaks to the model behind the user's back. Every description is read,
 * from any source (JSON tools file, code, description mapping, MCP server).
 */
export const toolsRules = defineRules('tools', {
  'invisible-unicode': {
    severity: 'error',
    description: 'A description holds characters a reviewer cannot see but the model reads: Unicode tag characters, zero-width characters or bidirectional controls.',
    fix: 'Remove the invisible characters; if the tool comes from an MCP server, stop using it until its author explains them',
  },
  'conceal-from-user': {
    severity: 'error',
    description: 'A description tells the model to keep something from the user (not to mention, tell or show it), the mark of an instruction the user was not meant to see.',
    fix: 'Remove the instruction; a tool description says what the tool does, never what the user must not learn',
  },
  'reads-secrets': {
    severity: 'error',
    description: 'A description tells the model to read or pass on secrets: SSH keys, `.env` files, cloud credentials, API keys, passwords.',
    fix: 'Remove the instruction; a tool that needs a credential gets it from its own configuration, never through the model',
  },
  'sends-data': {
    severity: 'error',
    description: 'A description tells the model to send, post or forward data to a URL or an email address written in it, or to exfiltrate data.',
    fix: 'Remove the instruction; where a tool sends data is its code\'s business, not the model\'s',
  },
  'steers-other-tool': {
    severity: 'warning',
    description: 'A description commands how another tool is used: to call it first or always, never to use it, to use this one instead, or to change what it does "when this tool is available".',
    fix: 'Keep pointers to other tools descriptive ("use `x` to find the id first"); a tool must not change how another tool behaves',
  },
});
