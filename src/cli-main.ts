// The command line: its commands, and the guard around a run (see runCli). Started by cli.ts.
import { Command, CommanderError, Option } from 'commander';
import { existsSync } from 'node:fs';
import { atLeast, type Diagnostic, type Severity } from './report/diagnostic.js';
import type { FormatName } from './report/format.js';
import { debugging, errorMessage, InputError } from './util/errors.js';

// Exit codes (pinned): 0 nothing at or above --fail-on, 1 findings, 2 could not run.
const EXIT_FINDINGS = 1;
const EXIT_CANNOT_RUN = 2;

const formatOption = (): Option => new Option('--format <format>', 'output format').choices(['pretty', 'json', 'github', 'markdown']).default('pretty');
const failOnOption = (): Option => new Option('--fail-on <severity>', 'lowest severity that fails the run').choices(['error', 'warning', 'info']).default('error');

async function print(diagnostics: Diagnostic[], formatName: FormatName, failOn: Severity): Promise<number> {
  const { format } = await import('./report/format.js');
  process.stdout.write(format(formatName, diagnostics, { color: formatName === 'pretty' && process.stdout.isTTY === true && !process.env.NO_COLOR }));
  return diagnostics.some((d) => atLeast(d.severity, failOn)) ? EXIT_FINDINGS : 0;
}

async function readInput(file: string | undefined): Promise<{ text: string; name: string }> {
  const { readRegularFileSync, utf8Text, wideEncoding, wideEncodingReason, withoutBom } = await import('./util/files.js');
  const expected = 'expected a regular file with the prompt text, or `-` for standard input';
  if (file === undefined || file === '-') {
    // Bounded: `extract - < /dev/zero` must end, not fill memory.
    const limit = 256 * 1024 * 1024;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of process.stdin) {
      size += (chunk as Buffer).length;
      if (size > limit) throw new InputError('config/unreadable', 'Standard input is over 256 MiB; expected the prompt text, at most 256 MiB', { file: '<stdin>' });
      chunks.push(chunk as Buffer);
    }
    const bytes = Buffer.concat(chunks);
    // PowerShell's `|` and `>` write UTF-16: read as UTF-8 it holds no call a reader could find.
    const wide = wideEncoding(bytes);
    if (wide !== undefined) throw new InputError('config/unreadable', `Cannot read standard input (${wideEncodingReason(wide)}); expected the prompt text`, { file: '<stdin>' });
    let text: string;
    try {
      text = utf8Text(bytes);
    } catch (error) {
      throw new InputError('config/unreadable', `Cannot read standard input (${(error as Error).message}); expected the prompt text`, { file: '<stdin>' });
    }
    return { text: withoutBom(text), name: '<stdin>' };
  }
  try {
    return { text: withoutBom(readRegularFileSync(file)), name: file };
  } catch (error) {
    throw new InputError('config/unreadable', `Cannot read \`${file}\` (${(error as Error).message}); ${expected}`, { file });
  }
}

/**
 * `--output`. A new or regular file is written beside itself first and renamed over, so a reader
 * never sees half a report. A device or a named pipe (`/dev/stdout`, a FIFO a CI step reads) is
 * written into, never replaced; a link is followed to what it names, and that is written as
 * such. A folder, a dangling link, and a file the project reads as input (the config, a prompt,
 * a snapshot) are refused: the report must not take the place of what it reports on.
 */
