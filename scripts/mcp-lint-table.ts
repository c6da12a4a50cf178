/**
 * Prints docs/mcp-lint-table.md: every provider profile over the reference MCP servers' tools.
 *   npx jiti scripts/mcp-lint-table.ts > docs/mcp-lint-table.md
 * Optional argument: the schemas folder (default test/fixtures/acceptance/mcp-servers/schemas).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { formatLintMatrix, providerNames } from '../src/checks/provider/index.js';
import { normalizeTools } from '../src/tools/normalize.js';

const dir = resolve(process.argv[2] ?? 'test/fixtures/acceptance/mcp-servers/schemas');
const sets = readdirSync(dir)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => ({ name: file.replace(/\.json$/, ''), tools: normalizeTools(JSON.parse(readFileSync(join(dir, file), 'utf8')), file) }));

const total = sets.reduce((n, s) => n + s.tools.length, 0);
process.stdout.write(`# Provider lint of ${sets.length} reference MCP servers

\`lintTools\` over the tools of the modelcontextprotocol/servers reference servers
(${total} tools, \`test/fixtures/acceptance/mcp-servers/schemas/\`), for every provider profile.
Cells count errors (E) and warnings (W); infos are left out; \`ok\` means none.
Generated: \`npx jiti scripts/mcp-lint-table.ts > docs/mcp-lint-table.md\`.

${formatLintMatrix(sets, providerNames)}
Every server is valid MCP and passes the lenient \`anthropic\` profile. The servers whose
schemas are generated from zod (\`$schema\`, \`additionalProperties: false\`) fail Gemini
\`parameters\`, which knows neither keyword; \`parametersJsonSchema\` takes them. The strict
profiles fail on optional parameters, open objects and numeric bounds, which is why strict
mode is opt-in per tool.
`);
