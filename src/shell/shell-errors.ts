import { SeineError } from '../errors/seine-error.js';

/** The console's `fetch` could not get a response (network failure, robots.txt, a dropped request); the previous objects are kept. */
export class ShellFetchError extends SeineError {
  static readonly code = 'SEINE_SHELL_FETCH';
  constructor(message: string, options?: { cause?: unknown }) {
    super(ShellFetchError.code, message, options);
  }
}

/** `fetch` typed in a console that inspectResponse opened: the running crawl owns the engine. */
export class FetchInCrawlError extends SeineError {
  static readonly code = 'SEINE_SHELL_FETCH_IN_CRAWL';
  constructor() {
    super(
      FetchInCrawlError.code,
      'fetch() is not available inside a running crawl (inspectResponse): leave the console (Ctrl-D or quit()) to let the crawl go on, or use `seine shell <url>` to fetch pages',
    );
  }
}

/** SEINE_SHELL or `shell =` in seine.cfg names a console that does not exist, or none of the named consoles can start. */
export class ShellConsoleError extends SeineError {
  static readonly code = 'SEINE_SHELL_CONSOLE';
  constructor(message: string) {
    super(ShellConsoleError.code, message);
  }
}

/** inspectResponse was called with a spider that is not crawling (no crawler to pause). */
export class InspectResponseError extends SeineError {
  static readonly code = 'SEINE_INSPECT_RESPONSE';
  constructor(message: string) {
    super(InspectResponseError.code, message);
  }
}

/** A shell shortcut was called with something it cannot use (`fetch(42)`, `view()` before any fetch). */
export class ShellUsageError extends SeineError {
  static readonly code = 'SEINE_SHELL_USAGE';
  constructor(message: string) {
    super(ShellUsageError.code, message);
  }
}
