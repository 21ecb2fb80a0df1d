/**
 * How to start a worker: the command line of the `seine crawl` (or
 * `runspider`) that the user ran, which the CLI records here before the
 * crawl. A worker runs the same command, so it loads the same project,
 * spider, arguments and settings; the environment variable WORKER_ENV
 * makes it a worker. Kept in this module because only the CLI knows its
 * own command line: a crawl started from code (`crawl()`) has none, and
 * WORKERS > 1 there is refused.
 */
export interface WorkerCommand {
  /** The script Node runs (bin/seine.js). */
  readonly module: string;
  readonly args: readonly string[];
  /** Node's own options (--import tsx, --max-old-space-size …). */
  readonly execArgv: readonly string[];
}

let command: WorkerCommand | null = null;

export function setWorkerCommand(value: WorkerCommand): void {
  command = value;
}

export function workerCommand(): WorkerCommand | null {
  return command;
}