async function writeOutput(file: string, text: string, inputs: { files: string[]; folders: string[] }): Promise<void> {
  const { lstatSync, statSync, readlinkSync, realpathSync, openSync, writeSync, closeSync, constants } = await import('node:fs');
  const { basename, dirname, resolve } = await import('node:path');
  const { replaceFile, describeFileKind } = await import('./util/files.js');
  const { inside } = await import('./util/walk.js');
  const refuse = (why: string): never => {
    throw new InputError('usage', `Cannot write the report to \`${file}\`: ${why}; expected a --output path for the report alone`, { file });
  };
  const writeAll = (fd: number): void => {
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  };
  // `/dev/stdout` and its kin, named or reached through links: the stream this process already
  // holds, written where it stands (a shell's `>>` appends, a pipe reads it), never reopened.
  const stream = /^\/(?:dev\/(?:stdout|stderr|fd\/(\d+))|proc\/(?:self|\d+)\/fd\/(\d+))$/;
  let hop = resolve(file);
  for (let n = 0; n < 40; n++) {
    const m = stream.exec(hop);
    if (m) {
      const fd = hop.endsWith('stdout') ? 1 : hop.endsWith('stderr') ? 2 : Number(m[1] ?? m[2]);
      if (fd !== 1 && fd !== 2) break;
      try {
        writeAll(fd);
      } catch (error) {
        throw new InputError('usage', `Cannot write the report to \`${file}\` (${(error as Error).message})`, { file });
      }
      return;
    }
    let link: string;
    try {
      if (!lstatSync(hop).isSymbolicLink()) break;
      link = readlinkSync(hop);
    } catch {
      break;
    }
    hop = resolve(dirname(hop), link);
  }
  /** The real path of `p`, through every link on its way; for a path that does not exist yet, its nearest existing folder's. */
  const real = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      const parent = dirname(p);
      return parent === p ? p : resolve(real(parent), basename(p));
    }
  };
  let kind: ReturnType<typeof statSync> | undefined;
  try {
    kind = statSync(file);
  } catch {
    kind = undefined;
    try {
      if (lstatSync(file).isSymbolicLink()) refuse('it is a link to nothing');
    } catch (error) {
      if (error instanceof InputError) throw error;
    }
  }
  const target = real(resolve(file));
  if (kind?.isDirectory()) refuse('it is a directory');
  if (/[\\/]$/.test(file)) refuse('it ends with a slash, which names a folder');
  // A file made read-only (mode 0444) is kept so on purpose: not replaced, as root included.
  if (kind?.isFile() && (kind.mode & 0o222) === 0) refuse('it is read-only');
  if (inputs.files.some((f) => real(resolve(f)) === target) || inputs.folders.some((folder) => inside(real(resolve(folder)), target))) refuse('the project reads it as input');
  try {
    if (kind !== undefined && !kind.isFile()) {
      // A device or a named pipe: opened as it is (a FIFO waits for its reader) and written whole.
      if (!kind.isCharacterDevice() && !kind.isFIFO()) refuse(`it is ${describeFileKind(kind)}`);
      const fd = openSync(target, constants.O_WRONLY | (constants.O_APPEND ?? 0));
      try {
        writeAll(fd);
      } finally {
        closeSync(fd);
      }
      return;
    }
    replaceFile(target, text);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError('usage', `Cannot write the report (${(error as Error).message}); expected a --output path in a folder this user can write`, { file });
  }
}

/** A whole number of at least 1 given to an option, or a usage error naming it. */
function parseCount(value: string, option: string): number {
  if (!/^[1-9]\d{0,3}$/.test(value.trim())) throw new InputError('usage', `Unexpected ${option} ${JSON.stringify(value)}, expected a whole number from 1 to 9999`);
  return Number(value.trim());
}

