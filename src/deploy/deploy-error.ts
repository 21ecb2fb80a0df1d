import { SeineError } from '../errors/seine-error.js';

/**
 * `seine deploy` could not pack or upload the project: no url configured, no
 * lockfile, the service unreachable, refused (401) or answering an error. The
 * message is one line saying what to do.
 */
export class DeployError extends SeineError {
  static readonly code = 'SEINE_DEPLOY';
  constructor(message: string, options?: { cause?: unknown }) {
    super(DeployError.code, message, options);
  }
}
