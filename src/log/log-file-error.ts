import { SeineError } from '../errors/seine-error.js';

/** LOG_FILE (or `--logfile`) names a file that cannot be opened for writing. */
export class LogFileError extends SeineError {
  static readonly code = 'SEINE_LOG_FILE';

  constructor(message: string, options?: { cause?: unknown }) {
    super(LogFileError.code, message, options);
  }
}