export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command('prompt-contract')
    .description('Keep prompts, few-shot examples and tool schemas in agreement, offline.')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

  program
    .command('check')
    .description('render every prompt and case, then run every contract check the config enables')
    .option('--config <file>', 'config file (default: prompt-contract.config.{ts,mts,cts,mjs,cjs,js,json})')
    // markdown and html are the review: each changed case against its baseline snapshot, with the findings.
    .addOption(new Option('--format <format>', 'output format (markdown, html: a review of the changed cases with the findings)').choices(['pretty', 'json', 'github', 'markdown', 'html']).default('pretty'))
    .option('--output <file>', 'write the report to this file (through a temporary file beside it) instead of standard output')
    .addOption(failOnOption())
    .option('--against <ref>', 'compare tools (and, for markdown and html, the snapshots) against this git ref instead of the committed baseline')
    .option('--shard <index/total>', 'do one part of the work, as a CI matrix job (1/3, 2/3, 3/3); checks that run once run in shard 1')
    .option('--workers <count>', 'threads to spread the cases over (default: from 3 cores, one per core but one when there are enough cases; 1: this thread only)')
    .option('--no-cache', 'check every case again instead of reusing unchanged ones from node_modules/.cache/prompt-contract')
    .action(async (opts: { config?: string; format: FormatName | 'html'; output?: string; failOn: Severity; against?: string; shard?: string; workers?: string; cache: boolean }) => {
      const { parseShard } = await import('./util/shard.js');
      const shard = parseShard(opts.shard ?? process.env.PROMPT_CONTRACT_SHARD, opts.shard === undefined ? 'PROMPT_CONTRACT_SHARD' : '--shard');
      const { loadProject } = await import('./project.js');
      const { runCheck } = await import('./checks/run.js');
      const project = await loadProject({ ...(opts.config === undefined ? {} : { config: opts.config }), lazyModule: true });
      const workers = opts.workers === undefined ? undefined : parseCount(opts.workers, '--workers');
      const diagnostics = await runCheck(project, { ...(opts.against === undefined ? {} : { against: opts.against }), ...(shard ? { shard } : {}), ...(workers === undefined ? {} : { workers }), cache: opts.cache });
      // What was read is one line for a person, not a finding a case.
      const { splitCoverage } = await import('./checks/findings.js');
      const { found, summary } = splitCoverage(diagnostics);
      if (opts.format === 'markdown' || opts.format === 'html' || opts.output !== undefined) {
        let text: string;
        if (opts.format === 'markdown' || opts.format === 'html') {
          const { formatReview } = await import('./report/review/index.js');
          text = await formatReview(opts.format, project, found, opts.against === undefined ? {} : { against: opts.against });
        } else {
          const { format } = await import('./report/format.js');
          text = `${summary !== undefined && opts.format === 'pretty' ? `${summary}\n` : ''}${format(opts.format, found)}`;
        }
        if (opts.output === undefined) process.stdout.write(text);
        else await writeOutput(opts.output, text, { files: [project.config.file], folders: [project.config.prompts, project.config.snapshots] });
        setExit(found.some((d) => atLeast(d.severity, opts.failOn)) ? EXIT_FINDINGS : 0);
        return;
      }
      if (summary !== undefined && opts.format === 'pretty') process.stdout.write(`${summary}\n`);
      setExit(await print(found, opts.format, opts.failOn));
    });

  program
    .command('render')
    .description('print the exact text a prompt sends for a case (--tools: the tool definitions sent beside it)')
    .argument('[prompt]', 'prompt name (a .prompt file)')
    .option('--case <name>', 'case name (default: the prompt\'s only case)')
    .option('--tools', 'print the tool definitions sent with the prompt, as JSON')
    .addOption(new Option('--shape <provider>', "with --tools: the provider's request shape (default: the prompt's `shape`, else its model's provider, else anthropic)").choices(['anthropic', 'openai', 'gemini']))
    .option('--list', 'list every prompt and case, one "PROMPT CASE" pair a line')
    .option('--config <file>', 'config file')
    .action(async (prompt: string | undefined, opts: { case?: string; tools?: boolean; shape?: 'anthropic' | 'openai' | 'gemini'; list?: boolean; config?: string }) => {
      const { loadProject } = await import('./project.js');
      const { listCases, renderAnyCase } = await import('./render/render.js');
      const project = await loadProject(opts.config === undefined ? {} : { config: opts.config });
      if (opts.list) {
        const { inert } = await import('./report/inert.js');
        // Names come from file names and cases files: one pair a line, whatever they hold.
        for (const c of listCases(project.module)) process.stdout.write(`${inert(c.prompt)} ${inert(c.case)}\n`);
        return;
      }
      if (prompt === undefined) throw new InputError('usage', 'Expected a prompt name, or --list (see `prompt-contract render --list`)');
      const { didYouMean } = await import('./util/suggest.js');
      const quote = (names: Iterable<string>): string => [...names].map((n) => `\`${n}\``).join(', ');
      const definition = project.module.prompts.get(prompt);
      if (!definition) {
        const folder = project.display(project.config.prompts);
        const known = [...project.module.prompts.keys()];
        throw new InputError('render/unknown-prompt', `Unknown prompt \`${prompt}\`, expected one of ${quote(known) || 'none'} (the \`.prompt\` files in \`${folder}\`)${didYouMean(prompt, known)}`);
      }
      const cases = [...definition.cases.keys()];
      let caseName = opts.case;
      if (caseName === undefined) {
        if (cases.length !== 1) {
          throw new InputError('usage', `Expected --case: prompt \`${prompt}\` has ${cases.length === 0 ? `no cases (add them to a file in \`${project.display(project.config.prompts)}/cases/\`)` : `cases ${quote(cases)}`}`);
        }
        caseName = cases[0]!;
      } else if (!definition.cases.has(caseName)) {
        throw new InputError('render/unknown-case', `Unknown case \`${caseName}\` for prompt \`${prompt}\`, expected one of ${quote(cases) || `none (add them to a file in \`${project.display(project.config.prompts)}/cases/\`)`}${didYouMean(caseName, cases)}`);
      }
      const rendered = await renderAnyCase(project.module, prompt, caseName, project.registry, project.config.maxRenderedBytes === undefined ? {} : { maxRenderedBytes: project.config.maxRenderedBytes });
      if (opts.tools) {
        const { formatTools } = await import('./snapshot/format.js');
        // The request the case sends: the shape its messages were rendered in (a case may send the prompt to another provider), else the prompt's.
        process.stdout.write(formatTools(rendered.tools, opts.shape ?? rendered.conversation?.shape ?? definition.shape ?? 'anthropic'));
      } else if (rendered.messages && rendered.conversation) {
        // A prompt written as messages prints them as sent, as its snapshot shows them.
        const { formatMessages } = await import('./snapshot/format.js');
        process.stdout.write(`${formatMessages(rendered.messages, rendered.conversation.shape).join('\n')}\n`);
      } else process.stdout.write(rendered.text);
    });

  program
    .command('extract')
    .description('list the tool-call examples in any text, with their positions')
    .argument('[file]', 'a file, or - for standard input', '-')
    .option('--tools <file>', 'JSON tools file the text is sent with: types tag values, and names the tools of tag-per-tool prompts')
    .option('--config <file>', "a project's config: its house notations are read too, and its tools unless --tools is given")
    .addOption(new Option('--format <format>', 'output format').choices(['pretty', 'json']).default('pretty'))
    .action(async (file: string, opts: { format: 'pretty' | 'json'; tools?: string; config?: string }) => {
      const { extractToolCalls } = await import('./extract/index.js');
      const input = await readInput(file);
      let tools = opts.tools === undefined ? undefined : (await import('./project.js')).readToolsFile(opts.tools);
      let notations: import('./extract/notation.js').NotationDefinition[] | undefined;
      if (opts.config !== undefined) {
        const { loadProject } = await import('./project.js');
        const project = await loadProject({ config: opts.config, lazyModule: true });
        notations = project.config.notations;
        tools ??= project.tools;
      }
      const result = extractToolCalls(input.text, { ...(tools ? { tools } : {}), ...(notations ? { notations } : {}) });
      const diagnostics = result.diagnostics.map((d) => ({ ...d, file: input.name }));
      if (opts.format === 'json') {
        const examples = result.examples.map((e) => ({ name: e.name, arguments: e.arguments, notation: e.notation, line: e.line, column: e.column, offset: e.range.start }));
        const { toJsonReport } = await import('./report/format.js');
        process.stdout.write(`${JSON.stringify({ version: 1, examples, diagnostics: toJsonReport(diagnostics).diagnostics }, null, 2)}\n`);
      } else {
        const { inert } = await import('./report/inert.js');
        for (const e of result.examples) process.stdout.write(inert(`${input.name}:${e.line}:${e.column}  ${e.notation.padEnd(18)} ${e.name} ${JSON.stringify(e.arguments)}`) + '\n');
        if (result.examples.length === 0) process.stdout.write('No tool-call examples found.\n');
        if (diagnostics.length > 0) {
          const { formatPretty } = await import('./report/format.js');
          process.stdout.write(`\n${formatPretty(diagnostics)}`);
        }
      }
      setExit(diagnostics.some((d) => d.severity === 'error') ? EXIT_FINDINGS : 0);
    });

  program
    .command('validate')
    .description('validate recorded tool calls (JSONL) against a tools file')
    .argument('<tools>', 'JSON tools file: one tool, a list, or {"tools": [...]}, any provider shape')
    .argument('<calls...>', 'JSONL files of recorded calls')
    .option('--max-line-bytes <bytes>', 'longest line read; a longer one is reported as recorded/line-too-long (default 16 MiB)')
    .addOption(formatOption())
    .addOption(failOnOption())
    .action(async (toolsFile: string, calls: string[], opts: { format: FormatName; failOn: Severity; maxLineBytes?: string }) => {
      const { readToolsFile } = await import('./project.js');
      const { validateRecordedFiles } = await import('./checks/run.js');
      const tools = readToolsFile(toolsFile);
      if (opts.maxLineBytes !== undefined && !/^[1-9]\d*$/.test(opts.maxLineBytes)) {
        throw new InputError('usage', `Unexpected --max-line-bytes ${JSON.stringify(opts.maxLineBytes)}: expected a whole number of bytes, at least 1`);
      }
      const options = opts.maxLineBytes === undefined ? {} : { maxLineBytes: Number(opts.maxLineBytes) };
      setExit(await print(await validateRecordedFiles(tools, calls, options), opts.format, opts.failOn));
    });

  program
    .command('diff')
    .description('breaking changes between two tools files (without files: the configured project against its committed baseline)')
    .argument('[old]', 'tools file before the change')
    .argument('[new]', 'tools file after the change')
    .option('--observed <calls...>', 'JSONL files of recorded calls, listed as witnesses of each break')
    .option('--against <ref>', 'without files: the baseline as committed at this git ref')
    .option('--config <file>', 'config file, when no tools files are given')
    .addOption(formatOption())
    .addOption(failOnOption())
    .action(async (oldFile: string | undefined, newFile: string | undefined, opts: { observed?: string[]; against?: string; config?: string; format: FormatName; failOn: Severity }) => {
      const { readToolsFile } = await import('./project.js');
      const { diffWithWitnesses } = await import('./checks/run.js');
      if (oldFile !== undefined && newFile === undefined) throw new InputError('usage', 'Expected two tools files (OLD NEW), or none to compare the configured project with its baseline');
      if (oldFile !== undefined && newFile !== undefined) {
        setExit(await print(await diffWithWitnesses(readToolsFile(oldFile), readToolsFile(newFile), opts.observed ?? []), opts.format, opts.failOn));
        return;
      }
      const { loadProject } = await import('./project.js');
      const { baselineTools, relativePaths } = await import('./checks/run.js');
      const project = await loadProject(opts.config === undefined ? {} : { config: opts.config });
      const { checkProjectSnapshots } = await import('./checks/run.js');
      const { toolsBaselineFile } = await import('./snapshot/state.js');
      checkProjectSnapshots(project);
      const old = baselineTools(project, opts.against);
      if (!old) throw new InputError('usage', 'No tools baseline to compare with (missing, cut short, or not written by prompt-contract): run your Jest command with `-u` to write it, or pass OLD and NEW', { file: project.display(toolsBaselineFile(project.config.snapshots)) });
      const observed = [...(project.config.recorded ?? []), ...(opts.observed ?? [])];
      setExit(await print(relativePaths(project, await diffWithWitnesses(old, project.tools, observed, project)), opts.format, opts.failOn));
    });

  program
    .command('lint')
    .description('check tool schemas against what each provider accepts')
    .argument('[tools...]', 'JSON tools files (default: the configured project\'s tools)')
    // One name a flag (repeat it, or list names with commas): a variadic option would take the tools files after it as names.
    .option('--provider <name>', "provider profile, repeatable or comma-separated: anthropic, anthropic-strict, openai, openai-strict, gemini, gemini-json-schema, bedrock, mcp (default: the config's `providers`)", (value: string, list: string[] = []) => [...list, ...value.split(',').map((n) => n.trim()).filter((n) => n !== '')])
    .option('--config <file>', "config file: the tools when no tools files are given, and the providers when --provider is not")
    .addOption(formatOption())
    .addOption(failOnOption())
    .action(async (files: string[], opts: { provider?: string[]; config?: string; format: FormatName; failOn: Severity }) => {
      const { lintProviders } = await import('./checks/run.js');
      let tools;
      let providers = opts.provider;
      if (files.length > 0) {
        const { isProviderName } = await import('./checks/provider/profiles.js');
        const misplaced = files.find((f) => isProviderName(f) && !existsSync(f));
        if (misplaced !== undefined) {
          throw new InputError('usage', `Unexpected provider name \`${misplaced}\` where a tools file was expected; expected one name a --provider flag (\`--provider ${[...(opts.provider ?? []), misplaced].join(' --provider ')}\`) or names with commas (\`--provider ${[...(opts.provider ?? []), misplaced].join(',')}\`)`);
        }
        const { readToolsFile } = await import('./project.js');
        tools = files.flatMap((f) => readToolsFile(f));
        if (providers === undefined) providers = await configuredProviders(opts.config);
      } else {
        const { loadProject } = await import('./project.js');
        const project = await loadProject(opts.config === undefined ? {} : { config: opts.config });
        tools = project.tools;
        providers ??= project.config.providers;
      }
      if (opts.provider !== undefined && opts.provider.length === 0) {
        throw new InputError('usage', 'Unexpected empty --provider; expected --provider NAME (anthropic, anthropic-strict, openai, openai-strict, gemini, gemini-json-schema, bedrock, mcp)');
      }
      if (providers === undefined || providers.length === 0) {
        throw new InputError('usage', 'Missing --provider, and no config names `providers`; expected --provider NAME (anthropic, anthropic-strict, openai, openai-strict, gemini, gemini-json-schema, bedrock, mcp)');
      }
      // A name given twice is linted once.
      setExit(await print(lintProviders(tools, [...new Set(providers)]), opts.format, opts.failOn));
    });

  program
    .command('init')
    .description('scaffold a config, a prompt module, a contract test and a Jest config in this project; never overwrites a file')
    .option('--dir <folder>', 'the project folder', '.')
    .action(async (opts: { dir: string }) => {
      const { formatInit, initProject } = await import('./init.js');
      process.stdout.write(formatInit(initProject(opts.dir)));
    });

  return program;
}

