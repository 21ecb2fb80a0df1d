import { SEINE_VERSION } from '../version.js';
import type { CommandEntry, SeineCommand } from './command.js';

/** What `seine` and `seine --help` print: Scrapy's command list, plus the global options. */
export function topLevelUsage(commands: ReadonlyArray<SeineCommand | CommandEntry>): string {
  const sorted = [...commands].sort((a, b) => a.name.localeCompare(b.name));
  const width = Math.max(13, ...sorted.map((command) => command.name.length));
  return [
    `seine ${SEINE_VERSION}`,
    '',
    'Usage:',
    '  seine <command> [options] [args]',
    '',
    'Available commands:',
    ...sorted.map((command) => `  ${command.name.padEnd(width)} ${command.description}`),
    '',
    'Global options:',
    '  -L, --loglevel LEVEL  log level: DEBUG, INFO, WARNING, ERROR or CRITICAL (default: DEBUG)',
    '      --logfile FILE    write the log to FILE instead of stderr',
    '      --nolog           disable logging completely',
    '  -s, --set NAME=VALUE  set/override a setting (may be repeated)',
    '  -h, --help            show help',
    '',
    'Use "seine <command> -h" to see more info about a command',
    '',
  ].join('\n');
}
