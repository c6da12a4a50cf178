// The extractor's Markdown fallback (micromark) is an ES module, and Jest's module system
// cannot `require` one before Node 24.9: load it once per test file, as `contractSuite` does
// for a user's suite. Outside Jest (the CLI, plain Node) it is required when first needed.
import { preloadMarkdown } from '../../src/extract/markdown.js';

await preloadMarkdown();
