/**
 * The shape every `seine` command has: one file per command under
 * commands/, registered in commands/index.ts. A command declares its options
 * with a yargs builder and does its work in `handler`; the CLI has already
 * parsed the options, built the settings (defaults < the command's
 * `defaultSettings` < `-s`, `--loglevel`, …) and started the log sink.
 */
import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { LogBus, Logger } from '../log/log-bus.js';
import type { TextWriter } from '../log/sink.js';
import type { Settings } from '../settings/settings.js';
import type { SettingsInput } from '../settings/schema.js';
import type { GlobalOptions } from './global-options.js';
import type { Project } from '../project/project.js';

export interface CommandContext<A> {
  /** The parsed options and positionals, camelCase keys included. */
  readonly args: ArgumentsCamelCase<A>;
  /** The effective settings; not frozen (a command may add its own at 'cmdline'). */
  readonly settings: Settings;
  readonly stdout: TextWriter;
  readonly stderr: TextWriter;
  /** The bus the CLI's log sink listens to; hand it to a crawl so its events are printed. */
  readonly logBus: LogBus;
  /** `seine.commands.<name>` on `logBus`. */
  readonly logger: Logger;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The project around `cwd` (nearest seine.cfg), opened once by the CLI; null outside one and for startproject. */
  readonly project: Project | null;
  /** Makes the log sink follow a crawl's settings (its spider's customSettings may set LOG_LEVEL, LOG_FILE…). */
  readonly reconfigureLog?: (settings: Settings) => void;
}

export interface CommandSpec<A> {
  /** What the user types: `seine <name>`. */
  readonly name: string;
  /** yargs positional syntax after the name, e.g. '<spider_name>' or '[target]'. */
  readonly positionals?: string;
  /** One line for `seine --help`, like Scrapy's short_desc(). */
  readonly description: string;
  /** Settings at priority 'command' (Scrapy's `default_settings` class attribute). */
  readonly defaultSettings?: SettingsInput;
  /** Adds the command's own options to a parser that already has the global ones. */
  builder(parser: Argv<GlobalOptions>): Argv<A>;
  /** Returns the exit status (0 when nothing is returned); throw a SeineError to fail with its message. */
  handler(context: CommandContext<A>): number | void | Promise<number | void>;
}

/**
 * A command as the registry lists it: what `seine --help` shows, and how to
 * load the rest. Each command's module (and what it imports: the crawler,
 * the shell, Redis) is loaded only when that command runs, so `seine
 * version` does not pay for `seine crawl`.
 */
export interface CommandEntry {
  readonly name: string;
  readonly description: string;
  load(): Promise<SeineCommand>;
}

/** A command with its argument types erased, as the registry holds it. */
export interface SeineCommand {
  readonly name: string;
  readonly positionals: string | undefined;
  readonly description: string;
  readonly defaultSettings: SettingsInput;
  builder(parser: Argv<GlobalOptions>): Argv<unknown>;
  run(context: CommandContext<unknown>): Promise<number>;
}

export function defineCommand<A>(spec: CommandSpec<A>): SeineCommand {
  return {
    name: spec.name,
    positionals: spec.positionals,
    description: spec.description,
    defaultSettings: spec.defaultSettings ?? {},
    builder: (parser) => spec.builder(parser),
    async run(context) {
      // The CLI parsed `context.args` with this command's own builder, so they have type A.
      const status = await spec.handler(context as CommandContext<A>);
      return status ?? 0;
    },
  };
}
