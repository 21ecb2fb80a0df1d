import { SeineError } from '../errors/seine-error.js';
import { maskUrlCredentials } from '../url-credentials.js';

// Feed URIs may hold passwords (ftp://user:pass@host/…): every message masks them.

/**
 * A feed that is configured wrongly (FEEDS, FEED_EXPORT_*, -o/-O): raised
 * before anything is crawled, naming the feed and the option.
 */
export class FeedConfigError extends SeineError {
  static readonly code = 'SEINE_FEED_CONFIG';
  constructor(message: string) {
    super(FeedConfigError.code, maskUrlCredentials(message));
  }
}

/**
 * A `-o`/`-O` value whose format cannot be told or has no exporter (built-in
 * or FEED_EXPORTERS). Checked when the crawl starts, with the crawl's
 * settings, so a project's own formats count; nothing is crawled.
 */
export class FeedOptionError extends SeineError {
  static readonly code = 'SEINE_FEED_OPTION';
  constructor(message: string) {
    super(FeedOptionError.code, maskUrlCredentials(message));
  }
}

/** A feed file that cannot be opened or written (a missing folder, no permission, a full disk). */
export class FeedError extends SeineError {
  static readonly code = 'SEINE_FEED';
  constructor(
    path: string,
    /** What went wrong, without the path and the advice: what a mid-crawl ERROR line quotes. */
    readonly reason: string,
    /** The system's code when a write failed (`ENOSPC`, `EPIPE`): EPIPE on standard output is its reader leaving, not a failure. */
    readonly systemCode?: string,
  ) {
    super(FeedError.code, maskUrlCredentials(`Cannot write the feed '${path}': ${reason} (check that the folder exists and is writable, or choose another -o/-O path)`));
  }
}