/** The `providers` of the config (`--config`, else the one in this folder), or undefined when there is no config. */
async function configuredProviders(file: string | undefined): Promise<string[] | undefined> {
  const { findConfigFile, loadConfig } = await import('./config/index.js');
  if (file === undefined) {
    try {
      findConfigFile(process.cwd());
    } catch {
      return undefined;
    }
  }
  return (await loadConfig(file === undefined ? {} : { file })).providers;
}

/** Runs the CLI; resolves to the exit code instead of exiting, so tests can call it. */
export async function main(argv: readonly string[]): Promise<number> {
  let code = 0;
  const program = buildProgram((c) => {
    code = c;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here too, with code 0.
      return error.exitCode === 0 ? 0 : EXIT_CANNOT_RUN;
    }
    const { inert, inertLines } = await import('./report/inert.js');
    if (error instanceof InputError) {
      // `format` shows the message and file inert: a line break from a checked file starts no line of its own.
      process.stderr.write(`prompt-contract: ${error.format()}\n`);
      // The stack's lines are the runtime's; what each holds (its first, the message) may quote a checked file.
      if (debugging()) process.stderr.write(`${inertLines(stackOf(error))}\n`);
      await reportCannotRun(argv, { ruleId: error.code, severity: 'error', message: error.message, ...placeOf(error) });
      return EXIT_CANNOT_RUN;
    }
    const message = internalErrorMessage(error);
    process.stderr.write(`prompt-contract: ${inert(message)}\n`);
    if (debugging()) process.stderr.write(`${inertLines(stackOf(error))}\n`);
    await reportCannotRun(argv, { ruleId: 'internal', severity: 'error', message });
    return EXIT_CANNOT_RUN;
  }
}

