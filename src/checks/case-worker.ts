/**
 * Worker-thread entry for `checkGroups`: takes the project as the main thread sends it (or
 * loads the config again when it cannot be sent), then takes groups from the shared counter
 * until none is left or an earlier group has failed, reading each group's prompt when it
 * first meets it, and posts back what it found and its first error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openPromptModule, type LazyPromptModule } from '../render/module.js';
import { SchemaCompiler } from '../schema/validator.js';
import { errorMessage } from '../util/errors.js';
import { ACTIVE, RETIRED, TAKING, checkGroup, takeGroups, toSent, type CaseContext, type CaseReply, type CaseWorkerData } from './cases.js';

const port = parentPort;
if (port !== null) {
  const data = workerData as CaseWorkerData;
  const shared = new Int32Array(data.shared);
  void (async () => {
    let project: CaseContext | undefined;
    let lazy: LazyPromptModule | undefined;
    let setup: string | undefined;
    try {
      let config: CaseContext['config'];
      let registry: CaseContext['registry'];
      if (data.inline) {
        config = data.inline.config as CaseContext['config'];
        registry = new Map(data.inline.tools.map((t) => [t.name, t]));
      } else {
        const { loadProject } = await import('../project.js');
        ({ config, registry } = await loadProject({ config: data.config, cwd: data.cwd, lazyModule: true }));
      }
      // Links in the prompts folder may lead anywhere in the project, as the main thread read them.
      lazy = openPromptModule(config.prompts, data.cwd, new Map(data.casesFiles), config.root);
      project = { config, registry, module: lazy.module, ...(data.tokenBaseline === undefined ? {} : { tokenBaseline: { ref: data.tokenBaseline.ref, counts: new Map(data.tokenBaseline.counts) } }) };
    } catch (error) {
      setup = errorMessage(error);
    }
    // Claim this worker's slot before taking anything; the main thread may have retired it already.
    if (Atomics.compareExchange(shared, ACTIVE + data.slot, 0, TAKING) === RETIRED) return;
    if (project === undefined || lazy === undefined) {
      port.postMessage({ setup: setup ?? 'no project' } satisfies CaseReply);
      return;
    }
    const [prompts, context] = [lazy, project];
    const compiler = new SchemaCompiler();
    const { done, error } = takeGroups(shared, data.groups, (group) => {
      prompts.ensure(group.prompt);
      return checkGroup(context, group, compiler);
    });
    const reply: CaseReply = error ? { done, error: { group: error.group, ...toSent(error.cause) } } : { done };
    port.postMessage(reply);
  })();
}
