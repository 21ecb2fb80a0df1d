/**
 * `--workers N` of `seine crawl` and `seine runspider`: WORKERS at the
 * command line's priority (checked when the crawl starts, as `-s WORKERS=N`
 * is: one line, status 1). The command line is recorded so that the
 * coordinator can start its workers with it (src/workers/worker-launch.ts).
 */
import type { Argv } from 'yargs';
import type { Settings } from '../settings/settings.js';
import { setWorkerCommand } from '../workers/worker-launch.js';

export interface WorkersOptionArgs {
  workers?: string;
}

export function withWorkersOption<T>(parser: Argv<T>): Argv<T> {
  return parser.option('workers', {
    type: 'string',
    requiresArg: true,
    describe: 'crawl with N worker processes over one queue kept by this one (default 1; docs/workers.md)',
  }) as unknown as Argv<T>;
}

export function applyWorkersOption(args: WorkersOptionArgs, settings: Settings): void {
  if (args.workers !== undefined) settings.set('WORKERS', args.workers.trim(), 'cmdline', `--workers ${args.workers}`);
  setWorkerCommand({ module: process.argv[1] ?? '', args: process.argv.slice(2), execArgv: process.execArgv });
}
