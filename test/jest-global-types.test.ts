import { pathToFileURL } from 'node:url';
import { promptMatchers } from '../src/jest.js';
import { loadProject } from '../src/project.js';
import { renderCase } from '../src/render/render.js';

// No import of @jest/globals here: the global `expect` (typed by @types/jest) must know the
// matchers too. `npm run typecheck` compiles this file; a missing declaration fails it.

test('the matchers work on the global expect, with their types', async () => {
  expect.extend(promptMatchers);
  const project = await loadProject({ importer: (file) => import(pathToFileURL(file).href) });
  const rendered = renderCase(project.module, 'refund_agent', 'legacy_order', project.registry);
  expect(rendered).toHaveValidToolExamples({ strict: false });
  expect(rendered).toMatchPromptSnapshot({ dir: project.config.snapshots });
});
