import * as api from '../src/index.js';
import * as jestApi from '../src/jest.js';

// The public surface is a promise: adding or removing an export is a deliberate change here.
test('the main entry exports exactly these names', () => {
  expect(Object.keys(api).sort()).toEqual([
    'InputError', 'ToolShapeError', 'aiSdkAgent', 'aiSdkCall', 'allRules', 'applyPolicy', 'attachWitnesses', 'checkExamples', 'checkHandler', 'checkHandlers',
    'checkPersisted', 'checkRecorded', 'checkRenderedExamples', 'countRenderedCase', 'defineConfig', 'defineNotation', 'definePrompt', 'defineTool', 'diffTools', 'extractToolCalls', 'format',
    'formatSnapshot', 'formatTokenLine', 'langChainPrompt', 'lintTools', 'listCases', 'loadConfig', 'loadPolicy', 'loadProject', 'loadPromptModule', 'mastraAgent', 'normalizeTool', 'normalizeTools', 'openAiAgent',
    'parseSnapshotTokens', 'preloadMarkdown', 'providerNames', 'readPersistedCalls', 'readRecordedCalls', 'readToolsFile', 'renderAnyCase', 'renderCase', 'renderDataItems', 'renderDotprompt', 'resolveHandlerSchema',
    'ruleById', 'runCheck', 'toJsonReport', 'zodToJsonSchema',
  ]);
});

test('the jest entry exports the suite and the matchers', () => {
  expect(Object.keys(jestApi).sort()).toEqual(['contractSuite', 'promptMatchers']);
  expect(Object.keys(jestApi.promptMatchers).sort()).toEqual(['toHaveValidToolExamples', 'toMatchPromptSnapshot']);
});
