/**
 * The options every command takes (Scrapy's "Global Options"), and how they
 * become settings at priority 'cmdline', in Scrapy's order: `-s` first, then
 * `--logfile` and `--loglevel` (which also turn logging on), then `--nolog`.
 */
import type { Argv } from 'yargs';
import { LOG_LEVEL_NAMES, parseLogLevel } from '../settings/log-levels.js';
import { applySetOptions } from '../settings/set-option.js';
import type { Settings } from '../settings/settings.js';
import { UsageError } from './usage-error.js';

export interface GlobalOptions {
  set: string[] | undefined;
  loglevel: string | undefined;
  logfile: string | undefined;
  nolog: boolean | undefined;
}

export const GLOBAL_GROUP = 'Global Options:';

/** Options that take a value in the next argument: needed to find the command name in argv. */
export const GLOBAL_OPTIONS_WITH_VALUE: ReadonlySet<string> = new Set(['-s', '--set', '-L', '--loglevel', '--logfile']);

export function addGlobalOptions(parser: Argv): Argv<GlobalOptions> {
  return parser
    .option('loglevel', {
      alias: 'L',
      type: 'string',
      requiresArg: true,
      describe: 'log level (default: DEBUG)',
      group: GLOBAL_GROUP,
    })
    .option('logfile', {
      type: 'string',
      requiresArg: true,
      describe: 'log file; if omitted, stderr is used',
      group: GLOBAL_GROUP,
    })
    .option('nolog', { type: 'boolean', describe: 'disable logging completely', group: GLOBAL_GROUP })
    .option('set', {
      alias: 's',
      type: 'string',
      array: true,
      nargs: 1,
      requiresArg: true,
      describe: 'set/override setting NAME=VALUE (may be repeated)',
      group: GLOBAL_GROUP,
    });
}

export function applyGlobalOptions(settings: Settings, options: GlobalOptions, command: string): void {
  applySetOptions(settings, options.set ?? []);
  if (options.logfile !== undefined) {
    const source = `--logfile ${options.logfile}`;
    settings.set('LOG_ENABLED', true, 'cmdline', source);
    settings.set('LOG_FILE', options.logfile, 'cmdline', source);
  }
  if (options.loglevel !== undefined) {
    const level = parseLogLevel(options.loglevel);
    if (level === undefined) {
      throw new UsageError(`invalid --loglevel '${options.loglevel}': use one of ${LOG_LEVEL_NAMES.join(', ')}`, {
        command,
      });
    }
    const source = `--loglevel ${options.loglevel}`;
    settings.set('LOG_ENABLED', true, 'cmdline', source);
    settings.set('LOG_LEVEL', level, 'cmdline', source);
  }
  if (options.nolog === true) settings.set('LOG_ENABLED', false, 'cmdline', '--nolog');
}