function placeOf(error: InputError): Pick<Diagnostic, 'file' | 'line' | 'column'> {
  const place: Pick<Diagnostic, 'file' | 'line' | 'column'> = {};
  if (error.file !== undefined) place.file = error.file;
  if (error.line !== undefined) place.line = error.line;
  if (error.column !== undefined) place.column = error.column;
  return place;
}

/** The `--format` a command line asked for, when it asked for one. */
function requestedFormat(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  argv.forEach((arg, i) => {
    if (arg === '--format') found = argv[i + 1];
    else if (arg.startsWith('--format=')) found = arg.slice('--format='.length);
  });
  return found;
}

/**
 * A run that could not run still answers in the format CI reads: under `--format json` a
 * report holding the one error (its rule id is the error's code), under `--format github` an
 * annotation. The message also went to stderr, as in every format.
 */
async function reportCannotRun(argv: readonly string[], diagnostic: Diagnostic): Promise<void> {
  const name = requestedFormat(argv);
  if (name !== 'json' && name !== 'github') return;
  const { format } = await import('./report/format.js');
  process.stdout.write(format(name, [diagnostic]));
}

/** `PROMPT_CONTRACT_DEBUG=1` prints the stack trace of any error; without it, none is printed. */

function stackOf(error: unknown): string {
  const stack = (error as { stack?: unknown } | null)?.stack;
  const cause = (error as { cause?: unknown } | null)?.cause;
  const own = typeof stack === 'string' ? stack : String(error);
  return cause === undefined ? own : `${own}\nCaused by: ${stackOf(cause)}`;
}

