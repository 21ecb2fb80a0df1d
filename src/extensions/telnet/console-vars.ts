/**
 * The helpers every telnet console holds besides the crawl's objects:
 * Scrapy's `est()`, `p()`, `prefs()` and `help`, plus a `console` that
 * writes to the client rather than to the crawl's stdout.
 */
import { Console } from 'node:console';
import { inspect } from 'node:util';
import { formatEngineStatus, formatLiveRefs, type EngineStatusRow, type LiveRefCount } from './engine-status.js';
import type { ConsoleOutput } from './session.js';

export const CONSOLE_HELP =
  "This is seine's telnet console, a JavaScript REPL inside the running crawl. " +
  'Objects: crawler, engine, spider, settings, stats. est() prints the engine status, ' +
  'p(value) pretty-prints a value, prefs() prints the live references; .exit leaves.';

export const CONSOLE_BANNER = 'seine telnet console: type help for the objects, est() for the engine status, .exit to leave\n';

export interface HelperSources {
  readonly engineStatus: () => readonly EngineStatusRow[];
  readonly liveRefs?: () => readonly LiveRefCount[];
}

export function consoleHelpers(output: ConsoleOutput, sources: HelperSources): Record<string, unknown> {
  // Each returns undefined, so the REPL prints the report and nothing after it.
  return {
    est: (): void => {
      output.print(formatEngineStatus(sources.engineStatus));
    },
    p: (value: unknown): void => {
      output.print(inspect(value, { colors: false, depth: 4 }));
    },
    prefs: (): void => {
      output.print(formatLiveRefs(sources.liveRefs?.()));
    },
    help: CONSOLE_HELP,
    console: new Console({ stdout: output.stream, stderr: output.stream, colorMode: false }),
  };
}
