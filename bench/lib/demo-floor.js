// The floor of check-demo: a process that only imports the packages a `check` of the demo
// needs to do its work, and does nothing with them. bench/lib/check-demo.js traces what the
// real run loads (bench/lib/load-trace.cjs) and prints that list beside this one.
//   jiti          loads prompt-contract.config.ts and the tool modules it imports
//   zod           the tools are written with it
//   ajv 2020      validates the examples against the tools' JSON Schemas
//   js-yaml       reads frontmatter, examples, stubs, cases and descriptions
//   commander     parses the command line
//   better-sqlite3  the demo's persisted conversations live in SQLite
// Not Handlebars: a run whose cases are all in the cache renders nothing and does not load it.
export const floorPackages = ['jiti', 'zod', 'ajv', 'js-yaml', 'commander', 'better-sqlite3'];

await import('jiti');
await import('zod');
await import('ajv/dist/2020.js');
await import('js-yaml');
await import('commander');
await import('better-sqlite3');
