/** The errors `seine serve` raises before it answers anything: a bad `[serve]` value, an unsafe bind. */
import { SeineError } from '../errors/seine-error.js';

/** `[serve]` in the service's seine.cfg (or an option) holds a value the service cannot use. */
export class ServeConfigError extends SeineError {
  static readonly code = 'SEINE_SERVE_CONFIG';
  constructor(message: string, options?: { cause?: unknown }) {
    super(ServeConfigError.code, message, options);
  }
}

/** `seine serve` was asked to bind a non-loopback address without `username` and `password`. */
export class ServeUnprotectedBindError extends SeineError {
  static readonly code = 'SEINE_SERVE_UNPROTECTED_BIND';
  constructor(message: string) {
    super(ServeUnprotectedBindError.code, message);
  }
}

/** Another `seine serve` that is still alive runs from the same folder: two would launch the same jobs. */
export class ServeFolderBusyError extends SeineError {
  static readonly code = 'SEINE_SERVE_FOLDER_BUSY';
  constructor(message: string) {
    super(ServeFolderBusyError.code, message);
  }
}
