/**
 * `seine`'s entry point, modelled on Scrapy's cmdline.execute: find the
 * command, parse its options, build settings (defaults < the command's
 * defaults < command-line options), start the log sink, log the startup
 * lines, run the command. It never calls process.exit: it resolves to the
 * exit status, so tests run it in-process.
 *
 * Exit statuses: 0 success; 1 a SeineError (its message, one line) or an
 * unexpected error (one line and a hint; the stack at --loglevel DEBUG);
 * 2 a usage error (one line); 3 a crawl whose monitors failed (docs/monitors.md).
 */
import yargs, { type Argv } from 'yargs';
import { defaultLogBus, type LogBus } from '../log/log-bus.js';
import { attachLogSink, logSinkOptions, type TextWriter } from '../log/sink.js';
import { logStartupInfo, STARTUP_LOGGER } from '../log/startup-info.js';
import { WORKER_ENV } from '../workers/worker-messages.js';
import { loggingWriter, redirectProcessStdout } from '../log/stdout-redirect.js';
import { SETTINGS_PRIORITIES } from '../settings/priorities.js';
import { Settings } from '../settings/settings.js';
import type { CommandContext, CommandEntry, SeineCommand } from './command.js';
import { COMMANDS } from './commands/index.js';
import {
  GLOBAL_GROUP,
  GLOBAL_OPTIONS_WITH_VALUE,
  addGlobalOptions,
  applyGlobalOptions,
  type GlobalOptions,
} from './global-options.js';
import { quickAnswer } from './quick-answer.js';
import { topLevelUsage } from './usage.js';
import { openProject, type Project } from '../project/project.js';
import { UsageError } from './usage-error.js';
import { usageErrorFromYargs } from './yargs-errors.js';
import { maskUrlCredentials } from '../url-credentials.js';

export interface CliIo {
  readonly stdout?: TextWriter;
  readonly stderr?: TextWriter;
  /** The bus the log sink listens to; default: the process-wide `defaultLogBus`. */
  readonly logBus?: LogBus;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The commands to offer (loaded, or registry entries that load on use); default: the registry in commands/index.ts. */
  readonly commands?: ReadonlyArray<SeineCommand | CommandEntry>;
}

const HELP_FLAGS = new Set(['-h', '--help']);

/** The first argument that is neither an option nor a global option's value: the command name. */
export function findCommandName(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] ?? '';
    if (token === '--') return argv[i + 1];
    if (!token.startsWith('-') || token === '-') return token;
    if (GLOBAL_OPTIONS_WITH_VALUE.has(token)) i++;
  }
  return undefined;
}

function baseParser(): Argv<GlobalOptions> {
  const parser = yargs()
    .scriptName('seine')
    .locale('en')
    .exitProcess(false)
    .version(false)
    .strict()
    .wrap(80)
    .help('help')
    .alias('help', 'h')
    .group(['help'], GLOBAL_GROUP);
  return addGlobalOptions(parser);
}

interface Parsed {
  readonly args: Record<string, unknown>;
  readonly help: string | undefined;
}

/** The part of yargs' internals that keeps a command's help text. */
interface YargsUsageInternals {
  getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } };
}

/**
 * yargs renders a command's whole help text after running its handler, to
 * keep for a later failure: ~17 ms of every start (string widths, wrapping),
 * for a text seine shows only on --help, which renders it then.
 */
