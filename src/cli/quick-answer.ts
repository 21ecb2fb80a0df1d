/**
 * The commands whose output cannot depend on options, settings or a
 * project, answered before the option parser and the settings machinery
 * are loaded: `seine`, `seine --help` / `-h` (the command list) and
 * `seine version` outside a project. bin/seine.js asks here first, so these
 * start in about the time Node itself takes (docs/performance.md,
 * "Start-up"); runCli asks too, so both paths print the same thing.
 *
 * Inside a project `version` takes the full path: the project's settings.ts
 * can turn logging on (LOG_ENABLED at 'project' priority overrides the
 * command's default), and then the start-up lines belong in the output.
 */
import { findProjectConfigFile } from '../project/find-project.js';
import { SEINE_VERSION } from '../version.js';
import type { CommandEntry, SeineCommand } from './command.js';
import { COMMANDS } from './commands/index.js';
import { topLevelUsage } from './usage.js';

const TOP_LEVEL_HELP: ReadonlyArray<readonly string[]> = [[], ['--help'], ['-h']];

function sameArgs(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((arg, i) => arg === b[i]);
}

/** What `seine <argv>` prints on stdout when it needs nothing else, or undefined. */
export function quickAnswer(
  argv: readonly string[],
  cwd: string,
  commands: ReadonlyArray<SeineCommand | CommandEntry> = COMMANDS,
): string | undefined {
  if (TOP_LEVEL_HELP.some((form) => sameArgs(argv, form))) return topLevelUsage(commands);
  // Only seine's own `version`: a caller's command list (tests) may define another.
  if (commands === COMMANDS && sameArgs(argv, ['version']) && findProjectConfigFile(cwd) === null) {
    return `seine ${SEINE_VERSION}\n`;
  }
  return undefined;
}