/**
 * What an error that is not an InputError prints: one line, no stack trace (a stack is for
 * whoever debugs prompt-contract, not for its user). Running out of stack is named as
 * such: the input nested too deeply for some walk, which is not a fault in the input.
 */
function internalErrorMessage(error: unknown): string {
  const message = errorMessage(error);
  if (error instanceof RangeError && /call stack size/i.test(message)) {
    return `could not run: the input nests too deeply to process (${message}); expected fewer levels of nesting`;
  }
  return `could not run: ${message} (an internal error of prompt-contract: please report it, with the stack trace that PROMPT_CONTRACT_DEBUG=1 prints)`;
}

/**
 * A reader that closes the pipe early (`prompt-contract render ... | head`) is not an
 * error: the output stops without a word on stderr, and the run ends with its own exit code.
 */
function endQuietlyOnClosedPipe(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // The rest of the output goes nowhere; the exit code is still the run's (1 for findings), which a `set -o pipefail` CI step reads.
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    process.stderr.write(`prompt-contract: could not write the output: ${error.message}\n`);
    exitNow(EXIT_CANNOT_RUN);
  });
  // Nowhere left to say anything: end as if the message had been read.
  process.stderr.on('error', () => exitNow(EXIT_CANNOT_RUN));
}

/** Set when this package ends the process itself, before the run is done (an output it cannot write). */
let ownExit = false;

