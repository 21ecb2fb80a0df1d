import { SeineError } from '../errors/seine-error.js';

/**
 * The command line itself is wrong: an unknown command or option, a missing
 * option value, an argument a command does not take. The CLI prints one line
 * (`seine: <message> — <hint>`) and exits with status 2, like Scrapy's
 * UsageError.
 */
export class UsageError extends SeineError {
  static readonly code = 'SEINE_USAGE';
  /** What to do, e.g. "run 'seine crawl --help' for usage". */
  readonly hint: string;

  constructor(message: string, options: { command?: string; hint?: string } = {}) {
    super(UsageError.code, message);
    const label = options.command === undefined ? 'seine' : `seine ${options.command}`;
    this.hint = options.hint ?? `run '${label} --help' for usage`;
  }
}