function skipHelpCache(parser: Argv<unknown>): void {
  const usage = (parser as unknown as YargsUsageInternals).getInternalMethods?.().getUsageInstance?.();
  if (typeof usage?.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}

function parse(parser: Argv<unknown>, argv: readonly string[], command: string | undefined, positionals?: string): Parsed {
  let result: Parsed | undefined;
  let failure: Error | undefined;
  skipHelpCache(parser);
  // With a callback, yargs hands back help text and errors instead of printing them.
  parser.parse([...argv], {}, (error, args, output) => {
    if (error) failure = error;
    else result = { args: args as Record<string, unknown>, help: output === '' ? undefined : output };
  });
  if (failure !== undefined) throw usageErrorFromYargs(failure.message, argv, command, positionals);
  if (result === undefined) throw new Error('yargs returned no result');
  return result;
}

function commandParser(command: SeineCommand): Argv<unknown> {
  const syntax = command.positionals === undefined ? command.name : `${command.name} ${command.positionals}`;
  const usage = `seine ${syntax} [options]\n\n${command.description}`;
  return baseParser().command({
    command: syntax,
    describe: command.description,
    builder: (parser: Argv<GlobalOptions>) => command.builder(parser).usage(usage),
    // The CLI runs the handler itself, after building settings and the log sink.
    handler: () => {},
  });
}

function buildSettings(command: SeineCommand, args: Record<string, unknown>, project: Project | null): Settings {
  const settings = new Settings();
  settings.setdict(command.defaultSettings, 'command', `the '${command.name}' command's defaults`);
  // Inside a project its settings.ts counts for every command, as in Scrapy: BOT_NAME in the
  // startup line, LOG_LEVEL / LOG_FILE for the log sink.
  if (project !== null) settings.setdict(project.settings, 'project', project.config.settingsFile);
  applyGlobalOptions(settings, args as unknown as GlobalOptions, command.name);
  return settings;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

interface ErrorLike {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  readonly code?: unknown;
}

// Duck-typed rather than instanceof: a project's own copy of seine throws
// another copy's SeineError (docs/dependencies.md), and Node's own errors can
// come from another realm (vm contexts).
function isErrorLike(error: unknown): error is ErrorLike {
  const candidate = error as Partial<ErrorLike> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.message === 'string' &&
    typeof candidate.name === 'string'
  );
}

function seineErrorCode(error: unknown): string | undefined {
  if (!isErrorLike(error)) return undefined;
  return typeof error.code === 'string' && error.code.startsWith('SEINE_') ? error.code : undefined;
}

function reportError(error: unknown, stderr: { write(text: string): unknown }, settings: Settings | undefined): number {
  return reportErrorTo({ write: (text: string) => stderr.write(maskUrlCredentials(text)) }, error, settings);
}

function reportErrorTo(stderr: { write(text: string): unknown }, error: unknown, settings: Settings | undefined): number {
  const code = seineErrorCode(error);
  if (code !== undefined && isErrorLike(error)) {
    const hint = (error as { hint?: unknown }).hint;
    const suffix = code === 'SEINE_USAGE' && typeof hint === 'string' ? ` — ${hint}` : '';
    stderr.write(`seine: ${oneLine(error.message)}${suffix}\n`);
    return code === 'SEINE_USAGE' || code === 'SEINE_BAD_SET_OPTION' ? 2 : 1;
  }
  const summary = isErrorLike(error) ? `${error.name}: ${oneLine(error.message)}` : oneLine(String(error));
  const debugging = settings !== undefined && safeDebugLogging(settings);
  if (debugging && isErrorLike(error) && error.stack !== undefined) {
    stderr.write(`seine: unexpected error: ${summary}\n${error.stack}\n`);
  } else {
    stderr.write(`seine: unexpected error: ${summary} — rerun with --loglevel DEBUG to see the stack trace\n`);
  }
  return 1;
}

// The stack is for whoever asked for it on the command line (the hint says
// how), not for every command whose default level happens to be DEBUG.
function safeDebugLogging(settings: Settings): boolean {
  try {
    return settings.getPriority('LOG_LEVEL') === SETTINGS_PRIORITIES.cmdline && settings.get('LOG_LEVEL') === 'DEBUG';
  } catch {
    return false;
  }
}

/** Runs `seine <argv>` and resolves to the exit status. */
/** `-o -` (and `-o -:jsonl`) mean standard output, as in Scrapy; yargs would read a value starting with `-` as another option. */
function joinStdoutFeeds(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if ((arg === '-o' || arg === '-O') && next !== undefined && (next === '-' || next.startsWith('-:'))) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

export async function runCli(rawArgv: readonly string[], io: CliIo = {}): Promise<number> {
  const argv = joinStdoutFeeds(rawArgv);
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const logBus = io.logBus ?? defaultLogBus;
  const commands = io.commands ?? COMMANDS;
  const quick = quickAnswer(argv, io.cwd ?? process.cwd(), commands);
  if (quick !== undefined) {
    stdout.write(quick);
    return 0;
  }
  const name = findCommandName(argv);

  if (name === undefined) {
    try {
      parse(baseParser(), argv, undefined);
    } catch (error) {
      return reportError(error, stderr, undefined);
    }
    stdout.write(topLevelUsage(commands));
    return 0;
  }
  const found = commands.find((candidate) => candidate.name === name);
  if (found === undefined) {
    return reportError(
      new UsageError(`unknown command '${name}'`, { hint: "run 'seine --help' for the list" }),
      stderr,
      undefined,
    );
  }

  let settings: Settings | undefined;
  const cleanups: Array<() => void> = [];
  try {
    const command = 'load' in found ? await found.load() : found;
    const { args, help } = parse(commandParser(command), argv, command.name, command.positionals);
    if (help !== undefined || argv.some((arg) => HELP_FLAGS.has(arg))) {
      stdout.write(`${help ?? ''}\n`);
      return 0;
    }
    const project = command.name === 'startproject' ? null : await openProject(io.cwd ?? process.cwd());
    settings = buildSettings(command, args, project);
    // A worker of `--workers N` logs to the coordinator's --logfile too: after it, never over it.
    if (process.env[WORKER_ENV] !== undefined) settings.set('LOG_FILE_APPEND', true, 'cmdline', 'a worker of --workers');
    let sinkOptions = logSinkOptions(settings);
    let sink = attachLogSink(logBus.eventsAt(sinkOptions.level), sinkOptions, stderr);
    cleanups.push(() => sink.unsubscribe());
    // A spider's customSettings can change LOG_* once its class is loaded: the sink follows, as Scrapy
    // installs its log handler again with the crawler's settings.
    const reconfigureLog = (crawlSettings: Settings): void => {
      const next = logSinkOptions(crawlSettings);
      if (JSON.stringify(next) === JSON.stringify(sinkOptions)) return;
      const replacement = attachLogSink(logBus.eventsAt(next.level), next, stderr);
      sink.unsubscribe();
      sink = replacement;
      sinkOptions = next;
    };
    let commandStdout = stdout;
    if (settings.get('LOG_STDOUT')) {
      const stdoutLogger = logBus.getLogger('stdout');
      commandStdout = loggingWriter(stdoutLogger);
      if (stdout === process.stdout) cleanups.push(redirectProcessStdout(stdoutLogger));
    }
    // A worker of `--workers N` (src/workers/) is this command again: the coordinator has said it already.
    if (process.env[WORKER_ENV] === undefined) logStartupInfo(logBus.getLogger(STARTUP_LOGGER), settings);
    const context: CommandContext<unknown> = {
      args: args as CommandContext<unknown>['args'],
      settings,
      stdout: commandStdout,
      stderr,
      logBus,
      logger: logBus.getLogger(`seine.commands.${command.name}`),
      cwd: io.cwd ?? process.cwd(),
      env: io.env ?? process.env,
      project,
      reconfigureLog,
    };
    return await command.run(context);
  } catch (error) {
    return reportError(error, stderr, settings);
  } finally {
    for (const cleanup of cleanups.reverse()) cleanup();
  }
}