function exitNow(code: number): never {
  ownExit = true;
  process.exit(code);
}

/**
 * Node's own last step of `process.exit`, taken before any code of the project's runs. Code of
 * the config's can replace `process.reallyExit` or call it with 0; the run's verdict is given
 * through this copy, and a call to the process's own one before the run is done is no pass.
 */
type ReallyExit = (code: number) => never;
const nodeProcess = process as unknown as { reallyExit?: ReallyExit };
const reallyExit: ReallyExit = nodeProcess.reallyExit?.bind(process) ?? ((code: number) => process.exit(code));

/**
 * Runs the command line as a process: its verdict is the process's exit code, given through
 * Node's own `reallyExit` whatever code of the project's does meanwhile. Resolves when the run
 * is done; the process ends with the run's code once nothing is left to do.
 */
export async function runCli(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  endQuietlyOnClosedPipe();
  let finished = false;
  // The run ended before `main` did: code of the config's (or a module it imports) ended it. That
  // is no pass: a `process.exit(0)` there, or a top-level `await` that never settles (Node's 13).
  // Whatever code it ended with: 0 would pass a broken project, 1 would read as findings.
  let runCode = 0;
  const endedEarly = (code: number | string | null | undefined): void => {
    const unsettled = process.exitCode === 13;
    process.stderr.write(
      unsettled
        ? 'prompt-contract: could not run: the run was left waiting on a promise that never settles, most likely a top-level `await` in the config or a module it imports; expected the config to finish loading\n'
        : `prompt-contract: could not run: the process was ended (\`process.exit(${code ?? ''})\`) before the run finished, most likely by the config or a module it imports; expected the config to only export its settings\n`,
    );
  };
  if (nodeProcess.reallyExit !== undefined) {
    nodeProcess.reallyExit = (code: number) => {
      if (ownExit) return reallyExit(code);
      if (finished) return reallyExit(runCode);
      // Called by project code directly, past every `exit` listener.
      endedEarly(code);
      return reallyExit(EXIT_CANNOT_RUN);
    };
  }
  process.on('exit', (code) => {
    if (ownExit) return;
    // After the run, its code stands, and is given here: an `exit` listener of the config's runs
    // after this one and could set `process.exitCode = 0`; a timer or `beforeExit` hook could
    // call `process.exit(0)`. Ending the process now leaves them no say.
    if (finished) reallyExit(runCode);
    endedEarly(code);
    reallyExit(EXIT_CANNOT_RUN);
  });
  runCode = await main(argv);
  process.exitCode = runCode;
  finished = true;
  // What the config or a module it imports left open (a timer, a connection, a server) would keep
  // the process alive after its verdict, a CI step waiting for ever: once the output is out, a
  // second later, the run ends. The timer itself keeps nothing alive: a clean run ends at once.
  setTimeout(() => process.stdout.write('', () => exitNow(runCode)), 1000).unref();
}
