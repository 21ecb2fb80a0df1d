import { SeineError } from '../errors/seine-error.js';

/**
 * A store could not take or give an object. The message names the store by
 * its masked URI and the key, so it can be logged as it is.
 */
export class StoreError extends SeineError {
  static readonly code = 'SEINE_STORE';
  constructor(
    /** Where: the store's URI with its password masked, and the key. */
    readonly target: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(StoreError.code, `Could not store ${target}: ${reason}`, options);
  }
}
