import { SeineError } from '../errors/seine-error.js';

/** WARC_DIR cannot hold the archive (not a folder, not writable, disk full): the crawl does not start, or stops writing WARC. */
export class WarcDirError extends SeineError {
  static readonly code = 'SEINE_WARC_DIR';
  constructor(
    readonly dir: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(WarcDirError.code, `Cannot write WARC files in WARC_DIR '${dir}': ${reason} (set -s WARC_DIR=<a writable folder>)`, options);
  }
}
